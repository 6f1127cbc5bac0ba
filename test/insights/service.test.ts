import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRequestContext, type RequestContext } from '../../src/context/index.ts';
import { restorePrincipal } from '../../src/identity/principals.ts';
import { ANONYMOUS, type Principal } from '../../src/authz/policy.ts';
import { DomainError } from '../../src/errors/index.ts';
import type { AdRecord } from '../../src/ads/store.ts';
import { allInsights, insightsReport } from '../../src/insights/service.ts';
import type { Breakdown, InsightsLevel, InsightsPage, InsightsQuery, InsightsRow, InsightsTarget } from '../../src/insights/query.ts';
import { metricOf, printRatio } from '../../src/insights/rules/metrics.ts';
import { SPARSE_LIMIT } from '../../src/insights/sketch.ts';
import { adTree, importLines, statsTestBed, type AdTree } from '../helpers/insights.ts';
import { countStatements } from '../helpers/database.ts';
import { expectedBy, importLine, peoplePool, personDelivery, random, rowKey, type DayEvent, type Expected } from './oracle.ts';

// The reports engine through its service, on worlds imported through the real import (test/helpers/insights.ts),
// checked against exact answers computed from the raw events (test/insights/oracle.ts).

/** 22:00 on Sunday 2026-03-15 in Los Angeles (PDT since the 8th), already Monday the 16th in UTC. */
const NOW = new Date('2026-03-16T05:00:00Z');
const LA_DAYS = Array.from({ length: 14 }, (_, i) => `2026-03-${String(i + 2).padStart(2, '0')}`);
const DST_DAY = '2026-03-08';

/** An ISO time of a Los Angeles wall-clock time, with the offset in force then (PST until 02:00 on the 8th, PDT after). */
const laTime = (day: string, clock: string) => `${day}T${clock}:00${day < DST_DAY || (day === DST_DAY && clock < '02:00') ? '-08:00' : '-07:00'}`;

let bed: Awaited<ReturnType<typeof statsTestBed>>;
let la: AdTree;
let tokyo: AdTree;
let foreign: AdTree;
let laEvents: DayEvent[];
let tokyoEvents: DayEvent[];
let fallBack: AdTree;
let viewer: Principal;
let member: Principal;
let outsider: Principal;
let organizationId: string;

function deliveryFor(
  ad: AdRecord,
  seed: number,
  days: readonly string[],
  perDay: number,
  poolSize: number,
  time: (day: string, i: number) => string,
): DayEvent[] {
  const rand = random(seed);
  const pool = peoplePool(`p${seed}`, poolSize, rand);
  const events: DayEvent[] = [];
  for (const day of days) {
    for (let i = 0; i < perDay; i++) events.push(...personDelivery(ad, pool[Math.floor(rand() * pool.length)]!, time(day, i), rand));
  }
  return events;
}

beforeAll(async () => {
  bed = await statsTestBed();
  bed.deps.clock = () => NOW;
  const org = await bed.world.organization();
  const other = await bed.world.organization();
  la = await adTree(bed.world, org.id, { campaigns: 2, adSetsPerCampaign: 2, adsPerAdSet: 2, account: { timezoneName: 'America/Los_Angeles' } });
  tokyo = await adTree(bed.world, org.id, { account: { timezoneName: 'Asia/Tokyo', currency: 'JPY' } });
  foreign = await adTree(bed.world, other.id, {});
  const hourly = (day: string, i: number) => laTime(day, `${String(3 + (i % 20)).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}`);
  laEvents = la.ads.flatMap((ad, index) =>
    deliveryFor(
      ad,
      index + 1,
      // The last ad delivers every other day only: its empty days have no row.
      index === la.ads.length - 1 ? LA_DAYS.filter((_, i) => i % 2 === 0) : LA_DAYS,
      25,
      60,
      hourly,
    ),
  );
  // Thousands of people over three days: the merged sketches turn dense (estimated, within 2%).
  laEvents.push(...deliveryFor(la.ads[0]!, 100, ['2026-03-12', '2026-03-13', '2026-03-14'], 2000, 6000, hourly));
  // The daylight-saving day's first and last minutes (23 hours apart) are one day; so are late Saturday evenings.
  const rand = random(7);
  const [late] = peoplePool('late', 1, rand);
  laEvents.push(...personDelivery(la.ads[1]!, late!, laTime(DST_DAY, '00:30'), rand, 11));
  laEvents.push(...personDelivery(la.ads[1]!, late!, laTime(DST_DAY, '23:30'), rand, 13));
  laEvents.push(...personDelivery(la.ads[2]!, late!, laTime('2026-03-14', '23:30'), rand, 17));
  tokyoEvents = deliveryFor(
    tokyo.ads[0]!,
    50,
    ['2026-03-10', '2026-03-11', '2026-03-12'],
    40,
    70,
    (day, i) => `${day}T${String(1 + (i % 20)).padStart(2, '0')}:00:00+09:00`,
  );
  // 2025-11-02 in Los Angeles has 25 hours (PDT until 02:00, PST after): its first and last minutes are one day.
  fallBack = await adTree(bed.world, org.id, { account: { timezoneName: 'America/Los_Angeles' } });
  const fallBackEvents = ['2025-11-01T23:30:00-07:00', '2025-11-02T00:30:00-07:00', '2025-11-02T23:30:00-08:00', '2025-11-03T00:10:00-08:00'].map((time) => ({
    type: 'impression',
    ad_id: fallBack.ads[0]!.id,
    time,
    person: `fall-${time}`,
    spend: 100,
  }));
  const foreignEvents = deliveryFor(foreign.ads[0]!, 60, LA_DAYS.slice(0, 5), 10, 20, (day) => `${day}T12:00:00Z`);
  await importLines(bed.deps, [...[...laEvents, ...tokyoEvents, ...foreignEvents].map(importLine), ...fallBackEvents]);
  await bed.deps.db('ads').where({ id: la.ads[5]!.id }).update({ status: 'PAUSED' });
  const { user } = await bed.world.user({ organizationId: org.id, role: 'auditor' });
  viewer = (await restorePrincipal(bed.deps, { kind: 'user', userId: user.id }))!;
  organizationId = org.id;
  const { user: plain } = await bed.world.user({ organizationId: org.id, role: 'member' });
  member = (await restorePrincipal(bed.deps, { kind: 'user', userId: plain.id }))!;
  const { user: stranger } = await bed.world.user({ organizationId: other.id, role: 'admin' });
  outsider = (await restorePrincipal(bed.deps, { kind: 'user', userId: stranger.id }))!;
}, 120_000);
afterAll(() => bed?.close());

const ctxFor = (principal: Principal = viewer): RequestContext => createRequestContext(bed.deps, { requestId: 'insights-test', viewer: principal });
const query = (fields: Partial<InsightsQuery> = {}): InsightsQuery => ({
  fields: ['impressions', 'reach', 'frequency', 'clicks', 'unique_clicks', 'inline_link_clicks', 'spend', 'actions', 'action_values'],
  breakdowns: [],
  actionBreakdowns: ['action_type'],
  filtering: [],
  sort: [],
  ...fields,
});
const account = (tree: AdTree = la): InsightsTarget => ({ kind: 'account', id: tree.account.id });
const report = (target: InsightsTarget, q: Partial<InsightsQuery> = {}, limit = 500, summary = false, ctx = ctxFor()) =>
  insightsReport(ctx, target, query(q), { limit }, { summary });

/** Every row of a report, page by page forward. */
async function allPages(target: InsightsTarget, q: Partial<InsightsQuery>, limit: number): Promise<{ rows: InsightsRow[]; pages: InsightsPage[] }> {
  const pages: InsightsPage[] = [];
  let after: string | undefined;
  do {
    const page = await insightsReport(ctxFor(), target, query(q), { limit, after });
    pages.push(page);
    after = page.hasNext ? page.after : undefined;
  } while (after);
  return { rows: pages.flatMap((p) => p.rows), pages };
}

/** Every row of a report read backward from its last page: the rows before it, a page at a time, and that page. */
async function backwardFromLast(target: InsightsTarget, q: Partial<InsightsQuery>, limit: number): Promise<InsightsRow[]> {
  const last = (await allPages(target, q, limit)).pages.at(-1)!;
  const pages: InsightsRow[][] = [last.rows];
  let before = last.hasPrevious ? last.before : undefined;
  while (before) {
    const page = await insightsReport(ctxFor(), target, query(q), { limit, before });
    pages.unshift(page.rows);
    before = page.hasPrevious ? page.before : undefined;
  }
  return pages.flat();
}

const asRecord = (stats: InsightsRow['actions']) => Object.fromEntries(stats.map((s) => [s.actionType, s.value]));

/** A row against the exact answer: sums exact, people within 2%, frequency impressions / reach. */
function expectMatches(row: InsightsRow, expected: Expected | undefined, what: string) {
  expect(expected, what).toBeDefined();
  const exact = expected!;
  expect({ impressions: row.impressions, clicks: row.clicks, inlineLinkClicks: row.inlineLinkClicks, spend: row.spend }, what).toEqual({
    impressions: exact.impressions,
    clicks: exact.clicks,
    inlineLinkClicks: exact.inlineLinkClicks,
    spend: exact.spend,
  });
  expect(asRecord(row.actions), what).toEqual(exact.actions);
  expect(asRecord(row.actionValues), what).toEqual(exact.actionValues);
  const reach = row.reach ?? NaN;
  expect(Math.abs(reach - exact.reach), `${what}: reach ${row.reach} vs ${exact.reach}`).toBeLessThanOrEqual(exact.reach * 0.02);
  expect(Math.abs((row.uniqueClicks ?? NaN) - exact.uniqueClicks), `${what}: unique clicks`).toBeLessThanOrEqual(exact.uniqueClicks * 0.02);
  if (reach > 0) expect(metricOf(row, 'frequency')?.printed).toBe(printRatio(BigInt(row.impressions), BigInt(reach)));
}

const inDays = (since: string, until: string) => (event: DayEvent) => event.day >= since && event.day <= until;
const OBJECTS_OF: Record<InsightsLevel, (tree: AdTree) => Array<{ id: string }>> = {
  account: (tree) => [tree.account],
  campaign: (tree) => tree.campaigns,
  adset: (tree) => tree.adSets,
  ad: (tree) => tree.ads,
};
const idOf = (row: InsightsRow, level: InsightsLevel) => ({ account: row.accountId, campaign: row.campaignId, adset: row.adsetId, ad: row.adId })[level]!;

describe('levels', () => {
  it.each<InsightsLevel>(['account', 'campaign', 'adset', 'ad'])('level=%s on the account, last 7 days: one row per object, sums exact', async (level) => {
    const page = await report(account(), { level, datePreset: 'last_7d', fields: [...query().fields, 'campaign_name', 'adset_name', 'ad_name'] });
    const expected = expectedBy(laEvents.filter(inDays('2026-03-08', '2026-03-14')), rowKey(level, la.account.id));
    expect(page.rows.map((row) => idOf(row, level))).toEqual(OBJECTS_OF[level](la).map((o) => o.id));
    for (const row of page.rows) {
      expect([row.dateStart, row.dateStop]).toEqual(['2026-03-08', '2026-03-14']);
      expect(row.accountCurrency).toBe('USD');
      expectMatches(row, expected.get(idOf(row, level)), `${level} ${idOf(row, level)}`);
    }
    if (level === 'ad') {
      const ad = la.ads[3]!;
      expect(page.rows[3]).toMatchObject({ adId: ad.id, adName: ad.name, adsetId: ad.adsetId, campaignId: ad.campaignId, objective: 'OUTCOME_TRAFFIC' });
      expect(page.rows[3]!.adsetName).toBe(la.adSets.find((s) => s.id === ad.adsetId)!.name);
    }
  });

  it('a campaign, an ad set and an ad read their own delivery, and their children', async () => {
    const campaign = la.campaigns[1]!;
    const byAdSet = expectedBy(laEvents.filter(inDays('2026-03-02', '2026-03-15')), rowKey('adset', la.account.id));
    const page = await report({ kind: 'campaign', id: campaign.id }, { level: 'adset', datePreset: 'maximum' });
    expect(page.rows.map((r) => r.adsetId)).toEqual(la.adSets.filter((s) => s.campaignId === campaign.id).map((s) => s.id));
    for (const row of page.rows) expectMatches(row, byAdSet.get(row.adsetId!), `ad set ${row.adsetId}`);
    const ad = la.ads[2]!;
    const own = await report({ kind: 'ad', id: ad.id }, { datePreset: 'maximum', level: 'ad' });
    expect(own.rows).toHaveLength(1);
    expectMatches(own.rows[0]!, expectedBy(laEvents, rowKey('ad', la.account.id)).get(ad.id), 'ad');
  });

  it('a level above the target is error 100 naming level', async () => {
    await expect(report({ kind: 'adset', id: la.adSets[0]!.id }, { level: 'campaign' })).rejects.toMatchObject({ code: 'BAD_USER_INPUT', field: 'level' });
  });
});

describe('days', () => {
  it("yesterday is the account's yesterday: Los Angeles' Saturday, though UTC is already Monday", async () => {
    const page = await report(account(), { datePreset: 'yesterday' });
    expect(page.rows.map((r) => [r.dateStart, r.dateStop])).toEqual([['2026-03-14', '2026-03-14']]);
    expectMatches(page.rows[0]!, expectedBy(laEvents.filter(inDays('2026-03-14', '2026-03-14')), () => 'all').get('all'), 'yesterday');
  });

  it('the daylight-saving day (23 hours) is one row with every event of it', async () => {
    const page = await report({ kind: 'ad', id: la.ads[1]!.id }, { timeRange: { since: '2026-03-07', until: '2026-03-09' }, timeIncrement: 1 });
    expect(page.rows.map((r) => r.dateStart)).toEqual(['2026-03-07', DST_DAY, '2026-03-09']);
    const expected = expectedBy(
      laEvents.filter((e) => e.ad_id === la.ads[1]!.id),
      (e) => e.day,
    );
    for (const row of page.rows) expectMatches(row, expected.get(row.dateStart), row.dateStart);
  });

  it('the day clocks fall back (25 hours) is one row too', async () => {
    const page = await report(account(fallBack), { timeRange: { since: '2025-11-01', until: '2025-11-03' }, timeIncrement: 1 });
    expect(page.rows.map((r) => [r.dateStart, r.impressions, r.reach, r.spend])).toEqual([
      ['2025-11-01', 1, 1, 100],
      ['2025-11-02', 2, 2, 200],
      ['2025-11-03', 1, 1, 100],
    ]);
  });

  it('time_increment=1: a row per day with delivery, empty days left out', async () => {
    const lastAd = la.ads.at(-1)!;
    const page = await report({ kind: 'ad', id: lastAd.id }, { datePreset: 'maximum', timeIncrement: 1 });
    expect(page.rows.map((r) => r.dateStart)).toEqual(LA_DAYS.filter((_, i) => i % 2 === 0));
    for (const row of page.rows) expect(row.dateStop).toBe(row.dateStart);
  });

  it.each<[InsightsQuery['timeIncrement'], Array<[string, string]>]>([
    [
      7,
      [
        ['2026-02-10', '2026-02-16'],
        ['2026-02-17', '2026-02-23'],
        ['2026-02-24', '2026-03-02'],
        ['2026-03-03', '2026-03-09'],
        ['2026-03-10', '2026-03-15'],
      ],
    ],
    [
      'monthly',
      [
        ['2026-02-10', '2026-02-28'],
        ['2026-03-01', '2026-03-15'],
      ],
    ],
  ])('time_increment=%s cuts the range (up to today) into buckets, each summed and its people merged', async (increment, buckets) => {
    const page = await report(account(), { timeRange: { since: '2026-02-10', until: '2026-03-20' }, timeIncrement: increment });
    // Buckets without delivery (before the 2nd) have no row.
    expect(page.rows.map((r) => [r.dateStart, r.dateStop])).toEqual(buckets.filter(([, until]) => until >= '2026-03-02'));
    for (const row of page.rows) {
      expectMatches(row, expectedBy(laEvents.filter(inDays(row.dateStart, row.dateStop)), () => 'all').get('all'), row.dateStart);
    }
  });

  it('time_ranges: one row group per range, overlapping ones each whole', async () => {
    const ranges = [
      { since: '2026-03-02', until: '2026-03-08' },
      { since: '2026-03-05', until: '2026-03-14' },
    ];
    const page = await report(account(), { timeRanges: ranges, timeIncrement: 1 });
    expect(page.rows.map((r) => [r.dateStart, r.dateStop])).toEqual(ranges.map((r) => [r.since, r.until]));
    for (const row of page.rows) expectMatches(row, expectedBy(laEvents.filter(inDays(row.dateStart, row.dateStop)), () => 'all').get('all'), row.dateStart);
  });

  it('data_maximum is the first to the last day with data; maximum reads 37 months back', async () => {
    const data = await report(account(), { datePreset: 'data_maximum' });
    expect([data.rows[0]!.dateStart, data.rows[0]!.dateStop]).toEqual(['2026-03-02', '2026-03-15']);
    const maximum = await report(account(), { datePreset: 'maximum' });
    expect([maximum.rows[0]!.dateStart, maximum.rows[0]!.dateStop]).toEqual(['2023-02-15', '2026-03-15']);
    const exact = expectedBy(laEvents, () => 'all').get('all')!;
    // Past the sketch's exact sparse form: this reach is an estimate, and still within 2%.
    expect(exact.reach).toBeGreaterThan(SPARSE_LIMIT);
    expectMatches(maximum.rows[0]!, exact, 'maximum');
  });

  it.each<[Partial<InsightsQuery>, string]>([
    [{ timeRange: { since: '2026-03-09', until: '2026-03-08' } }, 'time_range'],
    [{ timeRange: { since: '2026-02-31', until: '2026-03-08' } }, 'time_range'],
    [{ timeRange: { since: '2025-01-01', until: '2025-02-01' } }, 'time_range'],
    [
      {
        timeRanges: [
          { since: '2026-03-02', until: '2026-03-03' },
          { since: 'soon', until: '2026-03-03' },
        ],
      },
      'time_ranges',
    ],
    [{ timeIncrement: 0 }, 'time_increment'],
    [{ timeIncrement: 91 }, 'time_increment'],
  ])('%j is error 100 naming %s', async (q, field) => {
    await expect(report(account(), q)).rejects.toMatchObject({ code: 'BAD_USER_INPUT', field });
  });
});

describe('breakdowns', () => {
  it.each<Breakdown[]>([
    ['age'],
    ['gender'],
    ['age', 'gender'],
    ['country'],
    ['publisher_platform'],
    ['publisher_platform', 'platform_position'],
    ['device_platform'],
    ['publisher_platform', 'platform_position', 'device_platform'],
    ['publisher_platform', 'device_platform'],
  ])('breakdowns=%j at ad set level: a row per value, sums exact, people per value', async (...breakdowns) => {
    const page = await report(account(), { level: 'adset', breakdowns, datePreset: 'last_14d' });
    const expected = expectedBy(laEvents.filter(inDays('2026-03-01', '2026-03-14')), rowKey('adset', la.account.id, breakdowns));
    expect(page.rows).toHaveLength(expected.size);
    for (const row of page.rows) {
      const key = [row.adsetId, ...breakdowns.map((b) => row.breakdownValues[b])].join('|');
      expectMatches(row, expected.get(key), key);
      expect(Object.keys(row.breakdownValues).sort()).toEqual([...breakdowns].sort());
    }
  });

  it('a combination the platform does not allow is error 100 naming breakdowns', async () => {
    await expect(report(account(), { breakdowns: ['age', 'country'] })).rejects.toMatchObject({ code: 'BAD_USER_INPUT', field: 'breakdowns' });
  });
});

describe('filtering, sorting, summary', () => {
  it('campaign.id IN: only that campaign\u2019s ads, summed up to the account when the level is coarser', async () => {
    const campaign = la.campaigns[0]!;
    const filtering = [{ field: 'campaign.id', operator: 'IN', value: [campaign.id] }];
    const ads = await report(account(), { level: 'ad', filtering, datePreset: 'maximum' });
    expect(ads.rows.map((r) => r.adId)).toEqual(la.ads.filter((a) => a.campaignId === campaign.id).map((a) => a.id));
    const whole = await report(account(), { filtering, datePreset: 'maximum' });
    expectMatches(
      whole.rows[0]!,
      expectedBy(
        laEvents.filter((e) => e.campaign_id === campaign.id),
        () => 'all',
      ).get('all'),
      'account of one campaign',
    );
  });

  it("another organization's ids match nothing", async () => {
    for (const field of ['campaign.id', 'adset.id', 'ad.id']) {
      const id = { 'campaign.id': foreign.campaigns[0]!.id, 'adset.id': foreign.adSets[0]!.id, 'ad.id': foreign.ads[0]!.id }[field]!;
      const page = await report(account(), { level: 'ad', filtering: [{ field, operator: 'IN', value: [id] }], datePreset: 'maximum' }, 500, true);
      expect(page.rows).toEqual([]);
      expect(page.summary).toMatchObject({ impressions: 0, spend: 0, reach: 0 });
    }
  });

  it('ad.effective_status: the paused ad only, or every other one', async () => {
    const paused = await report(account(), {
      level: 'ad',
      filtering: [{ field: 'ad.effective_status', operator: 'IN', value: ['PAUSED'] }],
      datePreset: 'maximum',
    });
    expect(paused.rows.map((r) => r.adId)).toEqual([la.ads[5]!.id]);
    const others = await report(account(), {
      level: 'ad',
      filtering: [{ field: 'ad.effective_status', operator: 'NOT_IN', value: ['PAUSED'] }],
      datePreset: 'maximum',
    });
    expect(others.rows.map((r) => r.adId)).toEqual(la.ads.filter((_, i) => i !== 5).map((a) => a.id));
  });

  it('campaign and ad set effective statuses filter too', async () => {
    const active = await report(account(), {
      level: 'ad',
      filtering: [{ field: 'campaign.effective_status', operator: 'IN', value: ['ACTIVE'] }],
      datePreset: 'maximum',
    });
    expect(active.rows.map((r) => r.adId)).toEqual(la.ads.map((a) => a.id));
    const paused = await report(account(), {
      level: 'adset',
      filtering: [{ field: 'adset.effective_status', operator: 'EQUAL', value: 'PAUSED' }],
      datePreset: 'maximum',
    });
    expect(paused.rows).toEqual([]);
  });

  it('sort by spend descending, and a numeric filter in major units', async () => {
    const expected = expectedBy(laEvents, rowKey('ad', la.account.id));
    const sorted = await report(account(), { level: 'ad', datePreset: 'maximum', sort: [{ field: 'spend', direction: 'descending' }] });
    const spends = sorted.rows.map((r) => r.spend);
    expect(spends).toEqual([...spends].sort((a, b) => b - a));
    expect(sorted.rows.map((r) => r.spend)).toEqual(sorted.rows.map((r) => expected.get(r.adId!)!.spend));
    const threshold = spends[3]! / 100;
    const big = await report(
      account(),
      { level: 'ad', datePreset: 'maximum', filtering: [{ field: 'spend', operator: 'GREATER_THAN', value: threshold }] },
      500,
      true,
    );
    expect(big.rows.map((r) => r.adId).sort()).toEqual(
      sorted.rows
        .slice(0, 3)
        .map((r) => r.adId)
        .sort(),
    );
    expect(big.summary!.spend).toBe(spends.slice(0, 3).reduce((a, b) => a + b, 0));
  });

  it('the summary: totals of the whole result with people merged, not summed', async () => {
    const page = await report(account(), { level: 'ad', timeIncrement: 1, datePreset: 'last_7d' }, 5, true);
    expect(page.rows).toHaveLength(5);
    const exact = expectedBy(laEvents.filter(inDays('2026-03-08', '2026-03-14')), () => 'all').get('all')!;
    expect([page.summary!.dateStart, page.summary!.dateStop]).toEqual(['2026-03-08', '2026-03-14']);
    expectMatches(page.summary!, exact, 'summary');
    const summedReach = [...expectedBy(laEvents.filter(inDays('2026-03-08', '2026-03-14')), (e) => `${e.ad_id}|${e.day}`).values()].reduce(
      (a, b) => a + b.reach,
      0,
    );
    expect(page.summary!.reach).toBeLessThan(summedReach * 0.9);
  });

  it('bad filtering and sort are error 100 naming them', async () => {
    await expect(report(account(), { filtering: [{ field: 'campaign.id', operator: 'CONTAIN', value: '1' }] })).rejects.toMatchObject({ field: 'filtering' });
    await expect(report(account(), { sort: [{ field: 'ad_name', direction: 'ascending' }] })).rejects.toMatchObject({ field: 'sort' });
    await expect(report(account(), { fields: ['impressions', 'nope'] })).rejects.toMatchObject({ field: 'fields' });
    await expect(report(account(), { actionBreakdowns: ['action_device' as never] })).rejects.toMatchObject({ field: 'action_breakdowns' });
  });
});

describe('paging', () => {
  it('level=ad by day pages forward and back through every row once, in order', async () => {
    const q = { level: 'ad' as const, timeIncrement: 1, datePreset: 'maximum' as const };
    const whole = (await report(account(), q)).rows;
    expect(whole.length).toBeGreaterThan(100);
    const { rows, pages } = await allPages(account(), q, 9);
    expect(rows).toEqual(whole);
    expect(pages.every((p, i) => p.rows.length === 9 || i === pages.length - 1)).toBe(true);
    expect(pages[0]!.hasPrevious).toBe(false);
    expect(pages.at(-1)!.hasNext).toBe(false);
    // Backward from the last page's first row: the rows before it, a page at a time.
    let before = pages.at(-1)!.before;
    const backward: InsightsRow[][] = [];
    while (before) {
      const page = await insightsReport(ctxFor(), account(), query(q), { limit: 9, before });
      backward.unshift(page.rows);
      before = page.hasPrevious ? page.before : undefined;
    }
    expect([...backward.flat(), ...pages.at(-1)!.rows]).toEqual(whole);
  });

  it('pages cut within an object and within a bucket of breakdown values', async () => {
    const q = { level: 'adset' as const, timeIncrement: 1, datePreset: 'last_7d' as const, breakdowns: ['age', 'gender'] as Breakdown[] };
    const whole = (await report(account(), q)).rows;
    expect(whole.length).toBeGreaterThan(50);
    expect((await allPages(account(), q, 7)).rows).toEqual(whole);
  });

  /** Rows of insight_facts a piece of work reads. */
  async function factRowsRead(work: () => Promise<unknown>): Promise<number> {
    let rows = 0;
    const listener = (response: unknown, query: { sql: string }) => {
      if (/insight_facts/.test(query.sql) && /impressions/.test(query.sql) && Array.isArray(response)) rows += response.length;
    };
    bed.deps.db.on('query-response', listener);
    try {
      await work();
      return rows;
    } finally {
      bed.deps.db.off('query-response', listener);
    }
  }

  it("an account's report reads the account's own rows: one per day, whatever the number of ads", async () => {
    expect(await factRowsRead(() => report(account(), { datePreset: 'last_7d', timeIncrement: 1 }))).toBe(7);
    expect(await factRowsRead(() => report(account(), { datePreset: 'last_7d' }, 500, true))).toBe(14);
  });

  it('a page of a level=ad report reads the facts of a few objects past the cursor, not the whole result', async () => {
    const q = { level: 'ad' as const, datePreset: 'last_7d' as const };
    const whole = await factRowsRead(() => report(account(), q));
    const first = await insightsReport(ctxFor(), account(), query(q), { limit: 2 });
    const second = await factRowsRead(() => insightsReport(ctxFor(), account(), query(q), { limit: 2, after: first.after }));
    // Two rows wanted: the cursor's object (its rest) and the next few objects' days, at most 4 ads of 7 days.
    expect(second).toBeLessThanOrEqual(4 * 7);
    expect(second).toBeLessThan(whole);
  });

  it('a sorted report pages by position', async () => {
    const q = { level: 'ad' as const, datePreset: 'maximum' as const, sort: [{ field: 'impressions', direction: 'ascending' as const }] };
    const whole = (await report(account(), q)).rows;
    expect((await allPages(account(), q, 3)).rows).toEqual(whole);
  });

  it('allInsights reads every row', async () => {
    const q = query({ level: 'ad', timeIncrement: 1, datePreset: 'maximum' });
    expect(await allInsights(ctxFor(), account(), q)).toEqual((await report(account(), q)).rows);
  });

  it('a cursor not returned by the API is error 100 naming after', async () => {
    await expect(insightsReport(ctxFor(), account(), query(), { limit: 5, after: 'bm90IGEgY3Vyc29y' })).rejects.toMatchObject({ field: 'after' });
    await expect(insightsReport(ctxFor(), account(), query(), { limit: 0 })).rejects.toMatchObject({ field: 'limit' });
    await expect(insightsReport(ctxFor(), account(), query(), { limit: 5, before: 'A'.repeat(5000) })).rejects.toMatchObject({ field: 'before' });
    const sorted = await insightsReport(ctxFor(), account(), query({ sort: [{ field: 'spend', direction: 'ascending' }] }), { limit: 5 });
    // A position in a sorted report is no cursor of an unsorted one.
    await expect(insightsReport(ctxFor(), account(), query(), { limit: 5, after: sorted.after })).rejects.toMatchObject({ field: 'after' });
  });
});

describe('sums by the database (no people asked)', () => {
  const SUMMED = ['impressions', 'clicks', 'inline_link_clicks', 'spend', 'actions', 'action_values', 'ad_name'];
  const overlapping = [
    { since: '2026-03-02', until: '2026-03-08' },
    { since: '2026-03-05', until: '2026-03-14' },
  ];
  it.each<Partial<InsightsQuery>>([
    { level: 'ad', datePreset: 'maximum' },
    { level: 'ad', datePreset: 'maximum', timeIncrement: 7 },
    { level: 'ad', datePreset: 'last_7d', timeIncrement: 1 },
    { level: 'adset', datePreset: 'last_14d', breakdowns: ['age'] },
    { level: 'ad', datePreset: 'maximum', timeIncrement: 'monthly', breakdowns: ['publisher_platform', 'platform_position'] },
    { level: 'campaign', timeRanges: overlapping, breakdowns: ['country'] },
    { level: 'account', datePreset: 'maximum', timeIncrement: 3, filtering: [{ field: 'ad.effective_status', operator: 'IN', value: ['ACTIVE'] }] },
    { level: 'ad', datePreset: 'maximum', sort: [{ field: 'clicks', direction: 'descending' }] },
  ])('%j: the same rows as summing every fact', async (q) => {
    const summed = await report(account(), { ...q, fields: SUMMED });
    const stored = await report(account(), { ...q, fields: [...query().fields, 'ad_name'] });
    expect(summed.rows.length).toBeGreaterThan(0);
    expect(summed.rows).toEqual(stored.rows.map((row) => ({ ...row, reach: null, uniqueClicks: null })));
  });

  it("a campaign's and an ad set's reports by ad day by day: the same rows, page by page", async () => {
    for (const target of [{ kind: 'campaign', id: la.campaigns[1]!.id } as const, { kind: 'adset', id: la.adSets[0]!.id } as const]) {
      const q = { level: 'ad' as const, datePreset: 'maximum' as const, timeIncrement: 1 };
      const stored = await report(target, { ...q, fields: [...query().fields, 'ad_name'] });
      const expected = stored.rows.map((row) => ({ ...row, reach: null, uniqueClicks: null }));
      expect(expected.length).toBeGreaterThan(10);
      expect((await allPages(target, { ...q, fields: SUMMED }, 5)).rows).toEqual(expected);
    }
  });

  it('without actions asked, the rows are the same rows (their actions left empty)', async () => {
    const q = { level: 'ad' as const, datePreset: 'maximum' as const, timeIncrement: 1 };
    const withActions = await report(account(), { ...q, fields: SUMMED });
    const without = await report(account(), { ...q, fields: ['impressions', 'spend', 'ad_name'] });
    expect(without.rows).toEqual(withActions.rows.map((row) => ({ ...row, actions: [], actionValues: [] })));
  });

  it.each<Partial<InsightsQuery>>([
    { level: 'ad', datePreset: 'maximum', timeIncrement: 1 },
    { level: 'adset', datePreset: 'last_14d', timeIncrement: 5, breakdowns: ['publisher_platform', 'platform_position'] },
    { level: 'campaign', datePreset: 'maximum', breakdowns: ['age', 'gender'] },
    { level: 'ad', datePreset: 'maximum', timeIncrement: 'monthly', filtering: [{ field: 'campaign.id', operator: 'NOT_IN', value: ['1'] }] },
  ])('%j pages forward and back through the same rows, in a fixed number of statements', async (q) => {
    const fields = { ...q, fields: SUMMED };
    const whole = (await report(account(), fields)).rows;
    expect(whole.length).toBeGreaterThan(4);
    const { rows, pages } = await allPages(account(), fields, 4);
    expect(rows).toEqual(whole);
    expect(await backwardFromLast(account(), fields, 4)).toEqual(whole);
    const second = await countStatements(bed.deps.db, () => insightsReport(ctxFor(), account(), query(fields), { limit: 4, after: pages[1]!.after }));
    // The rest of the cursor's object, then the next objects' ids and their rows: one statement each, and one each
    // for the actions and their values. Never a statement per object.
    expect(second.statements.filter((sql) => /insight_facts/.test(sql)).length).toBeLessThanOrEqual(7);
  });

  it('a 7-day report by ad moves one row per ad, and pages the same', async () => {
    const q = { level: 'ad' as const, datePreset: 'last_7d' as const, fields: SUMMED };
    let rows = 0;
    const listener = (response: unknown, sent: { sql: string }) => {
      if (/sum\(impressions\)/.test(sent.sql) && Array.isArray(response)) rows += response.length;
    };
    bed.deps.db.on('query-response', listener);
    const whole = await report(account(), q).finally(() => bed.deps.db.off('query-response', listener));
    expect(rows).toBe(la.ads.length);
    expect((await allPages(account(), q, 3)).rows).toEqual(whole.rows);
    // A page of 2 moves 3 summed rows (one to tell whether more follow), not the account's.
    rows = 0;
    bed.deps.db.on('query-response', listener);
    const page = await insightsReport(ctxFor(), account(), query(q), { limit: 2 }).finally(() => bed.deps.db.off('query-response', listener));
    expect(page.rows).toEqual(whole.rows.slice(0, 2));
    expect(rows).toBe(3);
  });
});

describe('money and visibility', () => {
  it('JPY: whole yen, summed exactly', async () => {
    const page = await report(account(tokyo), { datePreset: 'maximum' });
    expectMatches(page.rows[0]!, expectedBy(tokyoEvents, () => 'all').get('all'), 'tokyo');
    expect(page.rows[0]!.accountCurrency).toBe('JPY');
    expect(metricOf(page.rows[0]!, 'spend')!.printed).toBe(String(tokyoEvents.reduce((a, e) => a + (e.spend ?? 0), 0)));
  });

  it('USD: cents summed exactly and printed in dollars', async () => {
    const page = await report(account(), { datePreset: 'maximum' });
    const cents = laEvents.reduce((a, e) => a + (e.spend ?? 0), 0);
    expect(page.rows[0]!.spend).toBe(cents);
    expect(metricOf(page.rows[0]!, 'spend')!.printed).toBe(`${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`);
  });

  it("another organization's object answers as a missing one; signed out is refused", async () => {
    const missing = await report(account(), {}, 5, false, ctxFor(outsider)).catch((error: unknown) => error);
    expect(missing).toBeInstanceOf(DomainError);
    expect(missing).toMatchObject({ code: 'NOT_FOUND' });
    await expect(report({ kind: 'ad', id: '999999999' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(report(account(), {}, 5, false, ctxFor(ANONYMOUS))).rejects.toMatchObject({ code: 'UNAUTHENTICATED' });
    const theirs = await report(account(foreign), { datePreset: 'maximum' }, 5, false, ctxFor(outsider));
    expect(theirs.rows).toHaveLength(1);
  });

  it('statistics follow the read permission of the object: ads_read and roles that read ads, not plain members', async () => {
    const client = (scope: string): Principal => ({
      kind: 'client',
      clientId: `c-${scope}`,
      apiClientId: '1',
      organizationId,
      scopes: new Set([scope]) as never,
    });
    const adsRead = await report({ kind: 'adset', id: la.adSets[0]!.id }, { datePreset: 'maximum' }, 5, false, ctxFor(client('ads_read')));
    expect(adsRead.rows).toHaveLength(1);
    await expect(report(account(), {}, 5, false, ctxFor(client('pages_read_engagement')))).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(report({ kind: 'campaign', id: la.campaigns[0]!.id }, {}, 5, false, ctxFor(member))).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});
