import { createServer, type Server } from 'node:net';
import { describe, it, onTestFinished } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';
import { cliEnv, expectOneLineFailure, runCli } from '../helpers/cli.ts';
import { pendingMigrations } from '../../src/db/migrate.ts';
import { migrationSource } from '../../db/migrations/index.ts';
import { spawnServe, type ServeChild } from '../helpers/serve-child.ts';
import { DEMO_PASSWORD } from '../../db/seeds/demo.ts';

/**
 * `adgraph serve` started as an operator starts it (a child process on a free loopback port): it migrates,
 * loads the demo data into an empty database unless SEED_DEMO=false, prints how to sign in, and fails in
 * one line, exiting, when its port is taken or a variable is wrong.
 */
type Cleanup = typeof onTestFinished;
/** Child processes start slowly on a loaded machine (each loads the server anew): a generous bound. */
const CHILD_TEST_TIMEOUT_MS = 90_000;

/** A database with no tables at all, as a first start finds it. */
async function emptyDatabase(cleanup: Cleanup): Promise<TestDatabase> {
  const database = await createTestDatabase({ migrate: false });
  cleanup(() => database.dispose());
  return database;
}

function serve(cleanup: Cleanup, database: TestDatabase, env: Record<string, string> = {}): ServeChild {
  const child = spawnServe(database, env);
  cleanup(() => child.dispose());
  return child;
}

async function stopCleanly(child: ServeChild): Promise<void> {
  child.signal('SIGTERM');
  const exit = await child.exited;
  if (exit.code !== 0) throw new Error(`adgraph serve exited ${exit.code ?? exit.signal}\n${child.stdout()}\n${child.stderr()}`);
}

const organizationCount = async (database: TestDatabase) => Number((await database.db('organizations').count({ count: '*' }).first())?.count);
const allMigrations = async () => (await migrationSource.getMigrations([])).map((migration) => migrationSource.getMigrationName(migration));

describe.concurrent('adgraph serve starts', { timeout: CHILD_TEST_TIMEOUT_MS }, () => {
  it('on an empty database: migrates, loads the demo data, and its demo sign-in works', async ({ expect, onTestFinished }) => {
    const database = await emptyDatabase(onTestFinished);
    const child = serve(onTestFinished, database);
    const url = await child.url();

    expect(await pendingMigrations(database.db)).toEqual([]);
    const applied = (await database.db('knex_migrations').select('name').orderBy('id')).map((row) => row.name as string);
    expect(applied).toEqual(await allMigrations());
    expect(await organizationCount(database)).toBeGreaterThan(0);

    // Over a pipe the banner and sign-in help are not printed (test/server/log-output.test.ts shows them on a
    // terminal): the listening line says the demo data was loaded.
    expect(child.logs()).toContainEqual(expect.objectContaining({ msg: 'adgraph is listening', url, demoDataLoaded: true }));
    const body = JSON.stringify({ email: 'ads@northwind.example', password: DEMO_PASSWORD });
    const login = await fetch(`${url}/api/v2/users/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    expect(login.status).toBe(201);
    const { session_token: token } = (await login.json()) as { session_token: string };
    const me = await fetch(`${url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'service-session-token': token },
      body: JSON.stringify({ query: '{ me { email } }' }),
    });
    expect(await me.json()).toEqual({ data: { me: { email: 'ads@northwind.example' } } });

    await stopCleanly(child);
  });

  it('with SEED_DEMO=false: migrates and leaves the database empty', async ({ expect, onTestFinished }) => {
    const database = await emptyDatabase(onTestFinished);
    const child = serve(onTestFinished, database, { SEED_DEMO: 'false' });
    const url = await child.url();

    expect(await pendingMigrations(database.db)).toEqual([]);
    expect(await organizationCount(database)).toBe(0);
    expect(child.logs()).toContainEqual(expect.objectContaining({ msg: 'adgraph is listening', url, demoDataLoaded: false }));
    const ready = await fetch(`${url}/readyz`);
    expect([ready.status, await ready.json()]).toEqual([200, { status: 'ready' }]);

    await stopCleanly(child);
    expect(child.stdout()).not.toContain('"demoDataLoaded":true'); // all of it, now that it has exited
  });

  it('on a port already in use: one line naming the port, and it exits non-zero within a second', async ({ expect, onTestFinished }) => {
    const database = await createTestDatabase(); // migrated, so the start reaches the port quickly
    onTestFinished(() => database.dispose());
    const taken: Server = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    onTestFinished(() => new Promise<void>((resolve) => taken.close(() => resolve())));
    const port = (taken.address() as { port: number }).port;

    const child = serve(onTestFinished, database, { SEED_DEMO: 'false', PORT: String(port) });
    await child.waitFor(/already in use/);
    const printedAt = Date.now();
    const exit = await Promise.race([child.exited, new Promise<undefined>((resolve) => setTimeout(resolve, 10_000))]);
    expect(exit, `still running 10 s after its error line\n${child.stderr()}`).toBeDefined();
    // The issue's own bound; the process needs well under 100 ms once its pools and workers are closed.
    expect(exit!.at - printedAt).toBeLessThan(1_000);
    expectOneLineFailure(
      { code: exit!.code ?? -1, stdout: child.stdout(), stderr: child.stderr() },
      new RegExp(`^adgraph: port ${port} is already in use on 127\\.0\\.0\\.1`),
    );
  });
});

describe.concurrent('a bad LOG_LEVEL', { timeout: CHILD_TEST_TIMEOUT_MS }, () => {
  // The server, and an admin command (which logs only warnings, to stderr, but reads the same environment).
  it.for(['serve', 'db migrate'])('stops `adgraph %s` in one line naming it', async (command, { onTestFinished }) => {
    const database = await createTestDatabase();
    onTestFinished(() => database.dispose());
    const run = await runCli(command.split(' '), cliEnv(database, { LOG_LEVEL: 'loud', PORT: '0', SEED_DEMO: 'false' }));
    expectOneLineFailure(run, /^adgraph: LOG_LEVEL must be one of trace, debug, info, warn, error, fatal, silent, got "loud"$/m);
  });
});
