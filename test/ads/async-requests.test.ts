import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { createTestDatabase, countStatements, type TestDatabase } from '../helpers/database.ts';
import { worldBuilder } from '../helpers/world.ts';
import { eventually, firstError } from '../helpers/api.ts';
import { expectGraphError, graphClient, UNKNOWN_OBJECT, type GraphClient } from '../helpers/graph.ts';
import { CLI_ARGS, cliEnv } from '../helpers/cli.ts';
import { loadConfig } from '../../src/config/index.ts';
import { createAppDeps, createRequestContext, type AppDeps } from '../../src/context/index.ts';
import { createDatabase, dialect } from '../../src/db/index.ts';
import { createLogger } from '../../src/logging/index.ts';
import { startServer } from '../../src/server/index.ts';
import { restorePrincipal } from '../../src/identity/principals.ts';
import { findMembership, updateMembershipRole } from '../../src/identity/store.ts';
import { flagAudience } from '../../src/ads/admin.ts';
import { claimNext as claimJob, runClaimed, type JobKind } from '../../src/jobs/index.ts';
import { adSetCopyJobs } from '../../src/ads/copy-jobs.ts';
import { events } from '../../src/events/outbox.ts';
import { copyAdSetIn, readCopyParams } from '../../src/ads/writes/ad-set-copies.ts';
import { insertObjects } from '../../src/db/objects.ts';
import { asyncRequests, customAudiences, type AdAccountRecord, type AdSetRecord, type AsyncRequestRecord } from '../../src/ads/store.ts';

/**
 * Asynchronous ad set copies (DECISIONS section 5): POST /v24.0/act_<ID>/async_batch_requests stores a request
 * set and answers its id at once; the durable job runner (src/jobs, kind src/ads/copy-jobs.ts) completes the requests; the set,
 * its `requests` edge and the ad set's `asyncadrequests` edge report progress. Bad items are refused whole
 * (error 100 naming adbatch[i]); requests survive a restart, an expired lease is claimed again, and two
 * runners over one database make every copy exactly once. A deep copy of 51 ads is a handful of statements.
 */

/** The runner's claim and run, for the copy kind. */
const claimNext = (db: AppDeps['db'], instanceId: string, leaseSeconds: number, now?: Date) => claimJob(db, adSetCopyJobs, instanceId, leaseSeconds, now);
const runRequest = (deps: AppDeps, request: AsyncRequestRecord, instanceId: string) => runClaimed(deps, adSetCopyJobs, request, instanceId);

/** What an ad set inserted directly needs for its copies to pass the rules (a budget, a billing event). */
const VALID_AD_SET = { billingEvent: 'IMPRESSIONS', optimizationGoal: 'LINK_CLICKS', dailyBudget: '1000' } as const;
const SET_FIELDS = 'name,owner_id,total_count,initial_count,in_progress_count,success_count,error_count,canceled_count,is_completed';

type World = ReturnType<typeof worldBuilder>;

/** An account with a campaign and `count` copyable ad sets, each with `ads` ads. */
async function adSetsWithAds(world: World, organizationId: string, count: number, ads: number) {
  const account = await world.adAccount(organizationId);
  const [campaign] = await world.campaigns(account, 1);
  const adSets = await world.adSets(campaign!, count, () => VALID_AD_SET);
  for (const adSet of adSets) if (ads > 0) await world.ads(adSet, ads);
  return { account, campaign: campaign!, adSets };
}

const copyItem = (adSet: { id: string }, body: unknown = 'deep_copy=true', name = `copy of ${adSet.id}`) => ({
  name,
  relative_url: `${adSet.id}/copies`,
  body,
});

function batch(graph: GraphClient, token: string, account: AdAccountRecord, name: string, adbatch: unknown) {
  return graph.call('POST', `/v24.0/act_${account.id}/async_batch_requests`, { token, json: { name, adbatch } });
}

/** Rows of every table a batch or a copy writes. */
async function rowCounts(db: AppDeps['db']) {
  const count = async (table: string) => Number(((await db(table).count({ n: '*' })) as Array<{ n: number | string }>)[0]!.n);
  return {
    objects: await count('graph_objects'),
    adSets: await count('ad_sets'),
    ads: await count('ads'),
    references: await count('ad_set_references'),
    sets: await count('async_request_sets'),
    requests: await count('async_requests'),
  };
}

/** Copies made of an ad set (rows whose source_adset_id is it), and the ads each carries. */
async function copiesOf(db: AppDeps['db'], adSetId: string) {
  const rows = await db('ad_sets').where({ source_adset_id: adSetId }).select('id');
  return Promise.all(
    rows.map(async (row) => ({
      id: String(row.id),
      ads: Number(((await db('ads').where({ adset_id: row.id }).count({ n: '*' })) as Array<{ n: number | string }>)[0]!.n),
    })),
  );
}

/** The `jobs` events told of the set itself (not of its requests): one, once its last request ended. */
async function setEvents(db: AppDeps['db'], setId: string) {
  const rows = await db(events.table).where({ topic: 'jobs', object_id: setId }).orderBy('id');
  return rows.map((row) => events.fromRow(row)).map(({ verb, value }) => ({ verb, value }));
}

const setCompleted = (setId: string, counts: { total: number; success: number; error: number }) => ({
  verb: 'finished',
  value: {
    id: setId,
    object_type: 'async_request_set',
    status: 'COMPLETED',
    total_count: counts.total,
    success_count: counts.success,
    error_count: counts.error,
    canceled_count: 0,
    time: expect.any(Number),
  },
});

/** Waits until no request of the set is INITIAL or IN_PROGRESS (polling the table: the API has a per-account rate limit). */
async function settled(db: AppDeps['db'], setId: string, timeoutMs = 20_000) {
  await eventually(
    async () => {
      const [{ n }] = (await db('async_requests').where({ set_id: setId }).whereIn('status', ['INITIAL', 'IN_PROGRESS']).count({ n: '*' })) as [
        { n: number | string },
      ];
      return Number(n) === 0;
    },
    timeoutMs,
    `async request set ${setId} to complete`,
  );
}

/** Waits for the set to complete, then reads it through GET /v24.0/<set id>. */
async function completedSet(graph: GraphClient, db: AppDeps['db'], token: string, setId: string, timeoutMs = 20_000) {
  await settled(db, setId, timeoutMs);
  const read = await graph.get(setId, token, { fields: SET_FIELDS });
  expect(read.status, read.text).toBe(200);
  expect(read.body.is_completed, read.text).toBe(true);
  return read.body;
}

describe('async_batch_requests on a running server', () => {
  let server: TestServer;
  let world: World;
  let graph: GraphClient;
  let token: string;
  let userId: string;
  let auditorToken: string;
  let outsiderToken: string;
  let organizationId: string;

  beforeAll(async () => {
    server = await startTestServer({ ASYNC_POLL_MS: '50' });
    world = worldBuilder(server.deps);
    graph = graphClient(server);
    const org = await world.organization();
    organizationId = org.id;
    const advertiser = await world.user({ organizationId, role: 'advertiser' });
    token = advertiser.token;
    userId = advertiser.user.id;
    auditorToken = (await world.user({ organizationId, role: 'auditor' })).token;
    outsiderToken = (await world.user({ organizationId: (await world.organization()).id, role: 'admin' })).token;
  });
  afterAll(() => server?.close());

  it("answers {id} at once; a deep copy of 51 ads completes and the set, its requests and the ad set's asyncadrequests report it", async () => {
    const {
      account,
      adSets: [big, small],
    } = await adSetsWithAds(world, organizationId, 2, 0);
    const bigAds = await world.ads(big!, 51);
    await world.ads(small!, 2);

    const stored = await batch(graph, token, account, 'Spring copies', [
      copyItem(big!, 'deep_copy=true', 'big'),
      copyItem(small!, 'deep_copy=true&status_option=ACTIVE', 'small'),
    ]);
    expect(stored.status, stored.text).toBe(200);
    expect(stored.body).toEqual({ id: expect.stringMatching(/^\d+$/) });
    const setId = stored.body.id as string;

    const set = await completedSet(graph, server.deps.db, token, setId);
    expect(set).toEqual({
      id: setId,
      name: 'Spring copies',
      owner_id: userId,
      total_count: 2,
      initial_count: 0,
      in_progress_count: 0,
      success_count: 2,
      error_count: 0,
      canceled_count: 0,
      is_completed: true,
    });
    // Subscribers and webhooks are told the set completed, once, with the last request's end.
    expect(await setEvents(server.deps.db, setId)).toEqual([setCompleted(setId, { total: 2, success: 2, error: 0 })]);

    const requests = await graph.get(`${setId}/requests`, token, { fields: 'id,name,status,result,error' });
    expect(requests.status, requests.text).toBe(200);
    const byName: Record<string, Record<string, any>> = Object.fromEntries((requests.body.data as Array<Record<string, any>>).map((r) => [r.name, r]));
    expect(Object.keys(byName).sort()).toEqual(['big', 'small']);
    for (const request of Object.values(byName)) {
      expect(request.status).toBe('SUCCESS');
      expect(request.error).toBeUndefined();
    }

    // The big copy: the ad set and its 51 ads, in the synchronous copy's shape.
    const bigResult = byName.big!.result as { copied_adset_id: string; ad_object_ids: Array<Record<string, string>> };
    expect(bigResult.copied_adset_id).toMatch(/^\d+$/);
    expect(bigResult.ad_object_ids).toHaveLength(52);
    expect(bigResult.ad_object_ids[0]).toEqual({ ad_object_type: 'ad_set', source_id: big!.id, copied_id: bigResult.copied_adset_id });
    expect(bigResult.ad_object_ids.slice(1).map((o) => o.source_id)).toEqual(bigAds.map((ad) => ad.id));
    expect(bigResult.ad_object_ids.slice(1).every((o) => o.ad_object_type === 'ad')).toBe(true);
    expect(await copiesOf(server.deps.db, big!.id)).toEqual([{ id: bigResult.copied_adset_id, ads: 51 }]);
    const copied = await graph.get(bigResult.copied_adset_id, token, { fields: 'name,status,source_adset{id},ads.limit(100){name,status}' });
    expect(copied.body).toMatchObject({ name: 'Ad set 1 - Copy', status: 'PAUSED', source_adset: { id: big!.id } });
    expect(copied.body.ads.data).toHaveLength(51);
    expect(new Set((copied.body.ads.data as Array<{ status: string }>).map((ad) => ad.status))).toEqual(new Set(['PAUSED']));

    // status_option in the body reached the copy.
    const smallResult = byName.small!.result as { copied_adset_id: string; ad_object_ids: unknown[] };
    expect(smallResult.ad_object_ids).toHaveLength(3);
    expect((await server.deps.db('ad_sets').where({ id: smallResult.copied_adset_id }).first()).status).toBe('ACTIVE');

    // The ad set's own edges: its copy, and the request that made it.
    const copies = await graph.get(`${big!.id}/copies`, token, { fields: 'id,name' });
    expect(copies.body.data).toEqual([{ id: bigResult.copied_adset_id, name: 'Ad set 1 - Copy' }]);
    const onAdSet = await graph.get(`${big!.id}/asyncadrequests`, token, { fields: 'id,name,status,scope_object_id,result' });
    expect(onAdSet.status, onAdSet.text).toBe(200);
    expect(onAdSet.body.data).toEqual([{ id: byName.big!.id, name: 'big', status: 'SUCCESS', scope_object_id: big!.id, result: bigResult }]);
    // The set is readable from the request, and the account lists it.
    const request = await graph.get(byName.big!.id, token, { fields: 'async_request_set{id,name}' });
    expect(request.body.async_request_set).toEqual({ id: setId, name: 'Spring copies' });
    const ofAccount = await graph.get(`act_${account.id}/asyncadrequestsets`, token, { fields: 'name,is_completed' });
    expect(ofAccount.body.data, ofAccount.text).toEqual([{ id: setId, name: 'Spring copies', is_completed: true }]);
  });

  it('a synchronous deep copy of 51 ads is refused and points at async_batch_requests', async () => {
    const {
      account,
      adSets: [adSet],
    } = await adSetsWithAds(world, organizationId, 1, 51);
    const before = await rowCounts(server.deps.db);
    const response = await graph.call('POST', `/v24.0/${adSet!.id}/copies`, { token, json: { deep_copy: true } });
    expectGraphError(response, { status: 400, code: 100, message: new RegExp(`async_batch_requests`) });
    expect(response.body.error.message).toContain(`act_${account.id}`);
    expect(await rowCounts(server.deps.db)).toEqual(before);
  });

  it('a deep copy of 52 ads is refused when asked: error 100 naming adbatch[i], nothing written', async () => {
    const {
      account,
      adSets: [fine, big],
    } = await adSetsWithAds(world, organizationId, 2, 0);
    await world.ads(fine!, 51);
    await world.ads(big!, 52);
    const before = await rowCounts(server.deps.db);
    const response = await batch(graph, token, account, 'Too big', [copyItem(fine!), copyItem(big!)]);
    expectGraphError(response, { status: 400, code: 100, type: 'OAuthException', message: /^\(#100\) Param adbatch\[1\]: .*at most 51 ads/ });
    expect(await rowCounts(server.deps.db)).toEqual(before);
    // A shallow copy of the same ad set carries no ads: that one is fine.
    const shallow = await batch(graph, token, account, 'Shallow', [copyItem(big!, 'deep_copy=false')]);
    expect(shallow.body, shallow.text).toEqual({ id: expect.any(String) });
    expect(await completedSet(graph, server.deps.db, token, shallow.body.id)).toMatchObject({ success_count: 1, error_count: 0 });
  });

  describe('bad requests are error 100 naming the parameter, and write nothing', () => {
    let account: AdAccountRecord;
    let adSet: AdSetRecord;
    let otherAccountAdSet: AdSetRecord;
    let foreignAdSet: AdSetRecord;
    beforeAll(async () => {
      const mine = await adSetsWithAds(world, organizationId, 1, 1);
      account = mine.account;
      adSet = mine.adSets[0]!;
      otherAccountAdSet = (await adSetsWithAds(world, organizationId, 1, 0)).adSets[0]!;
      const otherOrg = await world.organization();
      foreignAdSet = (await adSetsWithAds(world, otherOrg.id, 1, 0)).adSets[0]!;
    });

    const good = () => copyItem(adSet);
    it.each<[string, () => unknown, string, RegExp]>([
      [
        'not a copies URL',
        () => [good(), { name: 'ads', relative_url: `${adSet.id}/ads`, body: 'deep_copy=true' }],
        'adbatch[1]',
        /^\(#100\) Param adbatch\[1\]: .*relative_url/,
      ],
      ['a campaign URL', () => [{ name: 'c', relative_url: 'act_1/campaigns', body: '' }], 'adbatch[0]', /adbatch\[0\]/],
      ['no relative_url', () => [{ name: 'x', body: 'deep_copy=true' }], 'adbatch[0]', /adbatch\[0\].*relative_url/],
      ['an ad set of another account', () => [good(), good(), copyItem(otherAccountAdSet)], 'adbatch[2]', new RegExp(`adbatch\\[2\\]: .*${'act_'}`)],
      ['an ad set of another organization', () => [copyItem(foreignAdSet)], 'adbatch[0]', /adbatch\[0\]: names no ad set you can copy/],
      ['an id that is no object', () => [copyItem({ id: '999999999999' })], 'adbatch[0]', /adbatch\[0\]: names no ad set you can copy/],
      ['the id of a campaign', () => [copyItem({ id: adSet.campaignId })], 'adbatch[0]', /adbatch\[0\]: names no ad set you can copy/],
      ['deep_copy not a boolean', () => [copyItem(adSet, 'deep_copy=maybe')], 'adbatch[0]', /adbatch\[0\]: .*deep_copy/],
      ['status_option out of its enum', () => [good(), copyItem(adSet, 'status_option=RUNNING')], 'adbatch[1]', /adbatch\[1\]: .*status_option/],
      ['rename_options broken JSON', () => [copyItem(adSet, 'rename_options=%7Bbroken')], 'adbatch[0]', /adbatch\[0\]: .*rename_options/],
      [
        'end_time before start_time',
        () => [copyItem(adSet, 'start_time=2030-01-02T00:00:00Z&end_time=2030-01-01T00:00:00Z')],
        'adbatch[0]',
        /adbatch\[0\]: .*end_time/,
      ],
      ['campaign_id not an id', () => [copyItem(adSet, { campaign_id: 'abc' })], 'adbatch[0]', /adbatch\[0\]: .*campaign_id/],
      ['an item that is not an object', () => [good(), 'copy it'], 'adbatch[1]', /^\(#100\) Param adbatch\[1\] must be a JSON object$/],
      ['an empty list', () => [], 'adbatch', /adbatch must have at least 1/],
      ['more than 50 items', () => Array.from({ length: 51 }, () => good()), 'adbatch', /adbatch.*50/],
      ['not a list', () => good(), 'adbatch', /adbatch must be an array/],
    ])('%s', async (_what, adbatch, field, message) => {
      const before = await rowCounts(server.deps.db);
      const response = await batch(graph, token, account, 'Bad', adbatch());
      expectGraphError(response, { status: 400, code: 100, type: 'OAuthException', message });
      expect(response.body.error.message).toContain(field);
      expect(await rowCounts(server.deps.db)).toEqual(before);
    });

    it.each<[string, Record<string, unknown>, RegExp]>([
      ['no name', { adbatch: '[]' }, /name/],
      ['no adbatch', { name: 'n' }, /adbatch/],
      ['adbatch JSON broken in a form field', { name: 'n', adbatch: '[{"relative_url":' }, /adbatch/],
    ])('%s (form-encoded)', async (_what, form, message) => {
      const before = await rowCounts(server.deps.db);
      const response = await graph.call('POST', `/v24.0/act_${account.id}/async_batch_requests`, { token, form });
      expectGraphError(response, { status: 400, code: 100, message });
      expect(await rowCounts(server.deps.db)).toEqual(before);
    });

    it('an auditor (reads ads, writes none) is refused with 200 and an outsider sees no account; nothing written', async () => {
      const before = await rowCounts(server.deps.db);
      expectGraphError(await batch(graph, auditorToken, account, 'Auditor', [good()]), { status: 403, code: 200 });
      expectGraphError(await batch(graph, outsiderToken, account, 'Outsider', [good()]), { status: 400, code: 100, subcode: 33 });
      expect(await rowCounts(server.deps.db)).toEqual(before);
    });

    it('a set is invisible to another organization', async () => {
      const stored = await batch(graph, token, account, 'Mine', [copyItem(adSet, 'deep_copy=false')]);
      await completedSet(graph, server.deps.db, token, stored.body.id);
      expectGraphError(await graph.get(stored.body.id, outsiderToken, { fields: SET_FIELDS }), {
        status: 400,
        code: 100,
        subcode: 33,
        message: UNKNOWN_OBJECT(stored.body.id),
      });
    });
  });

  it('GraphQL copyAdSet(async: true) returns a request to poll, and asyncRequestSet reports it', async () => {
    const {
      adSets: [adSet],
    } = await adSetsWithAds(world, organizationId, 1, 4);
    const { body } = await server.graphql(
      'mutation ($id: ID!) { copyAdSet(id: $id, input: { deepCopy: true }, async: true) { copiedAdSet { id } request { id status requestSet { id } } } }',
      { id: adSet!.id },
      token,
    );
    expect(body.errors, JSON.stringify(body.errors)).toBeUndefined();
    const { copiedAdSet, request } = body.data!.copyAdSet;
    expect(copiedAdSet).toBeNull();
    expect(request.id).toMatch(/^\d+$/);
    const done = await eventually(
      async () => {
        const read = await server.graphql(
          'query ($id: ID!) { asyncRequestSet(id: $id) { isCompleted successCount requests { nodes { status result } } } }',
          { id: request.requestSet.id },
          token,
        );
        expect(read.body.errors, JSON.stringify(read.body.errors)).toBeUndefined();
        return read.body.data!.asyncRequestSet.isCompleted ? read.body.data!.asyncRequestSet : undefined;
      },
      20_000,
      'the GraphQL copy to complete',
    );
    expect(done.successCount).toBe(1);
    expect(done.requests.nodes[0].status).toBe('SUCCESS');
    expect(done.requests.nodes[0].result.ad_object_ids).toHaveLength(5);
    expect(await copiesOf(server.deps.db, adSet!.id)).toEqual([{ id: done.requests.nodes[0].result.copied_adset_id, ads: 4 }]);
    // A synchronous deep copy of 4 ads is refused on GraphQL too.
    const refused = await server.graphql(
      'mutation ($id: ID!) { copyAdSet(id: $id, input: { deepCopy: true }) { copiedAdSet { id } } }',
      { id: adSet!.id },
      token,
    );
    const error = firstError(refused.body);
    expect(error.extensions?.code).toBe('BAD_USER_INPUT');
    expect(error.extensions?.field).toBe('input.deepCopy');
    expect(error.extensions?.graphApi).toMatchObject({ code: 100 });
  });
});

/** One more instance of the application over a test database (its own pool), as a restart or a second instance would be. */
async function instance(database: TestDatabase, env: Record<string, string> = {}) {
  const config = loadConfig({ LOG_LEVEL: 'silent', BCRYPT_COST: '4', ASYNC_POLL_MS: '50', ...env, PORT: '0', DATABASE_URL: database.url });
  const db = createDatabase(database.url, database.schema ? { schema: database.schema } : {});
  const deps = createAppDeps(config, { db, log: createLogger('silent'), rateLimitPrefix: `test-${randomUUID()}` });
  const running = await startServer(deps, { port: 0, host: '127.0.0.1' });
  return { url: running.url, deps, graph: graphClient(running), close: () => running.close() };
}

type Instance = Awaited<ReturnType<typeof instance>>;

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/**
 * `adgraph serve` in a child process over the test database, its runner polling every 50 ms. Resolves once it
 * listens; stop() sends SIGTERM to that process (by its pid) and waits for it to exit.
 */
async function serveProcess(database: TestDatabase) {
  const env = cliEnv(database, { PORT: '0', SEED_DEMO: 'false', ASYNC_POLL_MS: '50', LOG_LEVEL: 'info' });
  const child: ChildProcess = spawn(process.execPath, [...CLI_ARGS, 'serve'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk) => {
    stdout += String(chunk);
  });
  child.stderr!.on('data', (chunk) => {
    stderr += String(chunk);
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  await eventually(
    async () => {
      if (child.exitCode !== null) throw new Error(`adgraph serve exited (${child.exitCode}): ${stderr}`);
      return stdout.includes('"msg":"adgraph is listening"');
    },
    30_000,
    'adgraph serve to listen',
  );
  return {
    output: () => `stdout: ${stdout}\nstderr: ${stderr}`,
    /** Log lines at warn or above (the runner logs failures there). */
    errors: () =>
      stderr
        .split('\n')
        .filter((line) => line.trim().startsWith('{'))
        .map((line) => JSON.parse(line) as { level: number; msg: string })
        .filter((line) => line.level >= 40),
    async stop() {
      if (child.exitCode === null && child.pid !== undefined) process.kill(child.pid, 'SIGTERM');
      return exited;
    },
  };
}

describe('durability: stored requests, restarts, leases, several runners', () => {
  let database: TestDatabase;
  /** No runner: requests it stores wait. */
  let idle: Instance;
  let world: World;
  let token: string;
  let userId: string;
  let organizationId: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    idle = await instance(database, { ASYNC_RUNNER: 'false' });
    world = worldBuilder(idle.deps);
    const org = await world.organization();
    organizationId = org.id;
    const advertiser = await world.user({ organizationId, role: 'advertiser' });
    token = advertiser.token;
    userId = advertiser.user.id;
  });
  afterAll(async () => {
    await idle?.close();
    await database?.dispose();
  });

  const requestRows = async (setId: string) =>
    (await database.db(asyncRequests.table).where({ set_id: setId }).orderBy('id')).map((row: Record<string, unknown>) => asyncRequests.fromRow(row));

  it('requests stored while no runner runs wait; a restart on the same database completes them, each copy once, and records a failure', async () => {
    const account = await world.adAccount(organizationId);
    const [campaign] = await world.campaigns(account, 1);
    // The third ad set targets an audience that is clean now and flagged after the request is stored.
    const [audience] = await idle.deps.db.transaction((trx) =>
      insertObjects(trx, 'custom_audience', customAudiences, [
        {
          organizationId,
          accountId: account.id,
          name: 'Clean for now',
          subtype: 'CUSTOM',
          description: null,
          lookalikeSpec: null,
          flaggedReason: null,
          operationStatusCode: 200,
          operationStatusDescription: null,
        },
      ]),
    );
    const adSets = await world.adSets(campaign!, 3, (i) => ({
      ...VALID_AD_SET,
      targeting: { geo_locations: { countries: ['US'] }, ...(i === 2 ? { custom_audiences: [{ id: audience!.id }] } : {}) },
    }));
    for (const adSet of adSets) await world.ads(adSet, 2);

    const storer = await instance(database, { ASYNC_RUNNER: 'false' });
    const stored = await batch(
      storer.graph,
      token,
      account,
      'Before the restart',
      adSets.map((a) => copyItem(a)),
    );
    expect(stored.body, stored.text).toEqual({ id: expect.stringMatching(/^\d+$/) });
    const setId = stored.body.id as string;
    await flagAudience(idle.deps, { id: audience!.id, reason: 'health' });

    // Nothing runs them: the set reports them INITIAL, and no copy exists.
    const waiting = await storer.graph.get(setId, token, { fields: SET_FIELDS });
    expect(waiting.body).toEqual({
      id: setId,
      name: 'Before the restart',
      owner_id: userId,
      total_count: 3,
      initial_count: 3,
      in_progress_count: 0,
      success_count: 0,
      error_count: 0,
      canceled_count: 0,
      is_completed: false,
    });
    const initial = await storer.graph.get(`${setId}/requests`, token, { fields: 'status,result,error' });
    expect((initial.body.data as Array<Record<string, unknown>>).map((r) => r.status)).toEqual(['INITIAL', 'INITIAL', 'INITIAL']);
    for (const adSet of adSets) expect(await copiesOf(database.db, adSet.id)).toEqual([]);

    // That instance goes away; another starts on the same database and runs what was stored.
    await storer.close();
    const restarted = await instance(database);
    try {
      const set = await completedSet(restarted.graph, database.db, token, setId);
      expect(set).toMatchObject({
        total_count: 3,
        initial_count: 0,
        in_progress_count: 0,
        success_count: 2,
        error_count: 1,
        canceled_count: 0,
        is_completed: true,
      });
      for (const adSet of adSets.slice(0, 2)) expect((await copiesOf(database.db, adSet.id)).map((c) => c.ads)).toEqual([2]);
      expect(await copiesOf(database.db, adSets[2]!.id)).toEqual([]);

      const onFailed = await restarted.graph.get(`${adSets[2]!.id}/asyncadrequests`, token, { fields: 'status,result,error' });
      const [failed] = onFailed.body.data as Array<Record<string, any>>;
      expect(failed!.status).toBe('ERROR');
      expect(failed!.result).toBeUndefined();
      expect(failed!.error).toMatchObject({
        code: 100,
        error_subcode: 246003,
        type: 'OAuthException',
        is_transient: false,
        message: expect.stringContaining(audience!.id),
        error_user_title: expect.any(String),
        error_user_msg: expect.stringContaining(audience!.id),
      });
      expect(JSON.stringify(failed!.error.error_data)).toContain(audience!.id);
      // The stored error carries no trace id of a request that never was.
      expect(failed!.error.fbtrace_id).toBeUndefined();
      // The rows: finished, lease and claim released.
      for (const row of await requestRows(setId)) expect({ claimedBy: row.claimedBy, lease: row.leaseExpiresAt }).toEqual({ claimedBy: null, lease: null });
    } finally {
      await restarted.close();
    }
  });

  it('an IN_PROGRESS request whose lease expired is claimed again and completed; one whose lease holds is left alone', async () => {
    const { account, adSets } = await adSetsWithAds(world, organizationId, 2, 1);
    const stored = await batch(
      idle.graph,
      token,
      account,
      'Lease',
      adSets.map((a) => copyItem(a)),
    );
    const [expired, held] = await requestRows(stored.body.id);
    // A dead instance claimed the first long ago; a live one holds the second.
    await database
      .db(asyncRequests.table)
      .where({ id: expired!.id })
      .update({ status: 'IN_PROGRESS', claimed_by: 'dead-instance', lease_expires_at: new Date(Date.now() - 60_000), attempts: 1 });
    await database
      .db(asyncRequests.table)
      .where({ id: held!.id })
      .update({ status: 'IN_PROGRESS', claimed_by: 'live-instance', lease_expires_at: new Date(Date.now() + 3_600_000), attempts: 1 });

    const runner = await instance(database);
    try {
      await eventually(async () => (await requestRows(stored.body.id))[0]!.status === 'SUCCESS', 20_000, 'the expired request to be run again');
      const [first, second] = await requestRows(stored.body.id);
      expect(first).toMatchObject({ status: 'SUCCESS', claimedBy: null, leaseExpiresAt: null, attempts: 2 });
      expect((await copiesOf(database.db, adSets[0]!.id)).map((c) => c.ads)).toEqual([1]);
      // Held by a live lease: not taken over (nor by a direct claim).
      expect(second).toMatchObject({ status: 'IN_PROGRESS', claimedBy: 'live-instance', attempts: 1 });
      expect(await claimNext(database.db, 'probe', 300)).toBeNull();
      expect(await copiesOf(database.db, adSets[1]!.id)).toEqual([]);
      const set = await runner.graph.get(stored.body.id, token, { fields: SET_FIELDS });
      expect(set.body).toMatchObject({ total_count: 2, success_count: 1, in_progress_count: 1, is_completed: false });
    } finally {
      await runner.close();
      // Leave nothing for the next test's runners.
      await database.db(asyncRequests.table).where({ id: held!.id }).update({ status: 'CANCELED', claimed_by: null, lease_expires_at: null });
    }
  });

  it('an instance whose lease expired while it worked does not finish: the copy is made once, by the instance holding the claim', async () => {
    const {
      account,
      adSets: [adSet],
    } = await adSetsWithAds(world, organizationId, 1, 3);
    const stored = await batch(idle.graph, token, account, 'Claim lost', [copyItem(adSet!)]);
    // A claims with a lease that is already over (it took too long); B claims the same request again.
    const slow = await claimNext(database.db, 'instance-a', 5, new Date(Date.now() - 3_600_000));
    expect(slow?.setId).toBe(stored.body.id);
    const fast = await claimNext(database.db, 'instance-b', 300);
    expect(fast?.id).toBe(slow!.id);
    expect(fast!.attempts).toBe(2);

    await runRequest(idle.deps, fast!, 'instance-b');
    await runRequest(idle.deps, slow!, 'instance-a');
    const [row] = await requestRows(stored.body.id);
    expect(row).toMatchObject({ status: 'SUCCESS', claimedBy: null });
    expect((await copiesOf(database.db, adSet!.id)).map((c) => c.ads)).toEqual([3]);
    expect((row!.result as { copied_adset_id: string }).copied_adset_id).toBe((await copiesOf(database.db, adSet!.id))[0]!.id);
  });

  it('an ad set that grew past 51 ads after its request was stored ends ERROR and copies nothing', async () => {
    const {
      account,
      adSets: [adSet],
    } = await adSetsWithAds(world, organizationId, 1, 51);
    const stored = await batch(idle.graph, token, account, 'Grew', [copyItem(adSet!)]);
    expect(stored.body, stored.text).toEqual({ id: expect.stringMatching(/^\d+$/) });
    await world.ads(adSet!, 1);
    const claimed = await claimNext(database.db, 'grew', 300);
    expect(claimed?.setId).toBe(stored.body.id);
    await runRequest(idle.deps, claimed!, 'grew');
    const [row] = await requestRows(stored.body.id);
    expect(row).toMatchObject({ status: 'ERROR', result: null, claimedBy: null });
    expect(row!.error).toMatchObject({ code: 100, type: 'OAuthException', message: expect.stringContaining('at most 51 ads') });
    expect(await copiesOf(database.db, adSet!.id)).toEqual([]);
  });

  it('an ad set deleted after its request was stored ends ERROR with the Graph error and copies nothing', async () => {
    const {
      account,
      adSets: [adSet],
    } = await adSetsWithAds(world, organizationId, 1, 2);
    const stored = await batch(idle.graph, token, account, 'Deleted since', [copyItem(adSet!)]);
    expect(stored.body, stored.text).toEqual({ id: expect.stringMatching(/^\d+$/) });
    const deleted = await idle.graph.call('DELETE', `/v24.0/${adSet!.id}`, { token });
    expect(deleted.body, deleted.text).toEqual({ success: true });
    const claimed = await claimNext(database.db, 'deleted', 300);
    expect(claimed?.setId).toBe(stored.body.id);
    await runRequest(idle.deps, claimed!, 'deleted');
    const [row] = await requestRows(stored.body.id);
    expect(row).toMatchObject({ status: 'ERROR', result: null });
    expect(row!.error).toMatchObject({ code: 100, type: 'OAuthException', message: expect.stringContaining('DELETED') });
    expect(await copiesOf(database.db, adSet!.id)).toEqual([]);
  });

  it('a request runs with the rights its maker has when it runs: a maker demoted to auditor gets ERROR 200 and no copy', async () => {
    const maker = await world.user({ organizationId, role: 'advertiser' });
    const {
      account,
      adSets: [adSet],
    } = await adSetsWithAds(world, organizationId, 1, 1);
    const stored = await batch(idle.graph, maker.token, account, 'Demoted', [copyItem(adSet!)]);
    expect(stored.body, stored.text).toEqual({ id: expect.stringMatching(/^\d+$/) });
    // Demoted before the request runs: an auditor reads ads and writes none.
    const membership = await findMembership(database.db, organizationId, maker.user.id);
    await updateMembershipRole(database.db, membership!.id, 'auditor', new Date());
    const claimed = await claimNext(database.db, 'demotion', 300);
    expect(claimed?.setId).toBe(stored.body.id);
    await runRequest(idle.deps, claimed!, 'demotion');

    const [row] = await requestRows(stored.body.id);
    expect(row!.status).toBe('ERROR');
    expect(row!.error).toMatchObject({ code: 200 });
    expect(await copiesOf(database.db, adSet!.id)).toEqual([]);
  });

  it('two server processes over one database complete N requests with each copy made exactly once', async () => {
    const N = 12;
    const { account, adSets } = await adSetsWithAds(world, organizationId, N, 2);
    const before = await rowCounts(database.db);
    const stored = await batch(
      idle.graph,
      token,
      account,
      'Shared',
      adSets.map((a) => copyItem(a)),
    );
    expect(stored.body, stored.text).toEqual({ id: expect.stringMatching(/^\d+$/) });
    // Two instances as they run in production: separate processes, each with its own pool and runner.
    const processes = await Promise.all([serveProcess(database), serveProcess(database)]);
    try {
      const set = await completedSet(idle.graph, database.db, token, stored.body.id, 45_000);
      expect(set).toMatchObject({ total_count: N, success_count: N, error_count: 0, is_completed: true });
      for (const adSet of adSets) expect((await copiesOf(database.db, adSet.id)).map((c) => c.ads)).toEqual([2]);
      const after = await rowCounts(database.db);
      expect(after).toEqual({
        ...before,
        objects: before.objects + 1 + N + N * 3,
        adSets: before.adSets + N,
        ads: before.ads + N * 2,
        sets: before.sets + 1,
        requests: before.requests + N,
      });
      for (const row of await requestRows(stored.body.id)) expect(row).toMatchObject({ status: 'SUCCESS', attempts: 1, claimedBy: null });
      // Requests of the set ended on both instances, some at the same moment: the set was told complete once.
      expect(await setEvents(database.db, stored.body.id)).toEqual([setCompleted(stored.body.id, { total: N, success: N, error: 0 })]);
    } finally {
      await Promise.all(processes.map((p) => p.stop()));
    }
    for (const p of processes) expect(p.errors(), p.output()).toEqual([]);
  });

  // startJobRunner's loop awaits runClaimed without a catch (only claimNext is guarded), so whatever runClaimed throws
  // becomes an unhandled rejection of the server process. A database failure must leave the request to its lease instead.
  it('runRequest does not reject when the database fails between the claim and the run (the request waits for its lease to expire)', async () => {
    const {
      account,
      adSets: [adSet],
    } = await adSetsWithAds(world, organizationId, 1, 1);
    const stored = await batch(idle.graph, token, account, 'Outage', [copyItem(adSet!)]);
    const claimed = await claimNext(database.db, 'outage', 300);
    expect(claimed?.setId).toBe(stored.body.id);
    // The database goes away between the claim and the run (nothing listens on port 1).
    const down = createDatabase('postgres://postgres@127.0.0.1:1/test');
    try {
      await expect(runRequest({ ...idle.deps, db: down }, claimed!, 'outage')).resolves.toBeUndefined();
    } finally {
      await down.destroy();
      await database.db(asyncRequests.table).where({ set_id: stored.body.id }).update({ status: 'CANCELED', claimed_by: null, lease_expires_at: null });
    }
    expect(await copiesOf(database.db, adSet!.id)).toEqual([]);
  });

  it('claims racing over two connection pools never hand one request to two instances', async () => {
    const N = 16;
    const { account, adSets } = await adSetsWithAds(world, organizationId, 1, 0);
    const stored = await batch(
      idle.graph,
      token,
      account,
      'Race',
      Array.from({ length: N }, (_, i) => copyItem(adSets[0]!, 'deep_copy=false', `r${i}`)),
    );
    const pools = [database.db, createDatabase(database.url, database.schema ? { schema: database.schema } : {})];
    try {
      const claimed: Array<{ instance: number; request: AsyncRequestRecord }> = [];
      const drain = async (instanceIndex: number) => {
        for (;;) {
          const request = await claimNext(pools[instanceIndex % 2]!, `racer-${instanceIndex}`, 300);
          if (!request) return;
          claimed.push({ instance: instanceIndex, request });
        }
      };
      await Promise.all([0, 1, 2, 3].map(drain));
      const ids = claimed.map((c) => c.request.id);
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids.sort()).toEqual((await requestRows(stored.body.id)).map((r) => r.id).sort());
      for (const row of await requestRows(stored.body.id))
        expect(row).toMatchObject({ status: 'IN_PROGRESS', attempts: 1, claimedBy: expect.stringMatching(/^racer-/) });
    } finally {
      await pools[1]!.destroy();
      await database.db(asyncRequests.table).where({ set_id: stored.body.id }).update({ status: 'CANCELED', claimed_by: null, lease_expires_at: null });
    }
  });

  it('two requests of a set ending at once on two instances tell the set complete once', async () => {
    const { account, adSets } = await adSetsWithAds(world, organizationId, 1, 0);
    const stored = await batch(idle.graph, token, account, 'Ending together', [
      copyItem(adSets[0]!, 'deep_copy=false', 'first'),
      copyItem(adSets[0]!, 'deep_copy=false', 'second'),
    ]);
    const setId = stored.body.id as string;
    let reached!: () => void;
    let release!: () => void;
    const firstEnded = new Promise<void>((resolve) => (reached = resolve));
    const gate = new Promise<void>((resolve) => (release = resolve));
    // Each instance ends its request in a transaction of its own; the first keeps its transaction open after its end.
    const ending = (held: boolean): JobKind<AsyncRequestRecord> => ({
      ...adSetCopyJobs,
      run: (deps, _request, lease) =>
        deps.db.transaction(async (trx) => {
          await lease.finish(trx, { status: 'SUCCESS', result: '{}' });
          if (held) {
            reached();
            await gate;
          }
        }),
    });
    const first = (await claimNext(database.db, 'instance-a', 300))!;
    const second = (await claimNext(database.db, 'instance-b', 300))!;
    const firstRun = runClaimed(idle.deps, ending(true), first, 'instance-a');
    await firstEnded;
    const secondRun = runClaimed(idle.deps, ending(false), second, 'instance-b');
    // The second end runs while the first is uncommitted. Counting the set then, neither would see the other's end:
    // on PostgreSQL the second waits for the set's row (locked by the first) instead; SQLite's one connection makes
    // it wait for the first transaction anyway.
    const waitingForTheSet = async () => {
      if (dialect(database.db) !== 'postgres') return;
      await eventually(
        async () =>
          (await database.db.raw("select 1 from pg_stat_activity where wait_event_type = 'Lock' and query ilike '%async_request_sets%'")).rows.length > 0,
        10_000,
        'the second end waiting for the set',
      );
    };
    await Promise.race([secondRun, waitingForTheSet()]);
    release();
    await Promise.all([firstRun, secondRun]);
    expect((await requestRows(setId)).map((row) => row.status)).toEqual(['SUCCESS', 'SUCCESS']);
    expect(await setEvents(database.db, setId)).toEqual([setCompleted(setId, { total: 2, success: 2, error: 0 })]);
  });

  describe('statements', () => {
    async function contextFor() {
      const viewer = await restorePrincipal(idle.deps, { kind: 'user', userId });
      return createRequestContext(idle.deps, { requestId: `statements-${randomUUID()}`, viewer: viewer! });
    }

    it('a deep copy of 51 ads is a handful of statements, the same for 5 ads', async () => {
      const small = (await adSetsWithAds(world, organizationId, 1, 5)).adSets[0]!;
      const big = (await adSetsWithAds(world, organizationId, 1, 51)).adSets[0]!;
      const input = readCopyParams({ deep_copy: true });
      // A context each, as each request has: a context looks its actor up once for the change history.
      const count = async (source: AdSetRecord) => {
        const ctx = await contextFor();
        return countStatements(idle.deps.db, () => idle.deps.db.transaction((trx) => copyAdSetIn(ctx, trx, source, input, 51)));
      };
      const five = await count(small);
      const fiftyOne = await count(big);
      expect(five.result.adObjectIds).toHaveLength(6);
      expect(fiftyOne.result.adObjectIds).toHaveLength(52);
      expect(fiftyOne.statements.length, fiftyOne.statements.join('\n')).toBeLessThan(25);
      expect(fiftyOne.statements.length, `5 ads:\n${five.statements.join('\n')}\n51 ads:\n${fiftyOne.statements.join('\n')}`).toBe(five.statements.length);
      expect((await copiesOf(database.db, big.id)).map((c) => c.ads)).toEqual([51]);
    });

    it('the runner runs one request of 51 ads in a handful of statements, the same for 5 ads', async () => {
      const runOne = async (ads: number) => {
        const {
          account,
          adSets: [adSet],
        } = await adSetsWithAds(world, organizationId, 1, ads);
        const stored = await batch(idle.graph, token, account, `Count ${ads}`, [copyItem(adSet!)]);
        const request = await claimNext(database.db, 'counter', 300);
        expect(request?.setId).toBe(stored.body.id);
        const { statements } = await countStatements(idle.deps.db, () => runRequest(idle.deps, request!, 'counter'));
        expect((await requestRows(stored.body.id))[0]!.status).toBe('SUCCESS');
        return statements;
      };
      const five = await runOne(5);
      const fiftyOne = await runOne(51);
      expect(fiftyOne.length, fiftyOne.join('\n')).toBeLessThan(35);
      expect(fiftyOne.length, `5 ads:\n${five.join('\n')}\n51 ads:\n${fiftyOne.join('\n')}`).toBe(five.length);
    });
  });
});
