import { describe, expect, it } from 'vitest';
import type { TestServer } from '../helpers/server.ts';
import { expectGraphError, UNKNOWN_OBJECT, type GraphClient } from '../helpers/graph.ts';
import { worldBuilder } from '../helpers/world.ts';
import {
  ALL_FIELDS,
  DELIVERY_DAYS,
  DELIVERY_RANGE,
  dayAgo,
  money,
  printedTotals,
  sortedLists,
  surfaceSuite,
  totalsOf,
  type SurfaceWorld,
} from './surface-world.ts';
import { expectedBy, rowKey } from './oracle.ts';
import type { Breakdown } from '../../src/insights/query.ts';

/**
 * GET /v24.0/<act|campaign|adset|ad>/insights over real HTTP, every parameter, and `insights{...}` in `fields`
 * (issue 19). The numbers are checked against sums over the raw events imported (surface-world.ts).
 */

let server: TestServer;
let graph: GraphClient;
let w: SurfaceWorld;

surfaceSuite((suite) => ({ server, graph, w } = suite));

const act = () => `act_${w.tree.account.id}`;
const RANGE = DELIVERY_RANGE;
const insights = async (object: string, query: Record<string, unknown> = {}, token = w.token) => {
  const response = await graph.get(`${object}/insights`, token, query);
  expect(response.status, response.text).toBe(200);
  return response.body as { data: Array<Record<string, any>>; paging?: any; summary?: Record<string, any> };
};
const eventsOfAds = (ids: string[]) => w.events.filter((e) => ids.includes(e.ad_id));
const eventsOnDay = (day: string) => w.events.filter((e) => String(e.time).startsWith(day));

describe('GET /v24.0/<object>/insights', () => {
  it('without parameters: impressions and spend of the last 30 days, one row, numbers as strings', async () => {
    const body = await insights(act());
    const totals = totalsOf(w.events);
    // last_30d: the 30 days that end yesterday, in the account's time zone.
    expect(body.data).toEqual([{ impressions: String(totals.impressions), spend: money(totals.spend), date_start: dayAgo(30), date_stop: dayAgo(1) }]);
  });

  it('every field: counts, reach as people (not a sum of days), ratios and money as the platform prints them', async () => {
    const body = await insights(act(), { fields: ALL_FIELDS, time_range: RANGE() });
    expect(body.data).toHaveLength(1);
    const totals = totalsOf(w.events);
    // Reach over the days is the distinct people, fewer than the sum of the days' reaches.
    const dailyReaches = DELIVERY_DAYS.map((d) => totalsOf(eventsOnDay(dayAgo(d))).reach).reduce((a, b) => a + b, 0);
    expect(totals.reach).toBeLessThan(dailyReaches);
    expect(sortedLists(body.data[0]!)).toEqual({ ...printedTotals(totals), date_start: RANGE().since, date_stop: RANGE().until });
  });

  it('labels: account, campaign, ad set and ad ids and names, objective and optimization goal at level=ad', async () => {
    const fields = 'account_id,account_name,account_currency,campaign_id,campaign_name,adset_id,adset_name,ad_id,ad_name,objective,optimization_goal';
    const body = await insights(act(), { fields, level: 'ad', time_range: RANGE() });
    const { tree } = w;
    expect(body.data.map((row) => row.ad_id).sort()).toEqual(tree.ads.map((ad) => ad.id).sort());
    for (const row of body.data) {
      const ad = tree.ads.find((a) => a.id === row.ad_id)!;
      const adSet = tree.adSets.find((s) => s.id === ad.adsetId)!;
      const campaign = tree.campaigns.find((c) => c.id === ad.campaignId)!;
      expect(row).toEqual({
        account_id: tree.account.id,
        account_name: tree.account.name,
        account_currency: 'USD',
        campaign_id: campaign.id,
        campaign_name: campaign.name,
        adset_id: adSet.id,
        adset_name: adSet.name,
        ad_id: ad.id,
        ad_name: ad.name,
        objective: campaign.objective,
        optimization_goal: adSet.optimizationGoal,
        date_start: RANGE().since,
        date_stop: RANGE().until,
      });
    }
  });

  it.each(['campaign', 'adset', 'ad'] as const)('level=%s: one row per object, each its own sums', async (level) => {
    const body = await insights(act(), { fields: `${level}_id,impressions,reach,spend`, level, time_range: RANGE() });
    const objects = level === 'campaign' ? w.tree.campaigns : level === 'adset' ? w.tree.adSets : w.tree.ads;
    expect(body.data.map((row) => row[`${level}_id`]).sort()).toEqual(objects.map((o) => o.id).sort());
    for (const row of body.data) {
      const ads = w.tree.ads.filter((ad) => (level === 'campaign' ? ad.campaignId : level === 'adset' ? ad.adsetId : ad.id) === row[`${level}_id`]);
      const totals = totalsOf(eventsOfAds(ads.map((ad) => ad.id)));
      expect(row).toMatchObject({ impressions: String(totals.impressions), reach: String(totals.reach), spend: money(totals.spend) });
    }
  });

  it('on a campaign, an ad set and an ad: their own statistics', async () => {
    const [campaign] = w.tree.campaigns;
    const adSet = w.tree.adSets[1]!;
    const ad = w.tree.ads[2]!;
    for (const [id, ads] of [
      [campaign!.id, w.tree.ads.filter((a) => a.campaignId === campaign!.id)],
      [adSet.id, w.tree.ads.filter((a) => a.adsetId === adSet.id)],
      [ad.id, [ad]],
    ] as const) {
      const body = await insights(id, { fields: ALL_FIELDS, time_range: RANGE() });
      expect(body.data.map(sortedLists)).toEqual([
        { ...printedTotals(totalsOf(eventsOfAds(ads.map((a) => a.id)))), date_start: RANGE().since, date_stop: RANGE().until },
      ]);
    }
  });

  it('JPY: money without a minor unit', async () => {
    const body = await insights(`act_${w.jpy.account.id}`, { fields: 'spend,cpc,action_values', time_range: RANGE() });
    const totals = totalsOf(w.jpyEvents);
    const printed = printedTotals(totals, 0);
    expect(body.data).toEqual([
      { spend: String(totals.spend), cpc: printed.cpc, action_values: printed.action_values, date_start: RANGE().since, date_stop: RANGE().until },
    ]);
    expect(body.data[0]!.spend).not.toContain('.');
  });

  it('time_increment=1: one row per day with delivery, days without any left out', async () => {
    const body = await insights(act(), { fields: 'impressions,spend', time_increment: 1, date_preset: 'last_7d' });
    const days = DELIVERY_DAYS.map(dayAgo);
    expect(body.data.map((row) => [row.date_start, row.date_stop])).toEqual(days.map((d) => [d, d]));
    for (const row of body.data) {
      const totals = totalsOf(eventsOnDay(row.date_start));
      expect(row).toMatchObject({ impressions: String(totals.impressions), spend: money(totals.spend) });
    }
  });

  it('time_increment=monthly and all_days', async () => {
    const monthly = await insights(act(), { fields: 'impressions', time_increment: 'monthly', time_range: RANGE() });
    expect(monthly.data.reduce((sum, row) => sum + Number(row.impressions), 0)).toBe(totalsOf(w.events).impressions);
    expect(monthly.data.length).toBe(RANGE().since.slice(0, 7) === RANGE().until.slice(0, 7) ? 1 : 2);
    const all = await insights(act(), { fields: 'impressions', time_increment: 'all_days', time_range: RANGE() });
    expect(all.data).toEqual([{ impressions: String(totalsOf(w.events).impressions), date_start: RANGE().since, date_stop: RANGE().until }]);
  });

  it('time_ranges: one row per range', async () => {
    const ranges = DELIVERY_DAYS.slice(0, 2).map((d) => ({ since: dayAgo(d), until: dayAgo(d) }));
    const body = await insights(act(), { fields: 'impressions', time_ranges: ranges });
    expect(body.data).toEqual(
      ranges.map((range) => ({ impressions: String(totalsOf(eventsOnDay(range.since)).impressions), date_start: range.since, date_stop: range.until })),
    );
  });

  it('time_ranges wins over time_range, which wins over date_preset, as on the platform', async () => {
    const day = dayAgo(DELIVERY_DAYS[0]!);
    const both = await insights(act(), { fields: 'impressions', date_preset: 'today', time_range: { since: day, until: day } });
    expect(both.data.map((row) => row.date_start)).toEqual([day]);
    const all = await insights(act(), { fields: 'impressions', time_range: RANGE(), time_ranges: [{ since: day, until: day }] });
    expect(all.data.map((row) => [row.date_start, row.date_stop])).toEqual([[day, day]]);
  });

  it('a range reaching back more than 37 months starts where maximum starts', async () => {
    const maximum = await graph.get(`${act()}/insights`, w.token, { fields: 'impressions', date_preset: 'maximum' });
    const long = await insights(act(), { fields: 'impressions', time_range: { since: '2015-01-01', until: RANGE().until } });
    expect(long.data).toEqual([{ impressions: String(totalsOf(w.events).impressions), date_start: maximum.body.data[0].date_start, date_stop: RANGE().until }]);
    expect(long.data[0]!.date_start > '2015-01-01').toBe(true);
  });

  it.each([
    ['date_preset=last_7d', { date_preset: 'last_7d' }, true],
    ['date_preset=maximum', { date_preset: 'maximum' }, true],
    ['date_preset=lifetime (read as maximum)', { date_preset: 'lifetime' }, true],
    ['date_preset=today', { date_preset: 'today' }, false],
    ['date_preset=yesterday', { date_preset: 'yesterday' }, false],
  ])('%s', async (_name, query, delivered) => {
    const body = await insights(act(), { fields: 'impressions', ...query });
    expect(body.data.map((row) => row.impressions)).toEqual(delivered ? [String(totalsOf(w.events).impressions)] : []);
  });

  it.each([
    ['age', ['age']],
    ['gender', ['gender']],
    ['age,gender', ['age', 'gender']],
    ['country', ['country']],
    ['publisher_platform', ['publisher_platform']],
    ['publisher_platform,platform_position', ['publisher_platform', 'platform_position']],
    ['device_platform', ['device_platform']],
    ['publisher_platform,platform_position,device_platform', ['publisher_platform', 'platform_position', 'device_platform']],
  ])('breakdowns=%s: a row per value, under the breakdown names, summing to the whole', async (breakdowns, keys) => {
    const body = await insights(act(), { fields: 'impressions,reach', breakdowns, time_range: RANGE() });
    const key = rowKey('account', w.tree.account.id, keys as Breakdown[]);
    const groups = expectedBy(
      w.events.filter((e) => e.type === 'impression'),
      key,
    );
    expect(body.data).toHaveLength(groups.size);
    for (const row of body.data) {
      const group = groups.get([w.tree.account.id, ...keys.map((k) => row[k])].join('|'));
      expect(group, JSON.stringify(row)).toBeDefined();
      expect(row).toEqual({
        impressions: String(group!.impressions),
        reach: String(group!.reach),
        ...Object.fromEntries(keys.map((k) => [k, row[k]])),
        date_start: RANGE().since,
        date_stop: RANGE().until,
      });
    }
  });

  it('action_breakdowns=action_type: actions per type', async () => {
    const body = await insights(act(), { fields: 'actions', action_breakdowns: 'action_type', time_range: RANGE() });
    expect(sortedLists(body.data[0]!).actions).toEqual(printedTotals(totalsOf(w.events)).actions);
  });

  it('filtering: by campaign ids (IN), and another organization’s ids match nothing', async () => {
    const [first] = w.tree.campaigns;
    const body = await insights(act(), {
      fields: 'campaign_id,impressions',
      level: 'campaign',
      time_range: RANGE(),
      filtering: [{ field: 'campaign.id', operator: 'IN', value: [first!.id] }],
    });
    expect(body.data.map((row) => row.campaign_id)).toEqual([first!.id]);
    const foreign = await insights(act(), {
      level: 'campaign',
      time_range: RANGE(),
      filtering: [{ field: 'campaign.id', operator: 'IN', value: [w.other.campaigns[0]!.id] }],
    });
    expect(foreign.data).toEqual([]);
  });

  it('filtering: by effective status and by a number (spend in major units)', async () => {
    const active = await insights(act(), {
      fields: 'ad_id',
      level: 'ad',
      time_range: RANGE(),
      filtering: [{ field: 'ad.effective_status', operator: 'IN', value: ['ACTIVE'] }],
    });
    expect(active.data).toHaveLength(w.tree.ads.length);
    const paused = await insights(act(), {
      level: 'ad',
      time_range: RANGE(),
      filtering: [{ field: 'ad.effective_status', operator: 'IN', value: ['PAUSED'] }],
    });
    expect(paused.data).toEqual([]);
    const spends = w.tree.ads.map((ad) => totalsOf(eventsOfAds([ad.id])).spend);
    const threshold = [...spends].sort((a, b) => a - b)[1]! / 100;
    const over = await insights(act(), {
      fields: 'ad_id,spend',
      level: 'ad',
      time_range: RANGE(),
      filtering: [{ field: 'spend', operator: 'GREATER_THAN', value: threshold }],
    });
    expect(over.data.map((row) => row.ad_id).sort()).toEqual(
      w.tree.ads
        .filter((_, i) => spends[i]! / 100 > threshold)
        .map((ad) => ad.id)
        .sort(),
    );
  });

  it('sort=spend_descending and spend_ascending', async () => {
    const descending = await insights(act(), { fields: 'ad_id,spend', level: 'ad', sort: 'spend_descending', time_range: RANGE() });
    const spends = descending.data.map((row) => Number(row.spend));
    expect(spends).toEqual([...spends].sort((a, b) => b - a));
    expect(new Set(spends).size).toBeGreaterThan(1);
    const ascending = await insights(act(), { fields: 'ad_id,spend', level: 'ad', sort: ['spend_ascending'], time_range: RANGE() });
    expect(ascending.data.map((row) => row.ad_id)).toEqual(descending.data.map((row) => row.ad_id).reverse());
  });

  it('default_summary=true and summary=<fields>: totals over every page, reach merged', async () => {
    const totals = totalsOf(w.events);
    const body = await insights(act(), { fields: 'impressions,reach,spend', level: 'ad', limit: 2, default_summary: 'true', time_range: RANGE() });
    expect(body.data).toHaveLength(2);
    expect(body.summary).toEqual({
      impressions: String(totals.impressions),
      reach: String(totals.reach),
      spend: money(totals.spend),
      date_start: RANGE().since,
      date_stop: RANGE().until,
    });
    const named = await insights(act(), { fields: 'impressions', level: 'ad', summary: 'spend', time_range: RANGE() });
    expect(named.summary).toEqual({ spend: money(totals.spend), date_start: RANGE().since, date_stop: RANGE().until });
    const none = await insights(act(), { fields: 'impressions', time_range: RANGE() });
    expect(none.summary).toBeUndefined();
  });

  it('paging: limit, cursors, next and previous links the platform way', async () => {
    const query = { fields: 'ad_id,impressions', level: 'ad', time_increment: 1, time_range: RANGE(), limit: 5 };
    const all = await insights(act(), { ...query, limit: 100 });
    expect(all.data).toHaveLength(w.tree.ads.length * DELIVERY_DAYS.length);
    const seen: Array<Record<string, unknown>> = [];
    let page = await insights(act(), query);
    expect(page.paging.previous).toBeUndefined();
    for (;;) {
      expect(page.paging.cursors).toEqual({ before: expect.any(String), after: expect.any(String) });
      seen.push(...page.data);
      if (!page.paging.next) break;
      expect(page.paging.next.startsWith(`${server.url}/v24.0/${act()}/insights?`)).toBe(true);
      const next = await graph.follow(page.paging.next);
      expect(next.status, next.text).toBe(200);
      page = next.body;
      expect(page.paging.previous).toEqual(expect.any(String));
    }
    expect(seen).toEqual(all.data);
    const back = await insights(act(), { ...query, before: page.paging.cursors.before });
    expect(back.data).toEqual(seen.slice(-page.data.length - 5, -page.data.length));
  });

  it('through a batch, as one of its calls', async () => {
    const response = await graph.batch({
      access_token: w.token,
      batch: JSON.stringify([
        { method: 'GET', relative_url: `${act()}/insights?fields=impressions&time_range=${encodeURIComponent(JSON.stringify(RANGE()))}` },
      ]),
    });
    expect(response.status, response.text).toBe(200);
    expect(JSON.parse(response.body[0].body).data).toEqual([
      { impressions: String(totalsOf(w.events).impressions), date_start: RANGE().since, date_stop: RANGE().until },
    ]);
  });
});

describe('insights{...} in fields', () => {
  it('insights.date_preset(maximum){spend,impressions} on an ad set read', async () => {
    const adSet = w.tree.adSets[0]!;
    const response = await graph.get(adSet.id, w.token, { fields: 'name,insights.date_preset(maximum){spend,impressions}' });
    expect(response.status, response.text).toBe(200);
    const totals = totalsOf(eventsOfAds(w.tree.ads.filter((a) => a.adsetId === adSet.id).map((a) => a.id)));
    expect(response.body).toEqual({
      id: adSet.id,
      name: adSet.name,
      insights: {
        data: [{ spend: money(totals.spend), impressions: String(totals.impressions), date_start: expect.any(String), date_stop: dayAgo(0) }],
        paging: expect.any(Object),
      },
    });
  });

  it("the read's date_preset and time_range scope it; an expansion's own window wins", async () => {
    const adSet = w.tree.adSets[0]!;
    const today = await graph.get(adSet.id, w.token, { fields: 'name,insights{impressions}', date_preset: 'today' });
    expect(today.status, today.text).toBe(200);
    expect(today.body).toEqual({ id: adSet.id, name: adSet.name });
    const week = await graph.get(adSet.id, w.token, { fields: 'insights{impressions}', date_preset: 'last_7d' });
    expect(week.body.insights.data).toHaveLength(1);
    const day = dayAgo(DELIVERY_DAYS[0]!);
    const ranged = await graph.get(adSet.id, w.token, { fields: 'insights{impressions}', time_range: { since: day, until: day } });
    expect(ranged.body.insights.data[0]).toMatchObject({ date_start: day, date_stop: day });
    const own = await graph.get(adSet.id, w.token, { fields: 'insights.date_preset(last_7d){impressions}', date_preset: 'today' });
    expect(own.body.insights.data).toHaveLength(1);
    // An invalid time_range of the read is ignored, as before: the default window.
    const invalid = await graph.get(adSet.id, w.token, { fields: 'insights{impressions}', time_range: { since: day, until: dayAgo(9) } });
    expect(invalid.status, invalid.text).toBe(200);
    expect(invalid.body.insights.data[0]).toMatchObject({ date_stop: dayAgo(1) });
  });

  it('on the objects of an edge, with modifiers (time_increment, level)', async () => {
    const response = await graph.get(`${act()}/campaigns`, w.token, { fields: 'name,insights.time_increment(1).date_preset(last_7d){impressions}' });
    expect(response.status, response.text).toBe(200);
    for (const campaign of response.body.data) expect(campaign.insights.data).toHaveLength(DELIVERY_DAYS.length);
    const levels = await graph.get(act(), w.token, { fields: 'insights.level(adset).date_preset(last_7d){adset_id,spend}' });
    expect(levels.body.insights.data).toHaveLength(w.tree.adSets.length);
  });

  it('bad modifiers are error 100 naming them', async () => {
    const response = await graph.get(w.tree.adSets[0]!.id, w.token, { fields: 'insights.breakdowns(bogus){spend}' });
    expectGraphError(response, { status: 400, code: 100, message: /breakdowns/ });
  });
});

describe('bad input: error 100 naming the parameter, never a 500', () => {
  const bad: Array<[string, Record<string, unknown>, RegExp]> = [
    ['an unknown field', { fields: 'impressions,bogus_field' }, /bogus_field/],
    ['an unknown level', { level: 'organization' }, /level/],
    ['an unknown date_preset', { date_preset: 'last_5d' }, /date_preset/],
    ['time_range that is not JSON', { time_range: '{"since":"2026-01-01",' }, /time_range/],
    ['time_range without until', { time_range: { since: '2026-01-01' } }, /time_range/],
    ['time_range with since after until', { time_range: { since: dayAgo(2), until: dayAgo(5) } }, /time_range/],
    ['time_range with a day that does not exist', { time_range: { since: '2026-02-30', until: '2026-03-01' } }, /time_range/],
    ['time_range that ends before the account and 37 months back', { time_range: { since: '2015-01-01', until: '2015-01-31' } }, /time_range/],
    ['time_ranges that is not a list', { time_ranges: { since: dayAgo(2), until: dayAgo(1) } }, /time_ranges/],
    ['time_increment=0', { time_increment: 0 }, /time_increment/],
    ['time_increment=91', { time_increment: 91 }, /time_increment/],
    ['time_increment=weekly', { time_increment: 'weekly' }, /time_increment/],
    ['an unknown breakdown', { breakdowns: 'age,hair_color' }, /breakdowns/],
    ['breakdowns no family serves', { breakdowns: 'age,country' }, /breakdown columns \(age, country\) is invalid/],
    ['an unknown action_breakdowns', { action_breakdowns: 'action_device' }, /action_breakdowns/],
    ['filtering that is not JSON', { filtering: '[{"field":"campaign.id",' }, /filtering/],
    ['filtering that is not a list', { filtering: 'campaign.id=1' }, /filtering/],
    ['filtering without an operator', { filtering: [{ field: 'campaign.id', value: ['1'] }] }, /filtering/],
    ['filtering with an unknown operator', { filtering: [{ field: 'campaign.id', operator: 'LIKE', value: ['1'] }] }, /filtering/],
    ['filtering nested beyond the JSON limits', { filtering: `${'['.repeat(100)}${']'.repeat(100)}` }, /filtering/],
    ['an unknown sort', { sort: 'spend_sideways' }, /sort/],
    ['limit over the maximum', { limit: 1000 }, /limit/],
    ['an after cursor this API did not write', { after: 'not-a-cursor' }, /after/],
  ];
  it.each(bad)('%s', async (_name, query, names) => {
    const response = await graph.get(`${act()}/insights`, w.token, query);
    expectGraphError(response, { status: 400, code: 100, message: names });
  });

  it('a fields list that does not parse is error 2500, as every read answers it', async () => {
    expectGraphError(await graph.get(`${act()}/insights`, w.token, { fields: 'impressions,{' }), { status: 400, code: 2500, message: /Syntax error/ });
  });

  it("level=campaign on an ad set's insights (a level above the object) is error 100 naming level", async () => {
    const response = await graph.get(`${w.tree.adSets[0]!.id}/insights`, w.token, { level: 'campaign' });
    expectGraphError(response, { status: 400, code: 100, message: /level/ });
  });

  it('statistics follow the read permissions of their object: an auditor reads them, a moderator is refused as reading the object is', async () => {
    const world = worldBuilder(server.deps);
    const auditor = (await world.user({ organizationId: w.tree.account.organizationId, role: 'auditor' })).token;
    expect((await insights(act(), { fields: 'impressions', time_range: RANGE() }, auditor)).data).toHaveLength(1);
    const moderator = (await world.user({ organizationId: w.tree.account.organizationId, role: 'moderator' })).token;
    for (const id of [act(), w.tree.campaigns[0]!.id, w.tree.adSets[0]!.id, w.tree.ads[0]!.id]) {
      const object = await graph.get(id, moderator, { fields: 'name' });
      const statistics = await graph.get(`${id}/insights`, moderator);
      expect(object.status).toBeGreaterThanOrEqual(400);
      expect({ status: statistics.status, code: statistics.body.error?.code, subcode: statistics.body.error?.error_subcode }).toEqual({
        status: object.status,
        code: object.body.error.code,
        subcode: object.body.error.error_subcode,
      });
    }
  });

  it("another organization's object answers as missing (100/33); no token is 190", async () => {
    const foreign = w.other.adSets[0]!.id;
    expectGraphError(await graph.get(`${foreign}/insights`, w.token), { status: 400, code: 100, subcode: 33, message: UNKNOWN_OBJECT(foreign) });
    expectGraphError(await graph.get(`${act()}/insights`, undefined), { status: 400, code: 190 });
  });

  it('POST and DELETE of the synchronous edge are not this part’s: refused, not a 500', async () => {
    const response = await graph.call('DELETE', `/v24.0/${act()}/insights`, { token: w.token });
    expectGraphError(response, { status: 400, code: 100, subcode: 33 });
  });
});
