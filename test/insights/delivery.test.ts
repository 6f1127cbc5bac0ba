import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { expectGraphError, graphClient, UNKNOWN_OBJECT, type GraphClient } from '../helpers/graph.ts';
import { worldBuilder } from '../helpers/world.ts';
import { adTree, DEFAULT_PLACEMENT, importLines, type AdTree } from '../helpers/insights.ts';
import bizSdk from 'facebook-nodejs-business-sdk';
import type { AdRecord } from '../../src/ads/store.ts';
import { pointSdkAt } from '../helpers/sdk.ts';

// The object fields that depend on delivery (issue 19), read on /v24.0 and GraphQL over real HTTP, from statistics
// imported through the real import (test/helpers/insights.ts), with the server's clock fixed (deps.clock). Every
// instant is in the past of the real clock, which the import checks days against.

let server: TestServer;
let graph: GraphClient;
let token: string;
let organizationId: string;
let world: ReturnType<typeof worldBuilder>;

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const at = (iso: string) => new Date(iso);
const setClock = (instant: Date) => {
  server.deps.clock = () => instant;
};
const seconds = (instant: Date) => Math.floor(instant.getTime() / 1000);

let imports = 0;
/** Daily rows (one per ad and day, no breakdown beyond the defaults): spend in minor units, actions as counts. */
async function importDays(rows: Array<{ ad: Pick<AdRecord, 'id'>; day: string; spend?: number; actions?: Record<string, number> }>) {
  const lines = rows.map(({ ad, day, spend = 0, actions = {} }) => ({
    ad_id: ad.id,
    date: day,
    ...DEFAULT_PLACEMENT,
    impressions: 100,
    clicks: 0,
    spend,
    actions,
  }));
  await importLines(server.deps, lines, { format: 'daily', name: `days-${++imports}.ndjson` });
}

/** An event with spend at an instant (its day is the account's day of that instant). */
async function importSpend(events: Array<{ ad: AdRecord; time: string; spend: number }>) {
  await importLines(
    server.deps,
    events.map(({ ad, time, spend }, i) => ({ type: 'impression', ad_id: ad.id, time, person: `p${i}`, spend })),
    { name: `events-${++imports}.ndjson` },
  );
}

async function read(id: string, fields: string): Promise<Record<string, any>> {
  const response = await graph.get(id, token, { fields });
  expect(response.status, response.text).toBe(200);
  return response.body;
}

async function gql(query: string, variables: Record<string, unknown> = {}): Promise<Record<string, any>> {
  const { body } = await server.graphql(query, variables, token);
  expect(body.errors, JSON.stringify(body.errors)).toBeUndefined();
  return body.data!;
}

/** budget_remaining of an ad set on both surfaces: they must agree. */
async function adSetRemaining(id: string): Promise<string> {
  const rest = (await read(id, 'budget_remaining')).budget_remaining as string;
  const data = await gql('query ($id: ID!) { adSet(id: $id) { budgetRemaining } }', { id });
  expect(String(data.adSet.budgetRemaining)).toBe(rest);
  return rest;
}

async function campaignRemaining(id: string): Promise<string> {
  const rest = (await read(id, 'budget_remaining')).budget_remaining as string;
  const data = await gql('query ($id: ID!) { campaign(id: $id) { budgetRemaining } }', { id });
  expect(String(data.campaign.budgetRemaining)).toBe(rest);
  return rest;
}

beforeAll(async () => {
  server = await startTestServer({ ASYNC_RUNNER: 'false' });
  graph = graphClient(server);
  world = worldBuilder(server.deps);
  const org = await world.organization();
  organizationId = org.id;
  ({ token } = await world.user({ organizationId, role: 'admin' }));
});
afterAll(() => server?.close());

describe('budget_remaining of a daily budget: today is the account day', () => {
  let la: AdTree;
  let utc: AdTree;
  let fallBack: AdRecord;
  let fallBackSet: string;

  beforeAll(async () => {
    la = await adTree(world, organizationId, { account: { timezoneName: 'America/Los_Angeles' } });
    utc = await adTree(world, organizationId, {});
    for (const tree of [la, utc]) await server.deps.db('ad_sets').where({ id: tree.adSets[0]!.id }).update({ daily_budget: 5000 });
    const [second] = await world.adSets(la.campaigns[0]!, 1, () => ({ dailyBudget: '5000' }));
    fallBackSet = second!.id;
    fallBack = (await world.ads(second!, 1))[0]!;
    // The same spend in both accounts: Los Angeles is UTC-7 in October (PDT).
    const spend = (ad: AdRecord) => [
      { ad, time: '2026-10-20T02:00:00Z', spend: 1000 }, // LA 10-19 19:00, UTC 10-20
      { ad, time: '2026-10-19T10:00:00Z', spend: 200 }, // LA 10-19 03:00, UTC 10-19
      { ad, time: '2026-10-20T12:00:00Z', spend: 3000 }, // LA 10-20 05:00, UTC 10-20
      { ad, time: '2026-10-19T06:00:00Z', spend: 700 }, // LA 10-18 23:00, UTC 10-19
    ];
    await importSpend([...spend(la.ads[0]!), ...spend(utc.ads[0]!)]);
    // LA's 25-hour day: daylight saving ends at 02:00 on 2026-11-01 (09:00 UTC); the day runs 07:00Z to 08:00Z next day.
    await importSpend([
      { ad: fallBack, time: '2026-11-01T07:30:00Z', spend: 100 }, // 00:30 PDT on 11-01
      { ad: fallBack, time: '2026-11-02T07:30:00Z', spend: 200 }, // 23:30 PST on 11-01
      { ad: fallBack, time: '2026-11-02T08:30:00Z', spend: 400 }, // 00:30 PST on 11-02
    ]);
  });

  it("at 03:00 UTC it is still yesterday in Los Angeles: the budget less that day, not UTC's", async () => {
    setClock(at('2026-10-20T03:00:00Z'));
    expect(await adSetRemaining(la.adSets[0]!.id)).toBe(String(5000 - 1200));
    expect(await adSetRemaining(utc.adSets[0]!.id)).toBe(String(5000 - 4000));
  });

  it('later that UTC day both accounts are on the 20th', async () => {
    setClock(at('2026-10-20T13:00:00Z'));
    expect(await adSetRemaining(la.adSets[0]!.id)).toBe(String(5000 - 3000));
    expect(await adSetRemaining(utc.adSets[0]!.id)).toBe(String(5000 - 4000));
  });

  it('the 25-hour day of the fall back is one day', async () => {
    setClock(at('2026-11-02T07:45:00Z')); // 23:45 PST on 11-01
    expect(await adSetRemaining(fallBackSet)).toBe(String(5000 - 300));
    setClock(at('2026-11-02T09:00:00Z')); // 01:00 PST on 11-02
    expect(await adSetRemaining(fallBackSet)).toBe(String(5000 - 400));
  });

  it('a day without delivery leaves the whole budget; a campaign whose ad sets hold the budgets reads 0', async () => {
    setClock(at('2026-10-25T12:00:00Z'));
    expect(await adSetRemaining(la.adSets[0]!.id)).toBe('5000');
    expect(await campaignRemaining(la.campaigns[0]!.id)).toBe('0');
  });

  it("follow the objects' read permission: an auditor reads them, another organization's member finds no object", async () => {
    const { token: auditor } = await world.user({ organizationId, role: 'auditor' });
    const fields = 'budget_remaining,learning_stage_info,campaign_active_time';
    const allowed = await graph.get(la.adSets[0]!.id, auditor, { fields });
    expect(allowed.status, allowed.text).toBe(200);
    expect(allowed.body.budget_remaining).toBe('5000');
    const outsider = (await world.user({ organizationId: (await world.organization()).id, role: 'admin' })).token;
    expectGraphError(await graph.get(la.adSets[0]!.id, outsider, { fields }), {
      status: 400,
      code: 100,
      subcode: 33,
      message: UNKNOWN_OBJECT(la.adSets[0]!.id),
    });
    expectGraphError(await graph.get(`act_${la.account.id}`, outsider, { fields: 'amount_spent' }), { status: 400, code: 100, subcode: 33 });
    const { body } = await server.graphql('query ($id: ID!) { adAccount(id: $id) { amountSpent } }', { id: la.account.id }, outsider);
    expect(body).toEqual({ data: { adAccount: null } });
  });

  it('amount_spent is all the account ever spent, on both surfaces', async () => {
    for (const [tree, total] of [
      [la, 1000 + 200 + 3000 + 700 + 100 + 200 + 400],
      [utc, 1000 + 200 + 3000 + 700],
    ] as const) {
      expect((await read(`act_${tree.account.id}`, 'amount_spent')).amount_spent).toBe(String(total));
      const data = await gql('query ($id: ID!) { adAccount(id: $id) { amountSpent } }', { id: tree.account.id });
      expect(String(data.adAccount.amountSpent)).toBe(String(total));
    }
  });
});

describe('budget_remaining in JPY: lifetime budgets, campaign budgets, overspending', () => {
  let tokyo: AdTree;

  beforeAll(async () => {
    tokyo = await adTree(world, organizationId, {
      campaigns: 2,
      adSetsPerCampaign: 2,
      account: { timezoneName: 'Asia/Tokyo', currency: 'JPY', country: 'JP' },
    });
    const [open, budgetHolder] = tokyo.campaigns as [AdTree['campaigns'][0], AdTree['campaigns'][0]];
    const db = server.deps.db;
    const [lifetime, overspent, underCampaign, alsoUnderCampaign] = tokyo.adSets;
    // Its schedule starts at midnight on 11-01 in Tokyo.
    await db('ad_sets')
      .where({ id: lifetime!.id })
      .update({ lifetime_budget: 30000, start_time: at('2026-10-31T15:00:00Z') });
    await db('ad_sets').where({ id: overspent!.id }).update({ daily_budget: 500 });
    await db('campaigns').where({ id: budgetHolder.id }).update({ daily_budget: 10000 });
    expect([underCampaign!.campaignId, alsoUnderCampaign!.campaignId]).toEqual([budgetHolder.id, budgetHolder.id]);
    expect(open.dailyBudget).toBeNull();
    const [a, b, c, d] = tokyo.ads;
    await importDays([
      { ad: a!, day: '2026-10-29', spend: 5000 }, // before the schedule
      { ad: a!, day: '2026-11-05', spend: 7000 },
      { ad: a!, day: '2026-11-10', spend: 1234 },
      { ad: a!, day: '2026-11-11', spend: 999 }, // after the clock's today
      { ad: b!, day: '2026-11-10', spend: 800 },
      { ad: c!, day: '2026-11-10', spend: 1500 },
      { ad: d!, day: '2026-11-10', spend: 1000 },
      { ad: c!, day: '2026-11-09', spend: 9999 }, // yesterday: another day of the campaign budget
    ]);
    setClock(at('2026-11-10T03:00:00Z')); // noon in Tokyo
  });

  it('a lifetime budget less the spend since the schedule started, in whole yen', async () => {
    expect(await adSetRemaining(tokyo.adSets[0]!.id)).toBe(String(30000 - 7000 - 1234));
  });

  it('spending more than a daily budget leaves 0, never less', async () => {
    expect(await adSetRemaining(tokyo.adSets[1]!.id)).toBe('0');
  });

  it('a campaign budget less what all its ad sets spent today; its ad sets read 0', async () => {
    expect(await campaignRemaining(tokyo.campaigns[1]!.id)).toBe(String(10000 - 1500 - 1000));
    expect(await adSetRemaining(tokyo.adSets[2]!.id)).toBe('0');
    expect(await campaignRemaining(tokyo.campaigns[0]!.id)).toBe('0');
  });

  it('amount_spent in yen', async () => {
    expect((await read(`act_${tokyo.account.id}`, 'amount_spent,currency')).amount_spent).toBe(String(5000 + 7000 + 1234 + 999 + 800 + 1500 + 1000 + 9999));
  });

  it('the official SDK reads them', async () => {
    type Readable = new (id: string) => { get(fields: string[]): Promise<{ _data: Record<string, unknown> }> };
    const { AdAccount, AdSet, Campaign } = bizSdk as unknown as Record<'AdAccount' | 'AdSet' | 'Campaign', Readable>;
    const restore = pointSdkAt(server.url, token);
    try {
      const adSet = await new AdSet(tokyo.adSets[0]!.id).get(['budget_remaining', 'lifetime_budget', 'campaign_active_time']);
      expect(adSet._data).toEqual({
        id: tokyo.adSets[0]!.id,
        budget_remaining: String(30000 - 7000 - 1234),
        lifetime_budget: '30000',
        campaign_active_time: expect.stringMatching(/^\d+$/),
      });
      expect((await new Campaign(tokyo.campaigns[1]!.id).get(['budget_remaining']))._data.budget_remaining).toBe(String(10000 - 1500 - 1000));
      expect((await new AdAccount(`act_${tokyo.account.id}`).get(['amount_spent']))._data.amount_spent).toBe(String(27532));
    } finally {
      restore();
    }
  });
});

describe('learning_stage_info and the edits that restart learning', () => {
  const T0 = at('2026-10-01T12:00:00Z');
  const after = (ms: number) => new Date(T0.getTime() + ms);
  let accountId: string;
  let adSetId: string;
  let firstAd: { id: string };

  const post = async (path: string, form: Record<string, unknown>) => {
    const response = await graph.call('POST', `/v24.0/${path}`, { token, form });
    expect(response.status, response.text).toBe(200);
    return response.body;
  };
  const info = async () => (await read(adSetId, 'learning_stage_info')).learning_stage_info;
  const expectStage = async (status: string, conversions: number, lastEdit: Date) => {
    expect(await info()).toEqual({ status, conversions, last_sig_edit_ts: seconds(lastEdit), attribution_windows: ['7d_click', '1d_view'] });
    const data = await gql('query ($id: ID!) { adSet(id: $id) { learningStageInfo { status conversions lastSignificantEdit attributionWindows } } }', {
      id: adSetId,
    });
    expect(data.adSet.learningStageInfo).toEqual({
      status,
      conversions,
      lastSignificantEdit: lastEdit.toISOString(),
      attributionWindows: ['7d_click', '1d_view'],
    });
  };

  beforeAll(async () => {
    accountId = (await world.adAccount(organizationId)).id;
    setClock(T0);
    const campaign = await post(`act_${accountId}/campaigns`, { name: 'Learning', objective: 'OUTCOME_TRAFFIC', status: 'ACTIVE', special_ad_categories: [] });
    adSetId = (
      await post(`act_${accountId}/adsets`, {
        name: 'Learns',
        campaign_id: campaign.id,
        daily_budget: 10000,
        billing_event: 'IMPRESSIONS',
        optimization_goal: 'LINK_CLICKS',
        bid_strategy: 'LOWEST_COST_WITHOUT_CAP',
        targeting: { geo_locations: { countries: ['US'] } },
        status: 'ACTIVE',
      })
    ).id;
    firstAd = await post(`act_${accountId}/ads`, { name: 'First', adset_id: adSetId, creative: { title: 'Hi' } });
  });

  it('LEARNING from its creation, counting link clicks (its goal LINK_CLICKS)', async () => {
    setClock(after(HOUR));
    await expectStage('LEARNING', 0, T0);
    await importDays([{ ad: firstAd, day: '2026-10-02', actions: { link_click: 30, lead: 99 } }]);
    setClock(after(2 * DAY));
    await expectStage('LEARNING', 30, T0);
  });

  it('SUCCESS at 50 optimization events within 7 days, and still after', async () => {
    await importDays([{ ad: firstAd, day: '2026-10-03', actions: { link_click: 25 } }]);
    await expectStage('SUCCESS', 55, T0);
    setClock(after(10 * DAY));
    await expectStage('SUCCESS', 55, T0);
  });

  it('a new name and a budget 10% higher do not restart learning', async () => {
    await post(adSetId, { name: 'Renamed' });
    await post(adSetId, { daily_budget: 11000 });
    await expectStage('SUCCESS', 55, T0);
  });

  it('new targeting restarts it: only events since the edit count', async () => {
    await post(adSetId, { targeting: { geo_locations: { countries: ['CA'] } } });
    await expectStage('LEARNING', 0, after(10 * DAY));
    await importDays([{ ad: firstAd, day: '2026-10-12', actions: { link_click: 12 } }]);
    setClock(after(12 * DAY));
    await expectStage('LEARNING', 12, after(10 * DAY));
  });

  it('FAIL when 7 days pass without 50', async () => {
    setClock(after(17 * DAY + 1000));
    await expectStage('FAIL', 12, after(10 * DAY));
  });

  it('an ad added restarts learning', async () => {
    setClock(after(18 * DAY));
    await post(`act_${accountId}/ads`, { name: 'Second', adset_id: adSetId, creative: { title: 'Hello' } });
    await expectStage('LEARNING', 0, after(18 * DAY));
  });

  it("an ad's new creative restarts it; its new name does not", async () => {
    setClock(after(18 * DAY + HOUR));
    await post(firstAd.id, { name: 'First, renamed' });
    await expectStage('LEARNING', 0, after(18 * DAY));
    await post(firstAd.id, { creative: { title: 'New words' } });
    await expectStage('LEARNING', 0, after(18 * DAY + HOUR));
  });

  it('a budget 50% higher restarts it', async () => {
    setClock(after(19 * DAY));
    await post(adSetId, { daily_budget: 16500 });
    await expectStage('LEARNING', 0, after(19 * DAY));
  });

  it('ACTIVE again after a pause of 7 days restarts it; after 2 days it does not', async () => {
    setClock(after(19 * DAY + HOUR));
    await post(adSetId, { status: 'PAUSED' });
    setClock(after(26 * DAY + HOUR));
    await post(adSetId, { status: 'ACTIVE' });
    await expectStage('LEARNING', 0, after(26 * DAY + HOUR));
    setClock(after(27 * DAY));
    await post(adSetId, { status: 'PAUSED' });
    setClock(after(29 * DAY));
    await post(adSetId, { status: 'ACTIVE' });
    await expectStage('LEARNING', 0, after(26 * DAY + HOUR));
  });

  it("a campaign budget's significant change restarts the learning of its ad sets; a small one does not", async () => {
    setClock(after(30 * DAY));
    const campaign = await post(`act_${accountId}/campaigns`, {
      name: 'Campaign budget',
      objective: 'OUTCOME_TRAFFIC',
      status: 'ACTIVE',
      special_ad_categories: [],
      daily_budget: 20000,
      bid_strategy: 'LOWEST_COST_WITHOUT_CAP',
    });
    const shared = await post(`act_${accountId}/adsets`, {
      name: 'Shares it',
      campaign_id: campaign.id,
      billing_event: 'IMPRESSIONS',
      optimization_goal: 'LINK_CLICKS',
      targeting: { geo_locations: { countries: ['US'] } },
    });
    const lastEdit = async () => (await read(shared.id, 'learning_stage_info')).learning_stage_info.last_sig_edit_ts;
    expect(await lastEdit()).toBe(seconds(after(30 * DAY)));
    setClock(after(31 * DAY));
    await post(campaign.id, { daily_budget: 30000 });
    expect(await lastEdit()).toBe(seconds(after(31 * DAY)));
    setClock(after(32 * DAY));
    await post(campaign.id, { daily_budget: 31000 });
    expect(await lastEdit()).toBe(seconds(after(31 * DAY)));
  });

  it('an ad set whose goal has no event to learn from has no learning stage', async () => {
    await server.deps.db('ad_sets').where({ id: adSetId }).update({ optimization_goal: 'NONE' });
    expect(await read(adSetId, 'learning_stage_info')).toEqual({ id: adSetId });
    const data = await gql('query ($id: ID!) { adSet(id: $id) { learningStageInfo { status } } }', { id: adSetId });
    expect(data.adSet.learningStageInfo).toBeNull();
  });
});

describe("campaign_active_time: the campaign's running length", () => {
  const T0 = at('2026-09-01T00:00:00Z');
  const after = (ms: number) => new Date(T0.getTime() + ms);
  let campaignId: string;
  let adSetId: string;

  const post = async (path: string, form: Record<string, unknown>) => {
    const response = await graph.call('POST', `/v24.0/${path}`, { token, form });
    expect(response.status, response.text).toBe(200);
    return response.body;
  };
  const activeTime = async () => {
    const rest = (await read(adSetId, 'campaign_active_time')).campaign_active_time as string;
    const data = await gql('query ($id: ID!) { adSet(id: $id) { campaignActiveTime } }', { id: adSetId });
    expect(String(data.adSet.campaignActiveTime)).toBe(rest);
    return rest;
  };

  beforeAll(async () => {
    const account = await world.adAccount(organizationId);
    setClock(T0);
    campaignId = (await post(`act_${account.id}/campaigns`, { name: 'Runs', objective: 'OUTCOME_TRAFFIC', status: 'ACTIVE', special_ad_categories: [] })).id;
    adSetId = (
      await post(`act_${account.id}/adsets`, {
        name: 'In it',
        campaign_id: campaignId,
        daily_budget: 10000,
        billing_event: 'IMPRESSIONS',
        optimization_goal: 'LINK_CLICKS',
        targeting: { geo_locations: { countries: ['US'] } },
      })
    ).id;
  });

  it('counts the seconds its status was ACTIVE, across pauses', async () => {
    setClock(after(2 * DAY));
    expect(await activeTime()).toBe(String(2 * 86400));
    setClock(after(3 * DAY));
    await post(campaignId, { status: 'PAUSED' });
    setClock(after(5 * DAY));
    expect(await activeTime()).toBe(String(3 * 86400));
    setClock(after(6 * DAY));
    await post(campaignId, { status: 'ACTIVE' });
    setClock(after(6 * DAY + HOUR));
    expect(await activeTime()).toBe(String(3 * 86400 + 3600));
  });

  it('stops at the end of its schedule', async () => {
    await post(campaignId, { stop_time: seconds(after(6 * DAY + 2 * HOUR)) });
    setClock(after(9 * DAY));
    expect(await activeTime()).toBe(String(3 * 86400 + 2 * 3600));
  });
});
