import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config/index.ts';
import { createAppDeps, type AppDeps } from '../src/context/index.ts';
import { createDatabase } from '../src/db/index.ts';
import { createLogger } from '../src/logging/index.ts';
import { startServer, type RunningServer } from '../src/server/index.ts';
import { createOrganization, createUser } from '../src/identity/service.ts';
import { startTestServer, type TestServer } from './helpers/server.ts';

const PASSWORD = 'Correct-Horse-9-Battery';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls until `check` holds or the deadline passes; returns whether it held (the caller asserts). */
async function eventually(check: () => boolean | Promise<boolean>, deadlineMs = 5_000): Promise<boolean> {
  const until = Date.now() + deadlineMs;
  while (Date.now() < until) {
    if (await check()) return true;
    await sleep(20);
  }
  return check();
}

function hostAndPort(url: string): { host: string; port: number } {
  const parsed = new URL(url);
  return { host: parsed.hostname, port: Number(parsed.port) };
}

/** Resolves true when a TCP connection to the server is refused or fails, false when it is accepted. */
function connectionFails(url: string): Promise<boolean> {
  const { host, port } = hostAndPort(url);
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(true));
  });
}

interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Reads one HTTP/1.1 response from a raw socket (Content-Length or chunked). */
function readResponse(socket: Socket): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    let buffer = Buffer.alloc(0);
    const tryParse = () => {
      const headerEnd = buffer.indexOf('\r\n\r\n');
      if (headerEnd < 0) return;
      const [statusLine, ...headerLines] = buffer.subarray(0, headerEnd).toString('latin1').split('\r\n');
      const headers = Object.fromEntries(headerLines.map((line) => {
        const colon = line.indexOf(':');
        return [line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim()];
      }));
      const status = Number(statusLine!.split(' ')[1]);
      const rest = buffer.subarray(headerEnd + 4);
      if (headers['content-length'] !== undefined) {
        const length = Number(headers['content-length']);
        if (rest.length < length) return;
        finish({ status, headers, body: rest.subarray(0, length).toString('utf8') });
      } else if (/chunked/i.test(headers['transfer-encoding'] ?? '')) {
        const chunks: Buffer[] = [];
        let at = 0;
        for (;;) {
          const lineEnd = rest.indexOf('\r\n', at);
          if (lineEnd < 0) return;
          const size = parseInt(rest.subarray(at, lineEnd).toString('latin1'), 16);
          if (rest.length < lineEnd + 2 + size + 2) return;
          if (size === 0) break;
          chunks.push(rest.subarray(lineEnd + 2, lineEnd + 2 + size));
          at = lineEnd + 2 + size + 2;
        }
        finish({ status, headers, body: Buffer.concat(chunks).toString('utf8') });
      }
    };
    const onData = (data: Buffer) => {
      buffer = Buffer.concat([buffer, data]);
      tryParse();
    };
    const onEnd = () => reject(new Error(`connection closed before a whole response arrived: ${buffer.toString('utf8')}`));
    const finish = (response: RawResponse) => {
      socket.off('data', onData);
      socket.off('end', onEnd);
      resolve(response);
    };
    socket.on('data', onData);
    socket.once('end', onEnd);
    socket.once('error', reject);
  });
}

describe('health and metrics', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ LOG_LEVEL: 'warn' });
  });
  afterAll(() => server?.close());

  it('answers /healthz, /readyz and /metrics', async () => {
    const health = await fetch(`${server.url}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok' });

    const ready = await fetch(`${server.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ready' });

    // One GraphQL request first, so the histogram has a GraphQL sample.
    expect((await server.graphql('{ __typename }')).status).toBe(200);
    const metrics = await fetch(`${server.url}/metrics`);
    expect(metrics.status).toBe(200);
    const text = await metrics.text();
    expect(text).toContain('# TYPE adgraph_http_request_duration_seconds histogram');
    expect(text).toMatch(/adgraph_http_request_duration_seconds_count\{[^}]*surface="graphql"[^}]*\} [1-9]/);
  });
});

describe('graceful shutdown', () => {
  it('refuses new connections but finishes a request that is in flight', async () => {
    const server = await startTestServer({ LOG_LEVEL: 'warn' });
    let closing: Promise<void> | undefined;
    const socket = connect(hostAndPort(server.url));
    try {
      await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
      const body = Buffer.from(JSON.stringify({ query: '{ __typename }' }));
      const half = Math.floor(body.length / 2);
      const response = readResponse(socket);
      response.catch(() => undefined); // awaited below; this only keeps an early failure from being unhandled
      socket.write(
        `POST /graphql HTTP/1.1\r\nHost: ${hostAndPort(server.url).host}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`,
      );
      socket.write(body.subarray(0, half));
      // Let the server read the headers, so the request is in flight rather than an idle connection.
      await sleep(100);

      closing = server.close();
      expect(await eventually(() => connectionFails(server.url))).toBe(true);
      expect(socket.destroyed).toBe(false);

      socket.write(body.subarray(half));
      const answer = await response;
      expect(answer.status).toBe(200);
      expect(JSON.parse(answer.body)).toEqual({ data: { __typename: 'Query' } });

      await closing;
    } finally {
      socket.destroy();
      await (closing ?? server.close());
    }
  });
});

describe('an unreachable database', () => {
  let running: RunningServer;
  let url: string;
  beforeAll(async () => {
    const config = loadConfig({ DATABASE_URL: 'postgres://postgres@127.0.0.1:1/test', PORT: '0', LOG_LEVEL: 'silent', BCRYPT_COST: '4', SHUTDOWN_TIMEOUT_MS: '1000' });
    const deps: AppDeps = createAppDeps(config, { log: createLogger('silent') });
    running = await startServer(deps, { port: 0, host: '127.0.0.1' });
    url = running.url;
  });
  afterAll(async () => {
    // The database never answered: do not let its pool hold the suite up.
    await Promise.race([running?.close(), sleep(10_000)]);
  });

  const expectNoStack = (text: string) => {
    expect(text).not.toMatch(/^\s*at /m);
    expect(text).not.toMatch(/\bstack\b|stacktrace/i);
    expect(text).not.toContain('node_modules');
  };

  it('stays live but not ready', async () => {
    const health = await fetch(`${url}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok' });

    const ready = await fetch(`${url}/readyz`);
    expect(ready.status).toBe(503);
    const text = await ready.text();
    expectNoStack(text);
    const body = JSON.parse(text);
    expect(body.status).not.toBe('ready');
    expect(body.reason).toEqual(expect.stringMatching(/database/i));
  });

  it('answers GraphQL with SERVICE_UNAVAILABLE and no internals', async () => {
    const response = await fetch(`${url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'service-session-token': 'some-session-token' },
      body: JSON.stringify({ query: '{ me { id } }' }),
    });
    expect(response.status).toBe(503);
    expect(response.headers.get('content-type')).toMatch(/application\/json/);
    const text = await response.text();
    expectNoStack(text);
    expect(text).not.toContain('ECONNREFUSED');
    const body = JSON.parse(text);
    expect(body.errors[0].extensions.code).toBe('SERVICE_UNAVAILABLE');
    expect(body.errors[0].message).toEqual(expect.any(String));
  });

  it('answers a login with 503 {message}', async () => {
    const response = await fetch(`${url}/api/v2/users/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'someone@example.com', password: PASSWORD }),
    });
    expect(response.status).toBe(503);
    const text = await response.text();
    expectNoStack(text);
    expect(text).not.toContain('ECONNREFUSED');
    expect(JSON.parse(text)).toEqual({ message: expect.any(String) });
  });

  it('keeps serving afterwards', async () => {
    const health = await fetch(`${url}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok' });
  });
});

describe('logs', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ LOG_LEVEL: 'info' });
    await createOrganization(server.deps, 'Acme');
    await createUser(server.deps, { email: 'logs@example.com', password: PASSWORD, organization: 'Acme', role: 'admin' });
  });
  afterAll(() => server?.close());

  it('never carry the password or the session token, and carry the request id', async () => {
    const login = await server.login('logs@example.com', PASSWORD);
    expect(login.status).toBe(201);
    const loginId = login.headers.get('x-request-id');
    const { session_token: token } = (await login.json()) as { session_token: string };

    const query = await fetch(`${server.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'service-session-token': token },
      body: JSON.stringify({ query: '{ me { email } }' }),
    });
    expect(query.status).toBe(200);
    expect(((await query.json()) as { data: unknown }).data).toEqual({ me: { email: 'logs@example.com' } });
    const queryId = query.headers.get('x-request-id');
    expect(loginId).toEqual(expect.stringMatching(/\S/));
    expect(queryId).toEqual(expect.stringMatching(/\S/));
    expect(queryId).not.toBe(loginId);

    // Request lines are written when the response finishes, which may be just after the client has it.
    const requestLine = (id: string | null) => server.logs.find((line) => (line.req as { id?: string } | undefined)?.id === id);
    expect(await eventually(() => requestLine(loginId) !== undefined && requestLine(queryId) !== undefined)).toBe(true);
    expect(requestLine(loginId)).toMatchObject({ req: { id: loginId, method: 'POST', url: '/api/v2/users/login' }, res: { statusCode: 201 } });
    expect(requestLine(queryId)).toMatchObject({ req: { id: queryId, method: 'POST' }, res: { statusCode: 200 } });
    for (const line of server.logs.filter((l) => l.req !== undefined)) {
      expect((line.req as { id?: unknown }).id, JSON.stringify(line)).toEqual(expect.stringMatching(/\S/));
    }

    const everything = server.logs.map((line) => JSON.stringify(line)).join('\n');
    expect(server.logs.length).toBeGreaterThan(0);
    expect(everything).not.toContain(PASSWORD);
    expect(everything).not.toContain(token);
  });
});
