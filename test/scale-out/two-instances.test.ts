import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { redisReachable } from '../helpers/redis.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, POSTGRES_URL, TEST_DB, type TestDatabase } from '../helpers/database.ts';
import { dropRedisKeys, startServeProcess, stopInstances, type ServeProcess } from '../helpers/serve-process.ts';
import { cliEnv, cliJson } from '../helpers/cli.ts';
import { eventually, INCORRECT_LOGIN, restClient, SIGNED_OUT, type ApiResponse } from '../helpers/api.ts';
import { accountUsage, expectGraphError, graphClient } from '../helpers/graph.ts';
import { decodeJwt, fetchAccessToken, tokenRequest } from '../helpers/oauth.ts';
import { answerKey, expectOnlyTheLimitCompared, guessBurst } from '../helpers/guesses.ts';
import { PASSWORD, worldBuilder } from '../helpers/world.ts';
import { loadConfig } from '../../src/config/index.ts';
import { createAppDeps, type AppDeps } from '../../src/context/index.ts';
import { createDatabase, type Db } from '../../src/db/index.ts';
import { migrateToLatest } from '../../src/db/migrate.ts';
import { createLogger } from '../../src/logging/index.ts';
import { createClient } from '../../src/oauth/service.ts';
import { migrationSource } from '../../db/migrations/index.ts';

/**
 * Scale-out (issue 12): two `adgraph serve` processes on one database (TEST_DB's: a PostgreSQL schema, or one
 * SQLite file) and one Redis act as one. Started at the same moment on an empty database, they migrate and seed
 * it once; a session and an access token from one work on the other; a key rotation by the CLI reaches both;
 * the brute-force and per-account limits count across both, and concurrent guesses split between them compare no
 * more than the allowance; an asynchronous ad set copy runs exactly once.
 * Redis is required: unreachable, the test fails under CI=true and is skipped with a warning elsewhere.
 */

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const ON_CI = process.env.CI === 'true';
const ACCOUNT_CALLS = 6;
const WRONG = 'Not-The-Password-1';
/** What an ad set needs for its copies to pass the rules. */
const COPYABLE_AD_SET = { billingEvent: 'IMPRESSIONS', optimizationGoal: 'LINK_CLICKS', dailyBudget: '1000' } as const;

const redisUp = await redisReachable(REDIS_URL);
if (!redisUp && !ON_CI) console.warn(`Redis is not reachable at ${REDIS_URL}: skipping the scale-out test (set CI=true to make this a failure).`);

/** Each migration's name and how many times the migrations table records it. */
async function appliedMigrations(db: Db): Promise<Record<string, number>> {
  const rows = (await db('knex_migrations').select('name').count({ n: '*' }).groupBy('name')) as Array<{ name: string; n: number | string }>;
  return Object.fromEntries(rows.map((row) => [row.name, Number(row.n)]));
}

async function everyMigrationOnce(): Promise<Record<string, number>> {
  return Object.fromEntries((await migrationSource.getMigrations([])).map((name) => [name, 1]));
}

/** Another connection pool on the same test database, as a second process would open. */
const secondPool = (database: TestDatabase) => createDatabase(database.schema ? POSTGRES_URL : database.url, { schema: database.schema });

describe(`migrations run by two processes at once (${TEST_DB})`, () => {
  it('apply once: one run applies every migration, the other finds nothing to do, and neither fails', async () => {
    const database = await createTestDatabase({ migrate: false });
    const other = secondPool(database);
    try {
      const runs = await Promise.allSettled([migrateToLatest(database.db), migrateToLatest(other)]);
      const outcomes = runs.map((run) => (run.status === 'fulfilled' ? run.value.length : `failed: ${(run.reason as Error).message}`));
      const all = Object.keys(await everyMigrationOnce()).length;
      expect(outcomes.sort()).toEqual([0, all].sort());
      expect(await appliedMigrations(database.db)).toEqual(await everyMigrationOnce());
    } finally {
      await other.destroy();
      await database.dispose();
    }
  });
});

describe.skipIf(!redisUp && !ON_CI)(`two instances on one database (${TEST_DB}) and one Redis`, () => {
  const prefix = `test-scale-out-${randomUUID()}`;
  let database: TestDatabase;
  let instances: ServeProcess[] = [];
  let a: ServeProcess;
  let b: ServeProcess;
  let deps: AppDeps | undefined;
  let world: ReturnType<typeof worldBuilder>;
  let organizationId: string;
  let cli: NodeJS.ProcessEnv;

  beforeAll(async () => {
    if (!redisUp) throw new Error(`Redis is not reachable at ${REDIS_URL}, and CI=true requires the scale-out test to run.`);
    database = await createTestDatabase({ migrate: false });
    const env = { REDIS_URL, REDIS_KEY_PREFIX: prefix, SEED_DEMO: 'true', ASYNC_POLL_MS: '50', RATE_LIMIT_ACCOUNT_CALLS: `${ACCOUNT_CALLS}/300` };
    cli = cliEnv(database, env);
    // Both at the same moment, on an empty database: each migrates and seeds at start.
    const starts = await Promise.allSettled([startServeProcess(database, env), startServeProcess(database, env)]);
    instances = starts.flatMap((start) => (start.status === 'fulfilled' ? [start.value] : []));
    const failed = starts.flatMap((start) => (start.status === 'rejected' ? [(start.reason as Error).message] : []));
    if (failed.length > 0) throw new Error(`an instance did not start:\n${failed.join('\n')}`);
    [a, b] = instances as [ServeProcess, ServeProcess];

    // The test's own world, built through the services on the same database.
    deps = createAppDeps(loadConfig({ DATABASE_URL: database.url, BCRYPT_COST: '4', LOG_LEVEL: 'silent' }), { db: database.db, log: createLogger('silent') });
    world = worldBuilder(deps);
    organizationId = (await world.organization()).id;
  });

  afterAll(async () => {
    await stopInstances(instances);
    if (deps) {
      deps.mailer.close();
      await deps.rateLimits.close();
      await deps.passwords.close();
    }
    await database?.dispose();
    if (redisUp) await dropRedisKeys(REDIS_URL, prefix);
  });

  it('started together on an empty database: both are ready, every migration is applied once, the demo data is loaded once', async () => {
    for (const instance of [a, b]) {
      const ready = await fetch(`${instance.url}/readyz`);
      expect(ready.status, instance.output()).toBe(200);
      expect(await ready.json()).toEqual({ status: 'ready' });
    }
    expect(await appliedMigrations(database.db)).toEqual(await everyMigrationOnce());
    const seeded = [a, b].filter((instance) => instance.output().includes('"demoDataLoaded":true'));
    expect(seeded, [a, b].map((instance) => instance.output()).join('\n')).toHaveLength(1);
    // The demo organizations once each (and this test's own): a second seed would repeat their names.
    const [{ n: organizations, names }] = (await database
      .db('organizations')
      .select(database.db.raw('count(*) as n'), database.db.raw('count(distinct name) as names'))) as [{ n: number | string; names: number | string }];
    expect(Number(organizations)).toBeGreaterThan(2);
    expect(Number(organizations)).toBe(Number(names));
    const [{ n: activeKeys }] = (await database.db('signing_keys').where('active', true).count({ n: '*' })) as [{ n: number | string }];
    expect(Number(activeKeys)).toBe(1);
  });

  it('a session from a login on one instance works on the other, and a logout on the other ends it on both', async () => {
    const { user } = await world.user({ organizationId, role: 'advertiser' });
    const login = await restClient(a).post('/users/login', { email: user.email, password: PASSWORD });
    expect(login.status, JSON.stringify(login.body)).toBe(201);
    const token = login.body.session_token as string;

    const me = await restClient(b).get('/users/me', token);
    expect(me.status, JSON.stringify(me.body)).toBe(200);
    expect(me.body).toMatchObject({ id: user.id, email: user.email });

    expect((await restClient(b).post('/users/logout', undefined, token)).status).toBe(200);
    for (const instance of [a, b]) expect(await restClient(instance).get('/users/me', token)).toMatchObject({ status: 401, body: { message: SIGNED_OUT } });
  });

  /** An API client of this test's organization that reads ads. */
  async function reportingClient() {
    const { client, clientSecret } = await createClient(deps!, { name: `reporting ${randomUUID()}`, scope: 'ads_read', organization: organizationId });
    return { client_id: client.clientId, client_secret: clientSecret };
  }

  /** Reads the account's name with the token through one instance: 200 when the instance accepts the token. */
  async function readAccount(instance: ServeProcess, token: string, account: { id: string; name: string }) {
    const response = await graphClient(instance).get(`act_${account.id}`, token, { fields: 'name' });
    expect(response.status, `${instance.url}: ${response.text}`).toBe(200);
    expect(response.body).toEqual({ id: `act_${account.id}`, name: account.name });
  }

  it('an access token issued by one instance works on the other', async () => {
    const client = await reportingClient();
    const account = await world.adAccount(organizationId);
    const token = await fetchAccessToken(a.url, client.client_id, client.client_secret);
    await readAccount(b, token, account);
    await readAccount(a, token, account);
  });

  it("a key rotation by the CLI reaches both: each signs with the new key, each verifies the other's tokens and the old ones", async () => {
    const client = await reportingClient();
    const account = await world.adAccount(organizationId);
    const oldToken = await fetchAccessToken(a.url, client.client_id, client.client_secret);
    const oldKid = decodeJwt(oldToken).header.kid as string;

    const { value: rotation } = await cliJson<{ kid: string; retired: string[] }>(['keys', 'rotate'], cli);
    expect(rotation.retired).toEqual([oldKid]);
    expect(rotation.kid).not.toBe(oldKid);

    // Each instance rereads the keys within seconds: it then issues tokens signed with the new key.
    const signedWithNewKey = async (instance: ServeProcess) =>
      eventually(
        async () => {
          const token = await fetchAccessToken(instance.url, client.client_id, client.client_secret);
          if (decodeJwt(token).header.kid === rotation.kid) return token;
          await sleep(250);
          return undefined;
        },
        30_000,
        `${instance.url} to sign with the rotated key`,
      );
    const [fromA, fromB] = await Promise.all([signedWithNewKey(a), signedWithNewKey(b)]);

    await readAccount(b, fromA, account);
    await readAccount(a, fromB, account);
    // Tokens signed before the rotation stay good until they expire.
    for (const instance of [a, b]) await readAccount(instance, oldToken, account);
    for (const instance of [a, b]) {
      const jwks = (await (await fetch(`${instance.url}/oauth2/jwks`)).json()) as { keys: Array<{ kid: string }> };
      expect(jwks.keys.map((key) => key.kid).sort()).toEqual([oldKid, rotation.kid].sort());
    }
  }, 60_000);

  it('counts wrong passwords across both: alternating, the 11th fails on either instance, even with the right password', async () => {
    const { user } = await world.user({ organizationId, role: 'member' });
    const expectRateLimited = (response: ApiResponse) => {
      expect(response.status, JSON.stringify(response.body)).toBe(429);
      expect(response.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
    };
    for (let attempt = 0; attempt < 10; attempt++) {
      const response = await restClient(attempt % 2 === 0 ? a : b).post('/users/login', { email: user.email, password: WRONG });
      expect({ attempt, status: response.status, body: response.body }).toEqual({ attempt, status: 401, body: { message: INCORRECT_LOGIN } });
    }
    expectRateLimited(await restClient(a).post('/users/login', { email: user.email, password: WRONG }));
    expectRateLimited(await restClient(b).post('/users/login', { email: user.email, password: WRONG }));
    expectRateLimited(await restClient(b).post('/users/login', { email: user.email, password: PASSWORD }));
    expectRateLimited(await restClient(a).post('/users/login', { email: user.email, password: PASSWORD }));

    // The count lives in Redis under this deployment's prefix (REDIS_KEY_PREFIX), not in either process.
    const redis = new Redis(REDIS_URL);
    try {
      expect(await redis.exists(`${prefix}:rl:loginFailuresByEmail:${user.email.toLowerCase()}`)).toBe(1);
    } finally {
      redis.disconnect();
    }
  });

  // Guesses sent at the same moment to both (issue 25): the allowance is taken in Redis before each comparison, so
  // the two instances together compare no more than it, counted at each one's bcrypt pool (/metrics).
  const BURST = 40;
  const RIGHT_AT = 29;
  const TOO_MANY = `429 ${JSON.stringify({ message: 'Too many attempts. Try again later.' })}`;

  it(`a burst of ${BURST} logins for one address, half to each instance, compares 10 guesses in all; then the right password is refused on both`, async () => {
    const { user } = await world.user({ organizationId, role: 'member' });
    const login = (instance: ServeProcess, password: string) => restClient(instance).post('/users/login', { email: user.email, password });
    const burst = await guessBurst([a, b], BURST, (i) => login(i % 2 === 0 ? a : b, i === RIGHT_AT ? PASSWORD : `${WRONG}-${i}`));
    await expectOnlyTheLimitCompared(
      burst,
      { limit: 10, rightAt: RIGHT_AT, wrong: `401 ${JSON.stringify({ message: INCORRECT_LOGIN })}`, refused: TOO_MANY, success: 201 },
      () => login(b, `${WRONG}-again`),
    );
    for (const instance of [a, b]) expect(answerKey(await login(instance, PASSWORD))).toBe(TOO_MANY);
  });

  it(`a burst of ${BURST} secrets for one client_id, half to each instance, compares 20 in all; then the right secret is refused on both`, async () => {
    const client = await reportingClient();
    const token = (instance: ServeProcess, secret: string) =>
      tokenRequest(instance.url, { body: { grant_type: 'client_credentials', client_id: client.client_id, client_secret: secret } });
    const burst = await guessBurst([a, b], BURST, (i) => token(i % 2 === 0 ? a : b, i === RIGHT_AT ? client.client_secret : `wrong-${i}`));
    const slowDown = `429 ${JSON.stringify({ error: 'slow_down', error_description: 'Too many attempts. Try again later.' })}`;
    const invalid = `401 ${JSON.stringify({ error: 'invalid_client', error_description: 'Client authentication failed.' })}`;
    await expectOnlyTheLimitCompared(burst, { limit: 20, rightAt: RIGHT_AT, wrong: invalid, refused: slowDown, success: 200 }, () => token(b, 'wrong-again'));
    for (const instance of [a, b]) expect(answerKey(await token(instance, client.client_secret))).toBe(slowDown);
  });

  it("counts an ad account's calls across both: alternating, the call over the allowance fails on either instance", async () => {
    const token = (await world.user({ organizationId, role: 'advertiser' })).token;
    const account = await world.adAccount(organizationId);
    const usage: number[] = [];
    for (let call = 0; call < ACCOUNT_CALLS; call++) {
      const response = await graphClient(call % 2 === 0 ? a : b).get(`act_${account.id}`, token, { fields: 'name' });
      expect(response.status, response.text).toBe(200);
      usage.push(accountUsage(response.headers.get('x-business-use-case-usage'), account.id).call_count);
    }
    expect(usage).toEqual([17, 33, 50, 67, 83, 100]);
    for (const instance of [a, b]) {
      const refused = await graphClient(instance).get(`act_${account.id}`, token, { fields: 'name' });
      expectGraphError(refused, { status: 400, code: 80004, subcode: 2446079, isTransient: true, type: 'OAuthException' });
    }
  });

  it('runs each asynchronous ad set copy exactly once while both instances run the job runner', async () => {
    const token = (await world.user({ organizationId, role: 'advertiser' })).token;
    const account = await world.adAccount(organizationId);
    const [campaign] = await world.campaigns(account, 1);
    const sources = await world.adSets(campaign!, 8, () => COPYABLE_AD_SET);
    for (const source of sources) await world.ads(source, 2);

    // Half the copies stored through each instance at once, so both runners are woken and compete for them.
    const store = (instance: ServeProcess, items: typeof sources) =>
      graphClient(instance).call('POST', `/v24.0/act_${account.id}/async_batch_requests`, {
        token,
        json: {
          name: `copies via ${instance.url}`,
          adbatch: items.map((item) => ({ name: `copy ${item.id}`, relative_url: `${item.id}/copies`, body: 'deep_copy=true' })),
        },
      });
    const stored = await Promise.all([store(a, sources.slice(0, 4)), store(b, sources.slice(4))]);
    for (const answer of stored) expect(answer.status, answer.text + a.output() + b.output()).toBe(200);
    const setIds = stored.map((answer) => answer.body.id as string);

    await eventually(
      async () => {
        const [{ n }] = (await database.db('async_requests').whereIn('set_id', setIds).whereIn('status', ['INITIAL', 'IN_PROGRESS']).count({ n: '*' })) as [
          { n: number | string },
        ];
        return Number(n) === 0;
      },
      30_000,
      'every copy to finish',
    );

    const requests = await database.db('async_requests').whereIn('set_id', setIds).select('adset_id', 'status', 'result', 'error');
    expect(requests.map((request) => ({ status: request.status, error: request.error ?? null }))).toEqual(
      sources.map(() => ({ status: 'SUCCESS', error: null })),
    );
    for (const source of sources) {
      const copies = await database.db('ad_sets').where({ source_adset_id: source.id }).select('id');
      expect(copies, `copies of ${source.id}`).toHaveLength(1);
      const [{ n: ads }] = (await database.db('ads').where({ adset_id: copies[0]!.id }).count({ n: '*' })) as [{ n: number | string }];
      expect(Number(ads)).toBe(2);
      const request = requests.find((row) => String(row.adset_id) === String(source.id))!;
      const result = typeof request.result === 'string' ? JSON.parse(request.result) : request.result;
      expect(String(result.copied_adset_id)).toBe(String(copies[0]!.id));
    }
    // Each instance reports the set the other stored as complete.
    for (const [instance, setId] of [
      [b, setIds[0]!],
      [a, setIds[1]!],
    ] as const) {
      const read = await graphClient(instance).get(setId, token, { fields: 'success_count,error_count,is_completed' });
      expect(read.status, read.text).toBe(200);
      expect(read.body).toEqual({ id: setId, success_count: 4, error_count: 0, is_completed: true });
    }
  }, 60_000);
});
