import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { worldBuilder } from '../helpers/world.ts';
import { fetchAccessToken } from '../helpers/oauth.ts';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.ts';
import { PAGE_CLIENT_SCOPES } from '../helpers/principals.ts';
import { databaseDigest, expectUnchanged } from '../helpers/table-hash.ts';
import { batchAnswers, expectGraphError, graphClient, UNKNOWN_OBJECT, wiredWrites, type GraphClient, type GraphHttpResponse } from '../helpers/graph.ts';
import { createClient } from '../../src/oauth/service.ts';
import type { PageRecord, PostRecord } from '../../src/comments/store.ts';

/**
 * Every write of the Graph-style API (the dispatcher's table, src/graph-api/writes.ts), over real HTTP with form
 * fields as the specification's callers send them, each checked by reading its effect back over /v24.0 with the
 * values of the specification (001, DECISIONS sections 4, 5, 6 and 8): an answer of success alone proves nothing.
 * The last test compares the writes tested here with the dispatcher's table, so a new write comes with its test.
 */

const ENV = {
  ASYNC_RUNNER: 'false',
  // The webhook receivers of these tests listen on loopback.
  WEBHOOK_ALLOW_PRIVATE: 'true',
  RATE_LIMIT_ACCOUNT_CALLS: '1000000/300',
  RATE_LIMIT_ACCOUNT_TIME_MS: '100000000/300',
  RATE_LIMIT_ACCOUNT_CPU_MS: '100000000/300',
};
const US = { geo_locations: { countries: ['US'] } };
/** A time long before any test ran, written into rows so that a write's own updated_time is told apart from it. */
const LONG_AGO = new Date('2025-01-01T00:00:00Z');
const LONG_AGO_GRAPH = '2025-01-01T00:00:00+0000';

let server: TestServer;
let graph: GraphClient;
let world: ReturnType<typeof worldBuilder>;
let organizationId: string;
let page: PageRecord;
let pageClientId: string;
const tokens = {} as Record<'advertiser' | 'moderator' | 'stranger' | 'otherStranger' | 'pageClient', string>;
const userIds = {} as Record<'advertiser' | 'stranger' | 'otherStranger', string>;

beforeAll(async () => {
  server = await startTestServer(ENV);
  graph = graphClient(server);
  world = worldBuilder(server.deps);
  organizationId = (await world.organization()).id;
  const advertiser = await world.user({ organizationId, role: 'advertiser' });
  const stranger = await world.user();
  const otherStranger = await world.user();
  Object.assign(tokens, {
    advertiser: advertiser.token,
    stranger: stranger.token,
    otherStranger: otherStranger.token,
    moderator: (await world.user({ organizationId, role: 'moderator' })).token,
  });
  Object.assign(userIds, { advertiser: advertiser.user.id, stranger: stranger.user.id, otherStranger: otherStranger.user.id });
  const { client, clientSecret } = await createClient(server.deps, { name: 'page token', scope: PAGE_CLIENT_SCOPES.pageClient, organization: organizationId });
  tokens.pageClient = await fetchAccessToken(server.url, client.clientId, clientSecret);
  pageClientId = client.id;
  page = await world.page(organizationId);
});
afterAll(() => server?.close());

// --- Calls and reads ------------------------------------------------------------------------------------

type Who = keyof typeof tokens;

const post = (path: string, form: Record<string, unknown>, who: Who = 'advertiser') => graph.call('POST', `/v24.0/${path}`, { token: tokens[who], form });
const remove = (path: string, who: Who = 'advertiser') => graph.call('DELETE', `/v24.0/${path}`, { token: tokens[who] });

/** The body of a call that must have succeeded. */
async function ok(call: Promise<GraphHttpResponse>): Promise<any> {
  const response = await call;
  expect(response.status, response.text).toBe(200);
  return response.body;
}

const read = (id: string, fields: string, who: Who = 'advertiser', query: Record<string, unknown> = {}) => ok(graph.get(id, tokens[who], { fields, ...query }));

/** The ids on an edge (effective_status, when given, as the platform's filter). */
async function edgeIds(path: string, who: Who = 'advertiser', query: Record<string, unknown> = {}): Promise<string[]> {
  return ((await ok(graph.get(path, tokens[who], { limit: 100, ...query }))).data as Array<{ id: string }>).map((item) => item.id);
}

/** An account of its own for a test, so its edges hold exactly what the test wrote. */
async function scene(options: { adSets?: number; ads?: number } = {}) {
  const account = await world.adAccount(organizationId);
  const [campaign] = await world.campaigns(account, 1, { name: 'Traffic', dailyBudget: null });
  const adSets = options.adSets
    ? await world.adSets(campaign!, options.adSets, () => ({ billingEvent: 'IMPRESSIONS', optimizationGoal: 'LINK_CLICKS', dailyBudget: '5000' }))
    : [];
  const ads = adSets[0] && options.ads ? await world.ads(adSets[0], options.ads) : [];
  return { account, act: `act_${account.id}`, campaign: campaign!, adSets, ads };
}

/** Sets a row's times far in the past, so the write under test must be what changes updated_time. */
async function backdate(table: string, id: string): Promise<void> {
  await server.deps.db(table).where({ id }).update({ created_time: LONG_AGO, updated_time: LONG_AGO });
}

/** updated_time as the write set it: after LONG_AGO, no earlier than the second the write was sent in. */
function expectWrittenAt(read: { created_time: string; updated_time: string }, sentAt: number): void {
  expect(read.created_time).toBe(LONG_AGO_GRAPH);
  expect(Date.parse(read.updated_time.replace('+0000', 'Z'))).toBeGreaterThanOrEqual(Math.floor(sentAt / 1000) * 1000);
}

/** Each write key ("POST /<Campaign>", "POST /<AdAccount>/campaigns", ...) tested below, to compare with WRITES. */
const tested = new Set<string>();
function writeTest(key: string, title: string, body: () => Promise<void>): void {
  tested.add(key);
  it(`${key}: ${title}`, body);
}

// --- Ad objects -----------------------------------------------------------------------------------------

describe('campaigns', () => {
  writeTest('POST /<AdAccount>/campaigns', "answers {id}; the campaign reads back with every parameter and is on the account's edge", async () => {
    const { act, account, campaign: existing } = await scene();
    const created = await ok(
      post(`${act}/campaigns`, {
        name: 'Spring sale',
        objective: 'OUTCOME_SALES',
        status: 'PAUSED',
        special_ad_categories: ['HOUSING'],
        bid_strategy: 'COST_CAP',
        daily_budget: 2500,
        start_time: '2026-03-01T00:00:00+0000',
        stop_time: '2026-03-31T00:00:00+0000',
      }),
    );
    expect(created).toEqual({ id: expect.stringMatching(/^\d+$/) });
    expect(
      await read(
        created.id,
        'name,objective,status,configured_status,effective_status,special_ad_categories,bid_strategy,buying_type,daily_budget,lifetime_budget,start_time,stop_time,account_id',
      ),
    ).toEqual({
      id: created.id,
      name: 'Spring sale',
      objective: 'OUTCOME_SALES',
      status: 'PAUSED',
      configured_status: 'PAUSED',
      effective_status: 'PAUSED',
      special_ad_categories: ['HOUSING'],
      bid_strategy: 'COST_CAP',
      buying_type: 'AUCTION',
      daily_budget: '2500',
      start_time: '2026-03-01T00:00:00+0000',
      stop_time: '2026-03-31T00:00:00+0000',
      account_id: account.id,
    });
    expect(await edgeIds(`${act}/campaigns`)).toEqual([existing.id, created.id]);
  });

  writeTest('POST /<Campaign>', "answers {success: true}; what was sent reads back at once, the rest as it was, updated_time the write's", async () => {
    const { campaign } = await scene();
    await server.deps
      .db('campaigns')
      .where({ id: campaign.id })
      .update({ daily_budget: 1000, start_time: new Date('2026-04-01T00:00:00Z') });
    await backdate('campaigns', campaign.id);
    const sentAt = Date.now();
    expect(
      await ok(
        post(campaign.id, {
          name: 'Renamed',
          status: 'PAUSED',
          bid_strategy: 'LOWEST_COST_WITH_BID_CAP',
          daily_budget: 1500,
          stop_time: '2026-05-01T00:00:00+0000',
          special_ad_categories: ['EMPLOYMENT'],
        }),
      ),
    ).toEqual({ success: true });
    const after = await read(
      campaign.id,
      'name,objective,status,bid_strategy,daily_budget,start_time,stop_time,special_ad_categories,created_time,updated_time',
    );
    expect(after).toEqual({
      id: campaign.id,
      name: 'Renamed',
      objective: 'OUTCOME_TRAFFIC',
      status: 'PAUSED',
      bid_strategy: 'LOWEST_COST_WITH_BID_CAP',
      daily_budget: '1500',
      start_time: '2026-04-01T00:00:00+0000',
      stop_time: '2026-05-01T00:00:00+0000',
      special_ad_categories: ['EMPLOYMENT'],
      created_time: LONG_AGO_GRAPH,
      updated_time: expect.any(String),
    });
    expectWrittenAt(after, sentAt);
  });

  writeTest('DELETE /<Campaign>', 'answers {success: true}; the campaign, its ad sets and ads read DELETED by id and leave the edges', async () => {
    const { act, campaign, adSets, ads } = await scene({ adSets: 1, ads: 2 });
    expect(await ok(remove(campaign.id))).toEqual({ success: true });
    expect(await read(campaign.id, 'status,effective_status')).toEqual({ id: campaign.id, status: 'DELETED', effective_status: 'DELETED' });
    expect(await read(adSets[0]!.id, 'status')).toEqual({ id: adSets[0]!.id, status: 'DELETED' });
    for (const ad of ads) expect(await read(ad.id, 'status')).toEqual({ id: ad.id, status: 'DELETED' });
    expect(await edgeIds(`${act}/campaigns`)).toEqual([]);
    expect(await edgeIds(`${act}/campaigns`, 'advertiser', { effective_status: '["DELETED"]' })).toEqual([campaign.id]);
    expect(await edgeIds(`${act}/adsets`)).toEqual([]);
    expect(await edgeIds(`${act}/ads`)).toEqual([]);
  });
});

describe('ad sets', () => {
  writeTest('POST /<AdAccount>/adsets', "answers {id, success: true}; the ad set reads back with what was sent and is on its campaign's edge", async () => {
    const { act, account, campaign } = await scene();
    const created = await ok(
      post(`${act}/adsets`, {
        name: 'Evening shoppers',
        campaign_id: campaign.id,
        status: 'PAUSED',
        billing_event: 'IMPRESSIONS',
        optimization_goal: 'LINK_CLICKS',
        daily_budget: 20000,
        targeting: US,
      }),
    );
    expect(created).toEqual({ id: expect.stringMatching(/^\d+$/), success: true });
    // pacing_type was not sent: standard, the specification's default.
    expect(
      await read(created.id, 'name,campaign_id,account_id,status,effective_status,billing_event,optimization_goal,daily_budget,targeting,pacing_type'),
    ).toEqual({
      id: created.id,
      pacing_type: ['standard'],
      name: 'Evening shoppers',
      campaign_id: campaign.id,
      account_id: account.id,
      status: 'PAUSED',
      effective_status: 'PAUSED',
      billing_event: 'IMPRESSIONS',
      optimization_goal: 'LINK_CLICKS',
      daily_budget: '20000',
      targeting: US,
    });
    expect(await edgeIds(`${campaign.id}/adsets`)).toEqual([created.id]);
  });

  writeTest('POST /<AdSet>', "answers {success: true}; what was sent reads back at once, updated_time the write's", async () => {
    const {
      adSets: [adSet],
    } = await scene({ adSets: 1 });
    await backdate('ad_sets', adSet!.id);
    const sentAt = Date.now();
    expect(await ok(post(adSet!.id, { name: 'Renamed set', daily_budget: 30000, status: 'PAUSED' }))).toEqual({ success: true });
    const after = await read(adSet!.id, 'name,daily_budget,status,billing_event,created_time,updated_time');
    expect(after).toEqual({
      id: adSet!.id,
      name: 'Renamed set',
      daily_budget: '30000',
      status: 'PAUSED',
      billing_event: 'IMPRESSIONS',
      created_time: LONG_AGO_GRAPH,
      updated_time: expect.any(String),
    });
    expectWrittenAt(after, sentAt);
  });

  writeTest('DELETE /<AdSet>', 'answers {success: true}; the ad set and its ads read DELETED by id and leave the edges', async () => {
    const {
      campaign,
      adSets: [adSet],
      ads,
    } = await scene({ adSets: 1, ads: 2 });
    expect(await ok(remove(adSet!.id))).toEqual({ success: true });
    expect(await read(adSet!.id, 'status,effective_status')).toEqual({ id: adSet!.id, status: 'DELETED', effective_status: 'DELETED' });
    for (const ad of ads) expect(await read(ad.id, 'status')).toEqual({ id: ad.id, status: 'DELETED' });
    expect(await edgeIds(`${campaign.id}/adsets`)).toEqual([]);
    expect(await edgeIds(`${campaign.id}/adsets`, 'advertiser', { effective_status: '["DELETED"]' })).toEqual([adSet!.id]);
    expect(await edgeIds(`${adSet!.id}/ads`)).toEqual([]);
  });

  writeTest('POST /<AdSet>/copies', 'a deep copy answers the copied ids; the copy is "<name> - Copy", PAUSED, with copies of the ads', async () => {
    const {
      campaign,
      adSets: [source],
      ads,
    } = await scene({ adSets: 1, ads: 2 });
    const answer = await ok(post(`${source!.id}/copies`, { deep_copy: true }));
    const copiedAds = await ok(graph.get(`${answer.copied_adset_id}/ads`, tokens.advertiser, { fields: 'name,status,creative' }));
    expect(copiedAds.data).toEqual(
      ads.map((ad, i) => ({ id: expect.stringMatching(/^\d+$/), name: `Ad ${i + 1}`, status: 'PAUSED', creative: { id: ad.creativeId } })),
    );
    expect(answer).toEqual({
      copied_adset_id: expect.stringMatching(/^\d+$/),
      ad_object_ids: [
        { ad_object_type: 'ad_set', source_id: source!.id, copied_id: answer.copied_adset_id },
        ...ads.map((ad, i) => ({ ad_object_type: 'ad', source_id: ad.id, copied_id: copiedAds.data[i].id })),
      ],
    });
    expect(await read(answer.copied_adset_id, 'name,status,campaign_id,source_adset_id,daily_budget')).toEqual({
      id: answer.copied_adset_id,
      name: `${source!.name} - Copy`,
      status: 'PAUSED',
      campaign_id: campaign.id,
      source_adset_id: source!.id,
      daily_budget: '5000',
    });
    expect(await edgeIds(`${source!.id}/copies`)).toEqual([answer.copied_adset_id]);
  });

  writeTest('POST /<AdAccount>/ad_studies', 'answers {id}; the study reads back with its cells, on the ad sets it tests', async () => {
    const { act, adSets } = await scene({ adSets: 2 });
    const now = Math.floor(Date.now() / 1000);
    const created = await ok(
      post(`${act}/ad_studies`, {
        name: 'Split',
        start_time: now,
        end_time: now + 14 * 86_400,
        cells: [
          { name: 'First', treatment_percentage: 25, adsets: [adSets[0]!.id] },
          { name: 'Second', treatment_percentage: 75, adsets: [adSets[1]!.id] },
        ],
      }),
    );
    expect(created).toEqual({ id: expect.stringMatching(/^\d+$/) });
    expect(await read(created.id, 'name,type')).toEqual({ id: created.id, name: 'Split', type: 'SPLIT_TEST' });
    const cells = await ok(graph.get(`${created.id}/cells`, tokens.advertiser, { fields: 'name,treatment_percentage' }));
    expect(cells.data.map((cell: { name: string; treatment_percentage: number }) => [cell.name, cell.treatment_percentage])).toEqual([
      ['First', 25],
      ['Second', 75],
    ]);
    expect(await edgeIds(`${adSets[1]!.id}/ad_studies`)).toEqual([created.id]);
  });

  writeTest('POST /<AdAccount>/async_batch_requests', 'answers {id}; the request set and its one request read back, waiting for the runner', async () => {
    const {
      act,
      adSets: [adSet],
    } = await scene({ adSets: 1 });
    const created = await ok(
      post(`${act}/async_batch_requests`, {
        name: 'Nightly copies',
        adbatch: [{ name: 'copy one', relative_url: `${adSet!.id}/copies`, body: 'deep_copy=true' }],
      }),
    );
    expect(created).toEqual({ id: expect.stringMatching(/^\d+$/) });
    expect(await read(created.id, 'name,owner_id,total_count,initial_count,in_progress_count,success_count,error_count,canceled_count,is_completed')).toEqual({
      id: created.id,
      name: 'Nightly copies',
      owner_id: userIds.advertiser,
      total_count: 1,
      initial_count: 1,
      in_progress_count: 0,
      success_count: 0,
      error_count: 0,
      canceled_count: 0,
      is_completed: false,
    });
    const requests = await ok(graph.get(`${created.id}/requests`, tokens.advertiser, { fields: 'name,status,scope_object_id,input' }));
    expect(requests.data).toEqual([
      { id: expect.stringMatching(/^\d+$/), name: 'copy one', status: 'INITIAL', scope_object_id: adSet!.id, input: { relative_url: `${adSet!.id}/copies` } },
    ]);
    expect(await edgeIds(`${adSet!.id}/asyncadrequests`)).toEqual([requests.data[0].id]);
    expect(await edgeIds(`${act}/asyncadrequestsets`)).toEqual([created.id]);
  });
});

describe('ads', () => {
  writeTest('POST /<AdAccount>/ads', 'answers {id}; the ad reads back in its ad set and campaign, with its creative', async () => {
    const {
      act,
      account,
      campaign,
      adSets: [adSet],
    } = await scene({ adSets: 1 });
    const created = await ok(post(`${act}/ads`, { name: 'Hello', adset_id: adSet!.id, status: 'PAUSED', creative: { title: 'Hello', body: 'Hi' } }));
    expect(created).toEqual({ id: expect.stringMatching(/^\d+$/) });
    // The inline creative became an object of the account: the ad reads it as a reference, or nested.
    expect(await read(created.id, 'name,status,effective_status,creative{title,body,account_id},adset_id,campaign_id,account_id')).toEqual({
      id: created.id,
      name: 'Hello',
      status: 'PAUSED',
      effective_status: 'PAUSED',
      creative: { id: expect.stringMatching(/^\d+$/), title: 'Hello', body: 'Hi', account_id: account.id },
      adset_id: adSet!.id,
      campaign_id: campaign.id,
      account_id: account.id,
    });
    expect(await edgeIds(`${adSet!.id}/ads`)).toEqual([created.id]);
    expect(await edgeIds(`${campaign.id}/ads`)).toEqual([created.id]);
  });

  writeTest('POST /<Ad>', 'answers {success: true}; name, status and the creative (replaced whole) read back at once', async () => {
    const {
      ads: [ad],
    } = await scene({ adSets: 1, ads: 1 });
    await backdate('ads', ad!.id);
    const sentAt = Date.now();
    const [other] = await world.creatives(ad!, 1);
    expect(await ok(post(ad!.id, { name: 'Better', status: 'PAUSED', creative: { creative_id: other!.id } }))).toEqual({ success: true });
    const after = await read(ad!.id, 'name,status,creative,created_time,updated_time');
    expect(after).toEqual({
      id: ad!.id,
      name: 'Better',
      status: 'PAUSED',
      creative: { id: other!.id },
      created_time: LONG_AGO_GRAPH,
      updated_time: expect.any(String),
    });
    expectWrittenAt(after, sentAt);
  });

  writeTest('DELETE /<Ad>', "answers {success: true}; the ad reads DELETED by id and leaves its ad set's edge", async () => {
    const {
      adSets: [adSet],
      ads: [ad, kept],
    } = await scene({ adSets: 1, ads: 2 });
    expect(await ok(remove(ad!.id))).toEqual({ success: true });
    expect(await read(ad!.id, 'status,effective_status')).toEqual({ id: ad!.id, status: 'DELETED', effective_status: 'DELETED' });
    expect(await edgeIds(`${adSet!.id}/ads`)).toEqual([kept!.id]);
    expect(await edgeIds(`${adSet!.id}/ads`, 'advertiser', { effective_status: '["DELETED"]' })).toEqual([ad!.id]);
  });
});

describe('custom audiences and conversions', () => {
  writeTest('POST /<AdAccount>/customaudiences', 'answers {id}; an audience and a lookalike of it read back, with operation_status 200', async () => {
    const { act, account } = await scene();
    const audience = await ok(post(`${act}/customaudiences`, { name: 'Buyers', description: 'People who bought' }));
    expect(audience).toEqual({ id: expect.stringMatching(/^\d+$/) });
    const lookalike = await ok(
      post(`${act}/customaudiences`, {
        name: 'Like buyers',
        subtype: 'LOOKALIKE',
        lookalike_spec: { origin_audience_id: audience.id, ratio: 0.02, country: 'US' },
      }),
    );
    expect(lookalike).toEqual({ id: expect.stringMatching(/^\d+$/) });
    const fields = 'name,subtype,description,lookalike_spec,operation_status,account_id';
    expect(await read(audience.id, fields)).toEqual({
      id: audience.id,
      name: 'Buyers',
      subtype: 'CUSTOM',
      description: 'People who bought',
      operation_status: { code: 200, description: 'Normal' },
      account_id: account.id,
    });
    expect(await read(lookalike.id, fields)).toEqual({
      id: lookalike.id,
      name: 'Like buyers',
      subtype: 'LOOKALIKE',
      lookalike_spec: { origin_audience_id: audience.id, ratio: 0.02, country: 'US' },
      operation_status: { code: 200, description: 'Normal' },
      account_id: account.id,
    });
    expect(await edgeIds(`${act}/customaudiences`)).toEqual([audience.id, lookalike.id]);
  });

  writeTest('POST /<AdAccount>/customconversions', 'answers {id}; the conversion reads back with its rule as JSON text', async () => {
    const { act, account } = await scene();
    const created = await ok(
      post(`${act}/customconversions`, { name: 'Thanks page', rule: { url: { i_contains: 'thank-you' } }, custom_event_type: 'PURCHASE' }),
    );
    expect(created).toEqual({ id: expect.stringMatching(/^\d+$/) });
    expect(await read(created.id, 'name,rule,custom_event_type,account_id')).toEqual({
      id: created.id,
      name: 'Thanks page',
      rule: '{"url":{"i_contains":"thank-you"}}',
      custom_event_type: 'PURCHASE',
      account_id: account.id,
    });
    expect(await edgeIds(`${act}/customconversions`)).toEqual([created.id]);
  });
});

// --- Pages, posts and comments --------------------------------------------------------------------------

describe('creatives', () => {
  const STORY = (pageId: string) => ({
    page_id: pageId,
    link_data: { link: 'https://northwind.example/spring', message: 'Spring is here', call_to_action: { type: 'SHOP_NOW' } },
  });

  writeTest(
    'POST /<AdAccount>/adcreatives',
    "answers {id}; the creative reads back, is on the account's edge, and a page of another organization is refused",
    async () => {
      const { act, account } = await scene();
      const created = await ok(
        post(`${act}/adcreatives`, { name: 'Spring', object_story_spec: STORY(page.id), call_to_action_type: 'SHOP_NOW', url_tags: 'utm_source=adgraph' }),
      );
      expect(created).toEqual({ id: expect.stringMatching(/^\d+$/) });
      expect(await read(created.id, 'name,status,account_id,object_story_spec,object_id,call_to_action_type,url_tags')).toEqual({
        id: created.id,
        name: 'Spring',
        status: 'ACTIVE',
        account_id: account.id,
        object_story_spec: STORY(page.id),
        object_id: page.id,
        call_to_action_type: 'SHOP_NOW',
        url_tags: 'utm_source=adgraph',
      });
      expect(await edgeIds(`${act}/adcreatives`)).toEqual([created.id]);

      const strangers = await world.page((await world.organization()).id);
      const before = await databaseDigest(server.deps.db);
      expectGraphError(await post(`${act}/adcreatives`, { name: 'Theirs', object_story_spec: STORY(strangers.id) }), {
        status: 400,
        code: 100,
        message: new RegExp(`Page ${strangers.id} cannot be used by ad account ${act}`),
      });
      expectGraphError(await post(`${act}/adcreatives`, { object_story_spec: { page_id: page.id, link_data: { link: 'ftp://x' } } }), {
        status: 400,
        code: 100,
        message: /object_story_spec\.link_data\.link must be an http or https URL/,
      });
      expectGraphError(await post(`${act}/adcreatives`, { name: 'Empty' }), { status: 400, code: 100, message: /object_story_spec is required/ });
      await expectUnchanged(server.deps.db, before, 'refused creatives');
    },
  );

  writeTest('POST /<AdCreative>', 'renames it; its content cannot change', async () => {
    const { ads } = await scene({ adSets: 1, ads: 1 });
    const creativeId = ads[0]!.creativeId!;
    expect(await ok(post(creativeId, { name: 'Renamed' }))).toEqual({ success: true });
    expect(await read(creativeId, 'name,title')).toEqual({ id: creativeId, name: 'Renamed', title: 'Creative 1' });
    expectGraphError(await post(creativeId, { title: 'New words' }), { status: 400, code: 100, message: /Param title cannot be changed/ });
  });

  writeTest('DELETE /<AdCreative>', 'refused while a live ad uses it; then DELETED, off the lists, still read by id', async () => {
    const {
      act,
      adSets: [adSet],
      ads,
    } = await scene({ adSets: 1, ads: 1 });
    const creativeId = ads[0]!.creativeId!;
    expect(await edgeIds(`${adSet!.id}/adcreatives`)).toEqual([creativeId]);
    expect(await edgeIds(`${ads[0]!.id}/adcreatives`)).toEqual([creativeId]);
    expectGraphError(await graph.call('DELETE', `/v24.0/${creativeId}`, { token: tokens.advertiser }), {
      status: 400,
      code: 100,
      message: new RegExp(`Creative ${creativeId} cannot be deleted: 1 ad\\(s\\) that are neither archived nor deleted use it \\(${ads[0]!.id}\\)`),
    });
    await ok(post(ads[0]!.id, { status: 'ARCHIVED' }));
    expect(await ok(graph.call('DELETE', `/v24.0/${creativeId}`, { token: tokens.advertiser }))).toEqual({ success: true });
    expect(await read(creativeId, 'status')).toEqual({ id: creativeId, status: 'DELETED' });
    expect(await edgeIds(`${act}/adcreatives`)).toEqual([]);
    expect(await edgeIds(`${adSet!.id}/adcreatives`)).toEqual([]);
    // A deleted creative cannot be given to an ad.
    expectGraphError(await post(`${act}/ads`, { name: 'Late', adset_id: adSet!.id, creative: { creative_id: creativeId } }), {
      status: 400,
      code: 100,
      message: new RegExp(`Creative ${creativeId} is deleted`),
    });
  });
});

describe('read after write: fields on a POST', () => {
  it('answers the updated or created object with the fields asked for; a bad field refuses the write before it is made', async () => {
    const {
      act,
      campaign,
      adSets: [adSet],
    } = await scene({ adSets: 1 });
    expect(await ok(post(adSet!.id, { name: 'Renamed', daily_budget: 7000, fields: 'name,daily_budget,campaign{name}' }))).toEqual({
      success: true,
      id: adSet!.id,
      name: 'Renamed',
      daily_budget: '7000',
      campaign: { id: campaign.id, name: campaign.name },
    });
    const created = await ok(
      post(`${act}/campaigns`, { name: 'Fresh', objective: 'OUTCOME_TRAFFIC', special_ad_categories: [], status: 'PAUSED', fields: 'name,status,objective' }),
    );
    expect(created).toEqual({ id: expect.stringMatching(/^\d+$/), name: 'Fresh', status: 'PAUSED', objective: 'OUTCOME_TRAFFIC' });

    const post_ = await world.post(page);
    const comment = await world.comment(post_);
    const before = await databaseDigest(server.deps.db);
    expectGraphError(await post(adSet!.id, { name: 'Never', fields: 'name,colour' }), { status: 400, code: 100, message: /colour/ });
    expectGraphError(await post(`${post_.id}_${comment.id}/likes`, { fields: 'name' }), { status: 400, code: 100, message: /Param fields cannot be used/ });
    await expectUnchanged(server.deps.db, before, 'writes refused for their fields');
    expect(await read(adSet!.id, 'name')).toEqual({ id: adSet!.id, name: 'Renamed' });
    // A comment's edit reads back at once (the specification's "immediate read of all readable fields").
    const commentId = `${post_.id}_${comment.id}`;
    expect(await ok(post(commentId, { message: 'Edited at once', fields: 'message,is_hidden' }, 'pageClient'))).toEqual({
      success: true,
      id: commentId,
      message: 'Edited at once',
      is_hidden: false,
    });
  });
});

describe('permissions, as the guide says them', () => {
  it('a read without a role that reads ads answers as a missing object; a write one may read but not make answers 200', async () => {
    const {
      adSets: [adSet],
    } = await scene({ adSets: 1 });
    // The moderator belongs to the organization but reads no ads: the ad set is missing for it, as for a stranger.
    for (const who of ['moderator', 'stranger'] as const) {
      expectGraphError(await graph.get(adSet!.id, tokens[who], { fields: 'name' }), {
        status: 400,
        code: 100,
        subcode: 33,
        message: UNKNOWN_OBJECT(adSet!.id),
      });
    }
    const auditor = (await world.user({ organizationId, role: 'auditor' })).token;
    expect((await graph.get(adSet!.id, auditor, { fields: 'name' })).body).toEqual({ id: adSet!.id, name: adSet!.name });
    expectGraphError(await graph.call('POST', `/v24.0/${adSet!.id}`, { token: auditor, form: { name: 'Mine now' } }), {
      status: 403,
      code: 200,
      message: /Permissions error/,
    });
  });
});

describe('automated rules', () => {
  const PAUSE_ALL = {
    name: 'Pause all',
    evaluation_spec: { evaluation_type: 'SCHEDULE', filters: [{ field: 'entity_type', value: 'ADSET', operator: 'EQUAL' }] },
    execution_spec: { execution_type: 'PAUSE' },
    schedule_spec: { schedule_type: 'DAILY' },
  };

  writeTest('POST /<AdAccount>/adrules_library', "answers {id}; the rule reads back as written and is on the account's library", async () => {
    const { act, account } = await scene();
    const created = await ok(post(`${act}/adrules_library`, PAUSE_ALL));
    expect(created).toEqual({ id: expect.stringMatching(/^\d+$/) });
    expect(await read(created.id, 'name,status,account_id,evaluation_spec,execution_spec,schedule_spec')).toEqual({
      id: created.id,
      ...PAUSE_ALL,
      status: 'ENABLED',
      account_id: account.id,
    });
    expect(await edgeIds(`${act}/adrules_library`)).toEqual([created.id]);
  });

  writeTest('POST /<AdRule>', 'changes name, status and specs, checked whole', async () => {
    const { act } = await scene();
    const { id } = await ok(post(`${act}/adrules_library`, PAUSE_ALL));
    expect(await ok(post(id, { name: 'Unpause all', status: 'DISABLED', execution_spec: { execution_type: 'UNPAUSE' } }))).toEqual({ success: true });
    expect(await read(id, 'name,status,execution_spec')).toEqual({
      id,
      name: 'Unpause all',
      status: 'DISABLED',
      execution_spec: { execution_type: 'UNPAUSE' },
    });
    expectGraphError(await post(id, { schedule_spec: { schedule_type: 'WEEKLY' } }), { status: 400, code: 100, message: /schedule_spec\.schedule_type/ });
  });

  writeTest('DELETE /<AdRule>', 'DELETED: off the library, still read by id', async () => {
    const { act } = await scene();
    const { id } = await ok(post(`${act}/adrules_library`, PAUSE_ALL));
    expect(await ok(graph.call('DELETE', `/v24.0/${id}`, { token: tokens.advertiser }))).toEqual({ success: true });
    expect(await read(id, 'status')).toEqual({ id, status: 'DELETED' });
    expect(await edgeIds(`${act}/adrules_library`)).toEqual([]);
  });

  writeTest('POST /<AdRule>/execute', 'dry_run answers what it would do and changes nothing; without it, a run is queued', async () => {
    const {
      act,
      adSets: [adSet],
    } = await scene({ adSets: 1 });
    const { id } = await ok(post(`${act}/adrules_library`, PAUSE_ALL));
    expect(await ok(post(`${id}/execute`, { dry_run: true }))).toEqual({
      success: true,
      results: [{ object_id: adSet!.id, object_type: 'ADSET', actions: [{ action: 'PAUSED', field: 'status', old_value: 'ACTIVE', new_value: 'PAUSED' }] }],
    });
    expect(await read(adSet!.id, 'status')).toEqual({ id: adSet!.id, status: 'ACTIVE' });
    // Queued for the background runner (off in this file: test/ads/ad-rules.test.ts runs them); the history lists finished runs only.
    expect(await ok(post(`${id}/execute`, {}))).toEqual({ success: true });
    expect(await server.deps.db('ad_rule_runs').where({ rule_id: id }).select('status', 'is_manual')).toEqual([
      { status: 'PENDING', is_manual: expect.anything() },
    ]);
    expect((await ok(graph.get(`${id}/history`, tokens.advertiser))).data).toEqual([]);
  });
});

describe('page feed', () => {
  const POST_FIELDS = 'kind,message,attachment,title,rating,event_start_time,from,page';

  writeTest('POST /<Page>/feed', "the page's token posts as the page; a person's post is a visitor post; each reads back and is on the feed", async () => {
    const ownPage = await world.page(organizationId);
    const byPage = await ok(post(`${ownPage.id}/feed`, { message: 'Open on Sunday' }, 'pageClient'));
    const byVisitor = await ok(post(`${ownPage.id}/feed`, { message: 'Were you open on Sunday?' }, 'stranger'));
    for (const created of [byPage, byVisitor]) expect(created).toEqual({ id: expect.stringMatching(/^\d+$/) });
    expect(await read(byPage.id, POST_FIELDS)).toEqual({
      id: byPage.id,
      kind: 'page_post',
      message: 'Open on Sunday',
      from: { id: ownPage.id, name: ownPage.name },
      page: { id: ownPage.id },
    });
    // A person as the author is user information: the page reads it, a reader who is not the page does not.
    expect(await read(byVisitor.id, POST_FIELDS, 'pageClient')).toEqual({
      id: byVisitor.id,
      kind: 'visitor_post',
      message: 'Were you open on Sunday?',
      from: { id: userIds.stranger, name: expect.any(String) },
      page: { id: ownPage.id },
    });
    expect(await read(byVisitor.id, 'from', 'advertiser')).toEqual({ id: byVisitor.id });
    expect((await edgeIds(`${ownPage.id}/feed`)).sort()).toEqual([byPage.id, byVisitor.id].sort());
  });

  writeTest('POST /<Page>/feed', 'kind photo, video, event and review: each reads back as that kind with what it carries', async () => {
    const ownPage = await world.page(organizationId);
    const photo = await ok(post(`${ownPage.id}/feed`, { kind: 'photo', link: 'https://cdn.example/terrace.jpg', message: 'The terrace' }, 'pageClient'));
    const video = await ok(post(`${ownPage.id}/feed`, { kind: 'video', link: 'https://cdn.example/tour.mp4' }, 'pageClient'));
    const event = await ok(post(`${ownPage.id}/feed`, { kind: 'event', title: 'Tasting night', start_time: '2026-06-01T18:00:00+0000' }, 'pageClient'));
    const review = await ok(post(`${ownPage.id}/feed`, { kind: 'review', rating: 5, message: 'Lovely' }, 'stranger'));
    expect(await read(photo.id, POST_FIELDS)).toEqual({
      id: photo.id,
      kind: 'photo',
      message: 'The terrace',
      attachment: { url: 'https://cdn.example/terrace.jpg' },
      from: { id: ownPage.id, name: ownPage.name },
      page: { id: ownPage.id },
    });
    expect(await read(video.id, POST_FIELDS)).toEqual({
      id: video.id,
      kind: 'video',
      attachment: { url: 'https://cdn.example/tour.mp4' },
      from: { id: ownPage.id, name: ownPage.name },
      page: { id: ownPage.id },
    });
    expect(await read(event.id, POST_FIELDS)).toEqual({
      id: event.id,
      kind: 'event',
      title: 'Tasting night',
      event_start_time: '2026-06-01T18:00:00+0000',
      from: { id: ownPage.id, name: ownPage.name },
      page: { id: ownPage.id },
    });
    expect(await read(review.id, POST_FIELDS, 'pageClient')).toEqual({
      id: review.id,
      kind: 'review',
      message: 'Lovely',
      rating: 5,
      from: { id: userIds.stranger, name: expect.any(String) },
      page: { id: ownPage.id },
    });
    expect((await edgeIds(`${ownPage.id}/feed`)).sort()).toEqual([photo.id, video.id, event.id, review.id].sort());
  });
});

describe('comments', () => {
  let pagePost: PostRecord;
  beforeAll(async () => {
    pagePost = await world.post(page);
  });

  /** A person's comment on the page's post, made over /v24.0. */
  async function commentBy(who: Who, message = 'First!', on = pagePost.id): Promise<string> {
    return (await ok(post(`${on}/comments`, { message }, who))).id as string;
  }

  writeTest('POST /<Post>/comments', "answers {id} as <post id>_<comment id>; the comment reads back and is on the post's edge", async () => {
    const target = await world.post(page);
    const created = await ok(post(`${target.id}/comments`, { message: `Hello @[${page.id}]` }, 'stranger'));
    expect(created).toEqual({ id: expect.stringMatching(new RegExp(`^${target.id}_\\d+$`)) });
    expect(await read(created.id, 'message,message_tags,from,parent,object', 'pageClient')).toEqual({
      id: created.id,
      message: `Hello ${page.name}`,
      from: { id: userIds.stranger, name: expect.any(String) },
      message_tags: [{ id: page.id, name: page.name, type: 'page', offset: 6, length: [...page.name].length }],
    });
    expect(await edgeIds(`${target.id}/comments`, 'otherStranger')).toEqual([created.id]);
  });

  writeTest('POST /<Comment>/comments', "a reply answers {id}; it reads back with its parent and is on the comment's edge", async () => {
    const parent = await commentBy('stranger');
    const reply = await ok(post(`${parent}/comments`, { message: 'Thanks for coming' }, 'pageClient'));
    expect(reply).toEqual({ id: expect.stringMatching(new RegExp(`^${pagePost.id}_\\d+$`)) });
    expect(await read(reply.id, 'message,from,parent', 'pageClient')).toEqual({
      id: reply.id,
      message: 'Thanks for coming',
      from: { id: page.id, name: page.name },
      parent: { id: parent },
    });
    expect(await edgeIds(`${parent}/comments`, 'otherStranger')).toEqual([reply.id]);
    expect(await read(parent, 'comment_count', 'otherStranger')).toEqual({ id: parent, comment_count: 1 });
  });

  writeTest('POST /<Comment>', 'an edit answers {success: true}; the new content replaces the old at once', async () => {
    const id = (await ok(post(`${pagePost.id}/comments`, { message: 'Frist', attachment_url: 'https://cdn.example/a.png' }, 'stranger'))).id as string;
    expect(await ok(post(id, { message: 'First, corrected' }, 'stranger'))).toEqual({ success: true });
    // What is not sent again is removed (update rule 3): the attachment is gone.
    expect(await read(id, 'message,attachment', 'stranger')).toEqual({ id, message: 'First, corrected' });
  });

  writeTest('POST /<Comment>', "is_hidden answers {success: true}; the comment reads hidden to the page and leaves everyone else's edge", async () => {
    const id = await commentBy('stranger', 'Buy cheap watches');
    expect(await ok(post(id, { is_hidden: true }, 'moderator'))).toEqual({ success: true });
    expect(await read(id, 'is_hidden', 'moderator')).toEqual({ id, is_hidden: true });
    expect(await edgeIds(`${pagePost.id}/comments`, 'otherStranger')).not.toContain(id);
    expect(await ok(post(id, { is_hidden: false }, 'moderator'))).toEqual({ success: true });
    expect(await read(id, 'is_hidden', 'moderator')).toEqual({ id, is_hidden: false });
    expect(await edgeIds(`${pagePost.id}/comments`, 'otherStranger')).toContain(id);
  });

  writeTest('DELETE /<Comment>', 'answers {success: true}; the comment and its replies no longer exist for anyone', async () => {
    const id = await commentBy('stranger', 'Oops');
    const reply = (await ok(post(`${id}/comments`, { message: 'No worries' }, 'pageClient'))).id as string;
    expect(await ok(remove(id, 'stranger'))).toEqual({ success: true });
    for (const gone of [id, reply]) {
      expectGraphError(await graph.get(gone, tokens.pageClient, { fields: 'message' }), {
        status: 400,
        code: 100,
        subcode: 33,
        type: 'GraphMethodException',
        message: UNKNOWN_OBJECT(gone),
      });
    }
    expect(await edgeIds(`${pagePost.id}/comments`, 'pageClient', { filter: 'stream' })).not.toContain(id);
    expect(
      await server.deps.db('comments').whereIn(
        'id',
        [id, reply].map((external) => external.split('_')[1]!),
      ),
    ).toEqual([]);
  });

  writeTest('POST /<Comment>/likes', 'answers {success: true}; like_count, user_likes and the likes edge follow', async () => {
    const id = await commentBy('stranger', 'Like me');
    expect(await ok(post(`${id}/likes`, {}, 'otherStranger'))).toEqual({ success: true });
    expect(await read(id, 'like_count,user_likes', 'otherStranger')).toEqual({ id, like_count: 1, user_likes: true });
    expect(await read(id, 'like_count,user_likes', 'stranger')).toEqual({ id, like_count: 1, user_likes: false });
    expect(await ok(post(`${id}/likes`, {}, 'pageClient'))).toEqual({ success: true });
    const likes = await ok(graph.get(`${id}/likes`, tokens.pageClient, { fields: 'id' }));
    expect(likes.data.map((like: { id: string }) => like.id).sort()).toEqual([page.id, userIds.otherStranger].sort());
  });

  writeTest('DELETE /<Comment>/likes', 'answers {success: true}; the like is gone from the count, user_likes and the edge', async () => {
    const id = await commentBy('stranger', 'Unlike me');
    await ok(post(`${id}/likes`, {}, 'otherStranger'));
    expect(await ok(remove(`${id}/likes`, 'otherStranger'))).toEqual({ success: true });
    expect(await read(id, 'like_count,user_likes', 'otherStranger')).toEqual({ id, like_count: 0, user_likes: false });
    expect((await ok(graph.get(`${id}/likes`, tokens.otherStranger))).data).toEqual([]);
  });

  writeTest('POST /<Comment>/reactions', 'answers {success: true}; the reaction reads on the reactions edge, a LIKE among the likes', async () => {
    const id = await commentBy('stranger', 'React to me');
    expect(await ok(post(`${id}/reactions`, { type: 'WOW' }, 'otherStranger'))).toEqual({ success: true });
    expect(await ok(post(`${id}/reactions`, { type: 'LIKE' }, 'pageClient'))).toEqual({ success: true });
    const reactions = await ok(graph.get(`${id}/reactions`, tokens.pageClient, { fields: 'id,type' }));
    expect(reactions.data.map((r: { id: string; type: string }) => `${r.id}:${r.type}`).sort()).toEqual(
      [`${page.id}:LIKE`, `${userIds.otherStranger}:WOW`].sort(),
    );
    expect(await read(id, 'like_count', 'stranger')).toEqual({ id, like_count: 1 });
  });

  writeTest('POST /<Post>/reactions', "answers {success: true}; the reaction reads on the post's reactions edge", async () => {
    expect(await ok(post(`${pagePost.id}/reactions`, { type: 'HAHA' }, 'stranger'))).toEqual({ success: true });
    const reactions = await ok(graph.get(`${pagePost.id}/reactions`, tokens.stranger, { fields: 'id,type', type: 'HAHA' }));
    expect(reactions.data).toEqual([{ id: userIds.stranger, type: 'HAHA' }]);
  });

  writeTest('DELETE /<Post>/reactions', 'answers {success: true}; the reaction is gone', async () => {
    await ok(post(`${pagePost.id}/reactions`, { type: 'SAD' }, 'otherStranger'));
    expect(await ok(remove(`${pagePost.id}/reactions`, 'otherStranger'))).toEqual({ success: true });
    const reactions = await ok(graph.get(`${pagePost.id}/reactions`, tokens.otherStranger, { fields: 'id' }));
    expect(reactions.data.map((r: { id: string }) => r.id)).not.toContain(userIds.otherStranger);
  });

  writeTest('POST /<Comment>/private_replies', "answers {id, user_id}: the page's one private message to a person's comment", async () => {
    const id = await commentBy('stranger', 'Is it in stock?');
    expect(await ok(post(`${id}/private_replies`, { message: 'Yes: see your inbox' }, 'pageClient'))).toEqual({
      id: expect.stringMatching(/^m_/),
      user_id: userIds.stranger,
    });
    expect((await read(id, 'private_reply_conversation', 'stranger')).private_reply_conversation).toMatchObject({ message: 'Yes: see your inbox' });
  });

  writeTest('DELETE /<Comment>/reactions', 'answers {success: true}; the reaction is gone', async () => {
    const id = await commentBy('stranger', 'Unreact');
    await ok(post(`${id}/reactions`, { type: 'ANGRY' }, 'otherStranger'));
    expect(await ok(remove(`${id}/reactions`, 'otherStranger'))).toEqual({ success: true });
    expect((await ok(graph.get(`${id}/reactions`, tokens.otherStranger))).data).toEqual([]);
  });
});

// --- Writes in a batch, and the list of writes ----------------------------------------------------------

describe('writes in a batch', () => {
  it('creates, updates and deletes in one batch, each item answered like its own call and read back', async () => {
    const { act, account, campaign } = await scene();
    const [doomed] = await world.campaigns(account, 1, { name: 'Doomed' });
    const answers = batchAnswers(
      await graph.batch({
        access_token: tokens.advertiser,
        batch: [
          {
            method: 'POST',
            relative_url: `${act}/campaigns`,
            body: 'name=From%20a%20batch&objective=OUTCOME_LEADS&special_ad_categories=%5B%5D&status=PAUSED',
          },
          { method: 'POST', relative_url: campaign.id, body: 'name=Renamed%20in%20a%20batch' },
          { method: 'DELETE', relative_url: doomed!.id },
        ],
      }),
    );
    expect(answers.map((answer) => [answer.code, answer.parsed])).toEqual([
      [200, { id: expect.stringMatching(/^\d+$/) }],
      [200, { success: true }],
      [200, { success: true }],
    ]);
    const createdId = answers[0]!.parsed.id as string;
    expect(await read(createdId, 'name,objective,status')).toEqual({ id: createdId, name: 'From a batch', objective: 'OUTCOME_LEADS', status: 'PAUSED' });
    expect(await read(campaign.id, 'name')).toEqual({ id: campaign.id, name: 'Renamed in a batch' });
    expect(await read(doomed!.id, 'status')).toEqual({ id: doomed!.id, status: 'DELETED' });
    expect((await edgeIds(`${act}/campaigns`)).sort()).toEqual([campaign.id, createdId].sort());
  });
});

describe('asynchronous insights reports', () => {
  // The rest (the run completing, its rows, failures, expiry, visibility) is test/insights/report-runs.test.ts.
  const targets: Array<[string, (s: Awaited<ReturnType<typeof scene>>) => string]> = [
    ['AdAccount', (s) => s.act],
    ['Campaign', (s) => s.campaign.id],
    ['AdSet', (s) => s.adSets[0]!.id],
    ['Ad', (s) => s.ads[0]!.id],
  ];
  for (const [node, objectOf] of targets) {
    writeTest(`POST /<${node}>/insights`, "answers {report_run_id} at once; the run reads back as an AdReportRun of the object's account", async () => {
      const s = await scene({ adSets: 1, ads: 1 });
      const answer = await ok(post(`${objectOf(s)}/insights`, { fields: 'impressions,spend', date_preset: 'last_7d' }));
      expect(answer).toEqual({ report_run_id: expect.stringMatching(/^\d+$/) });
      const run = await ok(graph.get(answer.report_run_id, tokens.advertiser, { fields: 'account_id,async_status' }));
      expect(run).toEqual({
        id: answer.report_run_id,
        account_id: s.account.id,
        async_status: expect.stringMatching(/^Job (Not Started|Started|Running|Completed)$/),
      });
    });
  }
});

describe('webhooks', () => {
  let receiver: Receiver;
  beforeAll(async () => {
    receiver = await startReceiver();
  });
  afterAll(() => receiver?.close());
  const subscribe = () =>
    post(`${pageClientId}/subscriptions`, { object: 'page', callback_url: receiver.url, fields: 'feed', verify_token: 'hub-token' }, 'pageClient');

  writeTest(
    'POST /<Application>/subscriptions',
    'answers {success, signing_secret} once the callback answered its challenge; a second POST changes it',
    async () => {
      expect(await ok(subscribe())).toEqual({ success: true, signing_secret: expect.any(String) });
      expect(receiver.challenges.at(-1)!.get('hub.mode')).toBe('subscribe');
      expect(await ok(subscribe())).toEqual({ success: true });
      expect((await ok(graph.get(`${pageClientId}/subscriptions`, tokens.pageClient))).data).toEqual([
        { id: expect.any(String), object: 'page', callback_url: receiver.url, active: true, fields: [{ name: 'feed', version: 'v24.0' }] },
      ]);
    },
  );

  writeTest('DELETE /<Application>/subscriptions', 'answers {success: true}; the subscription is gone', async () => {
    await ok(subscribe());
    expect(await ok(graph.call('DELETE', `/v24.0/${pageClientId}/subscriptions`, { token: tokens.pageClient, query: { object: 'page' } }))).toEqual({
      success: true,
    });
    expect((await ok(graph.get(`${pageClientId}/subscriptions`, tokens.pageClient))).data).toEqual([]);
  });

  writeTest('POST /<Page>/subscribed_apps', "answers {success: true}; the app is on the page's subscribed_apps with its fields", async () => {
    expect(await ok(post(`${page.id}/subscribed_apps`, { subscribed_fields: 'feed' }, 'pageClient'))).toEqual({ success: true });
    expect((await ok(graph.get(`${page.id}/subscribed_apps`, tokens.pageClient))).data).toEqual([
      { id: pageClientId, name: 'page token', subscribed_fields: ['feed'] },
    ]);
    // A person's session is not an app: refused.
    expect((await post(`${page.id}/subscribed_apps`, { subscribed_fields: 'feed' }, 'moderator')).status).toBe(403);
  });

  writeTest('DELETE /<Page>/subscribed_apps', "answers {success: true}; the app leaves the page's subscribed_apps", async () => {
    await ok(post(`${page.id}/subscribed_apps`, { subscribed_fields: 'feed' }, 'pageClient'));
    expect(await ok(remove(`${page.id}/subscribed_apps`, 'pageClient'))).toEqual({ success: true });
    expect((await ok(graph.get(`${page.id}/subscribed_apps`, tokens.pageClient))).data).toEqual([]);
  });
});

describe('the list of writes', () => {
  it('has a test above for every write the dispatcher wires (src/graph-api/writes.ts)', () => {
    expect([...tested].sort()).toEqual(wiredWrites().sort());
  });
});
