// Same on every database: what is tested is how connections drain at a signal; the database only answers the reads (test/server/shutdown.test.ts stops a server on each database).
import { execFile } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, it, onTestFinished } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';
import { holdRequest, httpRequest, openConnection, spawnNpmStart, spawnServe, type RawConnection, type ServeChild } from '../helpers/serve-child.ts';
import { DEMO_PASSWORD } from '../../db/seeds/demo.ts';

/**
 * Stopping the compiled server (`node bin/adgraph.js serve`, and `npm start`) while requests are arriving, as a
 * deploy does behind a load balancer: every request whose bytes reached the machine before the signal is
 * answered, whatever the delay between the two; nothing is reset; the process exits 0. While the drain period
 * lasts the server still accepts, /readyz answers 503 and answers carry `Connection: close`; a request still
 * running at SHUTDOWN_TIMEOUT_MS is cut and the process exits all the same.
 */
type Cleanup = typeof onTestFinished;
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** Child processes start slowly on a loaded machine: a generous bound. */
const CHILD_TEST_TIMEOUT_MS = 120_000;

/** bin/adgraph.js refuses a build older than the sources in one line; the tests bring it up to date as that line asks. */
beforeAll(async () => {
  const run = (args: string[]) =>
    new Promise<{ code: number; stderr: string }>((resolve) =>
      execFile(process.execPath, args, { cwd: ROOT }, (error, _stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stderr })),
    );
  const help = await run(['bin/adgraph.js', '--help']);
  if (help.code !== 0 && /run npm run build/.test(help.stderr)) {
    const build = await run(['scripts/build.js']);
    if (build.code !== 0) throw new Error(`npm run build failed: ${build.stderr}`);
  }
}, CHILD_TEST_TIMEOUT_MS);

interface Launcher {
  name: string;
  start(database: TestDatabase, env?: Record<string, string>): ServeChild;
  /** What stops it: an orchestrator's SIGTERM to the server, or a terminal's Ctrl-C to npm start's process group. */
  stopSignal: NodeJS.Signals;
}
const BIN: Launcher = { name: 'node bin/adgraph.js serve', start: (database, env) => spawnServe(database, env, [], ['bin/adgraph.js']), stopSignal: 'SIGTERM' };
const NPM_START: Launcher = { name: 'npm start', start: spawnNpmStart, stopSignal: 'SIGINT' };

async function serveOnFreshDatabase(cleanup: Cleanup, launcher: Launcher, env: Record<string, string> = {}): Promise<{ serve: ServeChild; url: string }> {
  const database = await createTestDatabase({ migrate: false });
  cleanup(() => database.dispose());
  const serve = launcher.start(database, env);
  cleanup(() => serve.dispose());
  // Several start at once (describe.concurrent): on two busy cores that can take a while.
  return { serve, url: await serve.url(100_000) };
}

const logged = (serve: ServeChild, message: RegExp) => serve.logs().filter((line) => message.test(String(line.msg)));

/** A nested read of the demo's ad accounts: some work for the server, as a signed-in advertiser. */
const READ =
  '{ adAccounts(first: 5) { nodes { actId name adSets(first: 25) { totalCount nodes { name effectiveStatus campaign { name } ads(first: 5) { nodes { name } } } } } } }';
const CONNECTIONS = 20;
/** Idle keep-alive connections open at the signal, each having been answered once before it. */
const IDLE_CONNECTIONS = 3;

async function signIn(url: string): Promise<string> {
  const response = await fetch(`${url}/api/v2/users/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'ads@northwind.example', password: DEMO_PASSWORD }),
  });
  return ((await response.json()) as { session_token: string }).session_token;
}

/** A connection that has been answered once (keep-alive) and is now idle. */
async function idleKeepAlive(url: string): Promise<RawConnection> {
  const connection = await openConnection(url);
  await connection.send(httpRequest(url, 'GET', '/healthz'));
  const answer = await connection.nextResponse();
  if (answer.headers.connection !== 'keep-alive') throw new Error(`expected a keep-alive answer, got ${JSON.stringify(answer.headers)}`);
  return connection;
}

/**
 * The demo data is loaded once, by a first server that is then stopped, instead of by eight servers at once
 * (minutes of work on two busy cores). Each server then gets a copy of that SQLite file, as it had a database of
 * its own before. The file runs on SQLite only (the line at its top); run by hand on PostgreSQL, the servers
 * share the schema, which holds as they only sign in and read.
 */
let demoDatabase: TestDatabase | undefined;
async function serveOnDemoDatabase(cleanup: Cleanup, launcher: Launcher): Promise<{ serve: ServeChild; url: string }> {
  let database = demoDatabase!;
  if (database.url.startsWith('sqlite:')) {
    const folder = mkdtempSync(join(tmpdir(), 'adgraph-demo-copy-'));
    cleanup(() => rmSync(folder, { recursive: true, force: true }));
    // With its write-ahead log, should the last connection have left one behind.
    const file = database.url.slice('sqlite:'.length);
    for (const suffix of ['', '-wal']) if (existsSync(file + suffix)) copyFileSync(file + suffix, join(folder, `adgraph.sqlite${suffix}`));
    database = { ...database, url: `sqlite:${join(folder, 'adgraph.sqlite')}` };
  }
  const serve = launcher.start(database);
  cleanup(() => serve.dispose());
  return { serve, url: await serve.url(100_000) };
}
afterAll(() => demoDatabase?.dispose());

describe.concurrent('a stop under load loses no request', { timeout: CHILD_TEST_TIMEOUT_MS }, () => {
  beforeAll(async () => {
    demoDatabase = await createTestDatabase({ migrate: false });
    const loader = BIN.start(demoDatabase);
    try {
      await loader.url(100_000);
    } finally {
      loader.signal('SIGTERM');
      await loader.exited;
      await loader.dispose();
    }
  }, CHILD_TEST_TIMEOUT_MS);

  const cases = [BIN, NPM_START].flatMap((launcher) => [0, 5, 50, 100].map((delayMs) => [launcher.name, delayMs, launcher] as const));

  it.for(cases)(
    '%s, signal %d ms after the requests were sent: all answered, none reset, exit 0',
    async ([, delayMs, launcher], { expect, onTestFinished }) => {
      const { serve, url } = await serveOnDemoDatabase(onTestFinished, launcher);
      const token = await signIn(url);
      const request = httpRequest(url, 'POST', '/graphql', { query: READ }, { 'Service-Session-Token': token });
      const expected = await (
        await fetch(`${url}/graphql`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'service-session-token': token },
          body: JSON.stringify({ query: READ }),
        })
      ).text();
      expect(JSON.parse(expected), expected).toMatchObject({
        data: { adAccounts: { nodes: expect.arrayContaining([expect.objectContaining({ name: 'Northwind US' })]) } },
      });

      const idle = await Promise.all(Array.from({ length: IDLE_CONNECTIONS }, () => idleKeepAlive(url)));
      const busy = await Promise.all(Array.from({ length: CONNECTIONS }, () => openConnection(url)));
      onTestFinished(() => [...idle, ...busy].forEach((connection) => connection.destroy()));
      // Each write callback: the request's bytes are on the machine (the server may not have accepted the connection yet).
      await Promise.all(busy.map((connection) => connection.send(request)));
      await sleep(delayMs);
      serve.signal(launcher.stopSignal);

      const answers = await Promise.all(busy.map((connection) => connection.nextResponse().then(({ status, body }) => ({ status, body }), String)));
      expect(answers).toEqual(busy.map(() => ({ status: 200, body: expected })));
      // The server closed every connection, busy and idle, with a FIN after its answers: no ECONNRESET, no EPIPE.
      expect(await Promise.all([...busy, ...idle].map((connection) => connection.closed))).toEqual([...busy, ...idle].map(() => ({})));
      expect(idle.map((connection) => connection.unread())).toEqual(idle.map(() => []));
      const exit = await serve.exited;
      expect(exit, serve.stdout() + serve.stderr()).toMatchObject({ code: 0, signal: null });
      expect(logged(serve, /^shut down cleanly$/)).toHaveLength(1);
    },
  );
});

describe.concurrent('stopping', { timeout: CHILD_TEST_TIMEOUT_MS }, () => {
  it('during SHUTDOWN_DRAIN_MS: still accepts, /readyz answers 503, answers carry Connection: close', async ({ expect, onTestFinished }) => {
    // A drain longer than the test, which a second signal ends.
    const { serve, url } = await serveOnFreshDatabase(onTestFinished, BIN, { SEED_DEMO: 'false', SHUTDOWN_DRAIN_MS: '60000', SHUTDOWN_TIMEOUT_MS: '120000' });
    const keptAlive = await idleKeepAlive(url);
    const held = await holdRequest(url, '/graphql', { query: '{ __typename }' });
    onTestFinished(() => [keptAlive, held].forEach((connection) => connection.destroy()));

    serve.signal('SIGTERM');
    await serve.waitFor(/shutting down/);
    // First, before the server's keep-alive timeout (5 s on Node 20) could close it: a client reusing a connection gets its
    // answer and is told, then the server closes the connection.
    await keptAlive.send(httpRequest(url, 'GET', '/healthz'));
    const health = await keptAlive.nextResponse();
    expect([health.status, JSON.parse(health.body), health.headers.connection]).toEqual([200, { status: 'ok' }, 'close']);
    expect(await keptAlive.closed).toEqual({});

    // New connections are still accepted, and told the instance is going.
    const probe = await openConnection(url);
    await probe.send(httpRequest(url, 'GET', '/readyz'));
    const ready = await probe.nextResponse();
    expect([ready.status, JSON.parse(ready.body), ready.headers.connection]).toEqual([503, { status: 'unavailable', reason: 'shutting down' }, 'close']);
    expect(await probe.closed).toEqual({});

    // The request in flight at the signal is answered, with Connection: close too.
    const answer = await held.finish();
    expect([answer.status, JSON.parse(answer.body), answer.headers.connection]).toEqual([200, { data: { __typename: 'Query' } }, 'close']);

    // Later than a relayed copy of the first signal could come (RELAYED_SIGNAL_MS, src/server/index.ts), which is ignored.
    await sleep(600);
    serve.signal('SIGTERM');
    expect(await serve.exited).toMatchObject({ code: 128 + 15 });
  });

  it('cuts a request still running at SHUTDOWN_TIMEOUT_MS and exits 0, saying so', async ({ expect, onTestFinished }) => {
    const timeoutMs = 1_000;
    const { serve, url } = await serveOnFreshDatabase(onTestFinished, BIN, { SEED_DEMO: 'false', SHUTDOWN_TIMEOUT_MS: String(timeoutMs) });
    // Its body never comes: the request runs until the server gives up on it.
    const held = await holdRequest(url, '/graphql', { query: '{ __typename }' });
    onTestFinished(() => held.destroy());

    serve.signal('SIGTERM');
    expect(await held.closedWithoutAnswer()).toBe(true);
    // Exit 0 is the orderly end: past the bound (a second after SHUTDOWN_TIMEOUT_MS) the process exits 1.
    expect(await serve.exited, serve.stdout() + serve.stderr()).toMatchObject({ code: 0, signal: null });
    const [stopping] = logged(serve, /^shutting down/);
    const [cut] = logged(serve, /^shut down, cutting 1 request\(s\) still running after SHUTDOWN_TIMEOUT_MS$/);
    expect(cut, serve.stdout()).toMatchObject({ level: 40, requestsCut: 1 });
    // It waited for the request as long as it was told to.
    expect(Date.parse(String(cut!.time)) - Date.parse(String(stopping!.time))).toBeGreaterThanOrEqual(timeoutMs);
    expect(logged(serve, /shut down cleanly/)).toEqual([]);
  });
});
