import { describe, expect, it } from 'vitest';
import type { TestServer } from '../helpers/server.ts';
import { dataOf, firstError } from '../helpers/api.ts';
import type { GraphClient } from '../helpers/graph.ts';
import { DELIVERY_DAYS, DELIVERY_RANGE, dayAgo, money, printedTotals, surfaceSuite, totalsOf, type SurfaceWorld } from './surface-world.ts';

/**
 * `insights(input, first, after, last, before)` on AdAccount, Campaign, AdSet and Ad (issue 19): typed rows,
 * breakdown values as enums, a summary, Relay paging, BAD_USER_INPUT naming the input field; and the same report
 * read on both surfaces agrees to the cent, field by field.
 */

let server: TestServer;
let graph: GraphClient;
let w: SurfaceWorld;

surfaceSuite((suite) => ({ server, graph, w } = suite));

const RANGE = DELIVERY_RANGE;

const ROW = `
  fragment Row on InsightsRow {
    dateStart dateStop accountId accountName accountCurrency campaignId campaignName adSetId adSetName adId adName
    objective optimizationGoal age gender country publisherPlatform platformPosition devicePlatform
    impressions reach frequency clicks uniqueClicks inlineLinkClicks ctr spend cpc cpm cpp
    actions { actionType value } actionValues { actionType value } costPerActionType { actionType value } conversions { actionType value }
  }`;

const ACCOUNT_INSIGHTS = `
  query AccountInsights($id: ID!, $input: InsightsInput!, $first: Int, $after: String, $last: Int, $before: String) {
    adAccount(id: $id) {
      insights(input: $input, first: $first, after: $after, last: $last, before: $before) {
        edges { cursor node { ...Row } }
        nodes { ...Row }
        pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
        summary { impressions reach spend cpc }
      }
    }
  }
  ${ROW}`;

async function accountInsights(variables: Record<string, unknown>, token = w.token) {
  const { status, body } = await server.graphql(ACCOUNT_INSIGHTS, { id: w.tree.account.id, ...variables }, token);
  expect(status, JSON.stringify(body)).toBe(200);
  return dataOf(body).adAccount.insights;
}

/** A GraphQL row in /v24.0's names and print: the comparison of the two surfaces. */
function asGraphApi(row: Record<string, any>): Record<string, unknown> {
  const stats = (list: Array<{ actionType: string; value: unknown }>) =>
    list.length > 0
      ? list.map((stat) => ({ action_type: stat.actionType, value: String(stat.value) })).sort((a, b) => a.action_type.localeCompare(b.action_type))
      : undefined;
  const printed: Record<string, unknown> = {
    impressions: String(row.impressions),
    reach: String(row.reach),
    frequency: row.frequency === null ? undefined : String(row.frequency),
    clicks: String(row.clicks),
    unique_clicks: String(row.uniqueClicks),
    inline_link_clicks: String(row.inlineLinkClicks),
    ctr: row.ctr === null ? undefined : String(row.ctr),
    cpc: row.cpc ?? undefined,
    cpm: row.cpm ?? undefined,
    cpp: row.cpp ?? undefined,
    spend: row.spend,
    actions: stats(row.actions),
    action_values: stats(row.actionValues),
    cost_per_action_type: stats(row.costPerActionType),
    ad_id: row.adId ?? undefined,
    date_start: row.dateStart,
    date_stop: row.dateStop,
  };
  return Object.fromEntries(Object.entries(printed).filter(([, value]) => value !== undefined));
}

describe('GraphQL insights', () => {
  it('the same report on both surfaces agrees to the cent, field by field (level=ad, daily)', async () => {
    const rest = await graph.get(`act_${w.tree.account.id}/insights`, w.token, {
      fields: 'ad_id,impressions,reach,frequency,clicks,unique_clicks,inline_link_clicks,ctr,cpc,cpm,cpp,spend,actions,action_values,cost_per_action_type',
      level: 'ad',
      time_increment: 1,
      time_range: RANGE(),
      limit: 100,
    });
    expect(rest.status, rest.text).toBe(200);
    const gql = await accountInsights({ input: { level: 'AD', timeIncrementDays: 1, timeRange: RANGE() }, first: 100 });
    expect(gql.nodes).toHaveLength(w.tree.ads.length * DELIVERY_DAYS.length);
    const sortedRest = rest.body.data.map((row: Record<string, any>) => {
      const copy = { ...row };
      for (const key of ['actions', 'action_values', 'cost_per_action_type']) {
        if (copy[key]) copy[key] = [...copy[key]].sort((a: any, b: any) => a.action_type.localeCompare(b.action_type));
      }
      return copy;
    });
    expect(gql.nodes.map(asGraphApi)).toEqual(sortedRest);
    // And both equal the sums over the raw events.
    const totals = totalsOf(w.events);
    const spent = gql.nodes.reduce((sum: number, row: any) => sum + Math.round(Number(row.spend) * 100), 0);
    expect(spent).toBe(totals.spend);
  });

  it('typed rows: BigInt counts, Money strings, labels, ratios', async () => {
    const gql = await accountInsights({ input: { timeRange: RANGE() } });
    expect(gql.nodes).toHaveLength(1);
    const [row] = gql.nodes;
    const totals = totalsOf(w.events);
    const printed = printedTotals(totals);
    expect(row).toMatchObject({
      dateStart: RANGE().since,
      dateStop: RANGE().until,
      accountId: w.tree.account.id,
      accountName: w.tree.account.name,
      accountCurrency: 'USD',
      campaignId: null,
      age: null,
      impressions: totals.impressions,
      reach: totals.reach,
      spend: money(totals.spend),
      cpc: printed.cpc,
      ctr: Number(printed.ctr),
      frequency: Number(printed.frequency),
    });
    expect(gql.summary).toEqual({ impressions: totals.impressions, reach: totals.reach, spend: money(totals.spend), cpc: printed.cpc });
  });

  it('breakdown values are enums', async () => {
    const gql = await accountInsights({ input: { timeRange: RANGE(), breakdowns: ['AGE', 'GENDER'] } });
    const values = gql.nodes.map((row: any) => `${row.age}/${row.gender}`).sort();
    expect(values).toEqual(['AGE_25_34/FEMALE', 'AGE_25_34/MALE', 'AGE_35_44/FEMALE', 'AGE_35_44/MALE']);
    const placements = await accountInsights({ input: { timeRange: RANGE(), breakdowns: ['PUBLISHER_PLATFORM', 'PLATFORM_POSITION'] } });
    expect(placements.nodes.map((row: any) => `${row.publisherPlatform}/${row.platformPosition}`).sort()).toEqual([
      'FACEBOOK/FEED',
      'INSTAGRAM/INSTAGRAM_STORIES',
    ]);
  });

  it('Relay paging: first/after forward and last/before back, with per-edge cursors', async () => {
    const input = { level: 'AD', timeIncrementDays: 1, timeRange: RANGE() };
    const all = await accountInsights({ input, first: 100 });
    const seen: unknown[] = [];
    let after: string | undefined;
    for (;;) {
      const page = await accountInsights({ input, first: 3, after });
      seen.push(...page.nodes);
      expect(page.edges.map((edge: any) => edge.node)).toEqual(page.nodes);
      expect(page.pageInfo.endCursor).toBe(page.edges.at(-1)?.cursor ?? null);
      if (!page.pageInfo.hasNextPage) break;
      after = page.pageInfo.endCursor;
    }
    expect(seen).toEqual(all.nodes);
    // An edge's cursor pages from that edge.
    const middle = all.edges[4];
    const fromMiddle = await accountInsights({ input, first: 2, after: middle.cursor });
    expect(fromMiddle.nodes).toEqual(all.nodes.slice(5, 7));
    const back = await accountInsights({ input, last: 2, before: middle.cursor });
    expect(back.nodes).toEqual(all.nodes.slice(2, 4));
  });

  it('on a campaign, an ad set and an ad', async () => {
    const ad = w.tree.ads[1]!;
    const query = `query($c: ID!, $s: ID!, $a: ID!, $input: InsightsInput!) {
      campaign(id: $c) { insights(input: $input) { nodes { impressions spend } } }
      adSet(id: $s) { insights(input: $input) { nodes { impressions spend } } }
      ad(id: $a) { insights(input: $input) { nodes { impressions spend } } }
    }`;
    const { body } = await server.graphql(query, { c: ad.campaignId, s: ad.adsetId, a: ad.id, input: { datePreset: 'LAST_7D' } }, w.token);
    const data = dataOf(body);
    const expected = (adIds: string[]) => {
      const totals = totalsOf(w.events.filter((e) => adIds.includes(e.ad_id)));
      return [{ impressions: totals.impressions, spend: money(totals.spend) }];
    };
    expect(data.campaign.insights.nodes).toEqual(expected(w.tree.ads.filter((a) => a.campaignId === ad.campaignId).map((a) => a.id)));
    expect(data.adSet.insights.nodes).toEqual(expected([ad.id]));
    expect(data.ad.insights.nodes).toEqual(expected([ad.id]));
  });

  it('timeRanges, timeIncrement MONTHLY and actionBreakdowns', async () => {
    const days = DELIVERY_DAYS.slice(0, 2).map(dayAgo);
    const ranges = await accountInsights({ input: { timeRanges: days.map((day) => ({ since: day, until: day })) } });
    expect(ranges.nodes.map((row: any) => [row.dateStart, row.dateStop])).toEqual(days.map((day) => [day, day]));
    const monthly = await accountInsights({ input: { timeRange: RANGE(), timeIncrement: 'MONTHLY', actionBreakdowns: ['ACTION_TYPE'] } });
    expect(monthly.nodes.reduce((sum: number, row: any) => sum + row.impressions, 0)).toBe(totalsOf(w.events).impressions);
    const leads = monthly.nodes.flatMap((row: any) => row.actions.filter((a: any) => a.actionType === 'lead').map((a: any) => a.value));
    expect(leads.reduce((a: number, b: number) => a + b, 0)).toBe(totalsOf(w.events).actions.lead);
  });

  it('filtering and sort', async () => {
    const [first] = w.tree.campaigns;
    const filtered = await accountInsights({
      input: { level: 'CAMPAIGN', timeRange: RANGE(), filtering: [{ field: 'campaign.id', operator: 'IN', value: [first!.id] }] },
    });
    expect(filtered.nodes.map((row: any) => row.campaignId)).toEqual([first!.id]);
    const sorted = await accountInsights({ input: { level: 'AD', timeRange: RANGE(), sort: [{ field: 'spend', direction: 'DESCENDING' }] } });
    const spends = sorted.nodes.map((row: any) => Number(row.spend));
    expect(spends).toEqual([...spends].sort((a, b) => b - a));
  });

  it.each([
    ['breakdowns no family serves', { breakdowns: ['AGE', 'COUNTRY'] }, 'input.breakdowns'],
    ['since after until', { timeRange: { since: dayAgo(2), until: dayAgo(5) } }, 'input.timeRange'],
    ['a day that does not exist', { timeRange: { since: '2026-02-30', until: '2026-03-01' } }, 'input.timeRange'],
    ['timeIncrementDays 0', { timeIncrementDays: 0 }, 'input.timeIncrementDays'],
    ['timeIncrementDays 91', { timeIncrementDays: 91 }, 'input.timeIncrementDays'],
    ['timeIncrement and timeIncrementDays', { timeIncrement: 'MONTHLY', timeIncrementDays: 7 }, 'input.timeIncrementDays'],
    ['filtering on an unknown field', { filtering: [{ field: 'hair.color', operator: 'EQUAL', value: 'red' }] }, 'input.filtering'],
    ['an unknown sort field', { sort: [{ field: 'happiness', direction: 'ASCENDING' }] }, 'input.sort'],
  ])('%s: BAD_USER_INPUT naming the input field', async (_name, input, field) => {
    const { body } = await server.graphql(ACCOUNT_INSIGHTS, { id: w.tree.account.id, input }, w.token);
    const error = firstError(body);
    expect(error.extensions).toMatchObject({ code: 'BAD_USER_INPUT', field });
  });

  it("an ad's insights at level CAMPAIGN is refused naming input.level; first over 500 names first", async () => {
    const { body } = await server.graphql(
      `query($id: ID!) { ad(id: $id) { insights(input: { level: CAMPAIGN }) { nodes { spend } } } }`,
      { id: w.tree.ads[0]!.id },
      w.token,
    );
    expect(firstError(body).extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'input.level' });
    const paged = await server.graphql(
      `query($id: ID!) { adAccount(id: $id) { insights(input: {}, first: 501) { pageInfo { hasNextPage } } } }`,
      { id: w.tree.account.id },
      w.token,
    );
    expect(firstError(paged.body).extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'first' });
  });

  it("another organization's account is null, as any object of theirs", async () => {
    const { body } = await server.graphql(ACCOUNT_INSIGHTS, { id: w.other.account.id, input: {} }, w.token);
    expect(dataOf(body).adAccount).toBeNull();
  });

  it('the same operation twice (the second run compiled) selects the same fields', async () => {
    const input = { timeRange: RANGE(), level: 'CAMPAIGN' };
    const first = await accountInsights({ input });
    const second = await accountInsights({ input });
    expect(second).toEqual(first);
    expect(first.nodes[0].reach).toBeGreaterThan(0);
  });
});
