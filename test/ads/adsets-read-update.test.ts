import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { worldBuilder } from '../helpers/world.ts';
import { principalTokens, type Role } from '../helpers/principals.ts';
import { expectGraphError, graphClient, ISO_TIME, UNKNOWN_OBJECT, type GraphClient, type GraphHttpResponse } from '../helpers/graph.ts';
import { flagAudience, flagConversion } from '../../src/ads/admin.ts';
import { DATE_PRESETS } from '../../src/insights/query.ts';
import { adSets, type AdAccountRecord, type AdRecord, type AdSetRecord, type CampaignRecord } from '../../src/ads/store.ts';
import type { PageRecord } from '../../src/comments/store.ts';

/**
 * GET, POST and DELETE /v24.0/<AD_SET_ID> end to end (the specification's ad set half, DECISIONS sections 4 and 5),
 * on a real server over real HTTP: every field of the resource table, effective status and issues, the edges with
 * their filters, counts and paging, the state table, retargeting into the EU, deletion, and who may do what.
 */

const ENV = {
  ASYNC_RUNNER: 'false',
  RATE_LIMIT_ACCOUNT_CALLS: '1000000/300',
  RATE_LIMIT_ACCOUNT_TIME_MS: '100000000/300',
  RATE_LIMIT_ACCOUNT_CPU_MS: '100000000/300',
};

const DAY = 86_400;
const START = new Date(Math.ceil(Date.now() / (DAY * 1000) + 2) * DAY * 1000);
const S = START.getTime() / 1000;
const END = S + 10 * DAY;
const graphTime = (seconds: number) => `${new Date(seconds * 1000).toISOString().slice(0, 19)}+0000`;

type Params = Record<string, unknown>;

let server: TestServer;
let graph: GraphClient;
let world: ReturnType<typeof worldBuilder>;
let tokens: Record<Role, string>;
let account: AdAccountRecord;
let dsaAccount: AdAccountRecord;
let page: PageRecord;
let traffic: CampaignRecord;
let otherTraffic: CampaignRecord;
let dsaTraffic: CampaignRecord;
let foreignAdSet: AdSetRecord;
const audiences = {} as Record<'clean' | 'flagged' | 'flagged2' | 'lookalike471', string>;
const conversions = {} as Record<'clean' | 'flagged', string>;

beforeAll(async () => {
  server = await startTestServer(ENV);
  graph = graphClient(server);
  world = worldBuilder(server.deps);
  const org = await world.organization();
  const otherOrg = await world.organization();
  tokens = await principalTokens(server, org.id, otherOrg.id);
  account = await world.adAccount(org.id, { currency: 'USD', country: 'US' });
  dsaAccount = await world.adAccount(org.id, { defaultDsaPayor: 'Default Payor SA', defaultDsaBeneficiary: 'Default Beneficiary GmbH' });
  [traffic] = (await world.campaigns(account, 1, { name: 'Traffic' })) as [CampaignRecord];
  [otherTraffic] = (await world.campaigns(account, 1, { name: 'Other traffic' })) as [CampaignRecord];
  [dsaTraffic] = (await world.campaigns(dsaAccount, 1, { name: 'EU traffic' })) as [CampaignRecord];
  page = await world.page(org.id);
  const otherAccount = await world.adAccount(otherOrg.id);
  const [otherCampaign] = await world.campaigns(otherAccount, 1);
  [foreignAdSet] = (await world.adSets(otherCampaign!, 1)) as [AdSetRecord];

  const create = async (edge: string, body: Params) => {
    const response = await graph.call('POST', `/v24.0/act_${account.id}/${edge}`, { token: tokens.advertiser, json: body });
    expect(response.status, response.text).toBe(200);
    return response.body.id as string;
  };
  audiences.clean = await create('customaudiences', { name: 'Newsletter' });
  audiences.flagged = await create('customaudiences', { name: 'Clinic visitors' });
  audiences.flagged2 = await create('customaudiences', { name: 'Debt advice' });
  audiences.lookalike471 = await create('customaudiences', {
    name: 'Like debt advice',
    subtype: 'LOOKALIKE',
    lookalike_spec: { origin_audience_id: audiences.flagged2, ratio: 0.02, country: 'US' },
  });
  await flagAudience(server.deps, { id: audiences.flagged, reason: 'health' });
  await flagAudience(server.deps, { id: audiences.flagged2, reason: 'financial' });
  conversions.clean = await create('customconversions', { name: 'Checkout', rule: { url: { i_contains: 'thanks' } } });
  conversions.flagged = await create('customconversions', { name: 'Pharmacy', rule: { url: { i_contains: 'pharmacy' } } });
  await flagConversion(server.deps, { id: conversions.flagged, reason: 'health' });
});
afterAll(() => server?.close());

// --- Helpers --------------------------------------------------------------------------------------------

const base = (campaign: CampaignRecord, extra: Params = {}): Params => ({
  name: 'Ad set',
  campaign_id: campaign.id,
  billing_event: 'IMPRESSIONS',
  daily_budget: 20000,
  targeting: { geo_locations: { countries: ['US'] } },
  ...extra,
});

async function createAdSet(extra: Params = {}, campaign = traffic, acct = account): Promise<string> {
  const response = await graph.call('POST', `/v24.0/act_${acct.id}/adsets`, { token: tokens.advertiser, json: base(campaign, extra) });
  expect(response.status, response.text).toBe(200);
  return response.body.id as string;
}

const get = (id: string, query: Record<string, unknown> = {}, role: Role = 'advertiser') => graph.get(id, tokens[role], query);

async function read(id: string, fields: string, query: Record<string, unknown> = {}, role: Role = 'advertiser'): Promise<Record<string, any>> {
  const response = await get(id, { fields, ...query }, role);
  expect(response.status, response.text).toBe(200);
  return response.body;
}

function update(id: string, params: Params, options: { role?: Role; encoding?: 'json' | 'form' } = {}): Promise<GraphHttpResponse> {
  const token = tokens[options.role ?? 'advertiser'];
  return options.encoding === 'form'
    ? graph.call('POST', `/v24.0/${id}`, { token, form: params })
    : graph.call('POST', `/v24.0/${id}`, { token, json: params });
}

/** Ads under an ad set made through the API (the world builder inserts them as the store would). */
async function adsOf(adSetId: string, count: number) {
  return world.ads(adSets.fromRow(await server.deps.db('ad_sets').where({ id: adSetId }).first()), count);
}

const remove = (id: string, role: Role = 'advertiser') => graph.call('DELETE', `/v24.0/${id}`, { token: tokens[role] });

function expectSuccess(response: GraphHttpResponse, body: unknown = { success: true }) {
  expect(response.status, response.text).toBe(200);
  expect(response.body).toEqual(body);
}

async function rowCounts() {
  const count = async (table: string) => Number(((await server.deps.db(table).count({ n: '*' })) as Array<{ n: number | string }>)[0]!.n);
  return { objects: await count('graph_objects'), adSets: await count('ad_sets'), references: await count('ad_set_references'), ads: await count('ads') };
}

/** The ad set's stored row and its references, to prove a refused write changed nothing. */
async function snapshot(id: string) {
  return {
    row: await server.deps.db('ad_sets').where({ id }).first(),
    references: await server.deps.db('ad_set_references').where({ ad_set_id: id }).orderBy(['kind', 'object_id']),
    ads: await server.deps.db('ads').where({ adset_id: id }).orderBy('id'),
    counts: await rowCounts(),
  };
}

interface Refusal {
  status?: number;
  code?: number;
  subcode?: number;
  type?: string;
  message: string | RegExp;
  userTitle?: string;
  userMsg?: string | RegExp;
  data?: unknown;
}

async function expectRefused(id: string, send: () => Promise<GraphHttpResponse>, expected: Refusal) {
  const before = await snapshot(id);
  const response = await send();
  expectGraphError(response, {
    status: expected.status ?? 400,
    code: expected.code ?? 100,
    subcode: expected.subcode,
    type: expected.type,
    message: expected.message,
  });
  const error = response.body.error;
  if (expected.userTitle !== undefined) expect(error.error_user_title, response.text).toBe(expected.userTitle);
  if (typeof expected.userMsg === 'string') expect(error.error_user_msg, response.text).toBe(expected.userMsg);
  else if (expected.userMsg) expect(error.error_user_msg, response.text).toMatch(expected.userMsg);
  if (expected.data !== undefined) expect(error.error_data, response.text).toEqual(expected.data);
  expect(await snapshot(id)).toEqual(before);
  return response;
}

const p100 = (message: string) => `(#100) ${message}`;
const ids = (body: { data: Array<{ id: string }> }) => body.data.map((item) => item.id);
const ascending = (values: string[]) => [...values].sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : BigInt(a) > BigInt(b) ? 1 : 0));

// --- Read -----------------------------------------------------------------------------------------------

describe('GET /<AD_SET_ID>', () => {
  let everything: AdSetRecord;
  let source: AdSetRecord;

  beforeAll(async () => {
    [source] = (await world.adSets(traffic, 1, () => ({ name: 'Source' }))) as [AdSetRecord];
    [everything] = (await world.adSets(traffic, 1, () => ({
      name: 'Everything',
      status: 'ACTIVE',
      assetFeedId: '4242',
      bidAmount: '250',
      bidStrategy: 'LOWEST_COST_WITH_BID_CAP',
      billingEvent: 'IMPRESSIONS',
      campaignAttribution: 'app_install',
      dailyBudget: '5000',
      dailyMinSpendTarget: '100',
      dailySpendCap: '4000',
      destinationType: 'WEBSITE',
      dsaBeneficiary: 'Brand GmbH',
      dsaPayor: 'Agency SA',
      startTime: new Date(S * 1000),
      endTime: new Date(END * 1000),
      lifetimeBudget: '70000',
      lifetimeImps: 500,
      lifetimeMinSpendTarget: '200',
      lifetimeSpendCap: '60000',
      isIncrementalAttributionEnabled: true,
      minBudgetSpendPercentage: '10',
      multiOptimizationGoalWeight: 'BALANCED',
      optimizationGoal: 'LINK_CLICKS',
      optimizationSubEvent: 'NONE',
      recurringBudgetSemantics: true,
      reviewFeedback: 'Looks good',
      rfPredictionId: '5151',
      sourceAdsetId: source.id,
      useNewAppClick: false,
      valueRuleSetId: '6161',
      adlabels: [{ name: 'spring' }],
      adsetSchedule: [{ start_minute: 0, end_minute: 60, days: [1] }],
      attributionSpec: [{ event_type: 'CLICK_THROUGH', window_days: 7 }],
      bidAdjustments: { age_range: { '18-24': 1.2 } },
      bidConstraints: { roas_average_floor: 100 },
      bidInfo: { ACTIONS: 250 },
      brandSafetyConfig: { level: 'strict' },
      contextualBundlingSpec: { status: 'OPT_OUT' },
      creativeSequence: ['11', '12'],
      frequencyControlSpecs: [{ event: 'IMPRESSIONS', interval_days: 7, max_frequency: 2 }],
      pacingType: ['standard'],
      promotedObject: { page_id: page.id },
      regionalRegulatedCategories: ['TAIWAN_UNIVERSAL'],
      regionalRegulationIdentities: { taiwan_universal_beneficiary: '77', taiwan_universal_payer: '77' },
      targeting: { geo_locations: { countries: ['US'] }, age_min: 25, custom_audiences: [{ id: audiences.clean }] },
      targetingOptimizationTypes: { detailed_targeting: 1 },
      timeBasedAdRotationIdBlocks: [[1], [2]],
      timeBasedAdRotationIntervals: [S, S + DAY],
    }))) as [AdSetRecord];
  });

  /** Every field of the specification's resource table. */
  const RESOURCE_FIELDS = [
    'id',
    'account_id',
    'adlabels',
    'adset_schedule',
    'asset_feed_id',
    'attribution_spec',
    'bid_adjustments',
    'bid_amount',
    'bid_constraints',
    'bid_info',
    'bid_strategy',
    'billing_event',
    'brand_safety_config',
    'budget_remaining',
    'campaign',
    'campaign_active_time',
    'campaign_attribution',
    'campaign_id',
    'configured_status',
    'contextual_bundling_spec',
    'created_time',
    'creative_sequence',
    'daily_budget',
    'daily_min_spend_target',
    'daily_spend_cap',
    'destination_type',
    'dsa_beneficiary',
    'dsa_payor',
    'effective_status',
    'end_time',
    'frequency_control_specs',
    'issues_info',
    'learning_stage_info',
    'lifetime_budget',
    'lifetime_imps',
    'lifetime_min_spend_target',
    'lifetime_spend_cap',
    'is_incremental_attribution_enabled',
    'min_budget_spend_percentage',
    'multi_optimization_goal_weight',
    'name',
    'optimization_goal',
    'optimization_sub_event',
    'pacing_type',
    'promoted_object',
    'recommendations',
    'recurring_budget_semantics',
    'regional_regulated_categories',
    'regional_regulation_identities',
    'review_feedback',
    'rf_prediction_id',
    'source_adset',
    'source_adset_id',
    'start_time',
    'status',
    'targeting',
    'targeting_optimization_types',
    'time_based_ad_rotation_id_blocks',
    'time_based_ad_rotation_intervals',
    'updated_time',
    'use_new_app_click',
    'value_rule_set_id',
  ];

  it('answers every field of the resource table: budgets as numeric strings, objects as stored, references as objects', async () => {
    const body = await read(everything.id, RESOURCE_FIELDS.join(','));
    // Integers of the resource table read as JSON numbers.
    expect(body.lifetime_imps).toBe(500);
    expect(body.time_based_ad_rotation_id_blocks).toEqual([[1], [2]]);
    expect(body.time_based_ad_rotation_intervals).toEqual([S, S + DAY]);
    expect(without(body, ['lifetime_imps', 'time_based_ad_rotation_id_blocks', 'time_based_ad_rotation_intervals'])).toEqual({
      id: everything.id,
      account_id: account.id,
      adlabels: [{ name: 'spring' }],
      adset_schedule: [{ start_minute: 0, end_minute: 60, days: [1] }],
      asset_feed_id: '4242',
      attribution_spec: [{ event_type: 'CLICK_THROUGH', window_days: 7 }],
      bid_adjustments: { age_range: { '18-24': 1.2 } },
      bid_amount: '250',
      bid_constraints: { roas_average_floor: 100 },
      bid_info: { ACTIONS: 250 },
      bid_strategy: 'LOWEST_COST_WITH_BID_CAP',
      billing_event: 'IMPRESSIONS',
      brand_safety_config: { level: 'strict' },
      // Derived from delivery (test/insights/delivery.test.ts): no statistics yet, so the whole daily budget is left.
      budget_remaining: '5000',
      campaign: { id: traffic.id },
      campaign_active_time: expect.stringMatching(/^\d+$/),
      campaign_attribution: 'app_install',
      campaign_id: traffic.id,
      configured_status: 'ACTIVE',
      contextual_bundling_spec: { status: 'OPT_OUT' },
      created_time: expect.stringMatching(ISO_TIME),
      creative_sequence: ['11', '12'],
      daily_budget: '5000',
      daily_min_spend_target: '100',
      daily_spend_cap: '4000',
      destination_type: 'WEBSITE',
      dsa_beneficiary: 'Brand GmbH',
      dsa_payor: 'Agency SA',
      effective_status: 'ACTIVE',
      end_time: graphTime(END),
      frequency_control_specs: [{ event: 'IMPRESSIONS', interval_days: 7, max_frequency: 2 }],
      issues_info: [],
      learning_stage_info: {
        status: 'LEARNING',
        conversions: 0,
        last_sig_edit_ts: Math.floor(everything.createdTime.getTime() / 1000),
        attribution_windows: ['7d_click'],
      },
      lifetime_budget: '70000',
      lifetime_min_spend_target: '200',
      lifetime_spend_cap: '60000',
      is_incremental_attribution_enabled: true,
      min_budget_spend_percentage: '10',
      multi_optimization_goal_weight: 'BALANCED',
      name: 'Everything',
      optimization_goal: 'LINK_CLICKS',
      optimization_sub_event: 'NONE',
      pacing_type: ['standard'],
      promoted_object: { page_id: page.id },
      recurring_budget_semantics: true,
      regional_regulated_categories: ['TAIWAN_UNIVERSAL'],
      regional_regulation_identities: { taiwan_universal_beneficiary: '77', taiwan_universal_payer: '77' },
      review_feedback: 'Looks good',
      rf_prediction_id: '5151',
      source_adset: { id: source.id },
      source_adset_id: source.id,
      start_time: graphTime(S),
      status: 'ACTIVE',
      targeting: { geo_locations: { countries: ['US'] }, age_min: 25, custom_audiences: [{ id: audiences.clean }] },
      targeting_optimization_types: { detailed_targeting: 1 },
      updated_time: expect.stringMatching(ISO_TIME),
      use_new_app_click: false,
      value_rule_set_id: '6161',
    });
  });

  it('answers the id alone without fields, and refuses a field the ad set does not have', async () => {
    expectSuccess(await get(everything.id), { id: everything.id });
    expectGraphError(await get(everything.id, { fields: 'name,colour' }), {
      status: 400,
      code: 100,
      message: '(#100) Tried accessing nonexisting field (colour) on node type (AdSet)',
    });
    expectGraphError(await get(everything.id, { fields: 'campaign{name,colour}' }), {
      status: 400,
      code: 100,
      message: '(#100) Tried accessing nonexisting field (colour) on node type (Campaign)',
    });
  });

  it('reads campaign{...} and source_adset{...} as the objects they are', async () => {
    expect(await read(everything.id, 'campaign{id,name,objective,status,effective_status,account_id},source_adset{id,name,status,campaign{name}}')).toEqual({
      id: everything.id,
      campaign: { id: traffic.id, name: 'Traffic', objective: 'OUTCOME_TRAFFIC', status: 'ACTIVE', effective_status: 'ACTIVE', account_id: account.id },
      source_adset: { id: source.id, name: 'Source', status: 'ACTIVE', campaign: { id: traffic.id, name: 'Traffic' } },
    });
    // No source: the field is left out, as every empty value is.
    expect(await read(source.id, 'source_adset{id},source_adset_id')).toEqual({ id: source.id });
  });

  it('reads a copy with the ad set it was copied from', async () => {
    const original = await createAdSet({ name: 'Original' });
    const response = await graph.call('POST', `/v24.0/${original}/copies`, { token: tokens.advertiser, json: {} });
    expect(response.status, response.text).toBe(200);
    const copy = response.body.copied_adset_id as string;
    expect(await read(copy, 'name,status,source_adset_id,source_adset{id,name}')).toEqual({
      id: copy,
      name: 'Original - Copy',
      status: 'PAUSED',
      source_adset_id: original,
      source_adset: { id: original, name: 'Original' },
    });
  });

  it('answers times as Unix seconds with date_format=U, nested objects too', async () => {
    const body = await read(everything.id, 'start_time,end_time,created_time,updated_time,campaign{created_time}', { date_format: 'U' });
    expect(body).toEqual({
      id: everything.id,
      start_time: S,
      end_time: END,
      created_time: expect.any(Number),
      updated_time: expect.any(Number),
      campaign: { id: traffic.id, created_time: expect.any(Number) },
    });
    expect(body.created_time).toBe(Math.floor(everything.createdTime.getTime() / 1000));
  });

  it('answers recommendations only when there are some', async () => {
    const low = await createAdSet({ daily_budget: 150 });
    expect(await read(low, 'recommendations')).toEqual({
      id: low,
      recommendations: [
        {
          title: 'Raise your budget',
          code: 1885500,
          importance: 'MEDIUM',
          confidence: 'HIGH',
          blame_field: 'daily_budget',
          message: 'Your daily budget is less than twice the minimum (1.00 USD). A larger budget gives delivery more room to learn.',
        },
      ],
    });
    const ample = await createAdSet({ daily_budget: 20000 });
    expect(await read(ample, 'recommendations,name')).toEqual({ id: ample, name: 'Ad set' });
  });

  describe('date_preset and time_range', () => {
    it.each([...DATE_PRESETS, 'lifetime'])('date_preset=%s is accepted and changes nothing read', async (preset) => {
      const plain = await get(everything.id, { fields: 'name,daily_budget' });
      const scoped = await get(everything.id, { fields: 'name,daily_budget', date_preset: preset });
      expect(scoped.status, scoped.text).toBe(200);
      expect(scoped.body).toEqual(plain.body);
    });

    it.each(['last_5d', 'LAST_7D', 'forever', '7'])('date_preset=%s is error 100 naming the values', async (preset) => {
      const response = await get(everything.id, { fields: 'name', date_preset: preset });
      expectGraphError(response, { status: 400, code: 100, message: `(#100) Param date_preset must be one of {${DATE_PRESETS.join(', ')}}` });
      const edge = await graph.get(`${everything.id}/ads`, tokens.advertiser, { date_preset: preset });
      expectGraphError(edge, { status: 400, code: 100, message: /^\(#100\) Param date_preset must be one of \{today, / });
    });

    it.each([
      ['a valid range', { since: '2026-01-01', until: '2026-01-31' }],
      ['since after until', { since: '2026-02-01', until: '2026-01-01' }],
      ['a day that does not exist', { since: '2026-13-01', until: '2026-13-31' }],
      ['not dates', { since: 'yesterday', until: 'today' }],
      ['only since', { since: '2026-01-01' }],
      ['an empty object', {}],
      ['numbers', { since: 20260101, until: 20260131 }],
      ['a list', ['2026-01-01', '2026-01-31']],
      ['text that is no JSON', 'last week'],
      ['JSON that does not parse', '{"since":"2026-01-01",'],
    ])('time_range: %s is ignored, not an error', async (_what, range) => {
      const plain = await get(everything.id, { fields: 'name' });
      const response = await get(everything.id, { fields: 'name', time_range: range });
      expect(response.status, response.text).toBe(200);
      expect(response.body).toEqual(plain.body);
    });
  });
});

function without(body: Record<string, unknown>, keys: string[]) {
  return Object.fromEntries(Object.entries(body).filter(([key]) => !keys.includes(key)));
}

// --- Effective status, issues and edges -----------------------------------------------------------------

describe('effective status, issues_info and the edges that filter by them', () => {
  let edgeAccount: AdAccountRecord;
  const c = {} as Record<'active' | 'paused' | 'deleted' | 'archived', CampaignRecord>;
  const s = {} as Record<'a1' | 'a2' | 'a3' | 'a4' | 'a5' | 'b1' | 'b2' | 'd1' | 'r1' | 'r2', AdSetRecord>;
  const ad = {} as Record<'x1' | 'x2' | 'x3' | 'x4' | 'y1' | 'z1' | 'w1' | 'v1' | 'u1' | 't1', AdRecord>;

  beforeAll(async () => {
    edgeAccount = await world.adAccount(account.organizationId);
    for (const status of ['active', 'paused', 'deleted', 'archived'] as const) {
      [c[status]] = (await world.campaigns(edgeAccount, 1, { name: `Campaign ${status}`, status: status.toUpperCase() as 'ACTIVE' })) as [CampaignRecord];
    }
    const make = async (campaign: CampaignRecord, name: string, fields: Partial<AdSetRecord> = {}) =>
      (await world.adSets(campaign, 1, () => ({ name, ...fields })))[0]!;
    // Created in this order, so their ids (and edge order) follow it.
    s.a1 = await make(c.active, 'a1 active');
    s.a2 = await make(c.active, 'a2 paused', { status: 'PAUSED' });
    s.a3 = await make(c.active, 'a3 deleted', { status: 'DELETED' });
    s.a4 = await make(c.active, 'a4 archived', { status: 'ARCHIVED' });
    s.a5 = await make(c.active, 'a5 with issues', { targeting: { geo_locations: { countries: ['US'] }, custom_audiences: [audiences.flagged] } });
    s.b1 = await make(c.paused, 'b1 under a paused campaign');
    s.b2 = await make(c.paused, 'b2 paused under a paused campaign', { status: 'PAUSED' });
    s.d1 = await make(c.deleted, 'd1 under a deleted campaign');
    s.r1 = await make(c.archived, 'r1 under an archived campaign');
    s.r2 = await make(c.archived, 'r2 paused under an archived campaign', { status: 'PAUSED' });
    const oneAd = async (adSet: AdSetRecord) => (await world.ads(adSet, 1))[0]!;
    ad.x1 = await oneAd(s.a1);
    ad.x2 = await oneAd(s.a1);
    ad.x3 = await oneAd(s.a1);
    ad.x4 = await oneAd(s.a1);
    ad.y1 = await oneAd(s.a2);
    ad.z1 = await oneAd(s.a5);
    ad.w1 = await oneAd(s.b1);
    ad.v1 = await oneAd(s.a3);
    ad.u1 = await oneAd(s.a4);
    ad.t1 = await oneAd(s.a3);
    // The ads' own statuses through the API.
    expectSuccess(await update(ad.x2.id, { status: 'PAUSED' }));
    expectSuccess(await remove(ad.x3.id));
    expectSuccess(await update(ad.x4.id, { status: 'ARCHIVED' }));
    // A paused ad under a deleted ad set: the ended parent wins.
    expectSuccess(await update(ad.t1.id, { status: 'PAUSED' }));
  });

  const AD_SET_STATUS: Array<[keyof typeof s, string, string]> = [
    ['a1', 'ACTIVE', 'ACTIVE'],
    ['a2', 'PAUSED', 'PAUSED'],
    ['a3', 'DELETED', 'DELETED'],
    ['a4', 'ARCHIVED', 'ARCHIVED'],
    ['a5', 'ACTIVE', 'WITH_ISSUES'],
    ['b1', 'ACTIVE', 'CAMPAIGN_PAUSED'],
    ['b2', 'PAUSED', 'PAUSED'],
    ['d1', 'ACTIVE', 'DELETED'],
    ['r1', 'ACTIVE', 'ARCHIVED'],
    ['r2', 'PAUSED', 'ARCHIVED'],
  ];
  it.each(AD_SET_STATUS)('ad set %s: status %s reads effective_status %s (by id, whatever its status)', async (key, status, effective) => {
    expect(await read(s[key].id, 'status,configured_status,effective_status')).toEqual({
      id: s[key].id,
      status,
      configured_status: status,
      effective_status: effective,
    });
  });

  const AD_STATUS: Array<[keyof typeof ad, string, string]> = [
    ['x1', 'ACTIVE', 'ACTIVE'],
    ['x2', 'PAUSED', 'PAUSED'],
    ['x3', 'DELETED', 'DELETED'],
    ['x4', 'ARCHIVED', 'ARCHIVED'],
    ['y1', 'ACTIVE', 'ADSET_PAUSED'],
    ['z1', 'ACTIVE', 'WITH_ISSUES'],
    ['w1', 'ACTIVE', 'CAMPAIGN_PAUSED'],
    ['v1', 'ACTIVE', 'DELETED'],
    ['u1', 'ACTIVE', 'ARCHIVED'],
    ['t1', 'PAUSED', 'DELETED'],
  ];
  it.each(AD_STATUS)('ad %s: status %s reads effective_status %s', async (key, status, effective) => {
    expect(await read(ad[key].id, 'status,effective_status')).toEqual({ id: ad[key].id, status, effective_status: effective });
  });

  const setIds = (...keys: Array<keyof typeof s>) => ascending(keys.map((k) => s[k].id));
  const adIds = (...keys: Array<keyof typeof ad>) => ascending(keys.map((k) => ad[k].id));

  /** An edge read in full with summary=total_count; the count must agree with the list. */
  async function edge(path: string, query: Record<string, unknown> = {}) {
    const response = await graph.get(path, tokens.advertiser, { summary: 'total_count', limit: 100, ...query });
    expect(response.status, response.text).toBe(200);
    expect(response.body.summary, response.text).toEqual({ total_count: response.body.data.length });
    return ids(response.body);
  }

  it.each([
    ['the account', () => `act_${edgeAccount.id}/adsets`, undefined, () => setIds('a1', 'a2', 'a5', 'b1', 'b2')],
    ['the account', () => `act_${edgeAccount.id}/adsets`, ['DELETED', 'ARCHIVED'], () => setIds('a3', 'a4', 'd1', 'r1', 'r2')],
    ['the account', () => `act_${edgeAccount.id}/adsets`, ['WITH_ISSUES'], () => setIds('a5')],
    ['the account', () => `act_${edgeAccount.id}/adsets`, ['CAMPAIGN_PAUSED', 'PAUSED'], () => setIds('a2', 'b1', 'b2')],
    ['the account', () => `act_${edgeAccount.id}/adsets`, ['ACTIVE'], () => setIds('a1')],
    ['a campaign', () => `${c.active.id}/adsets`, undefined, () => setIds('a1', 'a2', 'a5')],
    ['a campaign', () => `${c.active.id}/adsets`, ['DELETED'], () => setIds('a3')],
    ['a paused campaign', () => `${c.paused.id}/adsets`, undefined, () => setIds('b1', 'b2')],
    ['a deleted campaign', () => `${c.deleted.id}/adsets`, undefined, () => []],
    ['a deleted campaign', () => `${c.deleted.id}/adsets`, ['DELETED'], () => setIds('d1')],
  ] as const)('ad sets of %s, effective_status %j', async (_what, path, filter, expected) => {
    const query = filter ? { effective_status: [...filter] } : {};
    expect(await edge(path(), query)).toEqual(expected());
    // The same filter as a comma list, as people type it.
    if (filter) expect(await edge(path(), { effective_status: filter.join(',') })).toEqual(expected());
  });

  it.each([
    ['an ad set', () => `${s.a1.id}/ads`, undefined, () => adIds('x1', 'x2')],
    ['an ad set', () => `${s.a1.id}/ads`, ['DELETED', 'ARCHIVED'], () => adIds('x3', 'x4')],
    ['a paused ad set', () => `${s.a2.id}/ads`, ['ADSET_PAUSED'], () => adIds('y1')],
    ['a deleted ad set', () => `${s.a3.id}/ads`, undefined, () => []],
    ['the account', () => `act_${edgeAccount.id}/ads`, undefined, () => adIds('x1', 'x2', 'y1', 'z1', 'w1')],
    ['the account', () => `act_${edgeAccount.id}/ads`, ['ADSET_PAUSED'], () => adIds('y1')],
    ['the account', () => `act_${edgeAccount.id}/ads`, ['WITH_ISSUES'], () => adIds('z1')],
    ['the account', () => `act_${edgeAccount.id}/ads`, ['CAMPAIGN_PAUSED', 'ADSET_PAUSED', 'PAUSED'], () => adIds('x2', 'y1', 'w1')],
    ['the account', () => `act_${edgeAccount.id}/ads`, ['DELETED'], () => adIds('x3', 'v1', 't1')],
    ['the account', () => `act_${edgeAccount.id}/ads`, ['ARCHIVED'], () => adIds('x4', 'u1')],
    ['a campaign', () => `${c.active.id}/ads`, undefined, () => adIds('x1', 'x2', 'y1', 'z1')],
    ['a paused campaign', () => `${c.paused.id}/ads`, ['CAMPAIGN_PAUSED'], () => adIds('w1')],
  ] as const)('ads of %s, effective_status %j', async (_what, path, filter, expected) => {
    const query = filter ? { effective_status: [...filter] } : {};
    expect(await edge(path(), query)).toEqual(expected());
    if (filter) expect(await edge(path(), { effective_status: filter.join(',') })).toEqual(expected());
  });

  it('campaigns of the account leave out DELETED and ARCHIVED too', async () => {
    expect(await edge(`act_${edgeAccount.id}/campaigns`)).toEqual(ascending([c.active.id, c.paused.id]));
    expect(await edge(`act_${edgeAccount.id}/campaigns`, { effective_status: '["DELETED","ARCHIVED"]' })).toEqual(ascending([c.deleted.id, c.archived.id]));
  });

  it('filters nested edges with the effective_status modifier', async () => {
    const body = await read(c.active.id, 'adsets.effective_status(["PAUSED","WITH_ISSUES"]){name,effective_status},ads.effective_status(ADSET_PAUSED){id}');
    expect(body).toEqual({
      id: c.active.id,
      adsets: {
        data: [
          { id: s.a2.id, name: 'a2 paused', effective_status: 'PAUSED' },
          { id: s.a5.id, name: 'a5 with issues', effective_status: 'WITH_ISSUES' },
        ],
        paging: expect.any(Object),
      },
      ads: { data: [{ id: ad.y1.id }], paging: expect.any(Object) },
    });
  });

  it.each([
    [
      'a status ad sets do not have',
      () => `act_${edgeAccount.id}/adsets`,
      ['ADSET_PAUSED'],
      /^\(#100\) Param effective_status\[0\] must be one of \{ACTIVE, PAUSED, DELETED, CAMPAIGN_PAUSED, ARCHIVED, IN_PROCESS, WITH_ISSUES\}$/,
    ],
    [
      'a status that does not exist',
      () => `${s.a1.id}/ads`,
      ['ACTIVE', 'RUNNING'],
      /^\(#100\) Param effective_status\[1\] must be one of \{ACTIVE, PAUSED, DELETED, ARCHIVED, CAMPAIGN_PAUSED, ADSET_PAUSED, IN_PROCESS, WITH_ISSUES\}$/,
    ],
    ['a list of numbers', () => `${s.a1.id}/ads`, [1], /^\(#100\) Param effective_status must be a list of statuses$/],
    [
      'an edge without the filter',
      () => `act_${edgeAccount.id}/customaudiences`,
      ['ACTIVE'],
      /^\(#100\) Param effective_status is not supported on this edge$/,
    ],
  ] as const)('effective_status with %s is error 100', async (_what, path, filter, message) => {
    expectGraphError(await graph.get(path(), tokens.advertiser, { effective_status: [...filter] }), { status: 400, code: 100, message });
  });

  it('reads one issue per flagged audience and conversion, and a warning per lookalike at 471', async () => {
    const [withAll] = await world.adSets(c.active, 1, () => ({
      name: 'all three',
      promotedObject: { custom_conversion_id: conversions.flagged },
      targeting: {
        geo_locations: { countries: ['US'] },
        custom_audiences: [{ id: audiences.lookalike471 }, { id: audiences.clean }],
        excluded_custom_audiences: [audiences.flagged],
      },
    }));
    expect(await read(withAll!.id, 'issues_info,effective_status')).toEqual({
      id: withAll!.id,
      effective_status: 'WITH_ISSUES',
      issues_info: [
        {
          level: 'AD_SET',
          error_code: 2460003,
          error_type: 'SOFT_ERROR',
          additional_info: `custom_audience_id: ${audiences.lookalike471}`,
          error_summary: 'Lookalike audience restricted (warning)',
          error_message: `Lookalike audience ${audiences.lookalike471} has operation status 471: its source audience may suggest health conditions or financial status. Replace it to keep this ad set delivering.`,
        },
        {
          level: 'AD_SET',
          error_code: 2460003,
          error_type: 'SOFT_ERROR',
          additional_info: `custom_audience_id: ${audiences.flagged}`,
          error_summary: 'Custom audience blocked',
          error_message: `Custom audience ${audiences.flagged} may suggest health conditions and cannot be used to run ads. Remove it from this ad set or ask for a review.`,
        },
        {
          level: 'AD_SET',
          error_code: 2460004,
          error_type: 'SOFT_ERROR',
          additional_info: `custom_conversion_id: ${conversions.flagged}`,
          error_summary: 'Custom conversion blocked',
          error_message: `Custom conversion ${conversions.flagged} may suggest health conditions and cannot be used to run ads. Optimize for another conversion or ask for a review.`,
        },
      ],
    });
  });

  it('the WITH_ISSUES filter agrees with the field for every kind of restricted item', async () => {
    const issuesAccount = await world.adAccount(account.organizationId);
    const [campaign] = await world.campaigns(issuesAccount, 1);
    const geo = { countries: ['US'] };
    const made = await world.adSets(
      campaign!,
      6,
      (i) =>
        [
          { name: 'clean', targeting: { geo_locations: geo, custom_audiences: [audiences.clean] } },
          { name: 'flagged audience', targeting: { geo_locations: geo, custom_audiences: [audiences.flagged] } },
          { name: 'lookalike at 471 only', targeting: { geo_locations: geo, custom_audiences: [{ id: audiences.lookalike471 }] } },
          { name: 'flagged conversion only', targeting: { geo_locations: geo }, promotedObject: { custom_conversion_id: conversions.flagged } },
          { name: 'clean conversion', targeting: { geo_locations: geo }, promotedObject: { custom_conversion_id: conversions.clean } },
          {
            name: 'flagged, excluded inside flexible_spec',
            targeting: { geo_locations: geo, flexible_spec: [{ excluded_custom_audiences: [audiences.flagged2] }] },
          },
        ][i]!,
    );
    const statuses = await Promise.all(made.map(async (m) => (await read(m.id, 'effective_status')).effective_status as string));
    expect(statuses).toEqual(['ACTIVE', 'WITH_ISSUES', 'WITH_ISSUES', 'WITH_ISSUES', 'ACTIVE', 'WITH_ISSUES']);
    const withIssues = made.filter((_, i) => statuses[i] === 'WITH_ISSUES').map((m) => m.id);
    expect(await edge(`act_${issuesAccount.id}/adsets`, { effective_status: ['WITH_ISSUES'] })).toEqual(withIssues);
    expect(await edge(`act_${issuesAccount.id}/adsets`, { effective_status: 'ACTIVE' })).toEqual(
      made.filter((_, i) => statuses[i] === 'ACTIVE').map((m) => m.id),
    );
  });

  it('an audience flagged after the ad set was made gives it issues; clearing the flag takes them away', async () => {
    const later = (await graph.call('POST', `/v24.0/act_${account.id}/customaudiences`, { token: tokens.advertiser, json: { name: 'Later' } })).body
      .id as string;
    const id = await createAdSet({ name: 'Flagged later', targeting: { geo_locations: { countries: ['US'] }, custom_audiences: [later] } });
    expect(await read(id, 'effective_status,issues_info')).toEqual({ id, effective_status: 'ACTIVE', issues_info: [] });
    await flagAudience(server.deps, { id: later, reason: 'financial' });
    const flagged = await read(id, 'effective_status,issues_info');
    expect(flagged.effective_status).toBe('WITH_ISSUES');
    expect(flagged.issues_info).toEqual([
      expect.objectContaining({
        error_code: 2460003,
        additional_info: `custom_audience_id: ${later}`,
        error_message: expect.stringMatching(/financial status/),
      }),
    ]);
    expect(await edge(`act_${account.id}/adsets`, { effective_status: ['WITH_ISSUES'] })).toContain(id);
    await flagAudience(server.deps, { id: later, reason: null });
    expect(await read(id, 'effective_status,issues_info')).toEqual({ id, effective_status: 'ACTIVE', issues_info: [] });
    expect(await edge(`act_${account.id}/adsets`, { effective_status: ['WITH_ISSUES'] })).not.toContain(id);
  });
});

// --- Edges of an ad set with paging ---------------------------------------------------------------------

describe('the edges of an ad set: ads, copies, asyncadrequests, with Graph paging', () => {
  /** Follows `next` to the end: the ids of every page, and the page sizes. */
  async function walk(path: string, limit: number) {
    let response = await graph.get(path, tokens.advertiser, { limit });
    expect(response.status, response.text).toBe(200);
    const pages: string[][] = [ids(response.body)];
    while (response.body.paging?.next) {
      expect(response.body.paging.cursors).toEqual({ before: expect.any(String), after: expect.any(String) });
      response = await graph.follow(response.body.paging.next);
      expect(response.status, response.text).toBe(200);
      expect(response.body.paging.previous).toEqual(expect.any(String));
      pages.push(ids(response.body));
    }
    return pages;
  }

  it('ads: five ads in pages of two, forward, then back', async () => {
    const [adSet] = await world.adSets(traffic, 1, () => ({ name: 'Five ads' }));
    const made = (await world.ads(adSet!, 5)).map((a) => a.id);
    expect(await walk(`${adSet!.id}/ads`, 2)).toEqual([made.slice(0, 2), made.slice(2, 4), made.slice(4)]);
    const last = await graph.get(`${adSet!.id}/ads`, tokens.advertiser, {
      limit: 2,
      after: (await graph.get(`${adSet!.id}/ads`, tokens.advertiser, { limit: 4 })).body.paging.cursors.after,
    });
    expect(ids(last.body)).toEqual(made.slice(4));
    expect(last.body.paging.next).toBeUndefined();
    const back = await graph.follow(last.body.paging.previous);
    expect(ids(back.body)).toEqual(made.slice(2, 4));
    expect(await read(adSet!.id, 'ads.limit(3){name,status}')).toEqual({
      id: adSet!.id,
      ads: { data: made.slice(0, 3).map((id, i) => ({ id, name: `Ad ${i + 1}`, status: 'ACTIVE' })), paging: { cursors: expect.any(Object) } },
    });
    const summary = await graph.get(`${adSet!.id}/ads`, tokens.advertiser, { limit: 1, summary: 'total_count' });
    expect(summary.body.summary).toEqual({ total_count: 5 });
  });

  it('copies: every copy made of the ad set, paged; a deleted copy is left out', async () => {
    const source = await createAdSet({ name: 'Copied' });
    const copies: string[] = [];
    for (let i = 0; i < 3; i++) {
      const response = await graph.call('POST', `/v24.0/${source}/copies`, {
        token: tokens.advertiser,
        form: { rename_options: { rename_suffix: ` #${i + 1}` } },
      });
      expect(response.status, response.text).toBe(200);
      expect(response.body).toEqual({
        copied_adset_id: expect.any(String),
        ad_object_ids: [{ ad_object_type: 'ad_set', source_id: source, copied_id: response.body.copied_adset_id }],
      });
      copies.push(response.body.copied_adset_id);
    }
    expect(await walk(`${source}/copies`, 2)).toEqual([copies.slice(0, 2), copies.slice(2)]);
    expect(await read(source, 'copies{name,source_adset_id}')).toEqual({
      id: source,
      copies: { data: copies.map((id, i) => ({ id, name: `Copied #${i + 1}`, source_adset_id: source })), paging: expect.any(Object) },
    });
    expectSuccess(await remove(copies[1]!));
    expect(ids((await graph.get(`${source}/copies`, tokens.advertiser)).body)).toEqual([copies[0], copies[2]]);
    expect(ids((await graph.get(`${source}/copies`, tokens.advertiser, { effective_status: ['DELETED'] })).body)).toEqual([copies[1]]);
  });

  it('asyncadrequests: the asynchronous requests acting on the ad set, paged', async () => {
    const source = await createAdSet({ name: 'Async source' });
    const batch = await graph.call('POST', `/v24.0/act_${account.id}/async_batch_requests`, {
      token: tokens.advertiser,
      form: { name: 'three copies', adbatch: [1, 2, 3].map((i) => ({ name: `copy ${i}`, relative_url: `${source}/copies`, body: 'deep_copy=true' })) },
    });
    expect(batch.status, batch.text).toBe(200);
    const pages = await walk(`${source}/asyncadrequests`, 2);
    expect(pages.map((p) => p.length)).toEqual([2, 1]);
    const requests = (await graph.get(`${source}/asyncadrequests`, tokens.advertiser, { fields: 'name,status,scope_object_id,async_request_set{id}' })).body
      .data;
    expect(requests).toEqual(
      [1, 2, 3].map((i) => ({
        id: pages.flat()[i - 1],
        name: `copy ${i}`,
        status: 'INITIAL',
        scope_object_id: source,
        async_request_set: { id: batch.body.id },
      })),
    );
    // Another ad set's edge does not show them.
    const other = await createAdSet({ name: 'No requests' });
    expect((await graph.get(`${other}/asyncadrequests`, tokens.advertiser)).body).toEqual({ data: [] });
  });
});

// --- Update ---------------------------------------------------------------------------------------------

describe('POST /<AD_SET_ID>', () => {
  it.each(['json', 'form'] as const)('answers {success: true} and the change reads back at once (%s)', async (encoding) => {
    const id = await createAdSet({ name: 'Before', start_time: S, end_time: END });
    const before = await read(id, 'updated_time', { date_format: 'U' });
    const response = await update(
      id,
      {
        name: 'After',
        daily_budget: 30000,
        end_time: END + DAY,
        optimization_goal: 'LANDING_PAGE_VIEWS',
        billing_event: 'IMPRESSIONS',
        targeting: { geo_locations: { countries: ['US', 'CA'] }, age_min: 30 },
        adlabels: [{ name: 'renamed' }],
        is_dynamic_creative: true,
      },
      { encoding },
    );
    expectSuccess(response);
    const after = await read(id, 'name,daily_budget,end_time,optimization_goal,targeting,adlabels,is_dynamic_creative,start_time,updated_time', {
      date_format: 'U',
    });
    expect(after).toEqual({
      id,
      name: 'After',
      daily_budget: '30000',
      end_time: END + DAY,
      optimization_goal: 'LANDING_PAGE_VIEWS',
      start_time: S,
      targeting: { geo_locations: { countries: ['US', 'CA'] }, age_min: 30 },
      adlabels: [{ name: 'renamed' }],
      is_dynamic_creative: true,
      updated_time: expect.any(Number),
    });
    expect(after.updated_time).toBeGreaterThanOrEqual(before.updated_time);
  });

  it('changes only what was sent', async () => {
    const id = await createAdSet({
      name: 'Partial',
      bid_strategy: 'COST_CAP',
      bid_amount: 700,
      targeting: { geo_locations: { countries: ['US'] }, age_min: 21 },
    });
    const fields = 'name,bid_strategy,bid_amount,daily_budget,targeting,status';
    const before = await read(id, fields);
    expectSuccess(await update(id, { name: 'Partial 2' }));
    expect(await read(id, fields)).toEqual({ ...before, name: 'Partial 2' });
    expectSuccess(await update(id, { colour: 'blue' }));
    expect(await read(id, fields)).toEqual({ ...before, name: 'Partial 2' });
  });

  it.each([
    ['campaign_status PAUSED', { campaign_status: 'PAUSED' }, 'PAUSED'],
    ['campaign_status ACTIVE', { campaign_status: 'ACTIVE' }, 'ACTIVE'],
    ['status PAUSED', { status: 'PAUSED' }, 'PAUSED'],
    ['status and campaign_status agreeing', { status: 'PAUSED', campaign_status: 'PAUSED' }, 'PAUSED'],
  ] as const)("sets the ad set's own status with %s", async (_what, params, expected) => {
    const id = await createAdSet({ status: expected === 'ACTIVE' ? 'PAUSED' : 'ACTIVE' });
    expectSuccess(await update(id, params));
    expect(await read(id, 'status,configured_status,effective_status')).toEqual({
      id,
      status: expected,
      configured_status: expected,
      effective_status: expected,
    });
  });

  it('refuses status and campaign_status that disagree', async () => {
    const id = await createAdSet();
    await expectRefused(id, () => update(id, { status: 'PAUSED', campaign_status: 'ACTIVE' }), {
      message: p100('Param campaign_status and status set the same value and disagree: send one of them'),
    });
  });

  describe('the state table', () => {
    const archivedRule = (name: string, id: string): Refusal => ({
      message: p100(`Param ${name} cannot be changed: ad set ${id} is ARCHIVED, and only name may be changed, and the status only to DELETED`),
      userTitle: 'Ad set is archived',
      userMsg: 'This ad set is archived. You can only change its name or delete it.',
    });
    const deletedRule = (name: string, id: string): Refusal => ({
      message: p100(`Param ${name} cannot be changed: ad set ${id} is DELETED, and only name may be changed`),
      userTitle: 'Ad set is deleted',
      userMsg: 'This ad set is deleted. You can only change its name.',
    });

    async function archived() {
      const id = await createAdSet({ name: 'To archive' });
      expectSuccess(await update(id, { status: 'ARCHIVED' }));
      return id;
    }
    async function deleted() {
      const id = await createAdSet({ name: 'To delete' });
      expectSuccess(await remove(id));
      return id;
    }

    it.each([
      ['name', { name: 'Still archived' }, { name: 'Still archived', status: 'ARCHIVED' }],
      ['campaign_status DELETED', { campaign_status: 'DELETED' }, { name: 'To archive', status: 'DELETED' }],
      ['status DELETED', { status: 'DELETED' }, { name: 'To archive', status: 'DELETED' }],
      ['name and campaign_status DELETED', { name: 'Gone', campaign_status: 'DELETED' }, { name: 'Gone', status: 'DELETED' }],
      ['status ARCHIVED again (no change)', { status: 'ARCHIVED' }, { name: 'To archive', status: 'ARCHIVED' }],
    ] as const)('ARCHIVED accepts %s', async (_what, params, expected) => {
      const id = await archived();
      expectSuccess(await update(id, params));
      expect(await read(id, 'name,status')).toEqual({ id, ...expected });
    });

    it.each([
      ['campaign_status ACTIVE', { campaign_status: 'ACTIVE' }, 'campaign_status'],
      ['campaign_status PAUSED', { campaign_status: 'PAUSED' }, 'campaign_status'],
      ['status ACTIVE', { status: 'ACTIVE' }, 'status'],
      ['a budget', { daily_budget: 30000 }, 'daily_budget'],
      ['targeting', { targeting: { geo_locations: { countries: ['CA'] } } }, 'targeting'],
      ['the name with a budget', { name: 'x', daily_budget: 30000 }, 'daily_budget'],
      ['end_time', { end_time: END }, 'end_time'],
    ] as const)('ARCHIVED refuses %s and changes nothing', async (_what, params, field) => {
      const id = await archived();
      await expectRefused(id, () => update(id, params), archivedRule(field, id));
    });

    it.each([
      ['name', { name: 'Renamed after deletion' }, { name: 'Renamed after deletion', status: 'DELETED' }],
      ['status DELETED again (no change)', { status: 'DELETED' }, { name: 'To delete', status: 'DELETED' }],
      ['campaign_status DELETED again', { campaign_status: 'DELETED' }, { name: 'To delete', status: 'DELETED' }],
    ] as const)('DELETED accepts %s', async (_what, params, expected) => {
      const id = await deleted();
      expectSuccess(await update(id, params));
      expect(await read(id, 'name,status')).toEqual({ id, ...expected });
    });

    it.each([
      ['status ACTIVE', { status: 'ACTIVE' }, 'status'],
      ['status ARCHIVED', { status: 'ARCHIVED' }, 'status'],
      ['campaign_status PAUSED', { campaign_status: 'PAUSED' }, 'campaign_status'],
      ['a budget', { daily_budget: 30000 }, 'daily_budget'],
      ['the name with targeting', { name: 'x', targeting: { geo_locations: { countries: ['CA'] } } }, 'targeting'],
    ] as const)('DELETED refuses %s and changes nothing', async (_what, params, field) => {
      const id = await deleted();
      await expectRefused(id, () => update(id, params), deletedRule(field, id));
    });

    it('ARCHIVED takes the ads along, and DELETED after it too', async () => {
      const id = await createAdSet({ name: 'With ads' });
      const made = await adsOf(id, 3);
      expectSuccess(await remove(made[2]!.id));
      expectSuccess(await update(id, { status: 'ARCHIVED' }));
      const statuses = async () => Promise.all(made.map(async (a) => (await read(a.id, 'status')).status));
      expect(await statuses()).toEqual(['ARCHIVED', 'ARCHIVED', 'DELETED']);
      expectSuccess(await update(id, { campaign_status: 'DELETED' }));
      expect(await statuses()).toEqual(['DELETED', 'DELETED', 'DELETED']);
    });
  });

  describe('retargeting into the EU (DSA rules on update)', () => {
    it('applies the account defaults when the targeting moves into the EU', async () => {
      const id = await createAdSet({}, dsaTraffic, dsaAccount);
      expect(await read(id, 'dsa_payor,dsa_beneficiary')).toEqual({ id });
      expectSuccess(await update(id, { targeting: { geo_locations: { countries: ['US', 'FR'] } } }));
      expect(await read(id, 'dsa_payor,dsa_beneficiary,targeting')).toEqual({
        id,
        dsa_payor: 'Default Payor SA',
        dsa_beneficiary: 'Default Beneficiary GmbH',
        targeting: { geo_locations: { countries: ['US', 'FR'] } },
      });
    });

    it('takes a payor sent with the retargeting and the default beneficiary, never the payor as beneficiary', async () => {
      const id = await createAdSet({}, dsaTraffic, dsaAccount);
      expectSuccess(await update(id, { targeting: { geo_locations: { countries: ['ES'] } }, dsa_payor: 'Own Payor' }));
      expect(await read(id, 'dsa_payor,dsa_beneficiary')).toEqual({ id, dsa_payor: 'Own Payor', dsa_beneficiary: 'Default Beneficiary GmbH' });
    });

    it.each(['json', 'form'] as const)('without defaults: 3858079, then 3858081, each blaming its field; nothing changed (%s)', async (encoding) => {
      const id = await createAdSet();
      await expectRefused(id, () => update(id, { targeting: { geo_locations: { countries: ['DE'] } } }, { encoding }), {
        subcode: 3858079,
        message: p100('The parameter dsa_payor is required for ad sets targeting the European Union (DE)'),
        userTitle: 'Payor required',
        data: { blame_field_specs: [['dsa_payor']] },
      });
      await expectRefused(id, () => update(id, { targeting: { geo_locations: { countries: ['DE', 'MQ'] } }, dsa_payor: 'Payor' }, { encoding }), {
        subcode: 3858081,
        message: p100('The parameter dsa_beneficiary is required for ad sets targeting the European Union (DE, MQ)'),
        userTitle: 'Beneficiary required',
        data: { blame_field_specs: [['dsa_beneficiary']] },
      });
      expectSuccess(await update(id, { targeting: { geo_locations: { countries: ['DE'] } }, dsa_payor: 'Payor', dsa_beneficiary: 'Brand' }, { encoding }));
      expect(await read(id, 'dsa_payor,dsa_beneficiary')).toEqual({ id, dsa_payor: 'Payor', dsa_beneficiary: 'Brand' });
    });
  });

  describe('the rules on what changes', () => {
    it('refuses adding a flagged audience (246003 listing every one) and a flagged conversion (246004)', async () => {
      const id = await createAdSet({ targeting: { geo_locations: { countries: ['US'] }, custom_audiences: [audiences.clean] } });
      await expectRefused(
        id,
        () =>
          update(id, { targeting: { geo_locations: { countries: ['US'] }, custom_audiences: [audiences.clean, audiences.flagged, audiences.lookalike471] } }),
        {
          subcode: 246003,
          message: p100(
            `Ad sets cannot use custom audiences that may suggest health conditions or financial status, nor lookalikes of them: ${audiences.flagged}, ${audiences.lookalike471}`,
          ),
          userTitle: 'Restricted audience',
          data: { restricted_custom_audience_ids: [audiences.flagged, audiences.lookalike471] },
        },
      );
      const sales = (await world.campaigns(account, 1, { objective: 'OUTCOME_SALES' }))[0]!;
      const conversionSet = await createAdSet(
        { optimization_goal: 'OFFSITE_CONVERSIONS', promoted_object: { custom_conversion_id: conversions.clean } },
        sales,
      );
      await expectRefused(conversionSet, () => update(conversionSet, { promoted_object: { custom_conversion_id: conversions.flagged } }), {
        subcode: 246004,
        message: p100(`Ad sets cannot optimize for custom conversion ${conversions.flagged}: it may suggest health conditions or financial status`),
        data: { restricted_custom_conversion_id: conversions.flagged },
      });
    });

    it('updates the references with the targeting', async () => {
      const id = await createAdSet({ targeting: { geo_locations: { countries: ['US'] }, custom_audiences: [audiences.clean] } });
      const clean2 = (await graph.call('POST', `/v24.0/act_${account.id}/customaudiences`, { token: tokens.advertiser, json: { name: 'Second' } })).body
        .id as string;
      expectSuccess(await update(id, { targeting: { geo_locations: { countries: ['US'] }, custom_audiences: [clean2] } }));
      expect((await server.deps.db('ad_set_references').where({ ad_set_id: id })).map((r) => String(r.object_id))).toEqual([clean2]);
      // Flagging the new one now shows on the ad set, the old one no longer counts.
      await flagAudience(server.deps, { id: clean2, reason: 'health' });
      expect((await read(id, 'effective_status')).effective_status).toBe('WITH_ISSUES');
    });

    describe('an ad set whose audience was flagged after it was made', () => {
      let id: string;
      let audience: string;
      beforeAll(async () => {
        audience = (await graph.call('POST', `/v24.0/act_${account.id}/customaudiences`, { token: tokens.advertiser, json: { name: 'Flagged later' } })).body
          .id;
        id = await createAdSet({ name: 'Stop me', targeting: { geo_locations: { countries: ['US'] }, custom_audiences: [audience] } });
        await flagAudience(server.deps, { id: audience, reason: 'health' });
      });
      const refusal = (): Refusal => ({
        subcode: 246003,
        message: p100(`Ad sets cannot use custom audiences that may suggest health conditions or financial status, nor lookalikes of them: ${audience}`),
        data: { restricted_custom_audience_ids: [audience] },
      });

      it.each([
        ['a new name', { name: 'Renamed' }],
        ['a budget', { daily_budget: 30000 }],
        ['ACTIVE again', { status: 'ACTIVE' }],
        ['a pause with a new name', { status: 'PAUSED', name: 'Paused and renamed' }],
      ])('cannot be changed: %s is 246003', async (_what, params) => {
        await expectRefused(id, () => update(id, params), refusal());
      });

      it('can be stopped: paused, archived, deleted', async () => {
        expectSuccess(await update(id, { campaign_status: 'PAUSED' }));
        expect(await read(id, 'status,effective_status')).toEqual({ id, status: 'PAUSED', effective_status: 'PAUSED' });
        expectSuccess(await update(id, { status: 'ARCHIVED' }));
        expectSuccess(await remove(id));
        expect((await read(id, 'status')).status).toBe('DELETED');
      });

      it('can be retargeted away from the audience, and then changed again', async () => {
        const fresh = (await graph.call('POST', `/v24.0/act_${account.id}/customaudiences`, { token: tokens.advertiser, json: { name: 'Flagged soon' } })).body
          .id as string;
        const other = await createAdSet({ name: 'Fix me', targeting: { geo_locations: { countries: ['US'] }, custom_audiences: [fresh, audiences.clean] } });
        await flagAudience(server.deps, { id: fresh, reason: 'financial' });
        expect((await read(other, 'effective_status')).effective_status).toBe('WITH_ISSUES');
        expectSuccess(await update(other, { targeting: { geo_locations: { countries: ['US'] }, custom_audiences: [audiences.clean] } }));
        expect(await read(other, 'effective_status,issues_info')).toEqual({ id: other, effective_status: 'ACTIVE', issues_info: [] });
        expectSuccess(await update(other, { name: 'Fixed' }));
        expect((await read(other, 'name')).name).toBe('Fixed');
      });
    });

    it('keeps the ad set in its campaign', async () => {
      const id = await createAdSet();
      await expectRefused(id, () => update(id, { campaign_id: otherTraffic.id }), {
        message: p100('Param campaign_id cannot be changed: an ad set stays in its campaign (copy it into another campaign instead)'),
      });
      expectSuccess(await update(id, { campaign_id: traffic.id, name: 'Same campaign' }));
      expect(await read(id, 'campaign_id,name')).toEqual({ id, campaign_id: traffic.id, name: 'Same campaign' });
    });

    it.each([
      [
        'a budget below the minimum',
        { daily_budget: 99 },
        { subcode: 1885272, message: /^\(#100\) Your budget is too low\. The minimum daily budget for this ad set is 1\.00 USD/ },
      ],
      ['an empty name', { name: '' }, { message: p100('The parameter name is required') }],
      ['a name too long', { name: 'n'.repeat(401) }, { message: p100('Param name must be at most 400 characters') }],
      [
        'a restricted location',
        { targeting: { geo_locations: { countries: ['SY'] } } },
        { code: 2641, message: '(#2641) Your ad includes or excludes locations that are restricted: SY' },
      ],
      ['no countries', { targeting: { geo_locations: {} } }, { message: /^\(#100\) The parameter targeting\.geo_locations\.countries is required/ }],
      [
        'a lifetime budget beside the daily one',
        { lifetime_budget: 50000, end_time: END },
        { message: /^\(#100\) Only one of daily_budget and lifetime_budget/ },
      ],
      ['a decimal budget', { daily_budget: 300.5 }, { message: /without decimals$/ }],
      ['a bad enum', { billing_event: 'SOMETIMES' }, { message: /^\(#100\) Param billing_event must be one of/ }],
      ['broken JSON', { targeting: '{"geo_locations":' }, { message: p100('Param targeting must be JSON-encoded: {"geo_locations":') }],
      ['a status out of the enum', { status: 'RUNNING' }, { message: p100('Param status must be one of {ACTIVE, PAUSED, DELETED, ARCHIVED}') }],
    ] as const)('refuses %s and changes nothing', async (_what, params, error) => {
      const id = await createAdSet();
      await expectRefused(id, () => update(id, params as Params, { encoding: 'form' }), error as Refusal);
    });

    it('validate_only checks an update and changes nothing; include_recommendations adds advice', async () => {
      const id = await createAdSet({ name: 'Validated' });
      const before = await snapshot(id);
      expectSuccess(await update(id, { name: 'Not written', execution_options: ['validate_only'] }));
      expect(await snapshot(id)).toEqual(before);
      await expectRefused(id, () => update(id, { daily_budget: 1, execution_options: ['validate_only'] }), { subcode: 1885272, message: /too low/ });
      const advised = await update(id, { daily_budget: 150, execution_options: ['include_recommendations'] });
      expect(advised.status, advised.text).toBe(200);
      expect(advised.body).toEqual({ success: true, recommendations: [expect.objectContaining({ title: 'Raise your budget', blame_field: 'daily_budget' })] });
      expect((await read(id, 'daily_budget')).daily_budget).toBe('150');
    });
  });

  it.each([
    ['an id that names nothing', () => '999999999999999'],
    ['an id of another organization', () => foreignAdSet.id],
  ])('answers %s with 100/33', async (_what, id) => {
    const before = await rowCounts();
    expectGraphError(await update(id(), { name: 'x' }), {
      status: 400,
      code: 100,
      subcode: 33,
      type: 'GraphMethodException',
      message: UNKNOWN_OBJECT(id(), 'post'),
    });
    expect(await rowCounts()).toEqual(before);
  });
});

// --- Delete ---------------------------------------------------------------------------------------------

describe('DELETE /<AD_SET_ID>', () => {
  it('sets DELETED, keeps it readable by id only, takes the ads along, and may be repeated', async () => {
    const id = await createAdSet({ name: 'Doomed' });
    const made = await adsOf(id, 2);
    expectSuccess(await update(made[1]!.id, { status: 'PAUSED' }));
    const counts = await rowCounts();

    expectSuccess(await remove(id));
    expect(await read(id, 'name,status,configured_status,effective_status')).toEqual({
      id,
      name: 'Doomed',
      status: 'DELETED',
      configured_status: 'DELETED',
      effective_status: 'DELETED',
    });
    for (const a of made) expect(await read(a.id, 'status,effective_status')).toEqual({ id: a.id, status: 'DELETED', effective_status: 'DELETED' });
    // Nothing is removed: the rows stay.
    expect(await rowCounts()).toEqual(counts);
    // Edges leave it out; asked for, it is there.
    const listed = ids((await graph.get(`act_${account.id}/adsets`, tokens.advertiser, { limit: 100 })).body);
    expect(listed).not.toContain(id);
    expect(ids((await graph.get(`${traffic.id}/adsets`, tokens.advertiser, { limit: 100, effective_status: ['DELETED'] })).body)).toContain(id);
    expect((await graph.get(`${id}/ads`, tokens.advertiser)).body).toEqual({ data: [] });

    const updated = (await read(id, 'updated_time', { date_format: 'U' })).updated_time;
    expectSuccess(await remove(id));
    expect(await read(id, 'status,updated_time', { date_format: 'U' })).toEqual({ id, status: 'DELETED', updated_time: updated });
  });

  it('deletes an archived ad set', async () => {
    const id = await createAdSet();
    expectSuccess(await update(id, { status: 'ARCHIVED' }));
    expectSuccess(await remove(id));
    expect((await read(id, 'status')).status).toBe('DELETED');
  });

  it('answers an id that names nothing, or no ad set of the caller, with 100/33', async () => {
    for (const id of ['999999999999999', foreignAdSet.id]) {
      expectGraphError(await remove(id), { status: 400, code: 100, subcode: 33, type: 'GraphMethodException', message: UNKNOWN_OBJECT(id, 'delete') });
    }
    expect(await server.deps.db('ad_sets').where({ id: foreignAdSet.id }).first()).toMatchObject({ status: 'ACTIVE' });
  });
});

// --- Permissions ----------------------------------------------------------------------------------------

describe('who may read and write an ad set', () => {
  let adSet: string;
  beforeAll(async () => {
    adSet = await createAdSet({ name: 'Guarded' });
    await adsOf(adSet, 1);
  });

  it.each(['admin', 'advertiser', 'auditor', 'siteAdmin', 'adsReadClient', 'adsClient'] as const)('%s reads the ad set and its edges', async (role) => {
    expect(await read(adSet, 'name,effective_status,campaign{name}', {}, role)).toEqual({
      id: adSet,
      name: 'Guarded',
      effective_status: 'ACTIVE',
      campaign: { id: traffic.id, name: 'Traffic' },
    });
    const edge = await graph.get(`${adSet}/ads`, tokens[role], { summary: 'total_count' });
    expect(edge.status, edge.text).toBe(200);
    expect(edge.body.summary).toEqual({ total_count: 1 });
  });

  it.each(['moderator', 'member', 'outsider', 'pagesClient'] as const)('%s cannot see it: 100/33 on read, edges, update and delete', async (role) => {
    expectGraphError(await get(adSet, { fields: 'name' }, role), {
      status: 400,
      code: 100,
      subcode: 33,
      type: 'GraphMethodException',
      message: UNKNOWN_OBJECT(adSet),
    });
    expectGraphError(await graph.get(`${adSet}/ads`, tokens[role]), { status: 400, code: 100, subcode: 33, message: UNKNOWN_OBJECT(adSet) });
    const before = await snapshot(adSet);
    expectGraphError(await update(adSet, { name: 'Hijacked' }, { role }), { status: 400, code: 100, subcode: 33, message: UNKNOWN_OBJECT(adSet, 'post') });
    expectGraphError(await remove(adSet, role), { status: 400, code: 100, subcode: 33, message: UNKNOWN_OBJECT(adSet, 'delete') });
    expect(await snapshot(adSet)).toEqual(before);
  });

  it.each(['auditor', 'adsReadClient'] as const)('%s reads but may not write: 200, nothing changed', async (role) => {
    const before = await snapshot(adSet);
    expectGraphError(await update(adSet, { name: 'Hijacked' }, { role }), {
      status: 403,
      code: 200,
      type: 'OAuthException',
      message: `(#200) Permissions error: you may not update ad set ${adSet}`,
    });
    expectGraphError(await update(adSet, { name: '' }, { role }), { status: 403, code: 200, message: /^\(#200\) Permissions error/ });
    expectGraphError(await remove(adSet, role), {
      status: 403,
      code: 200,
      type: 'OAuthException',
      message: `(#200) Permissions error: you may not delete ad set ${adSet}`,
    });
    expect(await snapshot(adSet)).toEqual(before);
  });

  it.each(['admin', 'advertiser', 'siteAdmin', 'adsClient'] as const)('%s updates and deletes', async (role) => {
    const id = await createAdSet({ name: 'Writable' });
    expectSuccess(await update(id, { name: `by ${role}` }, { role }));
    expect((await read(id, 'name')).name).toBe(`by ${role}`);
    expectSuccess(await remove(id, role));
    expect((await read(id, 'status')).status).toBe('DELETED');
  });

  it("answers another organization's ad set byte for byte as an id that names nothing", async () => {
    const missing = '999999999999999';
    const normalize = (response: GraphHttpResponse, id: string) => ({
      status: response.status,
      usageHeader: response.headers.get('x-business-use-case-usage'),
      text: response.text.replaceAll(response.body.error.fbtrace_id, 'TRACE').replaceAll(id, 'ID'),
    });
    const calls: Array<[string, (id: string) => Promise<GraphHttpResponse>]> = [
      ['read', (id) => get(id, { fields: 'name' }, 'admin')],
      ['read without fields', (id) => get(id, {}, 'admin')],
      ['edge', (id) => graph.get(`${id}/ads`, tokens.admin)],
      ['update', (id) => update(id, { name: 'x' }, { role: 'admin' })],
      ['delete', (id) => remove(id, 'admin')],
      ['copy', (id) => graph.call('POST', `/v24.0/${id}/copies`, { token: tokens.admin, json: {} })],
    ];
    for (const [what, call] of calls) {
      const foreign = normalize(await call(foreignAdSet.id), foreignAdSet.id);
      const absent = normalize(await call(missing), missing);
      expect(foreign, what).toEqual(absent);
      expect(foreign.status, what).toBe(400);
      expect(foreign.usageHeader, what).toBeNull();
    }
    // And an ad set of the caller's own organization answers normally.
    expect((await get(adSet, { fields: 'name' }, 'admin')).status).toBe(200);
  });
});
