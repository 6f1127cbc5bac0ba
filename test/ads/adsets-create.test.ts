import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { worldBuilder } from '../helpers/world.ts';
import { principalTokens, type Role } from '../helpers/principals.ts';
import { expectGraphError, graphClient, UNKNOWN_OBJECT, type GraphClient, type GraphHttpResponse } from '../helpers/graph.ts';
import { flagAudience, flagConversion } from '../../src/ads/admin.ts';
import type { AdAccountRecord, AdSetRecord, CampaignRecord } from '../../src/ads/store.ts';
import type { PageRecord } from '../../src/comments/store.ts';
import { createApplication } from '../../src/ads/applications.ts';

/**
 * POST /v24.0/act_<ID>/adsets end to end (the specification's ad set half, DECISIONS sections 4 and 5), on a real
 * server over real HTTP, in both encodings the SDKs use: a JSON body (facebook-nodejs-business-sdk) and form fields
 * with objects, lists and booleans JSON-encoded (the Python SDK). Every rule is one table row with its exact Graph
 * error; every refusal is proven to have written nothing.
 */

const ENV = {
  ASYNC_RUNNER: 'false',
  // Hundreds of calls go to a few accounts: the per-account allowance is not what these tests are about.
  RATE_LIMIT_ACCOUNT_CALLS: '1000000/300',
  RATE_LIMIT_ACCOUNT_TIME_MS: '100000000/300',
  RATE_LIMIT_ACCOUNT_CPU_MS: '100000000/300',
  // A rate table of our own, so the minimums below prove the configured table is the one converting.
  BUDGET_CURRENCY_RATES: 'EUR=0.8,JPY=150',
};

const DAY = 86_400;
/** Midnight UTC at least two days ahead: every schedule below is in the future. */
const START = new Date(Math.ceil(Date.now() / (DAY * 1000) + 2) * DAY * 1000);
const S = START.getTime() / 1000;
const at = (seconds: number) => new Date(seconds * 1000).toISOString();
const graphTime = (seconds: number) => `${at(seconds).slice(0, 19)}+0000`;
const END = S + 10 * DAY;

type Encoding = 'json' | 'form';
type Params = Record<string, unknown>;

let server: TestServer;
let graph: GraphClient;
let tokens: Record<Role, string>;
const accounts = {} as Record<'us' | 'br' | 'pt' | 'de' | 'jp' | 'kr' | 'dsa' | 'payorOnly' | 'other', AdAccountRecord>;
/** Campaigns of the US account by purpose; `traffic` exists in every account. */
const campaigns = {} as Record<string, CampaignRecord>;
const trafficOf = {} as Record<string, CampaignRecord>;
const salesOf = {} as Record<string, CampaignRecord>;
let sourceAdSet: AdSetRecord;
let foreignCampaign: CampaignRecord;
let page: PageRecord;
let otherPage: PageRecord;
let localePost: string;
let plainPost: string;
let foreignPost: string;
const audiences = {} as Record<'clean' | 'flagged' | 'flagged2' | 'lookalike471' | 'cleanLookalike' | 'otherAccount', string>;
const conversions = {} as Record<'clean' | 'flagged', string>;

beforeAll(async () => {
  server = await startTestServer(ENV);
  graph = graphClient(server);
  const world = worldBuilder(server.deps);
  const org = await world.organization();
  const otherOrg = await world.organization();
  tokens = await principalTokens(server, org.id, otherOrg.id);
  accounts.us = await world.adAccount(org.id, { currency: 'USD', country: 'US' });
  accounts.br = await world.adAccount(org.id, { currency: 'USD', country: 'BR' });
  accounts.pt = await world.adAccount(org.id, { currency: 'EUR', country: 'PT' });
  accounts.de = await world.adAccount(org.id, { currency: 'EUR', country: 'DE' });
  accounts.jp = await world.adAccount(org.id, { currency: 'JPY', country: 'JP' });
  accounts.kr = await world.adAccount(org.id, { currency: 'KRW', country: 'KR' });
  accounts.dsa = await world.adAccount(org.id, { defaultDsaPayor: 'Default Payor SA', defaultDsaBeneficiary: 'Default Beneficiary GmbH' });
  accounts.payorOnly = await world.adAccount(org.id, { defaultDsaPayor: 'Only Payor BV', defaultDsaBeneficiary: null });
  accounts.other = await world.adAccount(org.id);
  for (const [key, account] of Object.entries(accounts)) {
    trafficOf[key] = (await world.campaigns(account, 1, { name: 'Traffic' }))[0]!;
    salesOf[key] = (await world.campaigns(account, 1, { name: 'Sales', objective: 'OUTCOME_SALES' }))[0]!;
  }
  const us = accounts.us;
  const one = async (name: string, fields: Partial<CampaignRecord>) => {
    campaigns[name] = (await world.campaigns(us, 1, { name, ...fields }))[0]!;
  };
  await one('traffic', {});
  campaigns.traffic = trafficOf.us!;
  campaigns.sales = salesOf.us!;
  await one('awareness', { objective: 'OUTCOME_AWARENESS' });
  await one('engagement', { objective: 'OUTCOME_ENGAGEMENT' });
  await one('leads', { objective: 'OUTCOME_LEADS' });
  await one('app', { objective: 'OUTCOME_APP_PROMOTION' });
  await one('housing', { specialAdCategories: ['HOUSING'] });
  await one('credit', { specialAdCategories: ['CREDIT', 'EMPLOYMENT'] });
  await one('politics', { specialAdCategories: ['ISSUES_ELECTIONS_POLITICS'] });
  await one('cboDaily', { dailyBudget: '10000' });
  await one('cboLifetime', { lifetimeBudget: '100000' });
  await one('bidCap', { bidStrategy: 'LOWEST_COST_WITH_BID_CAP' });
  await one('deleted', { status: 'DELETED' });
  await one('archived', { status: 'ARCHIVED' });
  sourceAdSet = (await world.adSets(campaigns.traffic!, 1))[0]!;
  const otherAccount = await world.adAccount(otherOrg.id);
  foreignCampaign = (await world.campaigns(otherAccount, 1))[0]!;

  // Pages and posts through the API: a page post targeted by locale, one without, and one of another organization.
  page = await world.page(org.id);
  otherPage = await world.page(otherOrg.id);
  const post = async (pageId: string, token: string, body: Params) => {
    const response = await graph.call('POST', `/v24.0/${pageId}/feed`, { token, json: body });
    expect(response.status, response.text).toBe(200);
    return response.body.id as string;
  };
  localePost = await post(page.id, tokens.admin, { message: 'Hola', targeting: { locales: [6, 24] } });
  plainPost = await post(page.id, tokens.admin, { message: 'Hello' });
  foreignPost = await post(otherPage.id, tokens.outsider, { message: 'Elsewhere', targeting: { locales: [6] } });

  // Audiences and conversions through the API; the review's flag through the operator service (the CLI's).
  const create = async (edge: string, body: Params, account = us) => {
    const response = await graph.call('POST', `/v24.0/act_${account.id}/${edge}`, { token: tokens.advertiser, json: body });
    expect(response.status, response.text).toBe(200);
    return response.body.id as string;
  };
  audiences.clean = await create('customaudiences', { name: 'Newsletter' });
  audiences.flagged = await create('customaudiences', { name: 'Clinic visitors' });
  audiences.flagged2 = await create('customaudiences', { name: 'Debt advice' });
  audiences.lookalike471 = await create('customaudiences', {
    name: 'Like clinic visitors',
    subtype: 'LOOKALIKE',
    lookalike_spec: { origin_audience_id: audiences.flagged, ratio: 0.01, country: 'US' },
  });
  audiences.cleanLookalike = await create('customaudiences', {
    name: 'Like newsletter',
    subtype: 'LOOKALIKE',
    lookalike_spec: { origin_audience_id: audiences.clean, ratio: 0.01, country: 'US' },
  });
  audiences.otherAccount = await create('customaudiences', { name: 'Elsewhere' }, accounts.other);
  await flagAudience(server.deps, { id: audiences.flagged, reason: 'health' });
  await flagAudience(server.deps, { id: audiences.flagged2, reason: 'financial' });
  conversions.clean = await create('customconversions', { name: 'Checkout', rule: { url: { i_contains: 'thanks' } }, custom_event_type: 'PURCHASE' });
  conversions.flagged = await create('customconversions', { name: 'Pharmacy', rule: { url: { i_contains: 'pharmacy' } }, custom_event_type: 'PURCHASE' });
  await flagConversion(server.deps, { id: conversions.flagged, reason: 'health' });
  const lookalike = await graph.get(audiences.lookalike471, tokens.advertiser, { fields: 'operation_status' });
  expect(lookalike.body.operation_status.code).toBe(471);
  // The applications the app-promotion ad sets below name, registered as an operator would.
  await createApplication(server.deps, { id: '5550001', name: 'My game (desktop)', storeUrls: ['fb_canvas=https://apps.facebook.com/mygame'] });
  await createApplication(server.deps, {
    id: '5550002',
    name: 'My game',
    storeUrls: ['google_play=https://play.google.com/store/apps/details?id=com.example.game', 'itunes=https://apps.apple.com/app/id5550002'],
  });
});
afterAll(() => server?.close());

// --- Helpers --------------------------------------------------------------------------------------------

const actOf = (account: AdAccountRecord) => `act_${account.id}`;

/** POST /v24.0/act_<ID>/adsets with the token in the query string and the parameters as JSON or form fields. */
function create(params: Params, options: { encoding?: Encoding; account?: AdAccountRecord; role?: Role; path?: string } = {}): Promise<GraphHttpResponse> {
  const path = options.path ?? `/v24.0/${actOf(options.account ?? accounts.us)}/adsets`;
  const token = tokens[options.role ?? 'advertiser'];
  return options.encoding === 'form' ? graph.call('POST', path, { token, form: params }) : graph.call('POST', path, { token, json: params });
}

/** The smallest valid ad set under a campaign: one country, a daily budget well above every minimum of the row. */
const base = (campaign: CampaignRecord, extra: Params = {}): Params => ({
  name: 'Spring ad set',
  campaign_id: campaign.id,
  billing_event: 'IMPRESSIONS',
  daily_budget: 20000,
  targeting: { geo_locations: { countries: ['US'] } },
  ...extra,
});

/** The parameters without the named ones. */
const without = (params: Params, ...names: string[]) => Object.fromEntries(Object.entries(params).filter(([key]) => !names.includes(key)));

async function rowCounts() {
  const count = async (table: string) => Number(((await server.deps.db(table).count({ n: '*' })) as Array<{ n: number | string }>)[0]!.n);
  return {
    objects: await count('graph_objects'),
    adSets: await count('ad_sets'),
    references: await count('ad_set_references'),
    ads: await count('ads'),
  };
}

async function created(params: Params, options: Parameters<typeof create>[1] = {}): Promise<string> {
  const response = await create(params, options);
  expect(response.status, response.text).toBe(200);
  expect(response.body, response.text).toEqual({ id: expect.stringMatching(/^[1-9][0-9]*$/), success: true });
  return response.body.id;
}

const read = async (id: string, fields: string, token = tokens.advertiser) => {
  const response = await graph.get(id, token, { fields });
  expect(response.status, response.text).toBe(200);
  return response.body as Record<string, any>;
};

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

/** The Graph error of one refusal, in full, and proof that nothing was written. */
async function expectRefused(send: () => Promise<GraphHttpResponse>, expected: Refusal): Promise<GraphHttpResponse> {
  const before = await rowCounts();
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
  expect(await rowCounts()).toEqual(before);
  return response;
}

const p100 = (message: string) => `(#100) ${message}`;

// --- Success ---------------------------------------------------------------------------------------------

describe('POST /act_<ID>/adsets: success', () => {
  /** Every parameter of the create table at once (budgets of the ad set's own; the campaign-budget ones below). */
  const full = (): Params => ({
    name: 'Full house',
    campaign_id: campaigns.traffic!.id,
    status: 'PAUSED',
    adlabels: [{ name: 'spring' }, { name: 'launch' }],
    adset_schedule: [{ start_minute: 0, end_minute: 600, days: [1, 2, 3] }],
    anchor_event_attribution_window_days: 7,
    attribution_spec: [{ event_type: 'CLICK_THROUGH', window_days: 7 }],
    automatic_manual_state: 'MANUAL',
    bid_adjustments: { age_range: { '18-24': 1.1 } },
    bid_amount: 300,
    bid_constraints: { roas_average_floor: 100 },
    bid_strategy: 'LOWEST_COST_WITH_BID_CAP',
    billing_event: 'IMPRESSIONS',
    brand_safety_config: { level: 'strict' },
    budget_schedule_specs: [{ time_start: S + DAY, time_end: S + 2 * DAY, budget_value: 100, budget_value_type: 'MULTIPLIER' }],
    budget_source: 'NONE',
    budget_split_set_id: '12345',
    campaign_attribution: 'app_install',
    campaign_spec: { objective: 'OUTCOME_TRAFFIC' },
    contextual_bundling_spec: { status: 'OPT_OUT' },
    creative_sequence: ['1111', 2222],
    daily_budget: 5000,
    daily_imps: 10,
    destination_type: 'WEBSITE',
    dsa_beneficiary: 'Brand GmbH',
    dsa_payor: 'Agency Payor SA',
    start_time: at(S),
    end_time: at(END),
    existing_customer_budget_percentage: 20,
    frequency_control_specs: [{ event: 'IMPRESSIONS', interval_days: 7, max_frequency: 2 }],
    instagram_user_id: '777',
    is_dynamic_creative: true,
    is_incremental_attribution_enabled: false,
    is_sac_cfca_terms_certified: true,
    lifetime_imps: 1000,
    max_budget_spend_percentage: 80,
    min_budget_spend_percentage: 10,
    multi_optimization_goal_weight: 'BALANCED',
    optimization_goal: 'LINK_CLICKS',
    optimization_sub_event: 'NONE',
    pacing_type: ['standard'],
    promoted_object: { page_id: page.id },
    rf_prediction_id: '888',
    source_adset_id: sourceAdSet.id,
    targeting: {
      geo_locations: { countries: ['US', 'DE'] },
      age_min: 21,
      age_max: 60,
      genders: [1],
      custom_audiences: [{ id: audiences.clean }],
      publisher_platforms: ['facebook', 'instagram'],
      device_platforms: ['mobile', 'desktop'],
      facebook_positions: ['feed'],
      user_os: ['iOS'],
      page_types: ['feed'],
    },
    time_based_ad_rotation_id_blocks: [[11, 12], [13]],
    time_based_ad_rotation_intervals: [S, S + 5 * DAY],
    tune_for_category: 'NONE',
    use_new_app_click: true,
    value_rule_set_id: '999',
    value_rules_applied: false,
    // Resource fields the create table does not list: taken and read back, never dropped.
    asset_feed_id: '777',
    bid_info: { CLICKS: 50 },
    recurring_budget_semantics: true,
    review_feedback: 'Reviewed: fine',
    regional_regulated_categories: ['1'],
    regional_regulation_identities: { taiwan_finserv_beneficiary: '4001', taiwan_finserv_payer: '4002' },
    execution_options: [],
  });

  /** What GET answers for `full()`: nested objects as sent, money as numeric strings, times in the Graph format. */
  const expectedRead = (id: string) => {
    const sent = full();
    return {
      id,
      account_id: accounts.us.id,
      campaign_id: campaigns.traffic!.id,
      campaign: { id: campaigns.traffic!.id, name: 'Traffic', objective: 'OUTCOME_TRAFFIC' },
      name: 'Full house',
      status: 'PAUSED',
      configured_status: 'PAUSED',
      effective_status: 'PAUSED',
      adlabels: sent.adlabels,
      adset_schedule: sent.adset_schedule,
      attribution_spec: sent.attribution_spec,
      bid_adjustments: sent.bid_adjustments,
      bid_amount: '300',
      bid_constraints: sent.bid_constraints,
      bid_strategy: 'LOWEST_COST_WITH_BID_CAP',
      billing_event: 'IMPRESSIONS',
      brand_safety_config: sent.brand_safety_config,
      campaign_attribution: 'app_install',
      contextual_bundling_spec: sent.contextual_bundling_spec,
      creative_sequence: ['1111', '2222'],
      daily_budget: '5000',
      destination_type: 'WEBSITE',
      dsa_beneficiary: 'Brand GmbH',
      dsa_payor: 'Agency Payor SA',
      start_time: graphTime(S),
      end_time: graphTime(END),
      frequency_control_specs: sent.frequency_control_specs,
      issues_info: [],
      is_incremental_attribution_enabled: false,
      // Derived from delivery (test/insights/delivery.test.ts): a new ad set starts learning at its creation.
      learning_stage_info: { status: 'LEARNING', conversions: 0, last_sig_edit_ts: expect.any(Number), attribution_windows: ['7d_click'] },
      min_budget_spend_percentage: '10',
      multi_optimization_goal_weight: 'BALANCED',
      optimization_goal: 'LINK_CLICKS',
      optimization_sub_event: 'NONE',
      pacing_type: ['standard'],
      promoted_object: { page_id: page.id },
      rf_prediction_id: '888',
      source_adset_id: sourceAdSet.id,
      source_adset: { id: sourceAdSet.id, name: sourceAdSet.name },
      targeting: sent.targeting,
      use_new_app_click: true,
      value_rule_set_id: '999',
      asset_feed_id: '777',
      bid_info: { CLICKS: 50 },
      review_feedback: 'Reviewed: fine',
      recurring_budget_semantics: true,
      regional_regulated_categories: ['1'],
      regional_regulation_identities: { taiwan_finserv_beneficiary: '4001', taiwan_finserv_payer: '4002' },
      created_time: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+0000$/),
      updated_time: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+0000$/),
    };
  };
  const READ_FIELDS = [
    'id',
    'account_id',
    'campaign_id',
    'campaign{id,name,objective}',
    'name',
    'status',
    'configured_status',
    'effective_status',
    'adlabels',
    'adset_schedule',
    'attribution_spec',
    'bid_adjustments',
    'bid_amount',
    'bid_constraints',
    'bid_strategy',
    'billing_event',
    'brand_safety_config',
    'campaign_attribution',
    'contextual_bundling_spec',
    'creative_sequence',
    'daily_budget',
    'destination_type',
    'dsa_beneficiary',
    'dsa_payor',
    'start_time',
    'end_time',
    'frequency_control_specs',
    'issues_info',
    'is_incremental_attribution_enabled',
    'min_budget_spend_percentage',
    'multi_optimization_goal_weight',
    'optimization_goal',
    'optimization_sub_event',
    'pacing_type',
    'promoted_object',
    'rf_prediction_id',
    'source_adset_id',
    'source_adset{id,name}',
    'targeting',
    'use_new_app_click',
    'value_rule_set_id',
    'created_time',
    'updated_time',
    // Nothing set these: left out.
    'daily_min_spend_target',
    'daily_spend_cap',
    'lifetime_budget',
    'lifetime_min_spend_target',
    'lifetime_spend_cap',
    'recommendations',
    'targeting_optimization_types',
    'review_feedback',
    'asset_feed_id',
    'bid_info',
    'recurring_budget_semantics',
    'regional_regulated_categories',
    'regional_regulation_identities',
    'learning_stage_info',
  ].join(',');
  /** Create parameters the resource table does not list, read back by their own names (DECISIONS 5: every field is stored and readable). */
  const EXTRA_FIELDS =
    'anchor_event_attribution_window_days,automatic_manual_state,budget_schedule_specs,budget_source,budget_split_set_id,campaign_spec,' +
    'daily_imps,existing_customer_budget_percentage,instagram_user_id,is_dynamic_creative,is_sac_cfca_terms_certified,max_budget_spend_percentage,' +
    'tune_for_category,value_rules_applied';

  it.each<Encoding>(['json', 'form'])('creates with every parameter of the create table (%s) and reads every one back at once', async (encoding) => {
    const before = await rowCounts();
    const id = await created(full(), { encoding });
    expect(await read(id, READ_FIELDS)).toEqual(expectedRead(id));
    const sent = full();
    expect(await read(id, EXTRA_FIELDS)).toEqual({
      id,
      anchor_event_attribution_window_days: '7',
      automatic_manual_state: 'MANUAL',
      budget_schedule_specs: sent.budget_schedule_specs,
      budget_source: 'NONE',
      budget_split_set_id: '12345',
      campaign_spec: sent.campaign_spec,
      daily_imps: '10',
      existing_customer_budget_percentage: '20',
      instagram_user_id: '777',
      is_dynamic_creative: true,
      is_sac_cfca_terms_certified: true,
      max_budget_spend_percentage: '80',
      tune_for_category: 'NONE',
      value_rules_applied: false,
    });
    // One ad set, its id, and the one audience it names.
    expect(await rowCounts()).toEqual({ ...before, objects: before.objects + 1, adSets: before.adSets + 1, references: before.references + 1 });
    const references = await server.deps.db('ad_set_references').where({ ad_set_id: id }).select('kind', 'object_id');
    expect(references.map((r) => [r.kind, String(r.object_id)])).toEqual([['custom_audience', audiences.clean]]);
    expect((await server.deps.db('graph_objects').where({ id }).first()).type).toBe('ad_set');
  });

  it.each<Encoding>(['json', 'form'])('reads integer fields back as the integers the resource table types them (%s)', async (encoding) => {
    // lifetime_imps is an int32; the rotation fields are lists (of lists) of integers, not of numeric strings.
    const id = await created(full(), { encoding });
    expect(await read(id, 'lifetime_imps,time_based_ad_rotation_id_blocks,time_based_ad_rotation_intervals')).toEqual({
      id,
      lifetime_imps: 1000,
      time_based_ad_rotation_id_blocks: [[11, 12], [13]],
      time_based_ad_rotation_intervals: [S, S + 5 * DAY],
    });
  });

  it('answers a form create exactly as a JSON one, and reads both the same way', async () => {
    const [fromJson, fromForm] = [await created(full(), { encoding: 'json' }), await created(full(), { encoding: 'form' })];
    // The creation instant shows in the times and in the learning stage's last significant edit; the two creates may straddle a second.
    const strip = (body: Record<string, unknown>) => {
      const rest = without(body, 'id', 'created_time', 'updated_time');
      return { ...rest, learning_stage_info: without(rest.learning_stage_info as Record<string, unknown>, 'last_sig_edit_ts') };
    };
    const fields = `${READ_FIELDS},${EXTRA_FIELDS}`;
    expect(strip(await read(fromForm, fields))).toEqual(strip(await read(fromJson, fields)));
  });

  it.each<Encoding>(['json', 'form'])("fills in what was not sent (%s): ACTIVE, the objective's goal, nothing else", async (encoding) => {
    const id = await created(base(campaigns.traffic!), { encoding });
    expect(
      await read(
        id,
        'name,status,effective_status,optimization_goal,billing_event,daily_budget,targeting,bid_strategy,end_time,dsa_payor,dsa_beneficiary,destination_type',
      ),
    ).toEqual({
      id,
      name: 'Spring ad set',
      status: 'ACTIVE',
      effective_status: 'ACTIVE',
      optimization_goal: 'LINK_CLICKS',
      billing_event: 'IMPRESSIONS',
      daily_budget: '20000',
      targeting: { geo_locations: { countries: ['US'] } },
    });
  });

  it.each([
    ['OUTCOME_SALES', 'sales', 'OFFSITE_CONVERSIONS'],
    ['OUTCOME_AWARENESS', 'awareness', 'REACH'],
    ['OUTCOME_ENGAGEMENT', 'engagement', 'POST_ENGAGEMENT'],
  ])('defaults the goal of a %s campaign', async (_objective, campaign, goal) => {
    const id = await created(base(campaigns[campaign]!));
    expect((await read(id, 'optimization_goal')).optimization_goal).toBe(goal);
  });

  it('turns lookalike expansion on for the goals that always have it (v13.0)', async () => {
    const id = await created(base(campaigns.sales!, { optimization_goal: 'VALUE', billing_event: 'IMPRESSIONS' }));
    expect(await read(id, 'targeting_optimization_types')).toEqual({ id, targeting_optimization_types: { lookalike: 1 } });
  });

  it.each([
    ['a name of exactly 400 characters', { name: 'n'.repeat(400) }, 'name', 'n'.repeat(400)],
    ['400 characters outside the BMP', { name: '😀'.repeat(400) }, 'name', '😀'.repeat(400)],
    ['dsa_payor of exactly 512 characters', { dsa_payor: 'p'.repeat(512) }, 'dsa_payor', 'p'.repeat(512)],
    ['dsa_beneficiary of exactly 512 characters', { dsa_beneficiary: 'b'.repeat(512) }, 'dsa_beneficiary', 'b'.repeat(512)],
    ['a budget as a numeric string', { daily_budget: '20000' }, 'daily_budget', '20000'],
    ['times as Unix seconds', { start_time: S, end_time: END }, 'end_time', graphTime(END)],
    ['times with an offset', { start_time: graphTime(S).replace('+0000', '+02:00'), end_time: END }, 'start_time', graphTime(S - 7200)],
    ['time_start and time_stop for start_time and end_time', { time_start: at(S), time_stop: at(END) }, 'end_time', graphTime(END)],
    ['start_time and time_start agreeing', { start_time: at(S), time_start: S, end_time: END }, 'start_time', graphTime(S)],
    ['a daily budget running 24 hours and one second', { start_time: S, end_time: S + DAY + 1 }, 'end_time', graphTime(S + DAY + 1)],
    ['status ACTIVE', { status: 'ACTIVE' }, 'status', 'ACTIVE'],
    ['status PAUSED', { status: 'PAUSED' }, 'status', 'PAUSED'],
    ['an unknown parameter (ignored)', { colour: 'blue', favourite_number: 7 }, 'name', 'Spring ad set'],
  ])('accepts %s (JSON and form)', async (_what, extra, field, value) => {
    for (const encoding of ['json', 'form'] as const) {
      const id = await created(base(campaigns.traffic!, extra), { encoding });
      expect((await read(id, field))[field], encoding).toBe(value);
    }
  });

  it.each<Encoding>(['json', 'form'])('accepts campaign_id as an integer (%s)', async (encoding) => {
    const id = await created(base(campaigns.traffic!, { campaign_id: Number(campaigns.traffic!.id) }), { encoding });
    expect(await read(id, 'campaign_id,campaign{name}')).toEqual({
      id,
      campaign_id: campaigns.traffic!.id,
      campaign: { id: campaigns.traffic!.id, name: 'Traffic' },
    });
  });

  // A string parameter is text: a name that happens to start like JSON is still a name (the Python SDK sends strings as they are).
  it.each([
    ['name', '[Q3] Spring sale', 'json'],
    ['name', '[Q3] Spring sale', 'form'],
    ['name', '{brand} summer', 'json'],
    ['name', '{brand} summer', 'form'],
    ['name', '[1]', 'json'],
    ['campaign_attribution', '{x', 'json'],
    ['campaign_attribution', '{x', 'form'],
  ] as const)('takes %s %j as text (%s)', async (field, value, encoding) => {
    const id = await created(base(campaigns.traffic!, { [field]: value }), { encoding });
    expect((await read(id, field))[field]).toBe(value);
  });

  it.each([
    ['dsa_payor', '[Agency] Payor SA', 'json'],
    ['dsa_payor', '[Agency] Payor SA', 'form'],
    ['dsa_beneficiary', '{Brand} GmbH', 'form'],
  ] as const)('takes %s %j as text (%s)', async (field, value, encoding) => {
    const params = base(campaigns.traffic!, { targeting: { geo_locations: { countries: ['DE'] } }, dsa_payor: 'P', dsa_beneficiary: 'B', [field]: value });
    const id = await created(params, { encoding });
    expect((await read(id, field))[field]).toBe(value);
  });

  it.each<Encoding>(['json', 'form'])('ignores an unknown parameter whatever it holds (%s)', async (encoding) => {
    const id = await created(base(campaigns.traffic!, { name: 'Unknown ignored', tracking_note: '{not json', other_note: '[draft' }), { encoding });
    expect((await read(id, 'name')).name).toBe('Unknown ignored');
  });

  // Money is kept exact on both databases: up to 2^53 - 1 minor units (README, Decisions); above, error 100.
  it('stores the largest exact budget, 9007199254740991, exactly', async () => {
    const id = await created(base(campaigns.traffic!, { daily_budget: '9007199254740991' }), { encoding: 'form' });
    expect(await read(id, 'daily_budget')).toEqual({ id, daily_budget: '9007199254740991' });
  });

  it('takes the spend targets and caps of a campaign with a budget, and 922337203685478 as no cap', async () => {
    const daily = await created(without(base(campaigns.cboDaily!, { daily_min_spend_target: 100, daily_spend_cap: 5000 }), 'daily_budget'));
    expect(await read(daily, 'daily_budget,daily_min_spend_target,daily_spend_cap')).toEqual({
      id: daily,
      daily_min_spend_target: '100',
      daily_spend_cap: '5000',
    });
    const uncapped = await created(without(base(campaigns.cboDaily!, { daily_spend_cap: 922337203685478 }), 'daily_budget'));
    expect(await read(uncapped, 'daily_spend_cap')).toEqual({ id: uncapped });
    const lifetime = await created(without(base(campaigns.cboLifetime!, { lifetime_min_spend_target: 1000, lifetime_spend_cap: 50000 }), 'daily_budget'));
    expect(await read(lifetime, 'lifetime_min_spend_target,lifetime_spend_cap')).toEqual({
      id: lifetime,
      lifetime_min_spend_target: '1000',
      lifetime_spend_cap: '50000',
    });
  });

  it('takes a lifetime budget with an end time', async () => {
    const id = await created(without(base(campaigns.traffic!, { lifetime_budget: 100000, start_time: S, end_time: END }), 'daily_budget'));
    expect(await read(id, 'lifetime_budget,daily_budget,end_time')).toEqual({ id, lifetime_budget: '100000', end_time: graphTime(END) });
  });
});

// --- Rules ---------------------------------------------------------------------------------------------

interface RuleRow {
  rule: string;
  account?: keyof typeof accounts;
  /** Thunks: ids exist only once the world is built. */
  params: () => Params;
  error: () => Refusal;
}

/** One test per rule and encoding; every refusal is checked in full and proven to have written nothing. */
function refusalTable(rows: RuleRow[]) {
  expect(new Set(rows.map((r) => r.rule)).size, 'every row names its own rule').toBe(rows.length);
  const cases = rows.flatMap((row) => (['json', 'form'] as const).map((encoding) => [row.rule, encoding, row] as const));
  it.each(cases)('refuses: %s (%s)', async (_rule, encoding, row) => {
    await expectRefused(() => create(row.params(), { encoding, account: row.account ? accounts[row.account] : undefined }), row.error());
  });
}

describe('the create rules, one row each (JSON and form)', () => {
  describe('name, locations, schedule and budget shape', () => {
    const rows: RuleRow[] = [
      { rule: 'name required', params: () => without(base(campaigns.traffic!), 'name'), error: () => ({ message: p100('The parameter name is required') }) },
      { rule: 'name blank', params: () => base(campaigns.traffic!, { name: '   ' }), error: () => ({ message: p100('The parameter name is required') }) },
      {
        rule: 'name too long',
        params: () => base(campaigns.traffic!, { name: 'n'.repeat(401) }),
        error: () => ({ message: p100('Param name must be at most 400 characters') }),
      },
      {
        rule: 'campaign_id required',
        params: () => without(base(campaigns.traffic!), 'campaign_id'),
        error: () => ({ message: p100('The parameter campaign_id is required') }),
      },
      {
        rule: 'billing_event required',
        params: () => without(base(campaigns.traffic!), 'billing_event'),
        error: () => ({ message: p100('The parameter billing_event is required') }),
      },
      {
        rule: 'targeting required',
        params: () => without(base(campaigns.traffic!), 'targeting'),
        error: () => ({ message: p100('The parameter targeting is required') }),
      },
      {
        rule: 'geo_locations required',
        params: () => base(campaigns.traffic!, { targeting: { age_min: 20 } }),
        error: () => ({
          message: p100('The parameter targeting.geo_locations is required: name the countries to reach in targeting.geo_locations.countries'),
          userTitle: 'Location required',
          userMsg: 'Choose at least one country to show your ads in.',
        }),
      },
      {
        rule: 'countries required',
        params: () => base(campaigns.traffic!, { targeting: { geo_locations: { regions: [{ key: '3847' }] } } }),
        error: () => ({
          message: p100('The parameter targeting.geo_locations.countries is required (a list of ISO 3166-1 alpha-2 codes)'),
          userTitle: 'Location required',
        }),
      },
      {
        rule: 'countries empty',
        params: () => base(campaigns.traffic!, { targeting: { geo_locations: { countries: [] } } }),
        error: () => ({ message: p100('The parameter targeting.geo_locations.countries is required (a list of ISO 3166-1 alpha-2 codes)') }),
      },
      {
        rule: 'country not ISO',
        params: () => base(campaigns.traffic!, { targeting: { geo_locations: { countries: ['US', 'us'] } } }),
        error: () => ({ message: p100('Param targeting.geo_locations.countries[1] must be an ISO 3166-1 alpha-2 country code in upper case, got "us"') }),
      },
      {
        rule: 'restricted location included',
        params: () => base(campaigns.traffic!, { targeting: { geo_locations: { countries: ['US', 'CU', 'KP'] } } }),
        error: () => ({
          code: 2641,
          message: '(#2641) Your ad includes or excludes locations that are restricted: CU, KP',
          userTitle: 'Restricted locations',
          userMsg: 'Ads cannot include or exclude CU, KP. Remove these locations from the targeting.',
        }),
      },
      {
        rule: 'restricted location excluded',
        params: () => base(campaigns.traffic!, { targeting: { geo_locations: { countries: ['US'] }, excluded_geo_locations: { countries: ['IR'] } } }),
        error: () => ({
          code: 2641,
          message: '(#2641) Your ad includes or excludes locations that are restricted: IR',
          userMsg: 'Ads cannot include or exclude IR. Remove this location from the targeting.',
        }),
      },
      {
        rule: 'lifetime budget needs end_time',
        params: () => without(base(campaigns.traffic!, { lifetime_budget: 100000 }), 'daily_budget'),
        error: () => ({
          message: p100('The parameter end_time is required with a lifetime budget'),
          userTitle: 'End date required',
          userMsg: 'A lifetime budget is spent over a set period: enter an end date and time.',
        }),
      },
      {
        rule: 'daily budget needs more than 24 hours',
        params: () => base(campaigns.traffic!, { start_time: S, end_time: S + 12 * 3600 }),
        error: () => ({
          message: p100('A daily budget is allowed only for ad sets that run longer than 24 hours: end_time must be more than 24 hours after start_time'),
          userTitle: 'Schedule too short',
          userMsg: 'Ad sets with a daily budget must run for more than 24 hours. Move the end date, or use a lifetime budget.',
        }),
      },
      {
        rule: 'daily budget for exactly 24 hours',
        params: () => base(campaigns.traffic!, { start_time: S, end_time: S + DAY }),
        error: () => ({ message: /^\(#100\) A daily budget is allowed only for ad sets that run longer than 24 hours/ }),
      },
      {
        rule: 'a budget required without a campaign budget',
        params: () => without(base(campaigns.traffic!), 'daily_budget'),
        error: () => ({
          message: p100('The parameter daily_budget or lifetime_budget is required: the campaign has no budget of its own'),
          userTitle: 'Budget required',
          userMsg: 'Enter a daily or a lifetime budget for this ad set.',
        }),
      },
      {
        rule: 'not both budgets',
        params: () => base(campaigns.traffic!, { lifetime_budget: 100000, end_time: END }),
        error: () => ({ message: p100('Only one of daily_budget and lifetime_budget may be set on an ad set'), userTitle: 'Two budgets' }),
      },
      {
        rule: 'no ad set budget under a campaign budget',
        params: () => base(campaigns.cboDaily!),
        error: () => ({
          message: p100('Param daily_budget cannot be set: the campaign has a daily budget (campaign budget optimization), which its ad sets share'),
          userTitle: 'Campaign budget in use',
        }),
      },
      {
        rule: 'daily spend cap needs a campaign daily budget',
        params: () => base(campaigns.traffic!, { daily_spend_cap: 5000 }),
        error: () => ({ message: p100('Param daily_spend_cap needs a daily budget on the campaign'), userTitle: 'Campaign budget needed' }),
      },
      {
        rule: 'lifetime spend target needs a campaign lifetime budget',
        params: () => without(base(campaigns.cboDaily!, { lifetime_min_spend_target: 100 }), 'daily_budget'),
        error: () => ({ message: p100('Param lifetime_min_spend_target needs a lifetime budget on the campaign') }),
      },
      {
        rule: 'spend target above the cap',
        params: () => without(base(campaigns.cboDaily!, { daily_min_spend_target: 6000, daily_spend_cap: 5000 }), 'daily_budget'),
        error: () => ({ message: p100('Param daily_min_spend_target must not exceed the spend cap') }),
      },
      {
        rule: 'end before start',
        params: () => base(campaigns.traffic!, { start_time: S + DAY, end_time: S }),
        error: () => ({
          message: p100('Param end_time must be after start_time'),
          userTitle: 'End before start',
          userMsg: 'The end date must come after the start date.',
        }),
      },
      {
        rule: 'end in the past',
        params: () => without(base(campaigns.traffic!, { lifetime_budget: 100000, end_time: '2020-01-01T00:00:00+0000' }), 'daily_budget'),
        error: () => ({ message: p100('Param end_time must be in the future'), userTitle: 'End date in the past' }),
      },
      {
        rule: 'start_time and time_start disagree',
        params: () => base(campaigns.traffic!, { start_time: S, time_start: S + 60 }),
        error: () => ({ message: p100('Param time_start and start_time set the same value and disagree: send one of them') }),
      },
      {
        rule: 'min spend percentage above max',
        params: () => base(campaigns.traffic!, { min_budget_spend_percentage: 60, max_budget_spend_percentage: 40 }),
        error: () => ({ message: p100('Param min_budget_spend_percentage must not exceed max_budget_spend_percentage') }),
      },
      {
        rule: 'campaign of another account',
        params: () => base(trafficOf.other!),
        error: () => ({ message: p100(`Param campaign_id must be the id of a campaign of ad account act_${accounts.us.id}`) }),
      },
      {
        rule: 'campaign of another organization',
        params: () => base(foreignCampaign),
        error: () => ({ message: p100(`Param campaign_id must be the id of a campaign of ad account act_${accounts.us.id}`) }),
      },
      {
        rule: 'a deleted campaign',
        params: () => base(campaigns.deleted!),
        error: () => ({ message: p100(`Param campaign_id names campaign ${campaigns.deleted!.id}, which is DELETED: ad sets cannot be added to it`) }),
      },
      {
        rule: 'an archived campaign',
        params: () => base(campaigns.archived!),
        error: () => ({ message: p100(`Param campaign_id names campaign ${campaigns.archived!.id}, which is ARCHIVED: ad sets cannot be added to it`) }),
      },
      {
        rule: 'source ad set of another account',
        params: () => base(campaigns.traffic!, { source_adset_id: campaigns.traffic!.id }),
        error: () => ({ message: p100(`Param source_adset_id must be the id of an ad set of ad account act_${accounts.us.id}`) }),
      },
    ];
    refusalTable(rows);
  });

  describe('minimum budgets: 1885272 with the minimum in error_user_msg', () => {
    // [account, campaign kind, billing event, goal, minimum in minor units, as people read it]
    const MINIMUMS: Array<[keyof typeof accounts, 'traffic' | 'sales', string, string, number, string]> = [
      // USD, a high-income country: doubled except low-frequency actions.
      ['us', 'traffic', 'IMPRESSIONS', 'LINK_CLICKS', 100, '1.00 USD'],
      ['us', 'traffic', 'LINK_CLICKS', 'LINK_CLICKS', 500, '5.00 USD'],
      ['us', 'sales', 'PURCHASE', 'OFFSITE_CONVERSIONS', 4000, '40.00 USD'],
      // USD elsewhere: the specification's table.
      ['br', 'traffic', 'IMPRESSIONS', 'LINK_CLICKS', 50, '0.50 USD'],
      ['br', 'traffic', 'CLICKS', 'LINK_CLICKS', 250, '2.50 USD'],
      ['br', 'sales', 'PURCHASE', 'OFFSITE_CONVERSIONS', 4000, '40.00 USD'],
      // EUR at the configured 0.8, elsewhere and in a high-income country.
      ['pt', 'traffic', 'IMPRESSIONS', 'LINK_CLICKS', 40, '0.40 EUR'],
      ['pt', 'traffic', 'LINK_CLICKS', 'LINK_CLICKS', 200, '2.00 EUR'],
      ['pt', 'sales', 'PURCHASE', 'OFFSITE_CONVERSIONS', 3200, '32.00 EUR'],
      ['de', 'traffic', 'IMPRESSIONS', 'LINK_CLICKS', 80, '0.80 EUR'],
      ['de', 'traffic', 'LINK_CLICKS', 'LINK_CLICKS', 400, '4.00 EUR'],
      ['de', 'sales', 'PURCHASE', 'OFFSITE_CONVERSIONS', 3200, '32.00 EUR'],
      // JPY at the configured 150, no minor unit; KRW at the default 1380.
      ['jp', 'traffic', 'IMPRESSIONS', 'LINK_CLICKS', 150, '150 JPY'],
      ['jp', 'traffic', 'LINK_CLICKS', 'LINK_CLICKS', 750, '750 JPY'],
      ['jp', 'sales', 'PURCHASE', 'OFFSITE_CONVERSIONS', 6000, '6000 JPY'],
      ['kr', 'traffic', 'IMPRESSIONS', 'LINK_CLICKS', 1380, '1380 KRW'],
      ['kr', 'traffic', 'LINK_CLICKS', 'LINK_CLICKS', 6900, '6900 KRW'],
    ];
    const currencyOf = (account: keyof typeof accounts) => accounts[account].currency;
    const params = (account: keyof typeof accounts, kind: 'traffic' | 'sales', billing: string, goal: string, budget: number) =>
      base((kind === 'traffic' ? trafficOf : salesOf)[account]!, { billing_event: billing, optimization_goal: goal, daily_budget: budget });

    it.each(MINIMUMS)('%s, %s campaign billed by %s (%s): below %i is refused (%s)', async (account, kind, billing, goal, minimum, money) => {
      for (const encoding of ['json', 'form'] as const) {
        await expectRefused(() => create(params(account, kind, billing, goal, minimum - 1), { encoding, account: accounts[account] }), {
          subcode: 1885272,
          message: p100(`Your budget is too low. The minimum daily budget for this ad set is ${money} (${minimum} in the currency's smallest unit)`),
          userTitle: 'Your Budget Is Too Low',
          userMsg: `The minimum daily budget for this ad set is ${money}. Please enter a budget of at least that amount.`,
          data: { minimum_daily_budget: String(minimum), currency: currencyOf(account) },
        });
      }
    });

    it.each(MINIMUMS)('%s, %s campaign billed by %s (%s): exactly %i is accepted', async (account, kind, billing, goal, minimum) => {
      const id = await created(params(account, kind, billing, goal, minimum), { account: accounts[account] });
      expect((await read(id, 'daily_budget')).daily_budget).toBe(String(minimum));
    });

    it.each([
      [
        'clicks, likes and video views are one column: THRUPLAY',
        'engagement',
        { destination_type: 'ON_VIDEO', optimization_goal: 'THRUPLAY', billing_event: 'THRUPLAY' },
        500,
        '5.00 USD',
      ],
      ['PAGE_LIKES', 'engagement', { destination_type: 'ON_PAGE', optimization_goal: 'PAGE_LIKES', billing_event: 'PAGE_LIKES' }, 500, '5.00 USD'],
      [
        'POST_ENGAGEMENT',
        'engagement',
        { destination_type: 'ON_POST', optimization_goal: 'POST_ENGAGEMENT', billing_event: 'POST_ENGAGEMENT' },
        500,
        '5.00 USD',
      ],
    ])('%s', async (_what, campaign, extra, minimum, money) => {
      await expectRefused(() => create(base(campaigns[campaign]!, { ...extra, daily_budget: minimum - 1 })), {
        subcode: 1885272,
        message: p100(`Your budget is too low. The minimum daily budget for this ad set is ${money} (${minimum} in the currency's smallest unit)`),
      });
      await created(base(campaigns[campaign]!, { ...extra, daily_budget: minimum }));
    });

    // With LOWEST_COST_WITH_BID_CAP: impressions at least the bid, clicks and actions 5x the bid; doubled in high-income countries.
    it.each([
      ['us', 'traffic', 'IMPRESSIONS', 'LINK_CLICKS', 300, 600, '6.00 USD'],
      ['us', 'traffic', 'LINK_CLICKS', 'LINK_CLICKS', 300, 3000, '30.00 USD'],
      ['us', 'sales', 'PURCHASE', 'OFFSITE_CONVERSIONS', 300, 3000, '30.00 USD'],
      ['br', 'traffic', 'IMPRESSIONS', 'LINK_CLICKS', 300, 300, '3.00 USD'],
      ['br', 'traffic', 'LINK_CLICKS', 'LINK_CLICKS', 300, 1500, '15.00 USD'],
      ['jp', 'traffic', 'IMPRESSIONS', 'LINK_CLICKS', 300, 600, '600 JPY'],
    ] as const)('bid cap: %s, %s billed by %s, bid %i: minimum %i (%s)', async (account, kind, billing, goal, bid, minimum, money) => {
      const params = (budget: number) =>
        base((kind === 'traffic' ? trafficOf : salesOf)[account]!, {
          billing_event: billing,
          optimization_goal: goal,
          bid_strategy: 'LOWEST_COST_WITH_BID_CAP',
          bid_amount: bid,
          daily_budget: budget,
        });
      await expectRefused(() => create(params(minimum - 1), { account: accounts[account] }), {
        subcode: 1885272,
        message: p100(`Your budget is too low. The minimum daily budget for this ad set is ${money} (${minimum} in the currency's smallest unit)`),
        userMsg: `The minimum daily budget for this ad set is ${money}. Please enter a budget of at least that amount.`,
        data: { minimum_daily_budget: String(minimum), currency: accounts[account].currency },
      });
      await created(params(minimum), { account: accounts[account] });
    });

    // COST_CAP and LOWEST_COST_WITH_MIN_ROAS, which the specification does not price, use the table without a cap; its one
    // exception to doubling is low-frequency actions under LOWEST_COST_WITHOUT_CAP, so these double even for those.
    it.each([
      ['us', 'COST_CAP', { bid_amount: 300 }, 8000, '80.00 USD'],
      ['us', 'LOWEST_COST_WITH_MIN_ROAS', { bid_constraints: { roas_average_floor: 20000 } }, 8000, '80.00 USD'],
      ['br', 'COST_CAP', { bid_amount: 300 }, 4000, '40.00 USD'],
    ] as const)('%s, %s billed by PURCHASE: minimum %i (%s)', async (account, strategy, extra, minimum, money) => {
      const params = (budget: number) =>
        base(salesOf[account]!, {
          billing_event: 'PURCHASE',
          optimization_goal: 'OFFSITE_CONVERSIONS',
          bid_strategy: strategy,
          ...extra,
          daily_budget: budget,
        });
      await expectRefused(() => create(params(minimum - 1), { account: accounts[account] }), {
        subcode: 1885272,
        message: p100(`Your budget is too low. The minimum daily budget for this ad set is ${money} (${minimum} in the currency's smallest unit)`),
        data: { minimum_daily_budget: String(minimum), currency: 'USD' },
      });
      await created(params(minimum), { account: accounts[account] });
    });

    // A lifetime budget's minimum is the daily minimum times the days scheduled (a started day counts whole).
    it.each([
      ['us', 10 * DAY, 10, 100, '1.00 USD', '10.00 USD'],
      ['us', 9.5 * DAY, 10, 100, '1.00 USD', '10.00 USD'],
      ['us', 3600, 1, 100, '1.00 USD', '1.00 USD'],
      ['pt', 7 * DAY, 7, 40, '0.40 EUR', '2.80 EUR'],
      ['jp', 3 * DAY, 3, 150, '150 JPY', '450 JPY'],
    ] as const)('lifetime: %s over %i seconds is %i days at %i', async (account, length, days, daily, dailyMoney, lifetimeMoney) => {
      const lifetime = daily * days;
      const params = (budget: number) => without(base(trafficOf[account]!, { lifetime_budget: budget, start_time: S, end_time: S + length }), 'daily_budget');
      for (const encoding of ['json', 'form'] as const) {
        await expectRefused(() => create(params(lifetime - 1), { encoding, account: accounts[account] }), {
          subcode: 1885272,
          message: p100(`Your budget is too low. The minimum lifetime budget for this ad set is ${lifetimeMoney} (${days} days at ${dailyMoney})`),
          userTitle: 'Your Budget Is Too Low',
          userMsg: `The minimum lifetime budget for this ad set is ${lifetimeMoney} (${dailyMoney} a day for ${days} day${days === 1 ? '' : 's'}). Please enter a budget of at least that amount, or shorten the schedule.`,
          data: { minimum_lifetime_budget: String(lifetime), minimum_daily_budget: String(daily), days, currency: accounts[account].currency },
        });
      }
      const id = await created(params(lifetime), { account: accounts[account] });
      expect((await read(id, 'lifetime_budget')).lifetime_budget).toBe(String(lifetime));
    });
  });

  describe('bid strategies', () => {
    const rows: RuleRow[] = [
      {
        rule: 'bid cap needs bid_amount',
        params: () => base(campaigns.traffic!, { bid_strategy: 'LOWEST_COST_WITH_BID_CAP' }),
        error: () => ({
          message: p100('The parameter bid_amount is required with bid strategy LOWEST_COST_WITH_BID_CAP'),
          userTitle: 'Bid amount required',
          userMsg: 'Enter a bid cap (bid_amount) in USD, or choose the lowest cost without a cap.',
        }),
      },
      {
        rule: 'cost cap needs bid_amount',
        params: () => base(campaigns.traffic!, { bid_strategy: 'COST_CAP' }),
        error: () => ({
          message: p100('The parameter bid_amount is required with bid strategy COST_CAP'),
          userMsg: 'Enter a cost cap (bid_amount) in USD, or choose the lowest cost without a cap.',
        }),
      },
      {
        rule: "the campaign's bid cap needs bid_amount",
        params: () => base(campaigns.bidCap!),
        error: () => ({ message: p100('The parameter bid_amount is required with bid strategy LOWEST_COST_WITH_BID_CAP') }),
      },
      {
        rule: 'no bid without a cap',
        params: () => base(campaigns.traffic!, { bid_strategy: 'LOWEST_COST_WITHOUT_CAP', bid_amount: 100 }),
        error: () => ({ message: p100('Param bid_amount cannot be used with bid strategy LOWEST_COST_WITHOUT_CAP'), userTitle: 'Bid amount not used' }),
      },
      {
        rule: 'minimum ROAS needs its floor',
        params: () => base(campaigns.sales!, { bid_strategy: 'LOWEST_COST_WITH_MIN_ROAS' }),
        error: () => ({
          message: p100(
            'Param bid_constraints.roas_average_floor (an integer from 1 to 10000000, the ROAS x 10000) is required with bid strategy LOWEST_COST_WITH_MIN_ROAS',
          ),
          userTitle: 'Minimum ROAS required',
        }),
      },
      {
        rule: 'minimum ROAS floor out of range',
        params: () => base(campaigns.sales!, { bid_strategy: 'LOWEST_COST_WITH_MIN_ROAS', bid_constraints: { roas_average_floor: 0 } }),
        error: () => ({ message: /^\(#100\) Param bid_constraints\.roas_average_floor .* is required with bid strategy LOWEST_COST_WITH_MIN_ROAS$/ }),
      },
    ];
    refusalTable(rows);

    it('accepts each strategy with what it needs', async () => {
      await created(base(campaigns.traffic!, { bid_strategy: 'COST_CAP', bid_amount: 500 }));
      await created(base(campaigns.bidCap!, { bid_amount: 500 }));
      const roas = await created(base(campaigns.sales!, { bid_strategy: 'LOWEST_COST_WITH_MIN_ROAS', bid_constraints: { roas_average_floor: 20000 } }));
      expect(await read(roas, 'bid_strategy,bid_constraints')).toEqual({
        id: roas,
        bid_strategy: 'LOWEST_COST_WITH_MIN_ROAS',
        bid_constraints: { roas_average_floor: 20000 },
      });
    });
  });

  describe('payor and beneficiary (DSA rules 1 to 4)', () => {
    const eu =
      (countries: string[], extra: Params = {}) =>
      (account: keyof typeof accounts) =>
        base(trafficOf[account]!, { targeting: { geo_locations: { countries } }, ...extra });
    const payorError = (regions: string): Refusal => ({
      subcode: 3858079,
      message: p100(`The parameter dsa_payor is required for ad sets targeting the European Union (${regions})`),
      userTitle: 'Payor required',
      userMsg: 'Ad sets that reach people in the European Union must say who pays for them. Enter the payor, or set a default payor on the ad account.',
      data: { blame_field_specs: [['dsa_payor']] },
    });
    const beneficiaryError = (regions: string): Refusal => ({
      subcode: 3858081,
      message: p100(`The parameter dsa_beneficiary is required for ad sets targeting the European Union (${regions})`),
      userTitle: 'Beneficiary required',
      userMsg:
        'Ad sets that reach people in the European Union must say who benefits from them. Enter the beneficiary, or set a default beneficiary on the ad account.',
      data: { blame_field_specs: [['dsa_beneficiary']] },
    });
    const rows: RuleRow[] = [
      { rule: 'rule 1: payor missing in the EU', account: 'us', params: () => eu(['US', 'DE'])('us'), error: () => payorError('DE') },
      { rule: 'rule 1: every regulated country is named', account: 'us', params: () => eu(['FR', 'US', 'IT'])('us'), error: () => payorError('FR, IT') },
      { rule: 'rule 1: an outermost region is regulated', account: 'us', params: () => eu(['GP'])('us'), error: () => payorError('GP') },
      { rule: 'rule 1: beneficiary missing', account: 'us', params: () => eu(['DE'], { dsa_payor: 'Payor' })('us'), error: () => beneficiaryError('DE') },
      {
        rule: 'rule 1: payor missing, beneficiary given',
        account: 'us',
        params: () => eu(['DE'], { dsa_beneficiary: 'Brand' })('us'),
        error: () => payorError('DE'),
      },
      // Rule 3: the beneficiary comes from the account's default beneficiary, never from the payor.
      {
        rule: 'rule 3: payor only, no default beneficiary',
        account: 'payorOnly',
        params: () => eu(['NL'], { dsa_payor: 'Payor' })('payorOnly'),
        error: () => beneficiaryError('NL'),
      },
      {
        rule: 'rule 2: a default payor alone does not fill the beneficiary',
        account: 'payorOnly',
        params: () => eu(['NL'])('payorOnly'),
        error: () => beneficiaryError('NL'),
      },
    ];
    refusalTable(rows);

    const DSA_FIELDS = 'dsa_payor,dsa_beneficiary';
    it.each([
      ['rule 2: both defaults of the account', 'dsa', ['DE'], {}, { dsa_payor: 'Default Payor SA', dsa_beneficiary: 'Default Beneficiary GmbH' }],
      ['rule 2: an outermost region takes the defaults too', 'dsa', ['RE'], {}, { dsa_payor: 'Default Payor SA', dsa_beneficiary: 'Default Beneficiary GmbH' }],
      [
        'rule 3: payor only takes the default beneficiary, not the payor',
        'dsa',
        ['DE'],
        { dsa_payor: 'Own Payor' },
        { dsa_payor: 'Own Payor', dsa_beneficiary: 'Default Beneficiary GmbH' },
      ],
      [
        'rule 2: beneficiary only takes the default payor',
        'dsa',
        ['DE'],
        { dsa_beneficiary: 'Own Brand' },
        { dsa_payor: 'Default Payor SA', dsa_beneficiary: 'Own Brand' },
      ],
      ['both given win over the defaults', 'dsa', ['DE'], { dsa_payor: 'P', dsa_beneficiary: 'B' }, { dsa_payor: 'P', dsa_beneficiary: 'B' }],
      [
        'rule 3 with a payor-only account: given beneficiary, default payor',
        'payorOnly',
        ['NL'],
        { dsa_beneficiary: 'Own Brand' },
        { dsa_payor: 'Only Payor BV', dsa_beneficiary: 'Own Brand' },
      ],
      ['rule 4: outside the EU the defaults do not apply', 'dsa', ['US', 'CH', 'NO'], {}, {}],
      ['rule 4: outside the EU nothing is required', 'us', ['US', 'GB'], {}, {}],
    ] as const)('%s', async (_rule, account, countries, extra, expected) => {
      for (const encoding of ['json', 'form'] as const) {
        const id = await created(eu([...countries], extra)(account), { encoding, account: accounts[account] });
        expect(await read(id, DSA_FIELDS)).toEqual({ id, ...expected });
      }
    });
  });

  describe('flagged audiences (246003) and conversions (246004)', () => {
    const audienceError = (ids: () => string[]): Refusal => ({
      subcode: 246003,
      message: p100(`Ad sets cannot use custom audiences that may suggest health conditions or financial status, nor lookalikes of them: ${ids().join(', ')}`),
      userTitle: 'Restricted audience',
      data: { restricted_custom_audience_ids: ids() },
    });
    const targeting = (extra: Params) => ({ geo_locations: { countries: ['US'] }, ...extra });
    const rows: RuleRow[] = [
      {
        rule: 'a flagged audience',
        params: () => base(campaigns.traffic!, { targeting: targeting({ custom_audiences: [{ id: audiences.flagged }] }) }),
        error: () => ({
          ...audienceError(() => [audiences.flagged]),
          userMsg: `Remove the restricted audience ${audiences.flagged} from the targeting. Audiences that may suggest health conditions or financial status cannot be used to run ads; you may ask for a review.`,
        }),
      },
      {
        rule: 'a lookalike at 471',
        params: () => base(campaigns.traffic!, { targeting: targeting({ custom_audiences: [audiences.lookalike471] }) }),
        error: () => audienceError(() => [audiences.lookalike471]),
      },
      {
        rule: 'every flagged audience is listed, wherever it is named',
        params: () =>
          base(campaigns.traffic!, {
            targeting: targeting({
              custom_audiences: [{ id: audiences.flagged }, { id: audiences.clean }, { id: audiences.lookalike471 }],
              excluded_custom_audiences: [audiences.flagged2],
            }),
          }),
        error: () => ({
          ...audienceError(() => [audiences.flagged, audiences.lookalike471, audiences.flagged2]),
          userMsg: new RegExp(`^Remove the restricted audiences ${audiences.flagged}, ${audiences.lookalike471}, ${audiences.flagged2} from the targeting\\.`),
        }),
      },
      {
        rule: 'inside flexible_spec',
        params: () => base(campaigns.traffic!, { targeting: targeting({ flexible_spec: [{ custom_audiences: [{ id: audiences.flagged2 }] }] }) }),
        error: () => audienceError(() => [audiences.flagged2]),
      },
      {
        rule: 'a flagged conversion',
        params: () => base(campaigns.sales!, { optimization_goal: 'OFFSITE_CONVERSIONS', promoted_object: { custom_conversion_id: conversions.flagged } }),
        error: () => ({
          subcode: 246004,
          message: p100(`Ad sets cannot optimize for custom conversion ${conversions.flagged}: it may suggest health conditions or financial status`),
          userTitle: 'Restricted custom conversion',
          data: { restricted_custom_conversion_id: conversions.flagged },
        }),
      },
      {
        rule: 'an audience and a conversion: the audiences first',
        params: () =>
          base(campaigns.sales!, {
            optimization_goal: 'OFFSITE_CONVERSIONS',
            promoted_object: { custom_conversion_id: conversions.flagged },
            targeting: targeting({ custom_audiences: [audiences.flagged] }),
          }),
        error: () => audienceError(() => [audiences.flagged]),
      },
      {
        rule: 'an audience of another account',
        params: () => base(campaigns.traffic!, { targeting: targeting({ custom_audiences: [{ id: audiences.otherAccount }] }) }),
        error: () => ({
          message: p100(
            `Param targeting.custom_audiences[0] names ${audiences.otherAccount}, which is not a custom audience of ad account act_${accounts.us.id}`,
          ),
        }),
      },
      {
        rule: 'an audience id that names a campaign',
        params: () => base(campaigns.traffic!, { targeting: targeting({ custom_audiences: [campaigns.traffic!.id] }) }),
        error: () => ({
          message: p100(
            `Param targeting.custom_audiences[0] names ${campaigns.traffic!.id}, which is not a custom audience of ad account act_${accounts.us.id}`,
          ),
        }),
      },
      {
        rule: 'an audience entry that is no id',
        params: () => base(campaigns.traffic!, { targeting: targeting({ custom_audiences: [{ name: 'x' }] }) }),
        error: () => ({ message: p100('Param targeting.custom_audiences[0] must be a custom audience id or {"id": ...}') }),
      },
      {
        rule: 'a conversion id that names an audience',
        params: () => base(campaigns.sales!, { optimization_goal: 'OFFSITE_CONVERSIONS', promoted_object: { custom_conversion_id: audiences.clean } }),
        error: () => ({
          message: p100(
            `Param promoted_object.custom_conversion_id names ${audiences.clean}, which is not a custom conversion of ad account act_${accounts.us.id}`,
          ),
        }),
      },
    ];
    refusalTable(rows);

    it('takes clean audiences, clean lookalikes and clean conversions, and stores their references', async () => {
      const id = await created(
        base(campaigns.sales!, {
          optimization_goal: 'OFFSITE_CONVERSIONS',
          promoted_object: { custom_conversion_id: conversions.clean },
          targeting: targeting({ custom_audiences: [{ id: audiences.clean }, audiences.cleanLookalike] }),
        }),
      );
      expect(await read(id, 'issues_info,effective_status')).toEqual({ id, issues_info: [], effective_status: 'ACTIVE' });
      const references = await server.deps.db('ad_set_references').where({ ad_set_id: id }).orderBy(['kind', 'object_id']).select('kind', 'object_id');
      // The lookalike was made after its source, so its id is the larger one.
      expect(references.map((r) => [r.kind, String(r.object_id)])).toEqual([
        ['custom_audience', audiences.clean],
        ['custom_audience', audiences.cleanLookalike],
        ['custom_conversion', conversions.clean],
      ]);
    });
  });

  describe('special ad categories restrict targeting', () => {
    const housing = (extra: Params) => () => base(campaigns.housing!, { targeting: { geo_locations: { countries: ['US'] }, ...extra } });
    const refusal = (field: string, what: string, categories = 'HOUSING'): Refusal => ({
      message: p100(`Param ${field} cannot be used under the campaign's special ad category ${categories}: ads in it cannot ${what}`),
      userTitle: 'Targeting not available for this category',
    });
    const rows: RuleRow[] = [
      { rule: 'minimum age', params: housing({ age_min: 25 }), error: () => refusal('targeting.age_min', 'raise the minimum age above 18') },
      { rule: 'maximum age', params: housing({ age_max: 50 }), error: () => refusal('targeting.age_max', 'lower the maximum age below 65') },
      { rule: 'gender', params: housing({ genders: [1] }), error: () => refusal('targeting.genders', 'target by gender') },
      {
        rule: 'postal codes',
        params: housing({ geo_locations: { countries: ['US'], zips: [{ key: 'US:94304' }] } }),
        error: () => refusal('targeting.geo_locations.zips', 'target by postal code'),
      },
      {
        rule: 'excluded audiences',
        params: () => housing({ excluded_custom_audiences: [audiences.clean] })(),
        error: () => refusal('targeting.excluded_custom_audiences', 'exclude audiences'),
      },
      {
        rule: 'exclusions',
        params: housing({ exclusions: { interests: [{ id: '6003139266461' }] } }),
        error: () => refusal('targeting.exclusions', 'exclude people by detailed targeting'),
      },
      { rule: 'demographics', params: housing({ income: [{ id: '6107813079183' }] }), error: () => refusal('targeting.income', 'target by demographics') },
      {
        rule: 'lookalikes',
        params: () => housing({ custom_audiences: [audiences.cleanLookalike] })(),
        error: () => refusal('targeting.custom_audiences', `use lookalike audiences (${audiences.cleanLookalike})`),
      },
      {
        rule: 'credit and employment together',
        params: () => base(campaigns.credit!, { targeting: { geo_locations: { countries: ['US'] }, age_min: 30 } }),
        error: () => refusal('targeting.age_min', 'raise the minimum age above 18', 'CREDIT, EMPLOYMENT'),
      },
    ];
    refusalTable(rows);

    it('tells the person what to do in words that read', async () => {
      const response = await expectRefused(() => create(housing({ age_min: 25 })()), refusal('targeting.age_min', 'raise the minimum age above 18'));
      const text = response.body.error.error_user_msg as string;
      expect(text).toMatch(/housing/);
      expect(text).toMatch(/18/);
      expect(text, 'error_user_msg should be a sentence a person can act on').not.toMatch(/cannot the /);
    });

    it('accepts what the categories allow, and categories that restrict nothing', async () => {
      await created(housing({ age_min: 18, age_max: 65, genders: [1, 2], custom_audiences: [audiences.clean] })());
      await created(base(campaigns.politics!, { targeting: { geo_locations: { countries: ['US'] }, age_min: 25, genders: [2] } }));
    });
  });

  describe('a promoted page post targeted by locale', () => {
    const story = () => `${page.id}_${localePost}`;
    const onPost = (promoted: Params, targeting: Params) => () =>
      base(campaigns.engagement!, {
        destination_type: 'ON_POST',
        optimization_goal: 'POST_ENGAGEMENT',
        promoted_object: { page_id: page.id, ...promoted },
        targeting: { geo_locations: { countries: ['US'] }, ...targeting },
      });
    const rows: RuleRow[] = [
      {
        rule: 'locales left out',
        params: () => onPost({ object_story_id: story() }, {})(),
        error: () => ({
          message: p100('The promoted post is targeted to locales {6, 24}: targeting.locales must name the same locales or a subset'),
          userTitle: 'Locales must match the post',
          userMsg: 'The post you promote is shown only in some languages. Target the same locales (6, 24) or fewer.',
        }),
      },
      {
        rule: 'a locale added',
        params: () => onPost({ object_story_id: story() }, { locales: [6, 1001] })(),
        error: () => ({ message: p100('The promoted post is targeted to locales {6, 24}: targeting.locales may not add 1001') }),
      },
      {
        rule: 'other locales',
        params: () => onPost({ object_story_id: localePost }, { locales: [7, 8] })(),
        error: () => ({ message: p100('The promoted post is targeted to locales {6, 24}: targeting.locales may not add 7, 8') }),
      },
      {
        rule: 'a post of another organization',
        params: () => onPost({ object_story_id: `${otherPage.id}_${foreignPost}` }, { locales: [6] })(),
        error: () => ({ message: p100("Param promoted_object.object_story_id must name a post of a page of the account's organization") }),
      },
      {
        rule: 'a post under the wrong page',
        params: () => onPost({ object_story_id: `${otherPage.id}_${localePost}` }, { locales: [6] })(),
        error: () => ({ message: p100("Param promoted_object.object_story_id must name a post of a page of the account's organization") }),
      },
      {
        rule: 'no post at all',
        params: () => onPost({ object_story_id: `${page.id}_${campaigns.traffic!.id}` }, { locales: [6] })(),
        error: () => ({ message: p100("Param promoted_object.object_story_id must name a post of a page of the account's organization") }),
      },
    ];
    refusalTable(rows);

    it.each([
      ['the same locales', () => `${page.id}_${localePost}`, [6, 24]],
      ['a subset', () => `${page.id}_${localePost}`, [24]],
      ['the post id alone', () => localePost, [6]],
      ['a post without locales, any locales', () => `${page.id}_${plainPost}`, [99]],
      ['a post without locales, none', () => plainPost, undefined],
    ] as const)('accepts %s', async (_what, storyId, locales) => {
      const id = await created(onPost({ object_story_id: storyId() }, locales ? { locales: [...locales] } : {})());
      expect((await read(id, 'promoted_object')).promoted_object).toEqual({ page_id: page.id, object_story_id: storyId() });
    });
  });

  describe('desktop and mobile apps, goals that need a promoted object', () => {
    const desktop = { application_id: '5550001', object_store_url: 'https://apps.facebook.com/mygame' };
    const mobile = { application_id: '5550002', object_store_url: 'https://play.google.com/store/apps/details?id=com.example.game' };
    const app =
      (campaign: string, promoted: Params, targeting: Params, extra: Params = {}) =>
      () =>
        base(campaigns[campaign]!, {
          optimization_goal: 'APP_INSTALLS',
          promoted_object: promoted,
          targeting: { geo_locations: { countries: ['US'] }, ...targeting },
          ...extra,
        });
    const rows: RuleRow[] = [
      {
        rule: 'a desktop app needs a desktop page type',
        params: app('app', desktop, { page_types: ['feed'] }),
        error: () => ({
          message: p100('Desktop app ad sets must include one of the page types {desktopfeed, rightcolumn, desktop} in targeting.page_types'),
          userTitle: 'Desktop placement required',
        }),
      },
      {
        rule: 'a desktop app needs the app promotion objective',
        params: app('traffic', desktop, { page_types: ['desktopfeed'] }, { optimization_goal: 'LINK_CLICKS' }),
        error: () => ({
          message: p100('Desktop (canvas) app ad sets need a campaign with the app promotion objective, not OUTCOME_TRAFFIC'),
          userTitle: 'App promotion objective required',
        }),
      },
      {
        rule: 'a mobile app cannot take desktop page types',
        params: app('app', mobile, { page_types: ['rightcolumn'] }),
        error: () => ({ message: p100('Mobile app ad sets cannot target desktop placements (rightcolumn)'), userTitle: 'Mobile placement required' }),
      },
      {
        rule: 'a mobile app cannot run on desktop alone',
        params: app('app', mobile, { device_platforms: ['desktop'] }),
        error: () => ({ message: p100('Mobile app ad sets cannot target desktop placements (device_platforms desktop)') }),
      },
      {
        rule: 'a mobile app needs a mobile app objective',
        params: app('awareness', mobile, {}, { optimization_goal: 'REACH' }),
        error: () => ({ message: p100('Mobile app ad sets need a campaign with a mobile app objective, not OUTCOME_AWARENESS') }),
      },
      {
        rule: 'installs need the store URL',
        params: app('app', { application_id: '5550002' }, {}),
        error: () => ({
          message: p100('The parameter promoted_object.object_store_url is required with optimization goal APP_INSTALLS'),
          userTitle: 'App required',
        }),
      },
      {
        rule: 'installs need the application',
        params: app('app', { object_store_url: mobile.object_store_url }, {}),
        error: () => ({ message: p100('The parameter promoted_object.application_id is required with optimization goal APP_INSTALLS') }),
      },
      {
        rule: 'an application the gateway does not know is error 900',
        params: app('app', { application_id: '5550999', object_store_url: mobile.object_store_url }, {}),
        error: () => ({
          code: 900,
          message: '(#900) No such application exists: 5550999 is not an application this gateway knows',
          userTitle: 'No such application',
        }),
      },
      {
        rule: "the store URL is one of the application's",
        params: app('app', { ...mobile, object_store_url: 'https://play.google.com/store/apps/details?id=com.other' }, {}),
        error: () => ({
          message: p100(
            "Param promoted_object.object_store_url must be one of application 5550002's store URLs: https://play.google.com/store/apps/details?id=com.example.game, https://apps.apple.com/app/id5550002",
          ),
        }),
      },
      {
        rule: 'lead goals need a page',
        params: () => base(campaigns.leads!, { destination_type: 'ON_AD', optimization_goal: 'LEAD_GENERATION' }),
        error: () => ({
          message: p100('The parameter promoted_object.page_id is required with optimization goal LEAD_GENERATION'),
          userTitle: 'Page required',
          userMsg: 'Lead ads collect leads for a Page: choose the Page in promoted_object.page_id.',
        }),
      },
      {
        rule: 'lookalike expansion cannot be turned off (v13.0)',
        params: () =>
          base(campaigns.sales!, {
            optimization_goal: 'OFFSITE_CONVERSIONS',
            targeting: { geo_locations: { countries: ['US'] }, targeting_relaxation_types: { lookalike: 0 } },
          }),
        error: () => ({
          message: p100('Lookalike expansion is always on for ad sets optimizing for OFFSITE_CONVERSIONS (since v13.0) and cannot be turned off'),
          userTitle: 'Lookalike expansion is on',
        }),
      },
    ];
    refusalTable(rows);

    it('accepts a desktop app with a desktop page type and a mobile app on mobile, under app promotion', async () => {
      await created(app('app', desktop, { page_types: ['desktopfeed', 'rightcolumn'] })());
      await created(app('app', mobile, { device_platforms: ['mobile'] })());
      await created(app('app', mobile, { device_platforms: ['mobile', 'desktop'] })());
      await created(base(campaigns.leads!, { destination_type: 'ON_AD', optimization_goal: 'LEAD_GENERATION', promoted_object: { page_id: page.id } }));
    });
  });

  describe('objective, destination and goal pairing; IMPRESSIONS with ON_POST', () => {
    const rows: RuleRow[] = [
      {
        rule: 'a destination the objective does not have',
        params: () => base(campaigns.traffic!, { destination_type: 'ON_POST' }),
        error: () => ({
          message: /^\(#100\) Param destination_type ON_POST is not available for campaigns with objective OUTCOME_TRAFFIC; use one of \{WEBSITE, APP, /,
          userTitle: 'Destination not available',
        }),
      },
      {
        rule: 'a goal the objective does not have',
        params: () => base(campaigns.awareness!, { optimization_goal: 'LINK_CLICKS' }),
        error: () => ({
          message: p100(
            'Param optimization_goal LINK_CLICKS is not available for objective OUTCOME_AWARENESS; use one of {REACH, AD_RECALL_LIFT, IMPRESSIONS, THRUPLAY}',
          ),
          userTitle: 'Optimization goal not available',
        }),
      },
      {
        rule: 'a goal the destination does not have',
        params: () => base(campaigns.engagement!, { destination_type: 'ON_VIDEO', optimization_goal: 'PAGE_LIKES' }),
        error: () => ({
          message: p100(
            'Param optimization_goal PAGE_LIKES is not available for objective OUTCOME_ENGAGEMENT with destination ON_VIDEO; use one of {THRUPLAY, IMPRESSIONS, REACH}',
          ),
        }),
      },
      {
        rule: 'sales cannot optimize for ThruPlay',
        params: () => base(campaigns.sales!, { destination_type: 'WEBSITE', optimization_goal: 'THRUPLAY' }),
        error: () => ({
          message:
            /^\(#100\) Param optimization_goal THRUPLAY is not available for objective OUTCOME_SALES with destination WEBSITE; use one of \{OFFSITE_CONVERSIONS, VALUE, /,
        }),
      },
      {
        rule: 'a billing event the goal cannot be billed by',
        params: () => base(campaigns.traffic!, { optimization_goal: 'LINK_CLICKS', billing_event: 'THRUPLAY' }),
        error: () => ({
          message: p100('Param billing_event THRUPLAY cannot be used with optimization goal LINK_CLICKS; use one of {IMPRESSIONS, LINK_CLICKS, CLICKS}'),
          userTitle: 'Billing event not available',
        }),
      },
    ];
    refusalTable(rows);

    it.each<Encoding>(['json', 'form'])('refuses IMPRESSIONS for destination ON_POST, saying it is deprecated since v20.0 (%s)', async (encoding) => {
      await expectRefused(() => create(base(campaigns.engagement!, { destination_type: 'ON_POST', optimization_goal: 'IMPRESSIONS' }), { encoding }), {
        message: /^\(#100\) .*IMPRESSIONS.*ON_POST/,
      });
      // The refusal should say why: the goal is deprecated there (rules/objectives.ts has this message).
      const response = await create(base(campaigns.engagement!, { destination_type: 'ON_POST', optimization_goal: 'IMPRESSIONS' }), { encoding });
      expect(response.body.error.message).toBe(
        p100('The IMPRESSIONS optimization goal is deprecated since v20.0 for post engagement and for destination type ON_POST; use POST_ENGAGEMENT or REACH'),
      );
      expect(response.body.error.error_user_title).toBe('Optimization goal deprecated');
    });

    it.each([
      ['awareness', null, 'REACH', 'IMPRESSIONS'],
      ['awareness', null, 'AD_RECALL_LIFT', 'IMPRESSIONS'],
      ['awareness', null, 'IMPRESSIONS', 'IMPRESSIONS'],
      ['traffic', 'WEBSITE', 'LANDING_PAGE_VIEWS', 'LINK_CLICKS'],
      ['traffic', 'APP', 'LINK_CLICKS', 'IMPRESSIONS'],
      ['traffic', 'MESSENGER', 'CONVERSATIONS', 'IMPRESSIONS'],
      ['traffic', 'SHOP_AUTOMATIC', 'LINK_CLICKS', 'IMPRESSIONS'],
      ['engagement', 'ON_VIDEO', 'THRUPLAY', 'THRUPLAY'],
      ['engagement', 'ON_POST', 'POST_ENGAGEMENT', 'POST_ENGAGEMENT'],
      ['engagement', 'ON_EVENT', 'EVENT_RESPONSES', 'IMPRESSIONS'],
      ['engagement', 'WHATSAPP', 'CONVERSATIONS', 'IMPRESSIONS'],
      ['engagement', 'ON_PAGE', 'PAGE_LIKES', 'PAGE_LIKES'],
      ['engagement', 'WEBSITE', 'OFFSITE_CONVERSIONS', 'IMPRESSIONS'],
      ['sales', 'WEBSITE', 'OFFSITE_CONVERSIONS', 'PURCHASE'],
      ['sales', null, 'VALUE', 'IMPRESSIONS'],
      ['sales', 'MESSENGER', 'CONVERSATIONS', 'IMPRESSIONS'],
    ] as const)('pairs %s with destination %s and goal %s (billed by %s)', async (campaign, destination, goal, billing) => {
      const id = await created(
        base(campaigns[campaign]!, {
          ...(destination ? { destination_type: destination } : {}),
          optimization_goal: goal,
          billing_event: billing,
        }),
      );
      expect(await read(id, 'optimization_goal,billing_event')).toEqual({ id, optimization_goal: goal, billing_event: billing });
    });
  });

  describe('time-based ad rotation', () => {
    const rotation =
      (intervals: number[] | undefined, blocks: number[][] | undefined, schedule: Params = { start_time: S, end_time: END }) =>
      () =>
        base(campaigns.traffic!, {
          ...schedule,
          ...(intervals ? { time_based_ad_rotation_intervals: intervals } : {}),
          ...(blocks ? { time_based_ad_rotation_id_blocks: blocks } : {}),
        });
    const rows: RuleRow[] = [
      {
        rule: 'intervals without blocks',
        params: rotation([S, S + DAY], undefined),
        error: () => ({
          message: p100('The parameter time_based_ad_rotation_id_blocks is required with time-based ad rotation: send both the intervals and the id blocks'),
        }),
      },
      {
        rule: 'blocks without intervals',
        params: rotation(undefined, [[1], [2]]),
        error: () => ({
          message: p100('The parameter time_based_ad_rotation_intervals is required with time-based ad rotation: send both the intervals and the id blocks'),
        }),
      },
      {
        rule: 'at least two ranges',
        params: rotation([S], [[1]]),
        error: () => ({
          message: p100('Param time_based_ad_rotation_intervals must have at least two date ranges'),
          userTitle: 'Rotation schedule incomplete',
        }),
      },
      {
        rule: 'one block per range',
        params: rotation([S, S + DAY], [[1]]),
        error: () => ({ message: p100('Param time_based_ad_rotation_id_blocks must have one block of ad ids per interval (2), got 1') }),
      },
      {
        rule: 'ranges in order',
        params: rotation([S, S + 2 * DAY, S + DAY], [[1], [2], [3]]),
        error: () => ({
          message: p100(
            'Param time_based_ad_rotation_intervals must be in increasing order: time_based_ad_rotation_intervals[2] is not after time_based_ad_rotation_intervals[1]',
          ),
        }),
      },
      {
        rule: 'the first range starts with the ad set',
        params: rotation([S + 60, S + DAY], [[1], [2]]),
        error: () => ({
          message: p100(`Param time_based_ad_rotation_intervals[0] must equal the ad set's start time (${S}), so the ranges cover the whole schedule`),
          userMsg: 'The first rotation range must start when the ad set starts.',
        }),
      },
      {
        rule: 'the last range starts an hour before the end',
        params: rotation([S, END - 1800], [[1], [2]]),
        error: () => ({
          message: p100(
            `Param time_based_ad_rotation_intervals: the last range must start at least one hour before the ad set ends (${END - 3600} at the latest)`,
          ),
          userMsg: 'The last rotation range must start at least an hour before the ad set ends.',
        }),
      },
      {
        rule: 'the ranges need an end to cover',
        params: rotation([S, S + DAY], [[1], [2]], { start_time: S }),
        error: () => ({ message: p100('The parameter end_time is required with time-based ad rotation, so the ranges can cover the whole schedule') }),
      },
    ];
    refusalTable(rows);

    it('accepts ranges that cover the schedule, the last exactly an hour before the end', async () => {
      await created(rotation([S, S + 3 * DAY, END - 3600], [[1, 2], [3], [4]])());
    });
  });
});

// --- execution_options -----------------------------------------------------------------------------------

describe('execution_options', () => {
  it.each<Encoding>(['json', 'form'])('validate_only checks everything, answers {success: true} and writes nothing (%s)', async (encoding) => {
    const before = await rowCounts();
    const response = await create(
      base(campaigns.traffic!, {
        name: 'Only checked',
        execution_options: ['validate_only'],
        targeting: { geo_locations: { countries: ['US'] }, custom_audiences: [audiences.clean] },
      }),
      { encoding },
    );
    expect(response.status, response.text).toBe(200);
    expect(response.body).toEqual({ success: true });
    expect(await rowCounts()).toEqual(before);
    expect(await server.deps.db('ad_sets').where({ name: 'Only checked' }).first()).toBeUndefined();
  });

  it.each<Encoding>(['json', 'form'])('validate_only answers a broken rule as a create would (%s)', async (encoding) => {
    await expectRefused(() => create(base(campaigns.traffic!, { daily_budget: 99, execution_options: ['validate_only'] }), { encoding }), {
      subcode: 1885272,
      message: /^\(#100\) Your budget is too low\. The minimum daily budget for this ad set is 1\.00 USD/,
    });
    await expectRefused(
      () => create(base(campaigns.traffic!, { targeting: { geo_locations: { countries: ['DE'] } }, execution_options: ['validate_only'] }), { encoding }),
      {
        subcode: 3858079,
        message: /dsa_payor/,
        data: { blame_field_specs: [['dsa_payor']] },
      },
    );
  });

  const RAISE = {
    title: 'Raise your budget',
    code: 1885500,
    importance: 'MEDIUM',
    confidence: 'HIGH',
    blame_field: 'daily_budget',
    message: 'Your daily budget is less than twice the minimum (1.00 USD). A larger budget gives delivery more room to learn.',
  };

  it.each<Encoding>(['json', 'form'])('include_recommendations creates and adds the recommendations (%s)', async (encoding) => {
    const before = await rowCounts();
    const response = await create(base(campaigns.traffic!, { daily_budget: 150, execution_options: ['include_recommendations'] }), { encoding });
    expect(response.status, response.text).toBe(200);
    expect(response.body).toEqual({ id: expect.stringMatching(/^\d+$/), success: true, recommendations: [RAISE] });
    expect((await rowCounts()).adSets).toBe(before.adSets + 1);
    expect(await read(response.body.id, 'recommendations')).toEqual({ id: response.body.id, recommendations: [RAISE] });
  });

  it('validate_only with include_recommendations validates and recommends, writing nothing', async () => {
    const before = await rowCounts();
    const response = await create(
      base(campaigns.traffic!, {
        daily_budget: 150,
        execution_options: ['validate_only', 'include_recommendations'],
        targeting: { geo_locations: { countries: ['US'] }, publisher_platforms: ['facebook'] },
      }),
    );
    expect(response.status, response.text).toBe(200);
    expect(response.body).toEqual({
      success: true,
      recommendations: [
        RAISE,
        {
          title: 'Use more placements',
          code: 1885502,
          importance: 'LOW',
          confidence: 'MEDIUM',
          blame_field: 'targeting.publisher_platforms',
          message: 'This ad set runs on a single platform. Adding placements often lowers the cost per result.',
        },
      ],
    });
    expect(await rowCounts()).toEqual(before);
  });

  it('recommends checking the payor when an EU ad set took the account default', async () => {
    const response = await create(
      base(trafficOf.dsa!, { targeting: { geo_locations: { countries: ['DE', 'AT'] } }, execution_options: ['include_recommendations'] }),
      { account: accounts.dsa },
    );
    expect(response.status, response.text).toBe(200);
    expect(response.body.recommendations).toEqual([
      {
        title: 'Check who pays for these ads',
        code: 1885501,
        importance: 'LOW',
        confidence: 'MEDIUM',
        blame_field: 'dsa_payor',
        message:
          "This ad set uses the account's default payor (Default Payor SA), which is shown to people in the European Union. Make sure it is right for these ads.",
      },
    ]);
  });
});

// --- Bad input -------------------------------------------------------------------------------------------

describe('bad input: a precise error naming the parameter, never a 500, nothing written', () => {
  const traffic = () => campaigns.traffic!;
  const oneOfMessage = (name: string, values: string) => p100(`Param ${name} must be one of {${values}}`);
  // [parameter, value, message]: sent as JSON (the value's own type); strings that look like JSON are decoded as a form would.
  const ROWS: Array<[string, unknown, string | RegExp]> = [
    ['name', 12345, p100('Param name must be a string')],
    ['name', ['a'], p100('Param name must be a string')],
    ['name', 'nul\u0000byte', p100('Param name must not contain NUL characters')],
    ['campaign_id', 'abc', p100('Param campaign_id must be a valid ID')],
    ['campaign_id', '0', p100('Param campaign_id must be a valid ID')],
    ['campaign_id', 1.5, p100('Param campaign_id must be a valid ID')],
    ['campaign_id', { id: '1' }, p100('Param campaign_id must be a valid ID')],
    ...(['DELETED', 'ARCHIVED'] as const).map((status): [string, unknown, string] => [
      'status',
      status,
      p100(`Param status ${status} cannot be used on create: only ACTIVE and PAUSED are valid during creation; create it, then set status to ${status}`),
    ]),
    ['status', 'active', oneOfMessage('status', 'ACTIVE, PAUSED')],
    [
      'regional_regulated_categories',
      ['1'],
      p100('Param regional_regulation_identities must give a beneficiary and a payer identity for each declared category: 1 declared, 0 complete'),
    ],
    [
      'regional_regulated_categories',
      ['99'],
      // A list names its element in the message (its field is the parameter).
      oneOfMessage('regional_regulated_categories[0]', '0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12'),
    ],
    [
      'regional_regulation_identities',
      { taiwan_finserv_beneficiary: '1' },
      p100('Param regional_regulation_identities needs regional_regulated_categories: declare the regulated categories the identities are for'),
    ],
    ['bid_info', 'cheap', p100('Param bid_info must be a JSON object')],
    ['adlabels', 'spring', p100('Param adlabels must be an array')],
    ['adlabels', [1], p100('Param adlabels[0] must be a JSON object')],
    ['adset_schedule', { start_minute: 0 }, p100('Param adset_schedule must be an array')],
    ['anchor_event_attribution_window_days', 0, p100('Param anchor_event_attribution_window_days must be between 1 and 365')],
    ['anchor_event_attribution_window_days', 366, p100('Param anchor_event_attribution_window_days must be between 1 and 365')],
    ['anchor_event_attribution_window_days', 'week', p100('Param anchor_event_attribution_window_days must be an integer')],
    ['attribution_spec', ['CLICK'], p100('Param attribution_spec[0] must be a JSON object')],
    ['automatic_manual_state', 'SEMI', oneOfMessage('automatic_manual_state', 'UNSET, AUTOMATIC, MANUAL')],
    ['bid_adjustments', [1, 2], p100('Param bid_adjustments must be a JSON object')],
    ['bid_amount', 0, p100('Param bid_amount must be between 1 and 4294967295')],
    ['bid_amount', 4294967296, p100('Param bid_amount must be between 1 and 4294967295')],
    ['bid_amount', 2.5, p100("Param bid_amount must be a whole number in the currency's smallest unit or the field's unit, without decimals")],
    ['bid_constraints', 'high', p100('Param bid_constraints must be a JSON object')],
    ['bid_strategy', 'CHEAPEST', oneOfMessage('bid_strategy', 'LOWEST_COST_WITHOUT_CAP, LOWEST_COST_WITH_BID_CAP, COST_CAP, LOWEST_COST_WITH_MIN_ROAS')],
    [
      'billing_event',
      'VIEWS',
      oneOfMessage(
        'billing_event',
        'APP_INSTALLS, CLICKS, IMPRESSIONS, LINK_CLICKS, NONE, OFFER_CLAIMS, PAGE_LIKES, POST_ENGAGEMENT, THRUPLAY, PURCHASE, LISTING_INTERACTION',
      ),
    ],
    [
      'billing_event',
      7,
      oneOfMessage(
        'billing_event',
        'APP_INSTALLS, CLICKS, IMPRESSIONS, LINK_CLICKS, NONE, OFFER_CLAIMS, PAGE_LIKES, POST_ENGAGEMENT, THRUPLAY, PURCHASE, LISTING_INTERACTION',
      ),
    ],
    ['brand_safety_config', ['x'], p100('Param brand_safety_config must be a JSON object')],
    ['budget_schedule_specs', 'soon', p100('Param budget_schedule_specs must be an array')],
    ['budget_source', 'CASH', oneOfMessage('budget_source', 'NONE, RMN')],
    ['budget_split_set_id', 'split', p100('Param budget_split_set_id must be a valid ID')],
    ['campaign_attribution', 'a'.repeat(65), p100('Param campaign_attribution must be at most 64 characters')],
    ['campaign_spec', [], p100('Param campaign_spec must be a JSON object')],
    ['contextual_bundling_spec', 'on', p100('Param contextual_bundling_spec must be a JSON object')],
    ['creative_sequence', ['abc'], p100('Param creative_sequence[0] must be a valid ID')],
    ['creative_sequence', Array.from({ length: 51 }, (_, i) => String(i + 1)), p100('Param creative_sequence must have at most 50 elements')],
    ['creative_sequence', '123', p100('Param creative_sequence must be an array')],
    ['daily_budget', 0, p100('Param daily_budget must be a positive integer')],
    ['daily_budget', -500, p100('Param daily_budget must be a positive integer')],
    ['daily_budget', 1250.5, p100("Param daily_budget must be a whole number in the currency's smallest unit or the field's unit, without decimals")],
    ['daily_budget', '12.50', p100("Param daily_budget must be a whole number in the currency's smallest unit or the field's unit, without decimals")],
    ['daily_budget', 'lots', p100('Param daily_budget must be an integer')],
    ['daily_budget', '9223372036854775808', p100('Param daily_budget must be at most 9007199254740991')],
    ['daily_budget', '9007199254740992', p100('Param daily_budget must be at most 9007199254740991')],
    ['daily_budget', true, p100('Param daily_budget must be an integer')],
    ['daily_imps', -1, p100('Param daily_imps must be at least 0')],
    ['daily_min_spend_target', 0, p100('Param daily_min_spend_target must be a positive integer')],
    ['daily_spend_cap', 1.5, p100("Param daily_spend_cap must be a whole number in the currency's smallest unit or the field's unit, without decimals")],
    ['destination_type', 'MOON', /^\(#100\) Param destination_type must be one of \{WEBSITE, APP, MESSENGER, /],
    ['dsa_beneficiary', 'b'.repeat(513), p100('Param dsa_beneficiary must be at most 512 characters')],
    ['dsa_payor', 'p'.repeat(513), p100('Param dsa_payor must be at most 512 characters')],
    ['dsa_payor', 42, p100('Param dsa_payor must be a string')],
    ['end_time', 'tomorrow', p100('Param end_time must be a valid date-time (ISO 8601 or Unix seconds)')],
    ['end_time', '2027-02-30T00:00:00Z', p100('Param end_time must be a valid date-time (ISO 8601 or Unix seconds)')],
    ['end_time', -5, p100('Param end_time must be a valid date-time (ISO 8601 or Unix seconds)')],
    ['execution_options', ['dry_run'], p100('Param execution_options[0] must be one of {validate_only, include_recommendations}')],
    ['execution_options', 'validate_only', p100('Param execution_options must be an array')],
    ['existing_customer_budget_percentage', 101, p100('Param existing_customer_budget_percentage must be between 0 and 100')],
    ['frequency_control_specs', { event: 'IMPRESSIONS' }, p100('Param frequency_control_specs must be an array')],
    ['instagram_user_id', 'insta', p100('Param instagram_user_id must be a valid ID')],
    ['is_dynamic_creative', 'maybe', p100('Param is_dynamic_creative must be a boolean')],
    ['is_sac_cfca_terms_certified', 2, p100('Param is_sac_cfca_terms_certified must be a boolean')],
    ['is_incremental_attribution_enabled', 'yes', p100('Param is_incremental_attribution_enabled must be a boolean')],
    ['lifetime_budget', 0, p100('Param lifetime_budget must be a positive integer')],
    ['lifetime_budget', 99.99, p100("Param lifetime_budget must be a whole number in the currency's smallest unit or the field's unit, without decimals")],
    ['lifetime_imps', -1, p100('Param lifetime_imps must be between 0 and 2147483647')],
    ['lifetime_min_spend_target', 'x', p100('Param lifetime_min_spend_target must be an integer')],
    ['lifetime_spend_cap', -1, p100('Param lifetime_spend_cap must be a positive integer')],
    ['max_budget_spend_percentage', -1, p100('Param max_budget_spend_percentage must be between 0 and 100')],
    ['min_budget_spend_percentage', 200, p100('Param min_budget_spend_percentage must be between 0 and 100')],
    ['multi_optimization_goal_weight', 'HEAVY', oneOfMessage('multi_optimization_goal_weight', 'UNDEFINED, BALANCED, PREFER_INSTALL, PREFER_EVENT')],
    ['optimization_goal', 'CLICKS', /^\(#100\) Param optimization_goal must be one of \{NONE, APP_INSTALLS, AD_RECALL_LIFT, /],
    ['optimization_sub_event', 'LOUD', /^\(#100\) Param optimization_sub_event must be one of \{NONE, VIDEO_SOUND_ON, /],
    ['pacing_type', ['fast'], oneOfMessage('pacing_type[0]', 'standard, day_parting, no_pacing')],
    ['pacing_type', 'standard', p100('Param pacing_type must be an array')],
    ['promoted_object', 'my page', p100('Param promoted_object must be a JSON object')],
    ['promoted_object', [{ page_id: '1' }], p100('Param promoted_object must be a JSON object')],
    ['rf_prediction_id', 'rf', p100('Param rf_prediction_id must be a valid ID')],
    ['source_adset_id', 'copy', p100('Param source_adset_id must be a valid ID')],
    ['start_time', 'next week', p100('Param start_time must be a valid date-time (ISO 8601 or Unix seconds)')],
    ['time_start', { at: 1 }, p100('Param time_start must be a valid date-time (ISO 8601 or Unix seconds)')],
    ['time_stop', '25:00', p100('Param time_stop must be a valid date-time (ISO 8601 or Unix seconds)')],
    ['targeting', 'US', p100('Param targeting must be a JSON object')],
    ['targeting', [{ geo_locations: { countries: ['US'] } }], p100('Param targeting must be a JSON object')],
    ['time_based_ad_rotation_id_blocks', [['a']], /^\(#100\) Param time_based_ad_rotation_id_blocks\[0\]/],
    ['time_based_ad_rotation_intervals', ['noon'], p100('Param time_based_ad_rotation_intervals[0] must be an integer')],
    [
      'tune_for_category',
      'PETS',
      oneOfMessage(
        'tune_for_category',
        'NONE, EMPLOYMENT, HOUSING, CREDIT, ISSUES_ELECTIONS_POLITICS, ONLINE_GAMBLING_AND_GAMING, FINANCIAL_PRODUCTS_SERVICES',
      ),
    ],
    ['use_new_app_click', 'sometimes', p100('Param use_new_app_click must be a boolean')],
    ['value_rule_set_id', '-1', p100('Param value_rule_set_id must be a valid ID')],
    ['value_rules_applied', 'no', p100('Param value_rules_applied must be a boolean')],
  ];

  it.each(ROWS)('%s = %j', async (name, value, message) => {
    await expectRefused(() => create(base(traffic(), { [name]: value })), { message });
  });

  it('covers every parameter of the create table', () => {
    const CREATE_TABLE = [
      'name',
      'campaign_id',
      'adlabels',
      'adset_schedule',
      'anchor_event_attribution_window_days',
      'attribution_spec',
      'automatic_manual_state',
      'bid_amount',
      'bid_strategy',
      'billing_event',
      'budget_schedule_specs',
      'budget_source',
      'budget_split_set_id',
      'campaign_attribution',
      'campaign_spec',
      'contextual_bundling_spec',
      'creative_sequence',
      'daily_budget',
      'daily_imps',
      'daily_min_spend_target',
      'daily_spend_cap',
      'destination_type',
      'dsa_beneficiary',
      'dsa_payor',
      'end_time',
      'execution_options',
      'existing_customer_budget_percentage',
      'frequency_control_specs',
      'is_dynamic_creative',
      'is_sac_cfca_terms_certified',
      'lifetime_budget',
      'lifetime_imps',
      'lifetime_min_spend_target',
      'lifetime_spend_cap',
      'max_budget_spend_percentage',
      'min_budget_spend_percentage',
      'multi_optimization_goal_weight',
      'optimization_goal',
      'optimization_sub_event',
      'pacing_type',
      'promoted_object',
      'rf_prediction_id',
      'source_adset_id',
      'start_time',
      'status',
      'targeting',
      'time_based_ad_rotation_id_blocks',
      'time_based_ad_rotation_intervals',
      'time_start',
      'time_stop',
      'tune_for_category',
      'value_rule_set_id',
      'value_rules_applied',
    ];
    const covered = new Set(ROWS.map(([name]) => name));
    expect(CREATE_TABLE.filter((name) => !covered.has(name))).toEqual([]);
  });

  // The same mistakes as the Python SDK sends them: every value a form field, objects and lists JSON-encoded.
  it.each([
    [
      'broken JSON in targeting',
      { targeting: '{"geo_locations": {"countries": ["US"]' },
      p100('Param targeting must be JSON-encoded: {"geo_locations": {"countries": ["US"]'),
    ],
    ['broken JSON in a list', { adlabels: '[{"name": "x"}' }, p100('Param adlabels must be JSON-encoded: [{"name": "x"}')],
    ['broken JSON in promoted_object', { promoted_object: '{page_id: 1}' }, p100('Param promoted_object must be JSON-encoded: {page_id: 1}')],
    ['broken JSON in execution_options', { execution_options: '["validate_only"' }, p100('Param execution_options must be JSON-encoded: ["validate_only"')],
    [
      'a decimal budget',
      { daily_budget: '20000.00' },
      p100("Param daily_budget must be a whole number in the currency's smallest unit or the field's unit, without decimals"),
    ],
    ['a boolean that is none', { is_dynamic_creative: 'TRUE' }, p100('Param is_dynamic_creative must be a boolean')],
    ['an empty optional string', { dsa_payor: '' }, p100('The parameter dsa_payor is required')],
    ['a number where an object belongs', { targeting: '5' }, p100('Param targeting must be a JSON object')],
  ])('form: %s', async (_what, extra, message) => {
    await expectRefused(
      () =>
        graph.call('POST', `/v24.0/${actOf(accounts.us)}/adsets`, {
          token: tokens.advertiser,
          raw: new URLSearchParams(
            Object.entries({ ...base(traffic()), ...extra }).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]),
          ).toString(),
          contentType: 'application/x-www-form-urlencoded',
        }),
      { message },
    );
  });

  it('form: a parameter sent twice', async () => {
    const body = `${new URLSearchParams(Object.entries(base(traffic())).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)])).toString()}&name=Other`;
    await expectRefused(
      () =>
        graph.call('POST', `/v24.0/${actOf(accounts.us)}/adsets`, { token: tokens.advertiser, raw: body, contentType: 'application/x-www-form-urlencoded' }),
      {
        message: p100('Param name is repeated'),
      },
    );
  });

  it('a JSON body that does not parse', async () => {
    await expectRefused(
      () => graph.call('POST', `/v24.0/${actOf(accounts.us)}/adsets`, { token: tokens.advertiser, raw: '{"name": "x", ', contentType: 'application/json' }),
      {
        message: p100('Request body could not be read.'),
      },
    );
  });

  it('reports one bad parameter at a time, the required ones first', async () => {
    await expectRefused(() => create(base(traffic(), { bid_strategy: 'X', daily_budget: 1.5 })), { message: /^\(#100\) Param bid_strategy must be one of / });
    await expectRefused(() => create(without(base(traffic(), { bid_strategy: 'X' }), 'name')), { message: p100('The parameter name is required') });
  });

  it.each([
    ['act_ with letters', 'act_abc'],
    ['act_ with a decimal', 'act_1.5'],
    ['act_ with a sign', 'act_-1'],
    ['act_ and nothing', 'act_'],
    ['act_ with zero', 'act_0'],
    ['act_ of an id that is no account', 'CAMPAIGN_AS_ACCOUNT'],
    ['an account that does not exist', 'act_999999999999999'],
  ])('POST /%s/adsets: %s is an object that does not exist', async (_what, raw) => {
    const id = raw === 'CAMPAIGN_AS_ACCOUNT' ? `act_${campaigns.traffic!.id}` : raw;
    await expectRefused(() => create(base(traffic()), { path: `/v24.0/${id}/adsets` }), {
      code: 100,
      subcode: 33,
      type: 'GraphMethodException',
      message: UNKNOWN_OBJECT(id, 'post'),
    });
  });

  it.each([
    ['a campaign', () => campaigns.traffic!.id],
    ['an ad set', () => sourceAdSet.id],
    ['a page', () => page.id],
    ['a custom audience', () => audiences.clean],
  ])('POST /<id of %s>/adsets: only ad accounts have the edge', async (_what, id) => {
    await expectRefused(() => create(base(traffic()), { path: `/v24.0/${id()}/adsets` }), {
      code: 100,
      subcode: 33,
      type: 'GraphMethodException',
      message: /^Unsupported post request\. Object with ID '\d+(\/adsets)?' does not exist/,
    });
  });

  it.each([
    ['campaign_id of an ad set', () => sourceAdSet.id],
    ['campaign_id of a custom audience', () => audiences.clean],
    ['campaign_id of the account', () => accounts.us.id],
    ['campaign_id of nothing', () => '999999999999999'],
  ])('%s names no campaign of the account', async (_what, id) => {
    await expectRefused(() => create(base(traffic(), { campaign_id: id() })), {
      message: p100(`Param campaign_id must be the id of a campaign of ad account act_${accounts.us.id}`),
    });
  });

  it.each([
    ['targeting.age_min below 13', { age_min: 12 }, 'Param targeting.age_min must be an integer from 13 to 65'],
    ['targeting.age_max as text', { age_max: 'old' }, 'Param targeting.age_max must be an integer from 13 to 65'],
    ['targeting.age_max below age_min', { age_min: 40, age_max: 30 }, 'Param targeting.age_max must not be below targeting.age_min'],
    ['targeting.publisher_platforms not a list', { publisher_platforms: 'facebook' }, 'Param targeting.publisher_platforms must be an array'],
    ['targeting.locales not keys', { locales: ['en_US'] }, 'Param targeting.locales must be a list of locale keys (integers)'],
  ])('%s', async (_what, extra, message) => {
    await expectRefused(() => create(base(traffic(), { targeting: { geo_locations: { countries: ['US'] }, ...extra } })), { message: p100(message) });
  });
});

// --- Permissions -----------------------------------------------------------------------------------------

describe('who may create', () => {
  it.each(['admin', 'advertiser', 'siteAdmin', 'adsClient'] as const)('%s creates', async (role) => {
    const id = await created(base(campaigns.traffic!, { name: `by ${role}` }), { role });
    expect(await read(id, 'name,account_id', tokens.admin)).toEqual({ id, name: `by ${role}`, account_id: accounts.us.id });
  });

  it.each(['auditor', 'adsReadClient'] as const)('%s reads the account but may not create: 200', async (role) => {
    await expectRefused(() => create(base(campaigns.traffic!), { role }), {
      status: 403,
      code: 200,
      type: 'OAuthException',
      message: `(#200) Permissions error: you may not create ad sets in ad account act_${accounts.us.id}`,
    });
  });

  it.each(['moderator', 'member', 'outsider', 'pagesClient'] as const)('%s cannot see the account: 100/33', async (role) => {
    await expectRefused(() => create(base(campaigns.traffic!), { role }), {
      code: 100,
      subcode: 33,
      type: 'GraphMethodException',
      message: UNKNOWN_OBJECT(actOf(accounts.us), 'post'),
    });
  });

  it('checks permission before parameters', async () => {
    await expectRefused(() => create({ name: '' }, { role: 'auditor' }), { status: 403, code: 200, message: /^\(#200\) Permissions error/ });
    await expectRefused(() => create({ name: '' }, { role: 'outsider' }), { code: 100, subcode: 33, message: UNKNOWN_OBJECT(actOf(accounts.us), 'post') });
  });

  it('needs a token', async () => {
    const before = await rowCounts();
    const response = await graph.call('POST', `/v24.0/${actOf(accounts.us)}/adsets`, { json: base(campaigns.traffic!) });
    expectGraphError(response, { status: 400, code: 190, type: 'OAuthException' });
    expect(await rowCounts()).toEqual(before);
  });
});
