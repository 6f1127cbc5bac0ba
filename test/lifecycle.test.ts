import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config/index.ts';
import { createAppDeps, type AppDeps } from '../src/context/index.ts';
import { migrateToLatest, pendingMigrations } from '../src/db/migrate.ts';
import { migrationSource } from '../db/migrations/index.ts';
import { createTestDatabase, type TestDatabase } from './helpers/database.ts';
import { createLogger } from '../src/logging/index.ts';
import { startServer, type RunningServer } from '../src/server/index.ts';
import { createOrganization, createUser } from '../src/identity/service.ts';
import { startTestServer, type TestServer } from './helpers/server.ts';
import { connectionRefused, holdRequest } from './helpers/serve-child.ts';

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

describe('health and metrics', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ LOG_LEVEL: 'warn' });
  });
  afterAll(() => server?.close());

  it('keeps idle connections longer than load balancers do (65 s, KEEP_ALIVE_TIMEOUT_MS), and says so in Keep-Alive', async () => {
    // Node's own 5 s would close a connection just as a balancer with a 60 s idle timeout reuses it: a 502.
    const answer = await fetch(`${server.url}/healthz`);
    expect(answer.headers.get('keep-alive')).toBe('timeout=65');
    const shorter = await startTestServer({ LOG_LEVEL: 'warn', KEEP_ALIVE_TIMEOUT_MS: '7000' });
    try {
      expect((await fetch(`${shorter.url}/healthz`)).headers.get('keep-alive')).toBe('timeout=7');
    } finally {
      await shorter.close();
    }
  });

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
    // A wrong password shows as one bcrypt comparison that did not match.
    expect((await server.login('nobody@example.com', 'Wrong-Password-123')).status).toBe(401);
    const after = await (await fetch(`${server.url}/metrics`)).text();
    expect(after).toContain('# TYPE adgraph_password_verifications_total counter');
    expect(after).toContain('adgraph_password_verifications_total{result="mismatch"} 1');
  });
});

describe('readiness while a migration is pending', () => {
  let database: TestDatabase;
  let running: RunningServer;
  beforeAll(async () => {
    // Every migration but the last: the schema of a server whose code is newer than its database.
    database = await createTestDatabase({ migrate: false });
    while ((await pendingMigrations(database.db)).length > 1) await database.db.migrate.up({ migrationSource });
    const config = loadConfig({ DATABASE_URL: database.url, PORT: '0', LOG_LEVEL: 'silent', BCRYPT_COST: '4' });
    running = await startServer(createAppDeps(config, { db: database.db, log: createLogger('silent') }), { port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await running?.close();
    await database?.dispose().catch(() => undefined);
  });

  it('answers /readyz 503 until the migrations are applied, then 200; /healthz 200 throughout', async () => {
    const [last] = await pendingMigrations(database.db);
    expect(last).toBe((await migrationSource.getMigrations([])).at(-1));

    const before = await fetch(`${running.url}/readyz`);
    expect([before.status, await before.json()]).toEqual([503, { status: 'unavailable', reason: '1 migration(s) not applied' }]);
    const health = await fetch(`${running.url}/healthz`);
    expect([health.status, await health.json()]).toEqual([200, { status: 'ok' }]);

    expect(await migrateToLatest(database.db)).toEqual([last]);
    const after = await fetch(`${running.url}/readyz`);
    expect([after.status, await after.json()]).toEqual([200, { status: 'ready' }]);
  });
});

describe('graceful shutdown', () => {
  it('refuses new connections but finishes a request that is in flight', async () => {
    const server = await startTestServer({ LOG_LEVEL: 'warn' });
    let closing: Promise<void> | undefined;
    const held = await holdRequest(server.url, '/graphql', { query: '{ __typename }' });
    try {
      closing = server.close();
      expect(await eventually(() => connectionRefused(server.url))).toBe(true);

      const answer = await held.finish();
      expect(answer.status).toBe(200);
      expect(JSON.parse(answer.body)).toEqual({ data: { __typename: 'Query' } });

      await closing;
    } finally {
      held.destroy();
      await (closing ?? server.close());
    }
  });
});

describe('an unreachable database', () => {
  let running: RunningServer;
  let url: string;
  beforeAll(async () => {
    const config = loadConfig({
      DATABASE_URL: 'postgres://postgres@127.0.0.1:1/test',
      PORT: '0',
      LOG_LEVEL: 'silent',
      BCRYPT_COST: '4',
      SHUTDOWN_TIMEOUT_MS: '1000',
    });
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
