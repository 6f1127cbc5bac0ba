import { describe, expect, it } from 'vitest';
import type { DeliveryCell } from '../../src/insights/intake/aggregate.ts';
import { AGE_BRACKETS, GENDERS, PLATFORM_POSITIONS } from '../../src/insights/rules/breakdowns.ts';
import {
  allocate,
  dailyBudgets,
  daysBetween,
  DEFAULT_DAILY_BUDGET_USD,
  PLACEMENTS,
  Random,
  syntheticDelivery,
  type SyntheticAdSet,
  type SyntheticCampaign,
  type SyntheticTargeting,
  type SyntheticWorld,
} from '../../src/insights/synthetic.ts';

/** The synthetic delivery model (src/insights/synthetic.ts), pure: no database. */

const everyone: SyntheticTargeting = { countries: ['US', 'CA'], ageMin: 18, ageMax: 65, genders: [], publisherPlatforms: [], devicePlatforms: [] };
const campaign = (id: string, objective: string, fields: Partial<SyntheticCampaign> = {}): SyntheticCampaign => ({
  id,
  objective,
  dailyBudget: null,
  lifetimeBudget: null,
  startDay: null,
  stopDay: null,
  ...fields,
});
const adSet = (id: string, campaignId: string, fields: Partial<SyntheticAdSet> = {}): SyntheticAdSet => ({
  id,
  campaignId,
  dailyBudget: null,
  lifetimeBudget: null,
  startDay: null,
  endDay: null,
  targeting: everyone,
  ...fields,
});

/** An account with every kind of budget and objective, and targeting that narrows who is reached. */
const WORLD: SyntheticWorld = {
  account: { id: '1001', currency: 'USD', country: 'US' },
  campaigns: [
    campaign('2001', 'OUTCOME_SALES'),
    campaign('2002', 'OUTCOME_TRAFFIC', { dailyBudget: 9_000 }), // shared by its two ad sets
    campaign('2003', 'OUTCOME_AWARENESS'),
    campaign('2004', 'OUTCOME_LEADS', { lifetimeBudget: 120_000, startDay: '2026-03-01', stopDay: '2026-03-30' }),
    campaign('2005', 'OUTCOME_ENGAGEMENT'),
  ],
  adSets: [
    adSet('3001', '2001', { dailyBudget: 5_000 }),
    adSet('3002', '2002', { targeting: { ...everyone, devicePlatforms: ['mobile'], publisherPlatforms: ['instagram'] } }),
    adSet('3003', '2002', { targeting: { ...everyone, countries: ['CA'], ageMin: 35, ageMax: 54, genders: ['female'] } }),
    adSet('3004', '2003', { lifetimeBudget: 70_000, startDay: '2026-03-10', endDay: '2026-03-23' }),
    adSet('3005', '2004'),
    adSet('3006', '2005'), // no budget anywhere
  ],
  ads: [
    { id: '4001', adsetId: '3001' },
    { id: '4002', adsetId: '3001' },
    { id: '4003', adsetId: '3001' },
    { id: '4004', adsetId: '3002' },
    { id: '4005', adsetId: '3003' },
    { id: '4006', adsetId: '3004' },
    { id: '4007', adsetId: '3005' },
    { id: '4008', adsetId: '3006' },
  ],
};
const DAYS = daysBetween('2026-02-15', '2026-04-15');
const adSetOf = new Map(WORLD.ads.map((ad) => [ad.id, ad.adsetId]));
const campaignOf = new Map(WORLD.adSets.map((s) => [s.id, s.campaignId]));
const cells = [...syntheticDelivery(WORLD, { seed: 7, days: DAYS })];

function sumBy<K>(items: DeliveryCell[], key: (cell: DeliveryCell) => K, value: (cell: DeliveryCell) => number): Map<K, number> {
  const sums = new Map<K, number>();
  for (const cell of items) sums.set(key(cell), (sums.get(key(cell)) ?? 0) + value(cell));
  return sums;
}
const people = (items: DeliveryCell[]) => new Set(items.flatMap((cell) => [...(cell.people as number[])]));
const ofAdSet = (id: string) => cells.filter((cell) => adSetOf.get(cell.adId) === id);

describe('allocate', () => {
  it.each([
    [10, [1, 1, 1], [4, 3, 3]],
    [10, [0, 1, 1], [0, 5, 5]],
    [7, [0.5, 0.25, 0.25], [3, 2, 2]],
    [3, [0, 0, 0], [0, 0, 0]],
    [0, [2, 3], [0, 0]],
    [1, [0, 5, 0], [0, 1, 0]],
    [5, [1, 2, 3, 4], [1, 1, 1, 2]],
  ])('shares %i by %j as %j (exactly, a zero weight gets nothing)', (total, weights, expected) => {
    const shares = allocate(total, weights);
    expect(shares).toEqual(expected);
    if (weights.some((w) => w > 0)) expect(shares.reduce((a, b) => a + b, 0)).toBe(total);
  });
});

describe('Random', () => {
  it('is the same sequence for the same seeds and another for others', () => {
    const draw = (...seeds: number[]) => {
      const random = new Random(...seeds);
      return Array.from({ length: 5 }, () => random.uint32());
    };
    expect(draw(1, 2, 3)).toEqual(draw(1, 2, 3));
    expect(draw(1, 2, 3)).not.toEqual(draw(1, 2, 4));
    const random = new Random(9);
    const values = Array.from({ length: 10_000 }, () => random.next());
    expect(Math.min(...values)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...values)).toBeLessThan(1);
    expect(values.reduce((a, b) => a + b, 0) / values.length).toBeCloseTo(0.5, 1);
  });
});

describe('dailyBudgets', () => {
  const plan = (s: SyntheticAdSet, c: SyntheticCampaign, budgetWeight = 1) => ({ adSet: s, campaign: c, budgetWeight });
  it.each([
    ['an ad set daily budget', [plan(adSet('1', 'c', { dailyBudget: 2_500 }), campaign('c', 'X'))], '2026-01-10', { 1: 2_500 }],
    [
      'a lifetime budget over its 10-day schedule',
      [plan(adSet('1', 'c', { lifetimeBudget: 10_005, startDay: '2026-01-01', endDay: '2026-01-10' }), campaign('c', 'X'))],
      '2026-01-05',
      { 1: 1_000 },
    ],
    [
      'nothing outside the schedule',
      [plan(adSet('1', 'c', { lifetimeBudget: 10_000, startDay: '2026-01-01', endDay: '2026-01-10' }), campaign('c', 'X'))],
      '2026-01-11',
      {},
    ],
    [
      'a campaign budget shared by weight',
      [plan(adSet('1', 'c'), campaign('c', 'X', { dailyBudget: 1_000 }), 1), plan(adSet('2', 'c'), campaign('c', 'X', { dailyBudget: 1_000 }), 3)],
      '2026-01-05',
      { 1: 250, 2: 750 },
    ],
    [
      'a campaign budget shared by the ad sets that deliver that day only',
      [
        plan(adSet('1', 'c', { endDay: '2026-01-04' }), campaign('c', 'X', { dailyBudget: 1_000 }), 1),
        plan(adSet('2', 'c'), campaign('c', 'X', { dailyBudget: 1_000 }), 3),
      ],
      '2026-01-05',
      { 2: 1_000 },
    ],
    ['the default where nothing is set', [plan(adSet('1', 'c'), campaign('c', 'X'))], '2026-01-05', { 1: DEFAULT_DAILY_BUDGET_USD * 100 }],
  ])('%s', (_, plans, day, expected) => {
    expect(Object.fromEntries(dailyBudgets(plans, day, '2026-01-01', 'USD'))).toEqual(expected);
  });

  it('converts the default to the currency (JPY has no minor unit)', () => {
    expect(dailyBudgets([plan(adSet('1', 'c'), campaign('c', 'X'))], '2026-01-05', '2026-01-01', 'JPY').get('1')).toBe(DEFAULT_DAILY_BUDGET_USD * 155);
  });
});

describe('syntheticDelivery', () => {
  it('is deterministic: the same seed gives the same cells, another seed others, and overlapping windows agree', () => {
    expect([...syntheticDelivery(WORLD, { seed: 7, days: DAYS })]).toEqual(cells);
    const other = [...syntheticDelivery(WORLD, { seed: 8, days: DAYS })];
    expect(other.map((c) => c.impressions)).not.toEqual(cells.map((c) => c.impressions));
    const lastWeek = DAYS.slice(-7);
    expect([...syntheticDelivery(WORLD, { seed: 7, days: lastWeek })]).toEqual(cells.filter((c) => lastWeek.includes(c.day)));
  });

  it('delivers every ad on the days its schedule allows, and none outside them', () => {
    expect(new Set(cells.map((c) => c.adId))).toEqual(new Set(WORLD.ads.map((ad) => ad.id)));
    const daysOf = (adId: string) => [...new Set(cells.filter((c) => c.adId === adId).map((c) => c.day))].sort();
    expect(daysOf('4006')).toEqual(daysBetween('2026-03-10', '2026-03-23'));
    expect(daysOf('4007')).toEqual(daysBetween('2026-03-01', '2026-03-30'));
    expect(daysOf('4001')).toEqual(DAYS);
  });

  it('never spends more than a budget: ad set daily, lifetime over the schedule, and shared campaign budgets', () => {
    const spendByAdSetDay = sumBy(
      cells,
      (c) => `${adSetOf.get(c.adId)}|${c.day}`,
      (c) => c.spend,
    );
    const budgetOf: Record<string, number> = { 3001: 5_000, 3004: Math.floor(70_000 / 14), 3005: Math.floor(120_000 / 30), 3006: 2_000 };
    for (const [key, spend] of spendByAdSetDay) {
      const id = key.split('|')[0]!;
      if (budgetOf[id] !== undefined) expect(spend, key).toBeLessThanOrEqual(budgetOf[id]);
      expect(spend, key).toBeGreaterThan(0);
    }
    const campaignDay = sumBy(
      cells.filter((c) => campaignOf.get(adSetOf.get(c.adId)!) === '2002'),
      (c) => c.day,
      (c) => c.spend,
    );
    for (const [day, spend] of campaignDay) expect(spend, day).toBeLessThanOrEqual(9_000);
    expect([...campaignDay.values()].reduce((a, b) => a + b, 0) / campaignDay.size).toBeGreaterThan(9_000 * 0.6);
    const lifetime = [...spendByAdSetDay].filter(([key]) => key.startsWith('3004|')).reduce((sum, [, spend]) => sum + spend, 0);
    expect(lifetime).toBeLessThanOrEqual(70_000);
    expect(lifetime).toBeGreaterThan(70_000 * 0.6);
  });

  it('has CPM and CTR in the objective ranges, and cheaper impressions at weekends', () => {
    const byCampaign = (id: string) => cells.filter((c) => campaignOf.get(adSetOf.get(c.adId)!) === id);
    const rates = (items: DeliveryCell[]) => {
      const impressions = items.reduce((sum, c) => sum + c.impressions, 0);
      return {
        cpmUsd: items.reduce((sum, c) => sum + c.spend, 0) / 100 / (impressions / 1000),
        ctr: items.reduce((sum, c) => sum + c.clicks, 0) / impressions,
      };
    };
    const ranges: Record<string, { cpm: [number, number]; ctr: [number, number] }> = {
      2001: { cpm: [8, 22], ctr: [0.008, 0.023] }, // sales
      2002: { cpm: [3.5, 11], ctr: [0.01, 0.032] }, // traffic
      2003: { cpm: [1.7, 6.6], ctr: [0.003, 0.011] }, // awareness
      2004: { cpm: [7, 17.6], ctr: [0.008, 0.025] }, // leads
      2005: { cpm: [2.6, 8.8], ctr: [0.013, 0.04] }, // engagement
    };
    for (const [id, range] of Object.entries(ranges)) {
      const { cpmUsd, ctr } = rates(byCampaign(id));
      expect(cpmUsd, `CPM of campaign ${id}`).toBeGreaterThanOrEqual(range.cpm[0]);
      expect(cpmUsd, `CPM of campaign ${id}`).toBeLessThanOrEqual(range.cpm[1]);
      expect(ctr, `CTR of campaign ${id}`).toBeGreaterThanOrEqual(range.ctr[0]);
      expect(ctr, `CTR of campaign ${id}`).toBeLessThanOrEqual(range.ctr[1]);
    }
    const weekend = (c: DeliveryCell) => [0, 6].includes(new Date(`${c.day}T00:00:00Z`).getUTCDay());
    const sales = byCampaign('2001');
    expect(rates(sales.filter(weekend)).cpmUsd).toBeLessThan(rates(sales.filter((c) => !weekend(c))).cpmUsd * 0.92);
  });

  it('gives actions that fit the objective, each never more than what it follows from', () => {
    const actionsOf = (campaignId: string) => {
      const totals: Record<string, number> = {};
      for (const c of cells.filter((cell) => campaignOf.get(adSetOf.get(cell.adId)!) === campaignId)) {
        for (const [type, n] of Object.entries(c.actions)) totals[type] = (totals[type] ?? 0) + n;
      }
      return Object.keys(totals).sort();
    };
    expect(actionsOf('2001')).toEqual(['landing_page_view', 'link_click', 'post_engagement', 'purchase']);
    expect(actionsOf('2002')).toEqual(['landing_page_view', 'link_click', 'post_engagement']);
    expect(actionsOf('2003')).toEqual(['link_click', 'post_engagement', 'video_view']);
    expect(actionsOf('2004')).toEqual(['landing_page_view', 'lead', 'link_click', 'post_engagement']);
    expect(actionsOf('2005')).toEqual(['link_click', 'post_engagement', 'video_view']);
    // Checked cell by cell (tens of thousands): the cells that break a rule, by rule.
    const broken = (rule: (c: DeliveryCell, a: Record<string, number>) => boolean) => cells.filter((c) => !rule(c, c.actions)).length;
    expect({
      clicks: broken((c) => c.clicks <= c.impressions),
      inlineLinkClicks: broken((c) => c.inlineLinkClicks <= c.clicks),
      linkClickAction: broken((c, a) => (a.link_click ?? 0) === c.inlineLinkClicks),
      landingPageViews: broken((c, a) => (a.landing_page_view ?? 0) <= c.inlineLinkClicks),
      purchases: broken((c, a) => (a.purchase ?? 0) <= (a.landing_page_view ?? 0)),
      postEngagement: broken((c, a) => (a.post_engagement ?? 0) >= c.clicks),
      purchaseValues: broken(
        (c, a) => Object.keys(c.actionValues).join() === (a.purchase ? 'purchase' : '') && (!a.purchase || c.actionValues.purchase! > a.purchase * 2000),
      ),
      wholeNumbers: broken((c, a) =>
        [c.impressions, c.clicks, c.spend, ...Object.values(a), ...Object.values(c.actionValues)].every((n) => Number.isSafeInteger(n) && n >= 0),
      ),
    }).toEqual({
      clicks: 0,
      inlineLinkClicks: 0,
      linkClickAction: 0,
      landingPageViews: 0,
      purchases: 0,
      postEngagement: 0,
      purchaseValues: 0,
      wholeNumbers: 0,
    });
  });

  it('spreads cells over breakdown values the targeting allows', () => {
    const values = (items: DeliveryCell[], key: keyof DeliveryCell) => new Set(items.map((c) => c[key]));
    expect(values(cells, 'age')).toEqual(new Set(AGE_BRACKETS.filter((a) => a !== '13-17')));
    expect(values(cells, 'gender')).toEqual(new Set(GENDERS));
    expect(values(cells, 'country')).toEqual(new Set(['US', 'CA']));
    expect(values(cells, 'devicePlatform')).toEqual(new Set(['mobile', 'desktop']));
    for (const position of values(cells, 'platformPosition')) expect(PLATFORM_POSITIONS).toContain(position);
    expect(values(cells, 'publisherPlatform')).toEqual(new Set(['facebook', 'instagram', 'audience_network', 'messenger']));
    const instagramMobile = ofAdSet('3002');
    expect(values(instagramMobile, 'publisherPlatform')).toEqual(new Set(['instagram']));
    expect(values(instagramMobile, 'devicePlatform')).toEqual(new Set(['mobile']));
    const narrow = ofAdSet('3003');
    expect(values(narrow, 'country')).toEqual(new Set(['CA']));
    expect(values(narrow, 'age')).toEqual(new Set(['35-44', '45-54']));
    expect(values(narrow, 'gender')).toEqual(new Set(['female', 'unknown']));
    // Desktops show only the placements a desktop has.
    const desktopPositions = new Set(PLACEMENTS.filter((p) => p.desktop).map((p) => `${p.publisherPlatform}/${p.platformPosition}`));
    const onDesktop = new Set(cells.filter((c) => c.devicePlatform === 'desktop').map((c) => `${c.publisherPlatform}/${c.platformPosition}`));
    expect([...onDesktop].filter((p) => !desktopPositions.has(p))).toEqual([]);
  });

  it('reaches people, not impressions: distinct in a cell, fewer than impressions, and coming back over days and ads', () => {
    const broken = cells.filter((c) => {
      const list = new Set(c.people as number[]);
      const clickers = c.clickers as number[];
      return (
        list.size !== (c.people as number[]).length ||
        list.size === 0 ||
        list.size > c.impressions ||
        clickers.length > c.clicks ||
        !clickers.every((person) => list.has(person))
      );
    });
    expect(broken).toEqual([]);
    // An ad's day: each person in one cell (one age, gender, country, device and placement).
    const adDay = cells.filter((c) => c.adId === '4001' && c.day === '2026-03-03');
    expect(people(adDay).size).toBe(adDay.reduce((sum, c) => sum + (c.people as number[]).length, 0));
    const reach = adDay.reduce((sum, c) => sum + (c.people as number[]).length, 0);
    const impressions = adDay.reduce((sum, c) => sum + c.impressions, 0);
    expect(impressions / reach).toBeGreaterThan(1.05);
    expect(impressions / reach).toBeLessThan(1.7);

    // A week's reach is less than the sum of its daily reaches, but more than any one day's.
    const sales = ofAdSet('3001');
    const week = daysBetween('2026-03-02', '2026-03-08');
    const daily = week.map((day) => people(sales.filter((c) => c.day === day)).size);
    const weekly = people(sales.filter((c) => week.includes(c.day))).size;
    expect(weekly).toBeLessThan(daily.reduce((a, b) => a + b, 0) * 0.95);
    expect(weekly).toBeGreaterThan(Math.max(...daily) * 2);
    // An ad set's reach is less than the sum of its ads'; 30 days' frequency is plausible.
    const month = sales.filter((c) => c.day >= '2026-03-01' && c.day <= '2026-03-30');
    const byAd = ['4001', '4002', '4003'].map((id) => people(month.filter((c) => c.adId === id)).size);
    const adSetReach = people(month).size;
    expect(adSetReach).toBeLessThan(byAd.reduce((a, b) => a + b, 0));
    const frequency = month.reduce((sum, c) => sum + c.impressions, 0) / adSetReach;
    expect(frequency).toBeGreaterThan(1.5);
    expect(frequency).toBeLessThan(8);
  });
});
