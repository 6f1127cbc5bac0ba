import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SessionCache } from '../../src/identity/session-cache.ts';
import { generationSource, type GenerationSource, type Generations } from '../../src/db/generations.ts';
import { generationReads as generationReadsMetric } from '../../src/telemetry/metrics.ts';
import { createDatabase } from '../../src/db/index.ts';
import { createOrganization } from '../../src/identity/service.ts';
import { insertMembership } from '../../src/identity/store.ts';
import { createClient } from '../../src/oauth/service.ts';
import { createTestDatabase, POSTGRES_URL, TEST_DB } from '../helpers/database.ts';
import { cliEnv, runCli } from '../helpers/cli.ts';
import { startSecondInstance, startTestServer, type SecondInstance, type TestServer } from '../helpers/server.ts';
import { worldBuilder } from '../helpers/world.ts';

/**
 * The session cache (src/identity/session-cache.ts): what it keeps is used only while the database's identity
 * generation stands still, and every change to who a token stands for moves it, whoever writes: this instance,
 * another instance on the same database, the command line, a plain SQL statement. Then two instances on one
 * database (TEST_DB's): a session ended, a role changed or a user suspended on one, or by another process, is
 * seen by the other at its next request; and many callers at once each get their own principal.
 */

/** An identity generation the test moves by hand (the ad accounts' stands still), counting its reads. */
function handGeneration(start = 1): GenerationSource & { move(): void; set(value: string | null): void; reads: number } {
  let value: string | null = String(start);
  return {
    reads: 0,
    async read(): Promise<Generations | null> {
      this.reads += 1;
      return value === null ? null : { identity: value, adAccounts: '0' };
    },
    async close() {},
    move() {
      value = String(Number(value) + 1);
    },
    set(next) {
      value = next;
    },
  };
}

describe('SessionCache', () => {
  const loader = () => {
    let loads = 0;
    return {
      load: async () => `value ${++loads}`,
      get loads() {
        return loads;
      },
    };
  };

  it('answers what it kept while the generation stands still, and reads again once it moves', async () => {
    const generation = handGeneration();
    const cache = new SessionCache<string>(generation, { maxEntries: 10, ttlMs: 60_000 });
    const source = loader();
    expect((await cache.get('a', source.load)).value).toBe('value 1');
    expect((await cache.get('a', source.load)).value).toBe('value 1');
    generation.move();
    expect((await cache.get('a', source.load)).value).toBe('value 2');
    expect(source.loads).toBe(2);
  });

  it('keeps nothing read while the generation moved, nor a null (an unknown token)', async () => {
    const generation = handGeneration();
    const cache = new SessionCache<string>(generation, { maxEntries: 10, ttlMs: 60_000 });
    let loads = 0;
    const movingLoad = async () => {
      loads += 1;
      generation.move(); // a write committed while the session was being read
      return `value ${loads}`;
    };
    expect((await cache.get('a', movingLoad)).value).toBe('value 1');
    expect(cache.size).toBe(0);
    expect((await cache.get('b', async () => null)).value).toBeNull();
    expect(cache.size).toBe(0);
  });

  it('is bypassed while the generation cannot be read, and forgets what it kept', async () => {
    const generation = handGeneration();
    const cache = new SessionCache<string>(generation, { maxEntries: 10, ttlMs: 60_000 });
    const source = loader();
    await cache.get('a', source.load);
    generation.set(null);
    expect((await cache.get('a', source.load)).value).toBe('value 2');
    expect(cache.size).toBe(0);
    generation.set('1');
    expect((await cache.get('a', source.load)).value).toBe('value 3');
  });

  it('keeps at most maxEntries, the least recently used going first; entries lapse after ttlMs; 0 turns it off', async () => {
    let now = 0;
    const cache = new SessionCache<string>(handGeneration(), { maxEntries: 2, ttlMs: 1_000 }, () => now);
    for (const key of ['a', 'b', 'a', 'c']) await cache.get(key, async () => `${key} read at ${now}`);
    expect(cache.size).toBe(2);
    now = 10;
    expect((await cache.get('a', async () => 'a again')).value).toBe('a read at 0');
    expect((await cache.get('b', async () => 'b again')).value).toBe('b again'); // b went first
    now = 1_000;
    expect((await cache.get('a', async () => 'a lapsed')).value).toBe('a lapsed');
    const off = handGeneration();
    const none = new SessionCache<string>(off, { maxEntries: 0, ttlMs: 1_000 });
    const source = loader();
    await none.get('a', source.load);
    await none.get('a', source.load);
    expect([source.loads, off.reads, none.size]).toEqual([2, 0, 0]);
  });
});

describe(`the identity generation (${TEST_DB})`, () => {
  let server: TestServer;
  let world: ReturnType<typeof worldBuilder>;
  beforeAll(async () => {
    server = await startTestServer({ ASYNC_RUNNER: 'false' });
    world = worldBuilder(server.deps);
  });
  afterAll(() => server?.close());

  const generation = async () => String((await server.deps.db('identity_generation').where({ id: 1 }).first()).value);

  it('moves with every change to users, sessions and memberships, and not with a new session or its last-used time', async () => {
    const db = server.deps.db;
    const org = await createOrganization(server.deps, 'Generation Org');
    const { user } = await world.user({ organizationId: org.id, role: 'advertiser' });
    const other = (await world.user()).user;
    const session = await db('sessions').where({ user_id: user.id }).first();
    const changes: Array<[string, () => Promise<unknown>, boolean]> = [
      ['a new session', () => world.user(), false],
      ["a session's last-used time", () => db('sessions').where({ id: session.id }).update({ last_used_at: new Date() }), false],
      ["a user's name", () => db('users').where({ id: user.id }).update({ name: 'Renamed' }), true],
      ["a user's status", () => db('users').where({ id: user.id }).update({ status: 'suspended' }), true],
      [
        "a session's expiry",
        () =>
          db('sessions')
            .where({ id: session.id })
            .update({ expires_at: new Date(Date.now() + 1000) }),
        true,
      ],
      ['a revocation', () => db('sessions').where({ id: session.id }).update({ revoked_at: new Date() }), true],
      ['a session deleted', () => db('sessions').where({ id: session.id }).delete(), true],
      ['a membership added', () => insertMembership(db, org.id, other.id, 'member'), true],
      ['a role changed', () => db('organization_members').where({ user_id: other.id }).update({ role: 'admin' }), true],
      ['a membership removed', () => db('organization_members').where({ user_id: other.id }).delete(), true],
      ['an organization deleted (its memberships by cascade)', () => db('organizations').where({ id: org.id }).delete(), true],
      ['a user deleted', () => db('users').where({ id: other.id }).delete(), true],
    ];
    for (const [change, write, moves] of changes) {
      const before = await generation();
      await write();
      expect((await generation()) !== before, change).toBe(moves);
    }
  });
});

/** The reads of the generations this process made (the metric operators see). */
const generationReads = async () => (await generationReadsMetric.get()).values[0]?.value ?? 0;

describe(`reading the generation (${TEST_DB})`, () => {
  it('answers many requests at once, one statement at a time, each with a read that started after it arrived', async () => {
    const database = await createTestDatabase();
    const source = generationSource(database.db);
    const warnings: string[] = [];
    const onWarning = (warning: Error) => void warnings.push(warning.message);
    process.on('warning', onWarning);
    try {
      const readsBefore = await generationReads();
      const first = await Promise.all(Array.from({ length: 50 }, () => source.read()));
      expect(new Set(first.map((read) => JSON.stringify(read)))).toEqual(new Set([JSON.stringify(first[0])]));
      // Asked for in one turn of the event loop: on PostgreSQL one read answers all fifty; SQLite's read is a
      // synchronous statement of a few microseconds on a connection of its own, made for each.
      expect((await generationReads()) - readsBefore).toBe(TEST_DB === 'postgres' ? 1 : 50);
      // A read already out when the write commits must not answer a request made after the commit.
      const out = source.read();
      await database.db('identity_generation').where({ id: 1 }).increment('value', 1);
      const after = await source.read();
      await out;
      expect(after).toEqual({ identity: String(Number(first[0]!.identity) + 1), adAccounts: first[0]!.adAccounts });
      expect(warnings.filter((message) => /already executing a query/.test(message))).toEqual([]);
    } finally {
      process.off('warning', onWarning);
      await source.close();
      await database.dispose();
    }
  });
});

describe(`two instances on one database (${TEST_DB})`, () => {
  let a: TestServer;
  let b: SecondInstance;
  let world: ReturnType<typeof worldBuilder>;

  beforeAll(async () => {
    a = await startTestServer({ ASYNC_RUNNER: 'false' });
    b = await startSecondInstance(a);
    world = worldBuilder(a.deps);
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  const me = async (url: string, token: string) => {
    const response = await fetch(`${url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'service-session-token': token },
      body: JSON.stringify({ query: '{ me { id name } }' }),
    });
    const body = (await response.json()) as { data?: { me: { id: string; name: string } } };
    return { status: response.status, me: body.data?.me };
  };
  const bothKnow = async (token: string, userId: string) => {
    for (const url of [a.url, b.url]) expect((await me(url, token)).me?.id).toBe(userId);
  };

  it('a session ended on one instance is refused by the other at its next request', async () => {
    const { user, token } = await world.user();
    await bothKnow(token, user.id);
    await bothKnow(token, user.id); // kept by both caches now
    const logout = await fetch(`${a.url}/api/v2/users/logout`, { method: 'POST', headers: { 'service-session-token': token } });
    expect(logout.status).toBeLessThan(300);
    expect((await me(b.url, token)).status).toBe(401);
    expect((await me(a.url, token)).status).toBe(401);
  });

  it('a role changed on one instance is what the other authorizes with at its next request', async () => {
    const org = await createOrganization(a.deps, 'Roles Org');
    await createClient(a.deps, { name: 'reporting', scope: 'ads_read', organization: org.id });
    const { user, token } = await world.user({ organizationId: org.id, role: 'member' });
    const { token: adminToken } = await world.user({ organizationId: org.id, role: 'admin' });
    const membership = await a.deps.db('organization_members').where({ user_id: user.id }).first();
    // API clients are listed to the organization's owners, admins and auditors only.
    const clientsSeen = async (url: string) => {
      const response = await fetch(`${url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'service-session-token': token },
        body: JSON.stringify({ query: `{ organization(id: "${org.id}") { apiClients { totalCount } } }` }),
      });
      return (
        ((await response.json()) as { data?: { organization: { apiClients: { totalCount: number } } | null } }).data?.organization?.apiClients.totalCount ?? 0
      );
    };
    expect(await clientsSeen(b.url)).toBe(0);
    expect(await clientsSeen(b.url)).toBe(0);
    const change = await a.graphql(`mutation { changeOrganizationMemberRole(id: "${membership.id}", role: ADMIN) { role } }`, {}, adminToken);
    expect(change.body.errors).toBeUndefined();
    expect(await clientsSeen(b.url)).toBe(1);
  });

  it('a change by another process (the command line, a plain SQL statement) is seen by both at their next request', async () => {
    const { user, token } = await world.user();
    await bothKnow(token, user.id);
    // psql, as an operator would: a name changed behind the server's back.
    const operator = createDatabase(TEST_DB === 'postgres' ? POSTGRES_URL : a.database.url, { schema: a.database.schema });
    try {
      await operator('users').where({ id: user.id }).update({ name: 'Renamed by hand' });
    } finally {
      await operator.destroy();
    }
    for (const url of [a.url, b.url]) expect((await me(url, token)).me?.name).toBe('Renamed by hand');
    const reset = await runCli(['users', 'reset-password', user.email, '--password-stdin', '--json'], cliEnv(a.database), { input: 'A-New-Password-2026!\n' });
    expect(reset.code, reset.stderr).toBe(0);
    for (const url of [a.url, b.url]) expect((await me(url, token)).status).toBe(401);
  });

  it("never answers one caller with another's principal, many callers at once on both instances", async () => {
    const callers = await Promise.all(Array.from({ length: 8 }, () => world.user()));
    const answers = await Promise.all(
      Array.from({ length: 200 }, async (_, i) => {
        const caller = callers[i % callers.length]!;
        const { me: found } = await me(i % 2 === 0 ? a.url : b.url, caller.token);
        return found?.id === caller.user.id;
      }),
    );
    expect(answers.every(Boolean)).toBe(true);
  });
});
