import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LISTENING_LINE } from '../helpers/serve-child.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { worldBuilder } from '../helpers/world.ts';
import { eventually, firstError } from '../helpers/api.ts';
import { expectGraphError, graphClient, type GraphClient, type GraphHttpResponse } from '../helpers/graph.ts';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { CLI_ARGS, cliEnv } from '../helpers/cli.ts';
import type { AdAccountRecord, AdSetRecord, CampaignRecord } from '../../src/ads/store.ts';

/**
 * The ad set limit (DECISIONS section 5): non-deleted ad sets per ad account, 5,000 (10,000 for bulk accounts),
 * error 2695, exact under concurrent requests on SQLite and PostgreSQL. The server runs with a small limit
 * (AD_SET_LIMIT=12, AD_SET_LIMIT_BULK=20) so a test can reach it; every way an ad set comes into being counts
 * (create, synchronous copy, asynchronous copy), and DELETED ones do not.
 */
const LIMIT = 12;
const BULK_LIMIT = 20;
const PARALLEL = 20;

let server: TestServer;
let world: ReturnType<typeof worldBuilder>;
let graph: GraphClient;
let token: string;
let organizationId: string;

beforeAll(async () => {
  server = await startTestServer({ AD_SET_LIMIT: String(LIMIT), AD_SET_LIMIT_BULK: String(BULK_LIMIT) });
  world = worldBuilder(server.deps);
  graph = graphClient(server);
  const org = await world.organization();
  organizationId = org.id;
  token = (await world.user({ organizationId, role: 'advertiser' })).token;
});
afterAll(() => server?.close());

/** A fresh account (regular or bulk) with one campaign and `existing` ACTIVE ad sets already in it. */
async function accountWith(existing: number, options: { bulk?: boolean } = {}) {
  const account = await world.adAccount(organizationId, { isBulk: options.bulk ?? false });
  const [campaign] = await world.campaigns(account, 1);
  const adSets = existing > 0 ? await world.adSets(campaign!, existing, () => VALID_AD_SET) : [];
  return { account, campaign: campaign!, adSets };
}

/** What an ad set inserted directly needs for its copies to pass the rules (a budget, a billing event). */
const VALID_AD_SET = { billingEvent: 'IMPRESSIONS', optimizationGoal: 'LINK_CLICKS', dailyBudget: '1000' } as const;

/** A valid create of an ad set under `campaign` (US traffic, billed by impressions, a daily budget above the minimum). */
const createBody = (campaign: CampaignRecord, name: string) => ({
  name,
  campaign_id: campaign.id,
  billing_event: 'IMPRESSIONS',
  optimization_goal: 'LINK_CLICKS',
  daily_budget: 1000,
  targeting: { geo_locations: { countries: ['US'] } },
  status: 'PAUSED',
});

/** POST /v24.0/act_<ID>/adsets with a JSON body, as the Node SDK sends it. */
const create = (account: AdAccountRecord, campaign: CampaignRecord, name: string, extra: Record<string, unknown> = {}) =>
  graph.call('POST', `/v24.0/act_${account.id}/adsets`, { token, json: { ...createBody(campaign, name), ...extra } });

const copy = (adSet: AdSetRecord | { id: string }, params: Record<string, unknown> = {}) =>
  graph.call('POST', `/v24.0/${adSet.id}/copies`, { token, json: params });

/** Non-deleted ad sets of an account, as the limit counts them. */
async function liveAdSets(accountId: string): Promise<number> {
  const [{ n }] = (await server.deps.db('ad_sets').where({ account_id: accountId }).whereNot({ status: 'DELETED' }).count({ n: '*' })) as [
    { n: number | string },
  ];
  return Number(n);
}

/** Rows of every table an ad set write touches (ids included: they are allocated in the write's transaction). */
async function rowCounts() {
  const count = async (table: string) => Number(((await server.deps.db(table).count({ n: '*' })) as Array<{ n: number | string }>)[0]!.n);
  return {
    objects: await count('graph_objects'),
    adSets: await count('ad_sets'),
    ads: await count('ads'),
    references: await count('ad_set_references'),
    asyncRequests: await count('async_requests'),
  };
}

/** The whole Graph envelope of error 2695, with a title and a message a person can act on. */
function expectLimitError(response: GraphHttpResponse, limit: number) {
  expectGraphError(response, { status: 400, code: 2695, type: 'OAuthException', message: /limit/i });
  const error = response.body.error;
  expect(error.error_user_title, response.text).toEqual(expect.any(String));
  expect(error.error_user_msg, response.text).toContain(String(limit));
}

const isLimitError = (response: GraphHttpResponse) => response.status === 400 && response.body?.error?.code === 2695;
const isSuccess = (response: GraphHttpResponse) => response.status === 200 && typeof response.body?.id === 'string';

describe('parallel creates against the limit', () => {
  it.each([
    { kind: 'regular', bulk: false, limit: LIMIT, existing: LIMIT - 1 },
    { kind: 'regular', bulk: false, limit: LIMIT, existing: LIMIT - 7 },
    { kind: 'bulk', bulk: true, limit: BULK_LIMIT, existing: BULK_LIMIT - 1 },
    { kind: 'bulk', bulk: true, limit: BULK_LIMIT, existing: BULK_LIMIT - 9 },
  ])(`a $kind account with $existing of $limit: ${PARALLEL} parallel creates end with exactly the limit`, async ({ bulk, limit, existing }) => {
    const { account, campaign } = await accountWith(existing, { bulk });
    const before = await rowCounts();
    const responses = await Promise.all(Array.from({ length: PARALLEL }, (_, i) => create(account, campaign, `Parallel ${i}`)));

    const succeeded = responses.filter(isSuccess);
    const refused = responses.filter(isLimitError);
    // Every answer is one of the two: no deadlock, no busy database, no other error.
    expect(responses.filter((r) => !isSuccess(r) && !isLimitError(r)).map((r) => r.text)).toEqual([]);
    expect(succeeded).toHaveLength(limit - existing);
    expect(refused).toHaveLength(PARALLEL - (limit - existing));
    for (const response of succeeded) expect(response.body).toEqual({ id: expect.stringMatching(/^\d+$/), success: true });
    for (const response of refused) expectLimitError(response, limit);

    expect(await liveAdSets(account.id)).toBe(limit);
    // The refused creates wrote nothing: exactly one object and one ad set row per success.
    const after = await rowCounts();
    expect(after).toEqual({ ...before, objects: before.objects + succeeded.length, adSets: before.adSets + succeeded.length });
    const created = await server.deps
      .db('ad_sets')
      .whereIn(
        'id',
        succeeded.map((r) => r.body.id as string),
      )
      .select('account_id');
    expect(created.map((row) => String(row.account_id))).toEqual(succeeded.map(() => account.id));

    // At the limit, one more is refused.
    expectLimitError(await create(account, campaign, 'One more'), limit);
  });

  it('holds when creates and synchronous copies race together', async () => {
    const { account, campaign, adSets } = await accountWith(LIMIT - 4);
    const source = adSets[0]!;
    const responses = await Promise.all(
      Array.from({ length: PARALLEL }, (_, i) =>
        (i % 2 === 0 ? create(account, campaign, `Mixed ${i}`) : copy(source)).then((response) => ({ kind: i % 2 === 0 ? 'create' : 'copy', response })),
      ),
    );
    const ok = responses.filter(
      ({ kind, response }) => response.status === 200 && (kind === 'create' ? isSuccess(response) : typeof response.body.copied_adset_id === 'string'),
    );
    const refused = responses.filter(({ response }) => isLimitError(response));
    expect(responses.filter((r) => !ok.includes(r) && !refused.includes(r)).map((r) => r.response.text)).toEqual([]);
    expect(ok).toHaveLength(4);
    expect(refused).toHaveLength(PARALLEL - 4);
    expect(await liveAdSets(account.id)).toBe(LIMIT);
  });
});

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/**
 * A second instance over the test server's database, as production runs one: `adgraph serve` in its own process
 * (its own connection; on SQLite, its own lock waits). stop() sends SIGTERM to that process by its pid.
 */
async function secondInstance() {
  const env = cliEnv(server.database, {
    PORT: '0',
    SEED_DEMO: 'false',
    // At info its `adgraph is listening` line says where it listens (over a pipe there is no banner).
    LOG_LEVEL: 'info',
    AD_SET_LIMIT: String(LIMIT),
    AD_SET_LIMIT_BULK: String(BULK_LIMIT),
  });
  const child = spawn(process.execPath, [...CLI_ARGS, 'serve'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => {
    stdout += String(chunk);
  });
  child.stderr.on('data', (chunk) => {
    stderr += String(chunk);
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await eventually(
    async () => {
      if (child.exitCode !== null) throw new Error(`adgraph serve exited (${child.exitCode}): ${stderr}`);
      return LISTENING_LINE.exec(stdout)?.[1];
    },
    30_000,
    'adgraph serve to listen',
  );
  return {
    url,
    output: () => `stdout: ${stdout}\nstderr: ${stderr}`,
    async stop() {
      if (child.exitCode === null && child.pid !== undefined) process.kill(child.pid, 'SIGTERM');
      await exited;
    },
  };
}

describe('two servers over one database', () => {
  it(`${PARALLEL} parallel creates split across two server processes end with exactly the limit`, async () => {
    const other = await secondInstance();
    try {
      const otherGraph = graphClient(other);
      const { account, campaign } = await accountWith(LIMIT - 3);
      const responses = await Promise.all(
        Array.from({ length: PARALLEL }, (_, i) =>
          (i % 2 === 0 ? graph : otherGraph).call('POST', `/v24.0/act_${account.id}/adsets`, { token, json: createBody(campaign, `Instance ${i % 2} #${i}`) }),
        ),
      );
      expect(responses.filter((r) => !isSuccess(r) && !isLimitError(r)).map((r) => r.text)).toEqual([]);
      expect(responses.filter(isSuccess)).toHaveLength(3);
      for (const response of responses.filter(isLimitError)) expectLimitError(response, LIMIT);
      expect(await liveAdSets(account.id)).toBe(LIMIT);
    } finally {
      await other.stop();
    }
  });
});

describe('what counts', () => {
  it('deleted ad sets do not count: deleting one at the limit frees exactly one place', async () => {
    const { account, campaign, adSets } = await accountWith(LIMIT);
    expectLimitError(await create(account, campaign, 'Refused at the limit'), LIMIT);

    const deleted = await graph.call('DELETE', `/v24.0/${adSets[3]!.id}`, { token });
    expect(deleted.body, deleted.text).toEqual({ success: true });
    expect(await liveAdSets(account.id)).toBe(LIMIT - 1);

    const accepted = await create(account, campaign, 'In the freed place');
    expect(accepted.body, accepted.text).toEqual({ id: expect.stringMatching(/^\d+$/), success: true });
    expectLimitError(await create(account, campaign, 'Refused again'), LIMIT);
    expect(await liveAdSets(account.id)).toBe(LIMIT);
    // 13 ad sets in the account, one of them DELETED.
    expect(Number((await server.deps.db('ad_sets').where({ account_id: account.id }).count({ n: '*' }))[0]!.n)).toBe(LIMIT + 1);
  });

  it('ad sets created DELETED do not count; ARCHIVED and PAUSED ones do', async () => {
    const account = await world.adAccount(organizationId);
    const [campaign] = await world.campaigns(account, 1);
    const statuses = ['DELETED', 'DELETED', 'DELETED', 'ARCHIVED', 'ARCHIVED', 'PAUSED'] as const;
    await world.adSets(campaign!, statuses.length, (i) => ({ ...VALID_AD_SET, status: statuses[i]! }));
    await world.adSets(campaign!, LIMIT - 4, () => VALID_AD_SET); // 3 non-deleted above + 8 = LIMIT - 1
    expect(await liveAdSets(account.id)).toBe(LIMIT - 1);
    expect((await create(account, campaign!, 'Last place')).body).toEqual({ id: expect.any(String), success: true });
    expectLimitError(await create(account, campaign!, 'Over'), LIMIT);
  });

  it('a bulk account has the bulk limit, a regular one the regular limit', async () => {
    const regular = await accountWith(LIMIT);
    const bulk = await accountWith(LIMIT, { bulk: true });
    expectLimitError(await create(regular.account, regular.campaign, 'Regular over'), LIMIT);
    for (let i = LIMIT; i < BULK_LIMIT; i++) {
      const response = await create(bulk.account, bulk.campaign, `Bulk ${i}`);
      expect(response.body, response.text).toEqual({ id: expect.any(String), success: true });
    }
    expect(await liveAdSets(bulk.account.id)).toBe(BULK_LIMIT);
    expectLimitError(await create(bulk.account, bulk.campaign, 'Bulk over'), BULK_LIMIT);
  });

  it('the limit is per account: a full account does not hold back another of the same organization', async () => {
    const full = await accountWith(LIMIT);
    const other = await accountWith(0);
    expectLimitError(await create(full.account, full.campaign, 'Over'), LIMIT);
    expect((await create(other.account, other.campaign, 'Fine')).body).toEqual({ id: expect.any(String), success: true });
  });

  it('validate_only at the limit answers 2695 and writes nothing', async () => {
    const { account, campaign } = await accountWith(LIMIT);
    const before = await rowCounts();
    expectLimitError(await create(account, campaign, 'Validated', { execution_options: ['validate_only'] }), LIMIT);
    expect(await rowCounts()).toEqual(before);
  });

  it('a refused create writes nothing and names the limit on GraphQL too', async () => {
    const { account, campaign } = await accountWith(LIMIT);
    const before = await rowCounts();
    const { body } = await server.graphql(
      'mutation ($a: ID!, $input: CreateAdSetInput!) { createAdSet(accountId: $a, input: $input) { id } }',
      {
        a: `act_${account.id}`,
        input: {
          name: 'GraphQL over',
          campaignId: campaign.id,
          billingEvent: 'IMPRESSIONS',
          optimizationGoal: 'LINK_CLICKS',
          dailyBudget: '1000',
          targeting: { geoLocations: { countries: ['US'] } },
        },
      },
      token,
    );
    const error = firstError(body);
    expect(error.extensions?.code, JSON.stringify(body)).toBe('LIMIT_EXCEEDED');
    expect(error.extensions?.graphApi).toMatchObject({ code: 2695 });
    expect(error.extensions?.graphApi?.error_user_msg).toContain(String(LIMIT));
    expect(await rowCounts()).toEqual(before);
  });
});

describe('copies count too', () => {
  it('a synchronous copy takes the last place; the next copy is 2695 and writes nothing', async () => {
    const { account, adSets } = await accountWith(LIMIT - 1);
    const source = adSets[0]!;
    await world.ads(source, 2);
    const first = await copy(source, { deep_copy: true });
    expect(first.status, first.text).toBe(200);
    expect(first.body.copied_adset_id).toMatch(/^\d+$/);
    expect(await liveAdSets(account.id)).toBe(LIMIT);

    const before = await rowCounts();
    expectLimitError(await copy(source, { deep_copy: true }), LIMIT);
    expect(await rowCounts()).toEqual(before);
  });

  it(`${PARALLEL} parallel copies one below the limit: exactly one is made`, async () => {
    const { account, adSets } = await accountWith(LIMIT - 1);
    const before = await rowCounts();
    const responses = await Promise.all(Array.from({ length: PARALLEL }, () => copy(adSets[1]!)));
    const made = responses.filter((r) => r.status === 200 && typeof r.body.copied_adset_id === 'string');
    const refused = responses.filter(isLimitError);
    expect(responses.filter((r) => !made.includes(r) && !refused.includes(r)).map((r) => r.text)).toEqual([]);
    expect(made).toHaveLength(1);
    for (const response of refused) expectLimitError(response, LIMIT);
    expect(await liveAdSets(account.id)).toBe(LIMIT);
    expect(await rowCounts()).toEqual({ ...before, objects: before.objects + 1, adSets: before.adSets + 1 });
  });

  it('an asynchronous copy into a full account ends ERROR with 2695 and makes nothing', async () => {
    const { account, adSets } = await accountWith(LIMIT);
    const before = await server.deps.db('ad_sets').where({ account_id: account.id }).count({ n: '*' });
    const stored = await graph.call('POST', `/v24.0/act_${account.id}/async_batch_requests`, {
      token,
      json: { name: 'Copy into a full account', adbatch: [{ name: 'copy', relative_url: `${adSets[0]!.id}/copies`, body: 'deep_copy=true' }] },
    });
    expect(stored.body, stored.text).toEqual({ id: expect.stringMatching(/^\d+$/) });
    const done = await eventually(
      async () => {
        const read = await graph.get(`${stored.body.id}/requests`, token, { fields: 'status,result,error' });
        const [request] = read.body.data as Array<Record<string, any>>;
        return request && request.status !== 'INITIAL' && request.status !== 'IN_PROGRESS' ? request : undefined;
      },
      15_000,
      'the asynchronous copy to finish',
    );
    expect(done.status).toBe('ERROR');
    expect(done.result).toBeUndefined();
    expect(done.error).toMatchObject({ code: 2695, error_user_msg: expect.stringContaining(String(LIMIT)) });
    expect(await server.deps.db('ad_sets').where({ account_id: account.id }).count({ n: '*' })).toEqual(before);
  });
});
