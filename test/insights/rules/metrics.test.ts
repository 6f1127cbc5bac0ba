import { describe, expect, it } from 'vitest';
import { conversionsOf, costPerActionType, metricOf, printMoney, printRatio, type NumericMetric } from '../../../src/insights/rules/metrics.ts';
import type { InsightsRow } from '../../../src/insights/query.ts';

const row = (fields: Partial<InsightsRow>): InsightsRow => ({
  dateStart: '2026-05-01',
  dateStop: '2026-05-01',
  accountId: '1',
  accountName: 'A',
  accountCurrency: 'USD',
  breakdownValues: {},
  impressions: 0,
  reach: 0,
  clicks: 0,
  uniqueClicks: 0,
  inlineLinkClicks: 0,
  spend: 0,
  actions: [],
  actionValues: [],
  ...fields,
});

describe('money as the platform prints it', () => {
  it.each([
    [1230, 'USD', '12.30'],
    [5, 'USD', '0.05'],
    [0, 'USD', '0.00'],
    [-5, 'EUR', '-0.05'],
    [1230, 'JPY', '1230'],
    [987654321, 'KRW', '987654321'],
    [900719925474099, 'USD', '9007199254740.99'],
  ])('%d minor units of %s print %s', (minor, currency, printed) => expect(printMoney(minor, currency)).toBe(printed));

  it('a sum of many cents stays exact (no floating point drift)', () => {
    const total = Array.from({ length: 1000 }, () => 10).reduce((a, b) => a + b, 0);
    expect(printMoney(total, 'USD')).toBe('100.00');
  });
});

describe('ratios: 6 decimals, half up, trailing zeros dropped', () => {
  it.each([
    [2n * 100n, 170n, '1.176471'],
    [1n, 3n, '0.333333'],
    [2n, 3n, '0.666667'],
    [4n, 2n, '2'],
    [417094n, 100000n, '4.17094'],
    [1n, 2000000n, '0.000001'],
    [1n, 2000001n, '0'],
    [-1n, 3n, '-0.333333'],
  ])('%d / %d = %s', (n, d, printed) => expect(printRatio(n, d)).toBe(printed));
  it('a zero denominator has no value', () => expect(printRatio(5n, 0n)).toBeUndefined());
});

describe('derived metrics of a row', () => {
  const usd = row({
    impressions: 11_700,
    reach: 9_000,
    clicks: 170,
    uniqueClicks: 150,
    inlineLinkClicks: 120,
    spend: 4_880,
    actions: [{ actionType: 'lead', value: 7 }],
  });
  const expected: Array<[NumericMetric, string]> = [
    ['impressions', '11700'],
    ['spend', '48.80'],
    ['ctr', '1.452991'],
    ['cpc', '0.287059'],
    ['cpm', '4.17094'],
    ['cpp', '5.422222'],
    ['frequency', '1.3'],
    ['unique_ctr', '1.666667'],
    ['cost_per_unique_click', '0.325333'],
    ['inline_link_click_ctr', '1.025641'],
    ['cost_per_inline_link_click', '0.406667'],
  ];
  it.each(expected)('%s prints %s', (field, printed) => expect(metricOf(usd, field)?.printed).toBe(printed));

  it('JPY has no minor unit: cpc of ¥1,000 over 3 clicks', () => {
    const jpy = row({ accountCurrency: 'JPY', spend: 1000, clicks: 3, impressions: 400 });
    expect(metricOf(jpy, 'spend')?.printed).toBe('1000');
    expect(metricOf(jpy, 'cpc')?.printed).toBe('333.333333');
    expect(metricOf(jpy, 'cpm')?.printed).toBe('2500');
  });

  it('ratios over zero are left out', () => {
    const idle = row({ impressions: 10, spend: 100 });
    for (const field of ['cpc', 'cpp', 'frequency', 'unique_ctr', 'cost_per_unique_click'] as const) expect(metricOf(idle, field)).toBeUndefined();
    expect(metricOf(row({}), 'ctr')).toBeUndefined();
  });

  it('cost per action type', () =>
    expect(costPerActionType({ ...usd, actions: [...usd.actions, { actionType: 'purchase', value: 0 }] })).toEqual([
      { action_type: 'lead', value: '6.971429' },
    ]));
});

describe('conversions', () => {
  it('are the standard conversion events and custom pixel events, not engagement', () =>
    expect(
      conversionsOf([
        { actionType: 'link_click', value: 9 },
        { actionType: 'lead', value: 2 },
        { actionType: 'offsite_conversion.fb_pixel_custom', value: 1 },
        { actionType: 'post_engagement', value: 4 },
        { actionType: 'purchase', value: 3 },
      ]).map((a) => a.actionType),
    ).toEqual(['lead', 'offsite_conversion.fb_pixel_custom', 'purchase']));
});
