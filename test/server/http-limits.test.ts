import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { CLI_ARGS } from '../helpers/cli.ts';
import { createTestDatabase } from '../helpers/database.ts';
import { spawnServe } from '../helpers/serve-child.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

/**
 * Requests Node's HTTP parser refuses before any of our code runs (a request line and headers over 16 KiB, a
 * request line it cannot read) get Node's status on every supported Node, and the client reads it: a client still
 * sending the rest of its request is not answered with a reset (what Node 24's own handling did).
 */
interface Answer {
  status: number;
  connection: string | undefined;
}

/**
 * One request written raw on a connection of its own (so a request line no HTTP client would send can be
 * sent too), all of it, as a client that has not read the answer yet does; the answer is read to the end.
 */
function send(url: string, options: { method?: string; path: string; headers?: Record<string, string>; body?: string }): Promise<Answer> {
  const { hostname, port } = new URL(url);
  const headers: Record<string, string> = { host: `${hostname}:${port}`, connection: 'close', ...options.headers };
  if (options.body !== undefined) headers['content-length'] = String(Buffer.byteLength(options.body));
  const head = `${options.method ?? 'GET'} ${options.path} HTTP/1.1\r\n${Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('')}\r\n`;
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('end', () => {
      const text = Buffer.concat(chunks).toString('latin1');
      const [statusLine = '', ...headerLines] = text.slice(0, text.indexOf('\r\n\r\n')).split('\r\n');
      const connection = headerLines.find((line) => /^connection:/i.test(line))?.replace(/^connection:\s*/i, '');
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3}) /.exec(statusLine)?.[1] ?? 0), connection });
    });
    socket.write(head + (options.body ?? ''));
  });
}

const HEADERS_OVER_LIMIT = { 'x-padding': 'p'.repeat(20_000) };
const LARGE_BODY = JSON.stringify({ query: `{ me { id } }${' '.repeat(1_000_000)}` });

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

describe('a request the HTTP parser refuses is answered, not reset', () => {
  it.each([
    [
      'headers over 16 KiB, with a body of 1 MB behind them',
      { method: 'POST', path: '/graphql', headers: { ...HEADERS_OVER_LIMIT, 'content-type': 'application/json' }, body: LARGE_BODY },
      431,
    ],
    ['a query string of 100 KB (GraphQL over GET)', { path: `/graphql?query=${encodeURIComponent(`{ me { id ${'id '.repeat(33_000)}} }`)}` }, 431],
    [
      'a batch of 100 KB in the query string (/v24.0)',
      { path: `/v24.0/?batch=${encodeURIComponent(JSON.stringify(Array.from({ length: 2_000 }, () => ({ method: 'GET', relative_url: 'me' }))))}` },
      431,
    ],
    ['a request line that is not HTTP, with 1 MB after it', { method: 'POST', path: '/graphql not-http', body: LARGE_BODY }, 400],
  ])('%s', async (_name, options, status) => {
    expect(await send(server.url, options)).toEqual({ status, connection: 'close' });
    expect((await send(server.url, { path: '/healthz' })).status).toBe(200);
  });
});

describe('the limit is the server’s own', () => {
  it('--max-http-header-size on the command line does not raise it (nor is it lower than 16 KiB)', { timeout: 90_000 }, async () => {
    const database = await createTestDatabase({ migrate: false });
    onTestFinished(() => database.dispose());
    const child = spawnServe(database, { SEED_DEMO: 'false' }, [], ['--max-http-header-size=65536', ...CLI_ARGS]);
    onTestFinished(() => child.dispose());
    const url = await child.url();
    expect(await send(url, { path: '/healthz', headers: HEADERS_OVER_LIMIT })).toEqual({ status: 431, connection: 'close' });
    expect((await send(url, { path: '/healthz', headers: { 'x-padding': 'p'.repeat(15_000) } })).status).toBe(200);
    child.signal('SIGTERM');
    expect((await child.exited).code).toBe(0);
  });
});
