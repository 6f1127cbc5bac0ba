import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type GraphQLBody, type TestServer } from '../helpers/server.ts';
import { worldBuilder } from '../helpers/world.ts';
import { eventually, firstError } from '../helpers/api.ts';
import { expectGraphError, graphClient, UNKNOWN_OBJECT, type GraphClient, type GraphHttpResponse } from '../helpers/graph.ts';
import { fetchAccessToken } from '../helpers/oauth.ts';
import { createClient } from '../../src/oauth/service.ts';
import { insertObjects } from '../../src/db/objects.ts';
import {
  ads as adsTable,
  customAudiences,
  type AdAccountRecord,
  type AdRecord,
  type AdSetRecord,
  type CampaignRecord,
  type CustomAudienceRecord,
  type ObjectStatus,
} from '../../src/ads/store.ts';

/**
 * Copies of ad sets (issue 9; the specification's copy parameters; DECISIONS section 5) on both surfaces:
 * POST /v24.0/<AD_SET_ID>/copies and GraphQL copyAdSet. Shallow and deep copies, another campaign of the
 * account, schedule, rename_options, status_option, the DSA defaults, flagged audiences, the ad set limit,
 * all or nothing, permissions, and copyAdSet(async: true) run by the background runner.
 */

// Every account here is its own small world, so a limit of 5 ad sets is reached on purpose only.
const AD_SET_LIMIT = 5;

type Role = 'advertiser' | 'auditor' | 'outsider' | 'adsReadClient';

let server: TestServer;
let graph: GraphClient;
let world: ReturnType<typeof worldBuilder>;
let tokens: Record<Role, string>;
let orgId: string;
let otherOrgId: string;

beforeAll(async () => {
  server = await startTestServer({ AD_SET_LIMIT: String(AD_SET_LIMIT), ASYNC_POLL_MS: '50' });
  graph = graphClient(server);
  world = worldBuilder(server.deps);
  const org = await world.organization();
  const other = await world.organization();
  orgId = org.id;
  otherOrgId = other.id;
  const { client, clientSecret } = await createClient(server.deps, { name: 'reader', scope: 'ads_read', organization: org.id });
  tokens = {
    advertiser: (await world.user({ organizationId: org.id, role: 'advertiser' })).token,
    auditor: (await world.user({ organizationId: org.id, role: 'auditor' })).token,
    outsider: (await world.user({ organizationId: other.id, role: 'admin' })).token,
    adsReadClient: await fetchAccessToken(server.url, client.clientId, clientSecret),
  };
});
afterAll(() => server?.close());

const US = { geo_locations: { countries: ['US'] } };

interface Scene {
  account: AdAccountRecord;
  campaign: CampaignRecord;
  source: AdSetRecord;
  ads: AdRecord[];
}

/** A fresh account with a campaign (no budget of its own), a valid ACTIVE source ad set "Source" and its ads. */
async function scene(
  options: {
    account?: Partial<AdAccountRecord>;
    campaign?: Partial<CampaignRecord>;
    source?: Partial<AdSetRecord>;
    ads?: ObjectStatus[];
    adNames?: string[];
    organizationId?: string;
  } = {},
): Promise<Scene> {
  const account = await world.adAccount(options.organizationId ?? orgId, options.account);
  const [campaign] = await world.campaigns(account, 1, options.campaign);
  const [source] = await world.adSets(campaign!, 1, () => ({
    name: 'Source',
    billingEvent: 'IMPRESSIONS',
    optimizationGoal: 'LINK_CLICKS',
    dailyBudget: '5000',
    targeting: US,
    ...options.source,
  }));
  const statuses = options.ads ?? [];
  const creatives = await world.creatives({ organizationId: source!.organizationId, accountId: account.id }, statuses.length);
  const ads =
    statuses.length === 0
      ? []
      : await server.deps.db.transaction((trx) =>
          insertObjects<AdRecord>(
            trx,
            'ad',
            adsTable,
            statuses.map((status, i) => ({
              organizationId: source!.organizationId,
              accountId: account.id,
              campaignId: campaign!.id,
              adsetId: source!.id,
              name: options.adNames?.[i] ?? `Ad ${i + 1}`,
              status,
              creativeId: creatives[i]!.id,
              sourceAdId: null,
            })),
          ),
        );
  return { account, campaign: campaign!, source: source!, ads };
}

async function audience(account: AdAccountRecord, fields: Partial<CustomAudienceRecord> = {}): Promise<CustomAudienceRecord> {
  const [created] = await server.deps.db.transaction((trx) =>
    insertObjects<CustomAudienceRecord>(trx, 'custom_audience', customAudiences, [
      {
        organizationId: account.organizationId,
        accountId: account.id,
        name: 'Audience',
        subtype: 'CUSTOM',
        description: null,
        lookalikeSpec: null,
        flaggedReason: null,
        operationStatusCode: 200,
        operationStatusDescription: null,
        ...fields,
      },
    ]),
  );
  return created!;
}

/** POST /v24.0/<id>/copies with form fields (objects and booleans JSON-encoded, as the Python SDK sends them). */
const copyRest = (id: string, form: Record<string, unknown> = {}, role: Role = 'advertiser') =>
  graph.call('POST', `/v24.0/${id}/copies`, { token: tokens[role], form });

const COPY = `mutation ($id: ID!, $input: CopyAdSetInput, $async: Boolean) { copyAdSet(id: $id, input: $input, async: $async) {
  copiedAdSet { id name status campaignId dailyBudget startTime endTime dsaPayor dsaBeneficiary sourceAdSet { id name }
    ads(first: 100) { totalCount nodes { id name status creative { id } } } }
  adObjectIds { adObjectType sourceId copiedId }
  request { id name type status scopeObjectId result error } } }`;
const copyGql = (id: string, input?: Record<string, unknown>, async?: boolean, role: Role = 'advertiser') =>
  server.graphql(COPY, { id, input, async }, tokens[role]).then((r) => r.body);

function ok(body: GraphQLBody): Record<string, any> {
  expect(body.errors, JSON.stringify(body.errors)).toBeUndefined();
  return body.data!;
}

function okRest(response: GraphHttpResponse): any {
  expect(response.status, response.text).toBe(200);
  return response.body;
}

/** Rows of every table a copy touches. */
async function rowCounts() {
  const count = async (table: string) => Number(((await server.deps.db(table).count({ n: '*' })) as Array<{ n: number | string }>)[0]!.n);
  return {
    objects: await count('graph_objects'),
    adSets: await count('ad_sets'),
    ads: await count('ads'),
    references: await count('ad_set_references'),
    requestSets: await count('async_request_sets'),
    requests: await count('async_requests'),
  };
}

/** A refused copy on /v24.0: the whole envelope, and nothing written. */
async function expectRestRefused(call: () => Promise<GraphHttpResponse>, expected: Parameters<typeof expectGraphError>[1]) {
  const before = await rowCounts();
  const response = await call();
  expectGraphError(response, expected);
  expect(await rowCounts()).toEqual(before);
  return response.body.error as Record<string, any>;
}

/** A refused copyAdSet: code, field, graphApi, and nothing written. */
async function expectGqlRefused(call: () => Promise<GraphQLBody>, expected: { code: string; field?: string; graphApi?: Record<string, unknown> }) {
  const before = await rowCounts();
  const body = await call();
  const error = firstError(body);
  expect(body.data ?? null, JSON.stringify(body)).toBeNull();
  expect(error.extensions?.code, JSON.stringify(body)).toBe(expected.code);
  if ('field' in expected) expect(error.extensions?.field).toBe(expected.field);
  if (expected.graphApi !== undefined) expect(error.extensions?.graphApi).toMatchObject(expected.graphApi);
  expect(await rowCounts()).toEqual(before);
  return error;
}

const READ_FIELDS =
  'name,status,effective_status,campaign_id,source_adset_id,source_adset{id,name},daily_budget,lifetime_budget,billing_event,optimization_goal,targeting,start_time,end_time,dsa_payor,dsa_beneficiary';
const readRest = async (id: string) => okRest(await graph.get(id, tokens.advertiser, { fields: READ_FIELDS }));
const adsOfRest = async (id: string) =>
  okRest(await graph.get(`${id}/ads`, tokens.advertiser, { fields: 'id,name,status,creative', limit: 100, summary: 'total_count' }));

describe('shallow copy', () => {
  it('POST /<id>/copies answers {copied_adset_id, ad_object_ids}; the copy is "<name> - Copy", PAUSED, from its source, without ads', async () => {
    const { source, campaign } = await scene({ ads: ['ACTIVE', 'PAUSED'] });
    const before = await rowCounts();
    const answer = okRest(await copyRest(source.id));
    expect(answer).toEqual({
      copied_adset_id: expect.stringMatching(/^\d+$/),
      ad_object_ids: [{ ad_object_type: 'ad_set', source_id: source.id, copied_id: answer.copied_adset_id }],
    });
    expect(answer.copied_adset_id).not.toBe(source.id);
    expect(await readRest(answer.copied_adset_id)).toEqual({
      id: answer.copied_adset_id,
      name: 'Source - Copy',
      status: 'PAUSED',
      effective_status: 'PAUSED',
      campaign_id: campaign.id,
      source_adset_id: source.id,
      source_adset: { id: source.id, name: 'Source' },
      daily_budget: '5000',
      billing_event: 'IMPRESSIONS',
      optimization_goal: 'LINK_CLICKS',
      targeting: US,
    });
    expect(await adsOfRest(answer.copied_adset_id)).toMatchObject({ data: [], summary: { total_count: 0 } });
    // One ad set (and its object id) more; no ads.
    expect(await rowCounts()).toEqual({ ...before, objects: before.objects + 1, adSets: before.adSets + 1 });
    // The source lists its copy; the source itself is unchanged.
    expect(okRest(await graph.get(`${source.id}/copies`, tokens.advertiser, { fields: 'id,name' })).data).toEqual([
      { id: answer.copied_adset_id, name: 'Source - Copy' },
    ]);
    expect(await readRest(source.id)).toMatchObject({ name: 'Source', status: 'ACTIVE' });
  });

  it('copyAdSet answers the same ids, and the copy itself', async () => {
    const { source, campaign } = await scene({ ads: ['ACTIVE'] });
    const result = ok(await copyGql(source.id)).copyAdSet;
    expect(result).toEqual({
      copiedAdSet: {
        id: expect.stringMatching(/^\d+$/),
        name: 'Source - Copy',
        status: 'PAUSED',
        campaignId: campaign.id,
        dailyBudget: 5000,
        startTime: null,
        endTime: null,
        dsaPayor: null,
        dsaBeneficiary: null,
        sourceAdSet: { id: source.id, name: 'Source' },
        ads: { totalCount: 0, nodes: [] },
      },
      adObjectIds: [{ adObjectType: 'AD_SET', sourceId: source.id, copiedId: result.copiedAdSet.id }],
      request: null,
    });
  });

  it('a DELETED ad set cannot be copied', async () => {
    const { source } = await scene({ source: { status: 'DELETED' } });
    await expectRestRefused(() => copyRest(source.id), { status: 400, code: 100, message: /DELETED/ });
  });
});

describe('deep copy', () => {
  it('copies up to 3 live ads synchronously, listed as ad entries; deleted and archived ads stay behind', async () => {
    const { source, ads } = await scene({ ads: ['ACTIVE', 'DELETED', 'PAUSED', 'ARCHIVED', 'ACTIVE'] });
    const live = [ads[0]!, ads[2]!, ads[4]!];
    const answer = okRest(await copyRest(source.id, { deep_copy: true }));
    expect(answer.ad_object_ids).toHaveLength(4);
    expect(answer.ad_object_ids[0]).toEqual({ ad_object_type: 'ad_set', source_id: source.id, copied_id: answer.copied_adset_id });
    const adEntries = answer.ad_object_ids.slice(1) as Array<{ ad_object_type: string; source_id: string; copied_id: string }>;
    expect(adEntries.map((e) => [e.ad_object_type, e.source_id])).toEqual(live.map((ad) => ['ad', ad.id]));
    const copied = await adsOfRest(answer.copied_adset_id);
    expect(copied.summary).toEqual({ total_count: 3 });
    expect(copied.data).toEqual(live.map((ad, i) => ({ id: adEntries[i]!.copied_id, name: ad.name, status: 'PAUSED', creative: { id: ad.creativeId } })));
    const rows = await server.deps
      .db('ads')
      .whereIn(
        'id',
        adEntries.map((e) => e.copied_id),
      )
      .orderBy('id');
    expect(rows.map((r: Record<string, unknown>) => [String(r.adset_id), String(r.source_ad_id)])).toEqual(live.map((ad) => [answer.copied_adset_id, ad.id]));
    // The source keeps its own ads.
    expect((await adsOfRest(source.id)).summary).toEqual({ total_count: 3 });
  });

  it('copyAdSet(deepCopy) answers the ad entries too', async () => {
    const { source, ads } = await scene({ ads: ['ACTIVE', 'ACTIVE'] });
    const result = ok(await copyGql(source.id, { deepCopy: true })).copyAdSet;
    expect(result.adObjectIds).toEqual([
      { adObjectType: 'AD_SET', sourceId: source.id, copiedId: result.copiedAdSet.id },
      ...ads.map((ad, i) => ({ adObjectType: 'AD', sourceId: ad.id, copiedId: result.copiedAdSet.ads.nodes[i].id })),
    ]);
    expect(result.copiedAdSet.ads.totalCount).toBe(2);
  });

  it('more than 3 ads synchronously is error 100 pointing at the asynchronous form, and writes nothing', async () => {
    const { source, account } = await scene({ ads: ['ACTIVE', 'PAUSED', 'ACTIVE', 'PAUSED'] });
    const error = await expectRestRefused(() => copyRest(source.id, { deep_copy: 'true' }), {
      status: 400,
      code: 100,
      type: 'OAuthException',
      message: new RegExp(`more than 3 ads must be asynchronous.*POST /act_${account.id}/async_batch_requests`),
    });
    expect(error).toMatchObject({ error_user_title: 'Too many ads to copy', error_user_msg: expect.stringMatching(/4 ads.*asynchronous request/) });
    await expectGqlRefused(() => copyGql(source.id, { deepCopy: true }), {
      code: 'BAD_USER_INPUT',
      field: 'input.deepCopy',
      graphApi: { code: 100, error_user_title: 'Too many ads to copy' },
    });
    // A shallow copy of the same ad set is fine.
    expect(okRest(await copyRest(source.id)).ad_object_ids).toHaveLength(1);
  });
});

describe('campaign_id', () => {
  it('another campaign of the account with its own budget: the copy goes there and has no ad set budget', async () => {
    const { source, account } = await scene();
    const [withBudget] = await world.campaigns(account, 1, { dailyBudget: '20000' });
    const answer = okRest(await copyRest(source.id, { campaign_id: withBudget!.id }));
    expect(await readRest(answer.copied_adset_id)).toMatchObject({ campaign_id: withBudget!.id, source_adset_id: source.id });
    const row = await server.deps.db('ad_sets').where({ id: answer.copied_adset_id }).first();
    expect({ daily: row.daily_budget, lifetime: row.lifetime_budget }).toEqual({ daily: null, lifetime: null });
    const gqlResult = ok(await copyGql(source.id, { campaignId: withBudget!.id })).copyAdSet.copiedAdSet;
    expect(gqlResult).toMatchObject({ campaignId: withBudget!.id, dailyBudget: null });
  });

  it('another campaign of the account without a budget: the copy keeps the ad set budget', async () => {
    const { source, account } = await scene();
    const [plain] = await world.campaigns(account, 1);
    const answer = okRest(await copyRest(source.id, { campaign_id: Number(plain!.id) }));
    expect(await readRest(answer.copied_adset_id)).toMatchObject({ campaign_id: plain!.id, daily_budget: '5000' });
  });

  it("the copy takes the new campaign's rules: no budget anywhere, or a special ad category, is refused", async () => {
    const { source, account } = await scene({ campaign: { dailyBudget: '20000' }, source: { dailyBudget: null } });
    const [plain] = await world.campaigns(account, 1);
    await expectRestRefused(() => copyRest(source.id, { campaign_id: plain!.id }), {
      status: 400,
      code: 100,
      message: /daily_budget or lifetime_budget is required/,
    });
    const restricted = await scene({ source: { targeting: { geo_locations: { countries: ['US'] }, age_min: 25 } } });
    const [housing] = await world.campaigns(restricted.account, 1, { specialAdCategories: ['HOUSING'] });
    await expectRestRefused(() => copyRest(restricted.source.id, { campaign_id: housing!.id }), {
      status: 400,
      code: 100,
      message: /targeting\.age_min.*HOUSING/,
    });
  });

  it.each([
    ['another account of the organization', 'same-org'],
    ['another organization', 'other-org'],
    ['the account, but DELETED', 'deleted'],
  ] as const)('a campaign of %s is error 100 on campaign_id, and nothing is written', async (_, which) => {
    const { source, account } = await scene();
    const target =
      which === 'deleted'
        ? (await world.campaigns(account, 1, { status: 'DELETED' }))[0]!
        : (await scene({ organizationId: which === 'other-org' ? otherOrgId : orgId })).campaign;
    await expectRestRefused(() => copyRest(source.id, { campaign_id: target.id }), { status: 400, code: 100, message: /campaign_id/ });
    await expectGqlRefused(() => copyGql(source.id, { campaignId: target.id }), { code: 'BAD_USER_INPUT', field: 'input.campaignId', graphApi: { code: 100 } });
  });
});

describe('bad input: a precise error 100, nothing written', () => {
  it.each([
    ['deep_copy that is not a boolean', { deep_copy: 'maybe' }, /^\(#100\) Param deep_copy must be a boolean$/],
    ['campaign_id that is not an id', { campaign_id: 'abc' }, /^\(#100\) Param campaign_id must be a valid ID$/],
    ['campaign_id naming an ad set', 'adset', /^\(#100\) Param campaign_id must be the id of a campaign of ad account/],
    ['rename_options with broken JSON', { rename_options: '{"rename_strategy":' }, /^\(#100\) Param rename_options must be JSON-encoded/],
    ['a rename_prefix that is not a string', { rename_options: { rename_prefix: 5 } }, /^\(#100\) Param rename_options\.rename_prefix must be a string$/],
    [
      'a rename_prefix over 400 characters',
      { rename_options: { rename_prefix: 'x'.repeat(401) } },
      /rename_options\.rename_prefix must be at most 400 characters/,
    ],
  ] as Array<[string, Record<string, unknown> | 'adset', RegExp]>)('%s', async (_, form, message) => {
    const { source } = await scene();
    await expectRestRefused(() => copyRest(source.id, form === 'adset' ? { campaign_id: source.id } : form), {
      status: 400,
      code: 100,
      type: 'OAuthException',
      message,
    });
  });

  it('unknown parameters are ignored', async () => {
    const { source } = await scene();
    expect(okRest(await copyRest(source.id, { colour: 'blue' })).ad_object_ids).toHaveLength(1);
  });

  it('the copies edge of something that is not an ad set: 100/33', async () => {
    const { campaign, ads } = await scene({ ads: ['ACTIVE'] });
    for (const id of [campaign.id, ads[0]!.id]) {
      await expectRestRefused(() => copyRest(id), {
        status: 400,
        code: 100,
        subcode: 33,
        type: 'GraphMethodException',
        message: UNKNOWN_OBJECT(`${id}/copies`, 'post'),
      });
      await expectGqlRefused(() => copyGql(id), { code: 'NOT_FOUND' });
    }
  });
});

describe('start_time and end_time', () => {
  it("set the copy's schedule, leaving the source's", async () => {
    const { source } = await scene({ source: { startTime: new Date('2030-01-01T00:00:00Z') } });
    const answer = okRest(await copyRest(source.id, { start_time: '2030-06-01T00:00:00+0000', end_time: '2030-07-01T00:00:00+0000' }));
    expect(await readRest(answer.copied_adset_id)).toMatchObject({ start_time: '2030-06-01T00:00:00+0000', end_time: '2030-07-01T00:00:00+0000' });
    expect((await readRest(source.id)).start_time).toBe('2030-01-01T00:00:00+0000');
    expect(ok(await copyGql(source.id, { startTime: '2031-01-01T00:00:00Z' })).copyAdSet.copiedAdSet).toMatchObject({
      startTime: '2031-01-01T00:00:00.000Z',
      endTime: null,
    });
  });

  it.each([
    [
      'an end before the start',
      { start_time: '2030-06-02T00:00:00Z', end_time: '2030-06-01T00:00:00Z' },
      /^\(#100\) Param end_time must be after start_time$|^Param end_time must be after start_time$/,
    ],
    ['an end in the past', { end_time: '2020-01-01T00:00:00Z' }, /end_time must be in the future/],
    ['a date that is not one', { start_time: 'next tuesday' }, /start_time/],
  ])('%s is error 100', async (_, form, message) => {
    const { source } = await scene();
    await expectRestRefused(() => copyRest(source.id, form), { status: 400, code: 100, message });
  });
});

describe('rename_options', () => {
  it.each([
    ['none: "<name> - Copy" on the ad set only', undefined, 'Source - Copy', ['Ad 1', 'Ad 2']],
    ['DEEP_RENAME: the ads too', { rename_strategy: 'DEEP_RENAME' }, 'Source - Copy', ['Ad 1 - Copy', 'Ad 2 - Copy']],
    ['ONLY_TOP_LEVEL_RENAME', { rename_strategy: 'ONLY_TOP_LEVEL_RENAME' }, 'Source - Copy', ['Ad 1', 'Ad 2']],
    ['NO_RENAME', { rename_strategy: 'NO_RENAME' }, 'Source', ['Ad 1', 'Ad 2']],
    ['DEEP_RENAME with a prefix', { rename_strategy: 'DEEP_RENAME', rename_prefix: '[B] ' }, '[B] Source', ['[B] Ad 1', '[B] Ad 2']],
    ['DEEP_RENAME with a suffix', { rename_strategy: 'DEEP_RENAME', rename_suffix: ' (2)' }, 'Source (2)', ['Ad 1 (2)', 'Ad 2 (2)']],
    ['a prefix and a suffix, top level by default', { rename_prefix: 'P-', rename_suffix: '-S' }, 'P-Source-S', ['Ad 1', 'Ad 2']],
  ])('%s', async (_, renameOptions, adSetName, adNames) => {
    const { source } = await scene({ ads: ['ACTIVE', 'ACTIVE'] });
    const answer = okRest(await copyRest(source.id, { deep_copy: true, ...(renameOptions ? { rename_options: renameOptions } : {}) }));
    expect((await readRest(answer.copied_adset_id)).name).toBe(adSetName);
    expect((await adsOfRest(answer.copied_adset_id)).data.map((ad: { name: string }) => ad.name)).toEqual(adNames);
  });

  it('copyAdSet takes renameOptions in camelCase', async () => {
    const { source } = await scene({ ads: ['ACTIVE'] });
    const copy = ok(await copyGql(source.id, { deepCopy: true, renameOptions: { renameStrategy: 'DEEP_RENAME', renamePrefix: 'New ' } })).copyAdSet.copiedAdSet;
    expect({ name: copy.name, ads: copy.ads.nodes.map((ad: { name: string }) => ad.name) }).toEqual({ name: 'New Source', ads: ['New Ad 1'] });
  });

  it.each([
    ['a strategy that is not one', { rename_strategy: 'RENAME_ALL' }],
    ['not an object', 'DEEP_RENAME'],
  ])('%s is error 100', async (_, renameOptions) => {
    const { source } = await scene();
    await expectRestRefused(() => copyRest(source.id, { rename_options: renameOptions }), { status: 400, code: 100, message: /rename_options/ });
  });
});

describe('status_option', () => {
  it.each([
    ['default', 'PAUSED', ['PAUSED', 'PAUSED'], undefined],
    ['PAUSED', 'PAUSED', ['PAUSED', 'PAUSED'], 'PAUSED'],
    ['ACTIVE', 'ACTIVE', ['ACTIVE', 'ACTIVE'], 'ACTIVE'],
    ['INHERITED_FROM_SOURCE', 'ACTIVE', ['ACTIVE', 'PAUSED'], 'INHERITED_FROM_SOURCE'],
  ])('%s: the ad set %s, its ACTIVE and PAUSED ads %j', async (_, adSetStatus, adStatuses, option) => {
    const { source } = await scene({ ads: ['ACTIVE', 'PAUSED'] });
    const answer = okRest(await copyRest(source.id, { deep_copy: true, ...(option ? { status_option: option } : {}) }));
    expect((await readRest(answer.copied_adset_id)).status).toBe(adSetStatus);
    expect((await adsOfRest(answer.copied_adset_id)).data.map((ad: { status: string }) => ad.status)).toEqual(adStatuses);
  });

  it('INHERITED_FROM_SOURCE of a PAUSED source is PAUSED; on GraphQL too', async () => {
    const { source } = await scene({ source: { status: 'PAUSED' } });
    expect(ok(await copyGql(source.id, { statusOption: 'INHERITED_FROM_SOURCE' })).copyAdSet.copiedAdSet.status).toBe('PAUSED');
    expect(ok(await copyGql(source.id, { statusOption: 'ACTIVE' })).copyAdSet.copiedAdSet.status).toBe('ACTIVE');
  });

  it('a value outside the enum is error 100', async () => {
    const { source } = await scene();
    await expectRestRefused(() => copyRest(source.id, { status_option: 'ARCHIVED' }), { status: 400, code: 100, message: /status_option/ });
  });
});

describe('rules re-applied to the copy', () => {
  const EU = { geo_locations: { countries: ['DE', 'US'] } };

  it("DSA: an EU ad set without payor and beneficiary takes the account's defaults when copied", async () => {
    const { source } = await scene({
      account: { defaultDsaPayor: 'Default Payor', defaultDsaBeneficiary: 'Default Beneficiary' },
      source: { targeting: EU, dsaPayor: null, dsaBeneficiary: null },
    });
    const answer = okRest(await copyRest(source.id));
    expect(await readRest(answer.copied_adset_id)).toMatchObject({ dsa_payor: 'Default Payor', dsa_beneficiary: 'Default Beneficiary', targeting: EU });
    expect(await readRest(source.id)).not.toHaveProperty('dsa_payor');
    // Its own payor stays; only the missing beneficiary comes from the account (rule 3).
    const own = await scene({
      account: { defaultDsaPayor: 'Default Payor', defaultDsaBeneficiary: 'Default Beneficiary' },
      source: { targeting: EU, dsaPayor: 'Own Payor', dsaBeneficiary: null },
    });
    expect(ok(await copyGql(own.source.id)).copyAdSet.copiedAdSet).toMatchObject({ dsaPayor: 'Own Payor', dsaBeneficiary: 'Default Beneficiary' });
  });

  it('DSA: without defaults, copying an EU ad set without payor is 100/3858079 blaming dsa_payor, and writes nothing', async () => {
    const { source } = await scene({ source: { targeting: EU, dsaPayor: null, dsaBeneficiary: null } });
    const error = await expectRestRefused(() => copyRest(source.id), { status: 400, code: 100, subcode: 3858079, message: /dsa_payor is required.*\(DE\)/ });
    expect(error.error_data).toEqual({ blame_field_specs: [['dsa_payor']] });
    await expectGqlRefused(() => copyGql(source.id), {
      // The source's payor is missing: no argument is at fault, so the error names none (the Graph details blame dsa_payor).
      code: 'BAD_USER_INPUT',
      field: undefined,
      graphApi: { code: 100, error_subcode: 3858079, error_data: { blame_field_specs: [['dsa_payor']] } },
    });
  });

  it('an ad set with flagged audiences is refused with 246003 listing every one, and nothing is written', async () => {
    const account = await world.adAccount(orgId);
    const flagged = [await audience(account, { flaggedReason: 'health' }), await audience(account, { subtype: 'LOOKALIKE', operationStatusCode: 471 })];
    const clean = await audience(account);
    const [campaign] = await world.campaigns(account, 1);
    const [source] = await world.adSets(campaign!, 1, () => ({
      name: 'Flagged',
      billingEvent: 'IMPRESSIONS',
      dailyBudget: '5000',
      targeting: { geo_locations: { countries: ['US'] }, custom_audiences: [flagged[0]!.id, clean.id, flagged[1]!.id] },
    }));
    const error = await expectRestRefused(() => copyRest(source!.id), { status: 400, code: 100, subcode: 246003 });
    expect(error).toMatchObject({ error_user_title: 'Restricted audience', error_data: { restricted_custom_audience_ids: flagged.map((a) => a.id) } });
    await expectGqlRefused(() => copyGql(source!.id), {
      code: 'BAD_USER_INPUT',
      field: undefined,
      graphApi: { code: 100, error_subcode: 246003, error_data: { restricted_custom_audience_ids: flagged.map((a) => a.id) } },
    });
  });

  it('the copy counts toward the ad set limit: 2695 at the limit, deleted ad sets do not count', async () => {
    const { source, campaign } = await scene();
    const more = await world.adSets(campaign, AD_SET_LIMIT - 2);
    okRest(await copyRest(source.id)); // the fifth
    const error = await expectRestRefused(() => copyRest(source.id), {
      status: 400,
      code: 2695,
      message: /^\(#2695\) Ad set creation reached the campaign group limit|^Ad set creation reached the campaign group limit/,
    });
    expect(error).toMatchObject({ error_user_title: 'Too many ad sets', error_user_msg: expect.stringContaining(`limit of ${AD_SET_LIMIT} ad sets`) });
    await expectGqlRefused(() => copyGql(source.id), { code: 'LIMIT_EXCEEDED', graphApi: { code: 2695 } });
    okRest(await graph.call('DELETE', `/v24.0/${more[0]!.id}`, { token: tokens.advertiser }));
    expect(okRest(await copyRest(source.id)).copied_adset_id).toMatch(/^\d+$/);
  });

  it('parallel copies at one below the limit: exactly one is made', async () => {
    const { source, campaign, account } = await scene();
    await world.adSets(campaign, AD_SET_LIMIT - 2);
    // Two over /v24.0, two over GraphQL, at once.
    const answers = await Promise.all(
      Array.from({ length: 4 }, (_, i) =>
        i % 2 === 0
          ? copyRest(source.id).then((r) => (r.status === 200 ? 'copied' : r.body.error?.code))
          : copyGql(source.id).then((body) => (body.errors ? body.errors[0]!.extensions?.code : 'copied')),
      ),
    );
    expect(answers.filter((a) => a === 'copied')).toHaveLength(1);
    expect(
      answers.filter((a) => a !== 'copied').every((a) => a === 2695 || a === 'LIMIT_EXCEEDED'),
      JSON.stringify(answers),
    ).toBe(true);
    const live = await server.deps.db('ad_sets').where({ account_id: account.id }).whereNot({ status: 'DELETED' }).count({ n: '*' });
    expect(Number((live as Array<{ n: number | string }>)[0]!.n)).toBe(AD_SET_LIMIT);
  });

  it('a bulk account has its own, larger limit', async () => {
    const { source, campaign } = await scene({ account: { isBulk: true } });
    await world.adSets(campaign, AD_SET_LIMIT);
    expect(okRest(await copyRest(source.id)).copied_adset_id).toMatch(/^\d+$/);
  });
});

describe('all or nothing', () => {
  it('a deep copy that fails after the ad set was written leaves no rows', async () => {
    // The ad set's new name fits; the first ad's does not (395 + " - Copy" > 400): the failure comes after the ad set's insert.
    const { source } = await scene({ ads: ['ACTIVE', 'ACTIVE'], adNames: ['Short', 'a'.repeat(395)] });
    await expectRestRefused(() => copyRest(source.id, { deep_copy: true, rename_options: { rename_strategy: 'DEEP_RENAME' } }), {
      status: 400,
      code: 100,
      message: /name would be longer than 400 characters/,
    });
    await expectGqlRefused(() => copyGql(source.id, { deepCopy: true, renameOptions: { renameStrategy: 'DEEP_RENAME' } }), {
      code: 'BAD_USER_INPUT',
      field: 'input.renameOptions',
    });
    expect(
      okRest(
        await graph.get(`${source.id}/copies`, tokens.advertiser, { summary: 'total_count', effective_status: ['ACTIVE', 'PAUSED', 'DELETED', 'ARCHIVED'] }),
      ).summary,
    ).toEqual({ total_count: 0 });
  });
});

describe('permissions', () => {
  it('an advertiser copies; an auditor and an ads_read client get 200; an outsider 100/33; nothing is written', async () => {
    const { source } = await scene();
    await expectRestRefused(() => copyRest(source.id, {}, 'auditor'), { status: 403, code: 200 });
    await expectRestRefused(() => copyRest(source.id, {}, 'adsReadClient'), { status: 403, code: 200 });
    await expectRestRefused(() => copyRest(source.id, {}, 'outsider'), {
      status: 400,
      code: 100,
      subcode: 33,
      type: 'GraphMethodException',
      message: UNKNOWN_OBJECT(source.id, 'post'),
    });
    await expectGqlRefused(() => copyGql(source.id, undefined, false, 'auditor'), { code: 'FORBIDDEN' });
    await expectGqlRefused(() => copyGql(source.id, undefined, true, 'auditor'), { code: 'FORBIDDEN' });
    await expectGqlRefused(() => copyGql(source.id, undefined, false, 'outsider'), { code: 'NOT_FOUND' });
    await expectGqlRefused(() => copyGql(source.id, undefined, true, 'outsider'), { code: 'NOT_FOUND' });
    // Permission comes before parameters.
    await expectRestRefused(() => copyRest(source.id, { status_option: 'NOPE' }, 'auditor'), { status: 403, code: 200 });
    expect(okRest(await copyRest(source.id)).copied_adset_id).toMatch(/^\d+$/);
  });
});

describe('copyAdSet(async: true)', () => {
  const POLL = `query ($id: ID!) {
    asyncRequest(id: $id) { id status type scopeObjectId result error requestSet { id totalCount successCount isCompleted } }
    node(id: $id) { __typename ... on AsyncRequest { status } } }`;
  const poll = (id: string) =>
    eventually(
      async () => {
        const data = ok((await server.graphql(POLL, { id }, tokens.advertiser)).body);
        return data.asyncRequest.status === 'SUCCESS' || data.asyncRequest.status === 'ERROR' ? data : null;
      },
      20_000,
      `async request ${id} finished`,
    );

  it("answers a request at once, which reaches SUCCESS with the synchronous answer's shape (more than 3 ads allowed)", async () => {
    const { source, ads } = await scene({ ads: ['ACTIVE', 'PAUSED', 'ACTIVE', 'ACTIVE', 'PAUSED'] });
    const answered = ok(await copyGql(source.id, { deepCopy: true, statusOption: 'INHERITED_FROM_SOURCE' }, true)).copyAdSet;
    expect(answered).toEqual({
      copiedAdSet: null,
      adObjectIds: [],
      request: {
        id: expect.stringMatching(/^\d+$/),
        name: expect.any(String),
        type: 'ADSET_COPY',
        status: expect.stringMatching(/^(INITIAL|IN_PROGRESS|SUCCESS)$/),
        scopeObjectId: source.id,
        result: answered.request.result,
        error: null,
      },
    });
    // No result before the copy is done.
    if (answered.request.status !== 'SUCCESS') expect(answered.request.result).toBeNull();
    const done = await poll(answered.request.id);
    expect(done.asyncRequest).toMatchObject({ id: answered.request.id, status: 'SUCCESS', type: 'ADSET_COPY', scopeObjectId: source.id, error: null });
    expect(done.node).toEqual({ __typename: 'AsyncRequest', status: 'SUCCESS' });
    expect(done.asyncRequest.requestSet).toMatchObject({ totalCount: 1, successCount: 1, isCompleted: true });
    const result = done.asyncRequest.result;
    expect(Object.keys(result).sort()).toEqual(['ad_object_ids', 'copied_adset_id']);
    expect(result.ad_object_ids[0]).toEqual({ ad_object_type: 'ad_set', source_id: source.id, copied_id: result.copied_adset_id });
    expect(result.ad_object_ids.slice(1).map((o: { ad_object_type: string; source_id: string }) => [o.ad_object_type, o.source_id])).toEqual(
      ads.map((ad) => ['ad', ad.id]),
    );
    // The copy is there, with its ads in their source's status, and the ad set reports the request.
    const copy = ok(
      await server
        .graphql(
          `query ($id: ID!, $s: ID!) {
      adSet(id: $id) { name status sourceAdSet { id } ads(first: 100) { totalCount nodes { id status } } }
      source: adSet(id: $s) { asyncRequests { totalCount nodes { id status } } } }`,
          { id: result.copied_adset_id, s: source.id },
          tokens.advertiser,
        )
        .then((r) => r.body),
    );
    expect(copy.adSet).toEqual({
      name: 'Source - Copy',
      status: 'ACTIVE',
      sourceAdSet: { id: source.id },
      ads: { totalCount: 5, nodes: result.ad_object_ids.slice(1).map((o: { copied_id: string }, i: number) => ({ id: o.copied_id, status: ads[i]!.status })) },
    });
    expect(copy.source.asyncRequests).toEqual({ totalCount: 1, nodes: [{ id: answered.request.id, status: 'SUCCESS' }] });
    // /v24.0 reads the same request.
    expect(okRest(await graph.get(answered.request.id, tokens.advertiser, { fields: 'status,result' }))).toEqual({
      id: answered.request.id,
      status: 'SUCCESS',
      result,
    });
  });

  it('more than 51 ads is refused at once (error 100 naming deep_copy), storing and copying nothing', async () => {
    const { source } = await scene();
    await world.ads(source, 52);
    await expectGqlRefused(() => copyGql(source.id, { deepCopy: true }, true), { code: 'BAD_USER_INPUT', field: 'input.deepCopy' });
  });

  it('parameters are checked at once: a bad request stores nothing', async () => {
    const { source } = await scene();
    await expectGqlRefused(() => copyGql(source.id, { startTime: '2030-06-02T00:00:00Z', endTime: '2030-06-01T00:00:00Z' }, true), {
      code: 'BAD_USER_INPUT',
      field: 'input.endTime',
    });
  });

  it('a copy the rules refuse ends in ERROR with the Graph error, and writes no ad set', async () => {
    const { source } = await scene({ source: { targeting: { geo_locations: { countries: ['FR'] } } } });
    const before = await rowCounts();
    const answered = ok(await copyGql(source.id, undefined, true)).copyAdSet;
    const done = await poll(answered.request.id);
    expect(done.asyncRequest).toMatchObject({
      status: 'ERROR',
      result: null,
      error: { code: 100, error_subcode: 3858079, error_data: { blame_field_specs: [['dsa_payor']] } },
    });
    const after = await rowCounts();
    expect({ adSets: after.adSets, ads: after.ads }).toEqual({ adSets: before.adSets, ads: before.ads });
  });
});
