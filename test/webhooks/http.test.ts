import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { describe, expect, it, onTestFinished } from 'vitest';
import { callCallback, CallbackRefused, checkCallbackUrl, isForbiddenAddress, type CallbackPolicy } from '../../src/webhooks/http.ts';

/**
 * The webhook client against real loopback receivers (node:http on port 0): what it refuses before any network,
 * what its connect-time lookup refuses, and how it bounds a receiver that redirects, stalls or sends too much.
 */

interface ReceivedRequest {
  method: string | undefined;
  url: string | undefined;
  headers: IncomingHttpHeaders;
  body: string;
}

interface Receiver {
  port: number;
  url: string;
  received: ReceivedRequest[];
  /** TCP connections accepted, requests or not: a refused call must not even connect. */
  connections: () => number;
}

/** A receiver on 127.0.0.1 that records each request (read to the end) and lets `answer` reply, or not. */
async function startReceiver(answer: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => res.end('ok')): Promise<Receiver> {
  const received: ReceivedRequest[] = [];
  let connections = 0;
  const server = createServer((req, res) => {
    // A client that hangs up mid-answer (the body cap) is expected here, not a failure of the test.
    res.on('error', () => {});
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({ method: req.method, url: req.url, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      answer(req, res);
    });
  });
  server.on('connection', () => connections++);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  onTestFinished(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  const { port } = server.address() as AddressInfo;
  return { port, url: `http://127.0.0.1:${port}/`, received, connections: () => connections };
}

/** Settles when the socket closes, by an end or by a reset (once() would reject on the reset's error). */
function closeOf(socket: Socket): Promise<boolean> {
  return new Promise((resolve) => socket.once('close', () => resolve(true)));
}

const LOOPBACK_ALLOWED: CallbackPolicy = { allowPrivate: true, timeoutMs: 5_000, maxResponseBytes: 64 * 1024 };
const PUBLIC_ONLY: CallbackPolicy = { ...LOOPBACK_ALLOWED, allowPrivate: false };

describe('checkCallbackUrl', () => {
  it.each([
    ['another scheme', 'ftp://x'],
    ['userinfo', 'http://user:pw@example.com/'],
    ['IPv4 loopback', 'http://127.0.0.1/'],
    ['IPv6 loopback', 'http://[::1]/'],
    ['the cloud metadata address', 'http://169.254.169.254/latest/meta-data'],
    ['10/8', 'http://10.0.0.1/'],
    ['192.168/16', 'http://192.168.1.1/'],
    ['172.16/12', 'http://172.16.0.1/'],
    ['carrier-grade NAT', 'http://100.64.0.1/'],
    ['IPv6 unique local', 'http://[fd00::1]/'],
    ['IPv4-mapped loopback', 'http://[::ffff:127.0.0.1]/'],
    ['IPv4-compatible loopback (the URL parser writes it [::7f00:1])', 'http://[::127.0.0.1]/'],
    ['unspecified', 'http://0.0.0.0/'],
    ['loopback written in hex (the URL parser makes it 127.0.0.1)', 'http://0x7f.1/'],
    ['localhost', 'http://localhost/'],
    ['localhost, fully qualified', 'http://localhost./'],
    ['a .localhost name', 'http://app.localhost/'],
    ['the metadata host name', 'http://metadata.google.internal/'],
    ['a URL over 2048 characters', `https://hooks.example.com/${'a'.repeat(3000)}`],
    ['not a URL', 'not a url'],
  ])('refuses %s: %s', (_label, raw) => {
    expect(() => checkCallbackUrl(raw, { allowPrivate: false })).toThrow(CallbackRefused);
  });

  it('says what is wrong, for the API caller', () => {
    expect(() => checkCallbackUrl('ftp://x', { allowPrivate: false })).toThrow('The callback URL must use http or https.');
    expect(() => checkCallbackUrl('http://user:pw@example.com/', { allowPrivate: false })).toThrow(/user name or password/);
    expect(() => checkCallbackUrl('http://169.254.169.254/', { allowPrivate: false })).toThrow(/private, loopback, link-local or reserved/);
    expect(() => checkCallbackUrl('http://metadata.google.internal/', { allowPrivate: false })).toThrow(/local or internal name/);
  });

  it('accepts a public https URL, and any port', () => {
    expect(checkCallbackUrl('https://hooks.example.com/adgraph', { allowPrivate: false }).href).toBe('https://hooks.example.com/adgraph');
    expect(checkCallbackUrl('http://hooks.example.com:8443/x', { allowPrivate: false }).port).toBe('8443');
  });

  it('accepts loopback and local names with allowPrivate, but still not another scheme or userinfo', () => {
    expect(checkCallbackUrl('http://127.0.0.1:8080/x', { allowPrivate: true }).href).toBe('http://127.0.0.1:8080/x');
    expect(checkCallbackUrl('http://localhost:8080/x', { allowPrivate: true }).hostname).toBe('localhost');
    expect(() => checkCallbackUrl('ftp://127.0.0.1/', { allowPrivate: true })).toThrow(CallbackRefused);
    expect(() => checkCallbackUrl('http://u:p@127.0.0.1/', { allowPrivate: true })).toThrow(CallbackRefused);
  });
});

describe('isForbiddenAddress', () => {
  it.each([
    '127.0.0.1',
    '::1',
    '169.254.169.254',
    '10.0.0.1',
    '192.168.1.1',
    '172.16.0.1',
    '100.64.0.1',
    'fd00::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::7f00:1',
    '0.0.0.0',
    '::',
    '255.255.255.255',
    '224.0.0.1',
    'fe80::1',
    'ff02::1',
    '2002:7f00:1::1',
    '2001:0:4136:e378::1',
    '64:ff9b::7f00:1',
    '192.0.2.1',
    'not an address',
  ])('%s is forbidden', (address) => {
    expect(isForbiddenAddress(address)).toBe(true);
  });

  it.each(['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946', '::ffff:93.184.216.34'])('%s is allowed', (address) => {
    expect(isForbiddenAddress(address)).toBe(false);
  });
});

describe('callCallback without allowPrivate', () => {
  it('refuses a host name that resolves to loopback at connect time: the receiver sees no connection', async () => {
    const receiver = await startReceiver();
    // Built directly, past checkCallbackUrl's name rule: the DNS answer (127.0.0.1) is what refuses it.
    const url = new URL(`http://localhost:${receiver.port}/hook`);
    const call = callCallback(url, { method: 'POST', body: '{}' }, PUBLIC_ONLY);
    await expect(call).rejects.toBeInstanceOf(CallbackRefused);
    await expect(call).rejects.toThrow('The callback host "localhost" resolves to a private, loopback, link-local or reserved address.');
    expect(receiver.received).toEqual([]);
    expect(receiver.connections()).toBe(0);
  });

  it('refuses an IP-literal loopback host (which Node connects to without a lookup)', async () => {
    const receiver = await startReceiver();
    await expect(callCallback(new URL(receiver.url), { method: 'GET' }, PUBLIC_ONLY)).rejects.toBeInstanceOf(CallbackRefused);
    expect(receiver.connections()).toBe(0);
  });

  it('refuses another scheme and userinfo on a URL that skipped checkCallbackUrl', async () => {
    await expect(callCallback(new URL('ftp://example.com/'), { method: 'GET' }, PUBLIC_ONLY)).rejects.toThrow('The callback URL must use http or https.');
    await expect(callCallback(new URL('http://u:p@example.com/'), { method: 'GET' }, PUBLIC_ONLY)).rejects.toBeInstanceOf(CallbackRefused);
  });
});

describe('callCallback with allowPrivate', () => {
  it('delivers a POST body and its headers, with our user-agent and the content-length', async () => {
    const receiver = await startReceiver((_req, res) => res.writeHead(202, { 'x-receipt': 'r1' }).end('accepted'));
    const body = JSON.stringify({ event: 'ad.updated', note: 'héllo' });
    const answer = await callCallback(
      new URL(`${receiver.url}hooks?x=1`),
      { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-Adgraph-Signature': 'sha256=abc' }, body },
      LOOPBACK_ALLOWED,
    );
    expect(answer).toEqual({ status: 202, headers: expect.objectContaining({ 'x-receipt': 'r1' }), body: 'accepted', truncated: false });
    expect(receiver.received).toHaveLength(1);
    const [request] = receiver.received;
    expect(request).toMatchObject({ method: 'POST', url: '/hooks?x=1', body });
    expect(request?.headers).toMatchObject({
      'content-type': 'application/json',
      'x-adgraph-signature': 'sha256=abc',
      'user-agent': 'adgraph-webhooks/1.0',
      'content-length': String(Buffer.byteLength(body)),
      connection: 'close',
    });
  });

  it("keeps a caller's own user-agent", async () => {
    const receiver = await startReceiver();
    await callCallback(new URL(receiver.url), { method: 'GET', headers: { 'User-Agent': 'custom/2' } }, LOOPBACK_ALLOWED);
    expect(receiver.received[0]?.headers['user-agent']).toBe('custom/2');
  });

  it('returns a 500 as an answer', async () => {
    const receiver = await startReceiver((_req, res) => res.writeHead(500).end('broken'));
    await expect(callCallback(new URL(receiver.url), { method: 'GET' }, LOOPBACK_ALLOWED)).resolves.toMatchObject({ status: 500, body: 'broken' });
  });

  it('returns a 302 as is and does not follow its Location', async () => {
    const target = await startReceiver();
    const redirecting = await startReceiver((_req, res) => res.writeHead(302, { location: target.url }).end());
    const answer = await callCallback(new URL(redirecting.url), { method: 'GET' }, LOOPBACK_ALLOWED);
    expect(answer.status).toBe(302);
    expect(answer.headers.location).toBe(target.url);
    expect(target.received).toEqual([]);
    expect(target.connections()).toBe(0);
  });

  it('cuts a receiver that never answers at timeoutMs and closes the socket', async () => {
    let socketClosed: Promise<boolean> | undefined;
    const receiver = await startReceiver((req) => {
      socketClosed = closeOf(req.socket);
    });
    const started = performance.now();
    await expect(callCallback(new URL(receiver.url), { method: 'GET' }, { ...LOOPBACK_ALLOWED, timeoutMs: 300 })).rejects.toThrow(
      'The callback timed out after 300 ms.',
    );
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(receiver.received).toHaveLength(1);
    await expect(socketClosed).resolves.toBe(true);
  });

  it('reads at most maxResponseBytes of a 5 MB answer and says it was truncated', async () => {
    let socketClosed: Promise<boolean> | undefined;
    const receiver = await startReceiver((req, res) => {
      socketClosed = closeOf(req.socket);
      res.writeHead(200, { 'content-type': 'text/plain' }).end(Buffer.alloc(5 * 1024 * 1024, 'a'));
    });
    const answer = await callCallback(new URL(receiver.url), { method: 'GET' }, { ...LOOPBACK_ALLOWED, maxResponseBytes: 1024 });
    expect(answer).toMatchObject({ status: 200, truncated: true });
    expect(answer.body).toBe('a'.repeat(1024));
    await expect(socketClosed).resolves.toBe(true);
  });

  it('reads a body of exactly maxResponseBytes whole', async () => {
    const receiver = await startReceiver((_req, res) => res.end('b'.repeat(1024)));
    const answer = await callCallback(new URL(receiver.url), { method: 'GET' }, { ...LOOPBACK_ALLOWED, maxResponseBytes: 1024 });
    expect(answer).toMatchObject({ body: 'b'.repeat(1024), truncated: false });
  });

  it('names ECONNREFUSED for a closed port', async () => {
    // A port just listened on and closed again: nothing listens there.
    const server = createServer().listen(0, '127.0.0.1');
    await once(server, 'listening');
    const { port } = server.address() as AddressInfo;
    await new Promise((resolve) => server.close(resolve));
    const call = callCallback(new URL(`http://127.0.0.1:${port}/`), { method: 'GET' }, LOOPBACK_ALLOWED);
    await expect(call).rejects.toThrow(/ECONNREFUSED/);
    await expect(call).rejects.not.toBeInstanceOf(CallbackRefused);
  });

  it('names the TLS error when an https URL reaches a plain HTTP server', async () => {
    const receiver = await startReceiver();
    const call = callCallback(new URL(`https://127.0.0.1:${receiver.port}/`), { method: 'GET' }, LOOPBACK_ALLOWED);
    await expect(call).rejects.toThrow(/^The callback request failed: .*(SSL|TLS)/i);
    expect(receiver.received).toEqual([]);
  });
});
