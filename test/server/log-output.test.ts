import { createServer, type AddressInfo } from 'node:net';
import { describe, it, onTestFinished } from 'vitest';
import { createTestDatabase } from '../helpers/database.ts';
import { LISTENING_LINE, spawnServe, type ServeChild } from '../helpers/serve-child.ts';
import { worldBuilder } from '../helpers/world.ts';
import { createAppDeps } from '../../src/context/index.ts';
import { loadConfig } from '../../src/config/index.ts';
import { createLogger } from '../../src/logging/index.ts';

/**
 * `adgraph serve` as a container runs it, its output on pipes (not a terminal): stdout holds JSON log lines and
 * nothing else (no banner, no sign-in help), and stderr stays empty, even after answers holding whole numbers
 * beyond 2^53 (graphql-scalars' BigInt warned on stderr at the first one).
 */
const CHILD_TEST_TIMEOUT_MS = 200_000;
const HUGE = '9007199254740993'; // 2^53 + 1

/** The server on an empty database, without demo data (seeding it takes minutes on a busy machine). */
async function serve(env: Record<string, string>) {
  const database = await createTestDatabase({ migrate: false });
  onTestFinished(() => database.dispose());
  const child = spawnServe(database, { SEED_DEMO: 'false', ...env });
  onTestFinished(() => child.dispose());
  const [, url] = await child.waitFor(LISTENING_LINE, 150_000);
  // The world is built through the services, on the database the server has just migrated.
  const deps = createAppDeps(loadConfig({ DATABASE_URL: database.url, BCRYPT_COST: '4', LOG_LEVEL: 'silent' }), {
    db: database.db,
    log: createLogger('silent'),
  });
  // A worker still starting is terminated, which rejects: nothing the test waits for.
  onTestFinished(() => deps.passwords.close().catch(() => undefined));
  return { child, url: url!, db: database.db, world: worldBuilder(deps) };
}

/** A port nothing listens on now (the server takes it a moment later). */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

function expectJsonLinesOnly(expect: (value: unknown, message?: string) => any, child: ServeChild): void {
  const lines = child
    .stdout()
    .split('\n')
    .filter((line) => line !== '');
  for (const line of lines) expect(() => JSON.parse(line), `not a JSON line: ${line}`).not.toThrow();
  expect(child.stderr()).toBe('');
}

// One after the other: the second test's probed port could otherwise be the one the first server took from the
// kernel a moment later, and each would talk to the other's server.
describe('serve on pipes', { timeout: CHILD_TEST_TIMEOUT_MS }, () => {
  it('writes JSON log lines only to stdout and nothing to stderr, BigInt answers included', async ({ expect }) => {
    const { child, url, db, world } = await serve({ LOG_LEVEL: 'info' });
    const org = await world.organization();
    const { token } = await world.user({ organizationId: org.id, role: 'advertiser' });
    const [campaign] = await world.campaigns(await world.adAccount(org.id), 1);
    const { id } = (await world.adSets(campaign!, 1))[0]!;
    // A budget beyond 2^53: BIGINT on PostgreSQL (read as a string), INTEGER on SQLite.
    await db('ad_sets')
      .where({ id })
      .update({ lifetime_budget: db.raw(`cast(${HUGE} as bigint)`) });

    const graphql = await fetch(`${url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'service-session-token': token },
      body: JSON.stringify({ query: `{ node(id: "${id}") { ... on AdSet { lifetimeBudget } } }` }),
    });
    const read = (await graphql.json()) as { data: { node: { lifetimeBudget: unknown } } };
    // Beyond 2^53 the value is a decimal string (exact on PostgreSQL; SQLite's driver reads the nearest double).
    expect(read.data.node.lifetimeBudget).toEqual(expect.stringMatching(/^90071992547409\d\d$/));
    const rest = await fetch(`${url}/v24.0/${id}?fields=lifetime_budget&access_token=${token}`);
    expect(rest.status).toBe(200);

    child.signal('SIGTERM');
    expect((await child.exited).code).toBe(0);
    expectJsonLinesOnly(expect, child);
    const messages = child.logs().map((line) => line.msg);
    expect(messages).toEqual(expect.arrayContaining(['adgraph is listening', 'request completed', 'shut down cleanly']));
    expect(child.stdout()).not.toContain('adgraph is serving GraphQL'); // the banner is for terminals
    expect(child.stdout()).not.toContain(token);
  });

  it('at LOG_LEVEL=warn writes nothing at all on an ordinary run', async ({ expect }) => {
    const database = await createTestDatabase({ migrate: false });
    onTestFinished(() => database.dispose());
    const port = await freePort();
    const child = spawnServe(database, { LOG_LEVEL: 'warn', SEED_DEMO: 'false', PORT: String(port) });
    onTestFinished(() => child.dispose());
    // No line says where it listens at this level: it is up once /healthz answers.
    let up = false;
    for (let i = 0; i < 600 && !up; i++) {
      up = await fetch(`http://127.0.0.1:${port}/healthz`).then(
        (r) => r.ok,
        () => false,
      );
      if (!up) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(up, child.stderr()).toBe(true);
    child.signal('SIGTERM');
    expect((await child.exited).code).toBe(0);
    expect(child.stdout()).toBe('');
    expect(child.stderr()).toBe('');
  });
});
