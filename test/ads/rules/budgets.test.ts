import { describe, expect, it } from 'vitest';
import {
  BUDGET_TOO_LOW_SUBCODE,
  bidViolations,
  budgetShapeViolations,
  DEFAULT_HIGH_INCOME_COUNTRIES,
  effectiveBidStrategy,
  minimumBudgetViolations,
  minimumDailyBudget,
  scheduledDays,
  type BudgetContext,
  type BudgetFields,
  type BudgetSettings,
} from '../../../src/ads/rules/budgets.ts';
import { convertUsdCents, DEFAULT_RATES_PER_USD, formatMoney, parseRateTable, type RateTable } from '../../../src/ads/rules/currencies.ts';
import { BILLING_EVENTS, type BidStrategy, type BillingEvent } from '../../../src/ads/rules/enums.ts';

// The specification's Limits section and DECISIONS section 5: minimum daily budgets in US cents.
const NOW = new Date('2026-03-01T12:00:00Z');
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const settings = (rates: RateTable = DEFAULT_RATES_PER_USD): BudgetSettings => ({ rates, highIncomeCountries: DEFAULT_HIGH_INCOME_COUNTRIES });

const fields = (overrides: Partial<BudgetFields> = {}): BudgetFields => ({
  bidStrategy: null,
  bidAmount: null,
  bidConstraints: null,
  billingEvent: null,
  dailyBudget: null,
  lifetimeBudget: null,
  dailyMinSpendTarget: null,
  dailySpendCap: null,
  lifetimeMinSpendTarget: null,
  lifetimeSpendCap: null,
  startTime: null,
  endTime: null,
  ...overrides,
});
const context = (overrides: Partial<BudgetContext> = {}): BudgetContext => ({
  account: { currency: 'USD', country: 'BR' },
  campaign: null,
  settings: settings(),
  now: NOW,
  ...overrides,
});
const campaign = (overrides: Partial<NonNullable<BudgetContext['campaign']>> = {}): NonNullable<BudgetContext['campaign']> => ({
  bidStrategy: null,
  dailyBudget: null,
  lifetimeBudget: null,
  ...overrides,
});

type Column = 'impressions' | 'clicks' | 'low_frequency';
// Which column of the specification's table each billing event is priced by ("clicks, likes or video views";
// the other paid actions are the low-frequency ones; NONE is billed as impressions).
const COLUMN_OF: Array<[BillingEvent, Column]> = [
  ['IMPRESSIONS', 'impressions'],
  ['NONE', 'impressions'],
  ['CLICKS', 'clicks'],
  ['LINK_CLICKS', 'clicks'],
  ['PAGE_LIKES', 'clicks'],
  ['POST_ENGAGEMENT', 'clicks'],
  ['THRUPLAY', 'clicks'],
  ['APP_INSTALLS', 'low_frequency'],
  ['OFFER_CLAIMS', 'low_frequency'],
  ['PURCHASE', 'low_frequency'],
  ['LISTING_INTERACTION', 'low_frequency'],
];

const BID = 300n;
// [strategy, column, minimum for a regular country, minimum for a higher-income country], in US cents.
const MINIMUMS: Array<[BidStrategy, Column, bigint, bigint]> = [
  ['LOWEST_COST_WITHOUT_CAP', 'impressions', 50n, 100n],
  ['LOWEST_COST_WITHOUT_CAP', 'clicks', 250n, 500n],
  ['LOWEST_COST_WITHOUT_CAP', 'low_frequency', 4000n, 4000n], // the one exception to the doubling
  ['LOWEST_COST_WITH_BID_CAP', 'impressions', BID, 2n * BID], // at least the bid
  ['LOWEST_COST_WITH_BID_CAP', 'clicks', 5n * BID, 10n * BID], // 5 x the bid
  ['LOWEST_COST_WITH_BID_CAP', 'low_frequency', 5n * BID, 10n * BID],
  // COST_CAP is not priced by the specification: the first row, with the doubling whose only exception is
  // "low-frequency actions under LOWEST_COST_WITHOUT_CAP" (DECISIONS 5).
  ['COST_CAP', 'impressions', 50n, 100n],
  ['COST_CAP', 'clicks', 250n, 500n],
  ['COST_CAP', 'low_frequency', 4000n, 8000n],
];

const TABLE = MINIMUMS.flatMap(([strategy, column, regular, highIncome]) =>
  COLUMN_OF.filter(([, c]) => c === column).map(([event]) => [strategy, event, regular, highIncome] as const),
);

describe('minimum daily budget (USD)', () => {
  it('prices every billing event', () => {
    expect(COLUMN_OF.map(([event]) => event).sort()).toEqual([...BILLING_EVENTS].sort());
  });

  it.each(TABLE)('%s, billed by %s: %i cents, %i in a higher-income country', (strategy, billingEvent, regular, highIncome) => {
    const input = { bidStrategy: strategy, billingEvent, bidAmount: BID, currency: 'USD' };
    expect(minimumDailyBudget({ ...input, country: 'BR' }, settings())).toBe(regular);
    expect(minimumDailyBudget({ ...input, country: 'US' }, settings())).toBe(highIncome);
  });

  it.each(DEFAULT_HIGH_INCOME_COUNTRIES.map((c) => [c]))('%s is a higher-income country', (country) => {
    expect(
      minimumDailyBudget({ bidStrategy: 'LOWEST_COST_WITHOUT_CAP', billingEvent: 'IMPRESSIONS', bidAmount: null, currency: 'USD', country }, settings()),
    ).toBe(100n);
  });

  it.each(['BR', 'IN', 'MX', 'PL', 'PT'])('%s is not a higher-income country', (country) => {
    expect(
      minimumDailyBudget({ bidStrategy: 'LOWEST_COST_WITHOUT_CAP', billingEvent: 'IMPRESSIONS', bidAmount: null, currency: 'USD', country }, settings()),
    ).toBe(50n);
  });

  it('takes the higher-income list from the settings', () => {
    const onlyBrazil: BudgetSettings = { rates: DEFAULT_RATES_PER_USD, highIncomeCountries: ['BR'] };
    const input = { bidStrategy: 'LOWEST_COST_WITHOUT_CAP' as const, billingEvent: 'CLICKS' as const, bidAmount: null, currency: 'USD' };
    expect(minimumDailyBudget({ ...input, country: 'BR' }, onlyBrazil)).toBe(500n);
    expect(minimumDailyBudget({ ...input, country: 'US' }, onlyBrazil)).toBe(250n);
  });
});

describe('minimum daily budget in other currencies', () => {
  // [currency, rates, billing event, country, minimum in the currency's minor units]
  const ROWS: Array<[string, string, BillingEvent, string, bigint]> = [
    ['EUR cents, exact', 'EUR=0.92', 'IMPRESSIONS', 'BR', 46n], // 0.50 USD x 0.92
    ['EUR cents, clicks', 'EUR=0.92', 'LINK_CLICKS', 'BR', 230n],
    ['EUR cents, low-frequency', 'EUR=0.92', 'PURCHASE', 'BR', 3680n],
    ['EUR cents, doubled', 'EUR=0.92', 'IMPRESSIONS', 'FR', 92n],
    ['EUR rounded up to a whole cent', 'EUR=0.925', 'IMPRESSIONS', 'BR', 47n], // 46.25
    ['EUR rounded up, however little over', 'EUR=0.9201', 'IMPRESSIONS', 'BR', 47n], // 46.005
    ['JPY has no minor unit: rounded up to a whole yen', 'JPY=155', 'IMPRESSIONS', 'BR', 78n], // 77.5
    ['JPY clicks', 'JPY=155', 'CLICKS', 'BR', 388n], // 387.5
    ['JPY low-frequency', 'JPY=155', 'APP_INSTALLS', 'BR', 6200n],
    ['JPY doubled', 'JPY=155', 'IMPRESSIONS', 'JP', 155n],
    ['JPY low-frequency not doubled', 'JPY=155', 'APP_INSTALLS', 'JP', 6200n],
    ['KRW has no minor unit', 'KRW=1380', 'IMPRESSIONS', 'BR', 690n],
    ['KRW clicks', 'KRW=1380', 'THRUPLAY', 'BR', 3450n],
    ['KRW doubled', 'KRW=1380', 'CLICKS', 'KR', 6900n],
    ['KRW rounded up to a whole won', 'KRW=1385.5', 'IMPRESSIONS', 'BR', 693n], // 692.75
    ['the configured rate replaces the default', 'EUR=2', 'IMPRESSIONS', 'BR', 100n],
  ];

  it.each(ROWS)('%s', (_rule, rates, billingEvent, country, expected) => {
    const table = parseRateTable(rates);
    if (typeof table === 'string') throw new Error(table);
    const currency = rates.slice(0, 3);
    expect(minimumDailyBudget({ bidStrategy: 'LOWEST_COST_WITHOUT_CAP', billingEvent, bidAmount: null, currency, country }, settings(table))).toBe(expected);
  });

  it('does not convert a bid cap, which is already in the account currency', () => {
    const input = { bidStrategy: 'LOWEST_COST_WITH_BID_CAP' as const, bidAmount: 300n, currency: 'JPY' };
    expect(minimumDailyBudget({ ...input, billingEvent: 'IMPRESSIONS', country: 'BR' }, settings())).toBe(300n);
    expect(minimumDailyBudget({ ...input, billingEvent: 'LINK_CLICKS', country: 'BR' }, settings())).toBe(1500n);
    expect(minimumDailyBudget({ ...input, billingEvent: 'IMPRESSIONS', country: 'JP' }, settings())).toBe(600n);
  });

  it.each([
    [50n, 'USD', 50n],
    [50n, 'EUR', 46n],
    [1n, 'EUR', 1n],
    [1n, 'JPY', 2n],
    [100n, 'JPY', 155n],
    [100n, 'KRW', 1380n],
    [0n, 'EUR', 0n],
    [50n, 'GBP', 40n], // 39.5 rounds up
  ])('converts %i US cents to %s minor units: %i', (cents, currency, expected) => {
    expect(convertUsdCents(cents, currency, DEFAULT_RATES_PER_USD)).toBe(expected);
  });
});

describe('lifetime budget minimum: daily minimum x scheduled days', () => {
  const start = new Date('2026-03-02T00:00:00Z');
  it.each([
    ['exactly one day', 1 * DAY, 1],
    ['exactly three days', 3 * DAY, 3],
    ['a started day counts whole', 3 * DAY + 60_000, 4],
    ['less than a day is one day', HOUR, 1],
  ])('%s', (_rule, length, days) => {
    expect(scheduledDays(start, new Date(start.getTime() + length))).toBe(days);
  });

  const lifetime = (budget: bigint, length: number, startTime: Date | null = start) =>
    fields({
      billingEvent: 'IMPRESSIONS',
      lifetimeBudget: String(budget),
      startTime,
      endTime: new Date((startTime ?? NOW).getTime() + length),
    });

  it('accepts a lifetime budget of exactly the daily minimum x days', () => {
    expect(minimumBudgetViolations(lifetime(150n, 3 * DAY), context())).toEqual([]);
  });

  it('refuses one minor unit less, with the minimum in error_user_msg and error_data', () => {
    expect(minimumBudgetViolations(lifetime(149n, 3 * DAY), context())).toEqual([
      {
        field: 'lifetime_budget',
        code: 100,
        subcode: BUDGET_TOO_LOW_SUBCODE,
        message: expect.stringContaining('1.50 USD'),
        userTitle: 'Your Budget Is Too Low',
        userMessage: expect.stringContaining('The minimum lifetime budget for this ad set is 1.50 USD (0.50 USD a day for 3 days)'),
        data: { minimum_lifetime_budget: '150', minimum_daily_budget: '50', days: 3, currency: 'USD' },
      },
    ]);
  });

  it('counts the days from now when the ad set has no start time', () => {
    expect(minimumBudgetViolations(lifetime(100n, 2 * DAY, null), context())).toEqual([]);
    expect(minimumBudgetViolations(lifetime(100n, 2 * DAY + 1, null), context())[0]?.data).toMatchObject({ days: 3, minimum_lifetime_budget: '150' });
  });

  it('multiplies the converted, rounded-up daily minimum (JPY)', () => {
    const jpy = context({ account: { currency: 'JPY', country: 'BR' } });
    expect(minimumBudgetViolations(lifetime(234n, 3 * DAY), jpy)).toEqual([]); // 78 x 3
    expect(minimumBudgetViolations(lifetime(233n, 3 * DAY), jpy)[0]).toMatchObject({
      subcode: BUDGET_TOO_LOW_SUBCODE,
      userMessage: expect.stringContaining('234 JPY (78 JPY a day for 3 days)'),
    });
  });
});

describe('1885272: daily budget below the minimum', () => {
  it.each([
    ['USD', 'BR', 'IMPRESSIONS', 49n, 50n, '0.50 USD'],
    ['USD', 'US', 'IMPRESSIONS', 99n, 100n, '1.00 USD'],
    ['USD', 'US', 'PURCHASE', 3999n, 4000n, '40.00 USD'],
    ['EUR', 'DE', 'LINK_CLICKS', 459n, 460n, '4.60 EUR'],
    ['JPY', 'BR', 'IMPRESSIONS', 77n, 78n, '78 JPY'],
    ['KRW', 'KR', 'IMPRESSIONS', 1379n, 1380n, '1380 KRW'],
  ] as const)('%s in %s billed by %s: %i refused, %i accepted, minimum %s', (currency, country, billingEvent, below, minimum, written) => {
    const ctx = context({ account: { currency, country } });
    expect(minimumBudgetViolations(fields({ billingEvent, dailyBudget: String(minimum) }), ctx)).toEqual([]);
    expect(minimumBudgetViolations(fields({ billingEvent, dailyBudget: String(below) }), ctx)).toEqual([
      {
        field: 'daily_budget',
        code: 100,
        subcode: 1885272,
        message: `Your budget is too low. The minimum daily budget for this ad set is ${written} (${minimum} in the currency's smallest unit)`,
        userTitle: 'Your Budget Is Too Low',
        userMessage: `The minimum daily budget for this ad set is ${written}. Please enter a budget of at least that amount.`,
        data: { minimum_daily_budget: String(minimum), currency },
      },
    ]);
  });

  it('uses the bid cap of the ad set under LOWEST_COST_WITH_BID_CAP', () => {
    const adSet = fields({ bidStrategy: 'LOWEST_COST_WITH_BID_CAP', bidAmount: '200', billingEvent: 'LINK_CLICKS', dailyBudget: '999' });
    expect(minimumBudgetViolations(adSet, context())[0]?.data).toEqual({ minimum_daily_budget: '1000', currency: 'USD' });
    expect(minimumBudgetViolations({ ...adSet, dailyBudget: '1000' }, context())).toEqual([]);
  });

  it("uses the campaign's bid strategy when the ad set has none", () => {
    const adSet = fields({ bidAmount: '200', billingEvent: 'IMPRESSIONS', dailyBudget: '199' });
    expect(minimumBudgetViolations(adSet, context({ campaign: campaign({ bidStrategy: 'LOWEST_COST_WITH_BID_CAP' }) }))[0]?.data).toEqual({
      minimum_daily_budget: '200',
      currency: 'USD',
    });
  });

  it('checks nothing without an own budget', () => {
    expect(minimumBudgetViolations(fields({ billingEvent: 'IMPRESSIONS' }), context())).toEqual([]);
  });
});

describe('bid rules', () => {
  const ROWS: Array<[string, Partial<BudgetFields>, string | null, string | null]> = [
    ['BID_CAP needs bid_amount', { bidStrategy: 'LOWEST_COST_WITH_BID_CAP' }, null, 'bid_amount'],
    ['BID_CAP with bid_amount', { bidStrategy: 'LOWEST_COST_WITH_BID_CAP', bidAmount: '100' }, null, null],
    ['COST_CAP needs bid_amount', { bidStrategy: 'COST_CAP' }, null, 'bid_amount'],
    ['COST_CAP with bid_amount', { bidStrategy: 'COST_CAP', bidAmount: '100' }, null, null],
    ['WITHOUT_CAP refuses bid_amount', { bidStrategy: 'LOWEST_COST_WITHOUT_CAP', bidAmount: '100' }, null, 'bid_amount'],
    ['WITHOUT_CAP without bid_amount', { bidStrategy: 'LOWEST_COST_WITHOUT_CAP' }, null, null],
    ['a bid amount without a strategy means a bid cap, and is accepted', { bidAmount: '100' }, null, null],
    ["the campaign's BID_CAP needs bid_amount", {}, 'LOWEST_COST_WITH_BID_CAP', 'bid_amount'],
    ["the ad set's strategy wins over the campaign's", { bidStrategy: 'LOWEST_COST_WITHOUT_CAP' }, 'COST_CAP', null],
    ['MIN_ROAS needs bid_constraints.roas_average_floor', { bidStrategy: 'LOWEST_COST_WITH_MIN_ROAS' }, null, 'bid_constraints'],
    ['MIN_ROAS floor of 0 is refused', { bidStrategy: 'LOWEST_COST_WITH_MIN_ROAS', bidConstraints: { roas_average_floor: 0 } }, null, 'bid_constraints'],
    [
      'MIN_ROAS floor above 10000000 is refused',
      { bidStrategy: 'LOWEST_COST_WITH_MIN_ROAS', bidConstraints: { roas_average_floor: 10_000_001 } },
      null,
      'bid_constraints',
    ],
    ['MIN_ROAS floor must be an integer', { bidStrategy: 'LOWEST_COST_WITH_MIN_ROAS', bidConstraints: { roas_average_floor: 1.5 } }, null, 'bid_constraints'],
    ['MIN_ROAS floor must be a number', { bidStrategy: 'LOWEST_COST_WITH_MIN_ROAS', bidConstraints: { roas_average_floor: '100' } }, null, 'bid_constraints'],
    ['MIN_ROAS floor of 1', { bidStrategy: 'LOWEST_COST_WITH_MIN_ROAS', bidConstraints: { roas_average_floor: 1 } }, null, null],
    ['MIN_ROAS floor of 10000000', { bidStrategy: 'LOWEST_COST_WITH_MIN_ROAS', bidConstraints: { roas_average_floor: 10_000_000 } }, null, null],
  ];

  it.each(ROWS)('%s', (_rule, adSet, campaignStrategy, blamed) => {
    const found = bidViolations(fields(adSet), context({ campaign: campaign({ bidStrategy: campaignStrategy }) }));
    expect(found.map((v) => [v.field, v.code])).toEqual(blamed === null ? [] : [[blamed, 100]]);
  });

  it('names the currency in the user message', () => {
    const [found] = bidViolations(fields({ bidStrategy: 'COST_CAP' }), context({ account: { currency: 'EUR', country: 'FR' } }));
    expect(found).toMatchObject({ userTitle: 'Bid amount required', userMessage: expect.stringContaining('cost cap (bid_amount) in EUR') });
  });

  it.each([
    [null, null, null, 'LOWEST_COST_WITHOUT_CAP'],
    // A bid amount without a strategy anywhere means a bid cap, as the platform reads it.
    [null, '300', null, 'LOWEST_COST_WITH_BID_CAP'],
    [null, null, 'COST_CAP', 'COST_CAP'],
    [null, '300', 'COST_CAP', 'COST_CAP'],
    ['LOWEST_COST_WITH_BID_CAP', null, 'COST_CAP', 'LOWEST_COST_WITH_BID_CAP'],
  ] as const)('effective bid strategy of ad set %s (bid %s) under campaign %s is %s', (own, bidAmount, ofCampaign, expected) => {
    expect(effectiveBidStrategy({ bidStrategy: own, bidAmount }, campaign({ bidStrategy: ofCampaign }))).toBe(expected);
    if (ofCampaign === null) expect(effectiveBidStrategy({ bidStrategy: own, bidAmount }, null)).toBe(expected);
  });
});

describe('budget shape', () => {
  const start = new Date('2026-03-02T00:00:00Z');
  const after = (ms: number) => new Date(start.getTime() + ms);
  const DAILY_CAMPAIGN = campaign({ dailyBudget: '10000' });
  const LIFETIME_CAMPAIGN = campaign({ lifetimeBudget: '100000' });
  // [rule, ad set, campaign, fields blamed in order]
  const ROWS: Array<[string, Partial<BudgetFields>, BudgetContext['campaign'], string[]]> = [
    ['a daily budget alone', { dailyBudget: '1000' }, null, []],
    ['a lifetime budget with an end', { lifetimeBudget: '10000', startTime: start, endTime: after(3 * DAY) }, null, []],
    ['no budget anywhere', {}, null, ['daily_budget']],
    ['no budget on a campaign without one', {}, campaign(), ['daily_budget']],
    ['both budgets', { dailyBudget: '1000', lifetimeBudget: '10000', startTime: start, endTime: after(3 * DAY) }, null, ['lifetime_budget']],
    ['campaign budget, none on the ad set', {}, DAILY_CAMPAIGN, []],
    ['campaign daily budget and an ad set daily budget', { dailyBudget: '1000' }, DAILY_CAMPAIGN, ['daily_budget']],
    ['campaign lifetime budget and an ad set lifetime budget', { lifetimeBudget: '1000', endTime: after(DAY * 3) }, LIFETIME_CAMPAIGN, ['lifetime_budget']],
    ['campaign daily budget and an ad set lifetime budget', { lifetimeBudget: '1000', endTime: after(DAY * 3) }, DAILY_CAMPAIGN, ['lifetime_budget']],
    ['a lifetime budget needs end_time', { lifetimeBudget: '10000' }, null, ['end_time']],
    ['a daily budget of exactly 24 hours', { dailyBudget: '1000', startTime: start, endTime: after(DAY) }, null, ['end_time']],
    ['a daily budget of less than 24 hours', { dailyBudget: '1000', startTime: start, endTime: after(HOUR) }, null, ['end_time']],
    ['a daily budget of more than 24 hours', { dailyBudget: '1000', startTime: start, endTime: after(DAY + 1000) }, null, []],
    ['a daily budget without an end', { dailyBudget: '1000', startTime: start }, null, []],
    ['a daily budget ending within 24 hours from now', { dailyBudget: '1000', endTime: new Date(NOW.getTime() + 23 * HOUR) }, null, ['end_time']],
    ['daily_min_spend_target with a campaign daily budget', { dailyMinSpendTarget: '100' }, DAILY_CAMPAIGN, []],
    ['daily_spend_cap with a campaign daily budget', { dailySpendCap: '100' }, DAILY_CAMPAIGN, []],
    ['daily_min_spend_target with a campaign lifetime budget', { dailyMinSpendTarget: '100' }, LIFETIME_CAMPAIGN, ['daily_min_spend_target']],
    ['daily_spend_cap without a campaign budget', { dailyBudget: '1000', dailySpendCap: '100' }, null, ['daily_spend_cap']],
    ['lifetime_min_spend_target with a campaign lifetime budget', { lifetimeMinSpendTarget: '100' }, LIFETIME_CAMPAIGN, []],
    ['lifetime_spend_cap with a campaign lifetime budget', { lifetimeSpendCap: '100' }, LIFETIME_CAMPAIGN, []],
    ['lifetime_spend_cap with a campaign daily budget', { lifetimeSpendCap: '100' }, DAILY_CAMPAIGN, ['lifetime_spend_cap']],
    ['lifetime_min_spend_target without a campaign budget', { dailyBudget: '1000', lifetimeMinSpendTarget: '100' }, null, ['lifetime_min_spend_target']],
    ['daily target equal to the cap', { dailyMinSpendTarget: '100', dailySpendCap: '100' }, DAILY_CAMPAIGN, []],
    ['daily target above the cap', { dailyMinSpendTarget: '101', dailySpendCap: '100' }, DAILY_CAMPAIGN, ['daily_min_spend_target']],
    ['lifetime target above the cap', { lifetimeMinSpendTarget: '101', lifetimeSpendCap: '100' }, LIFETIME_CAMPAIGN, ['lifetime_min_spend_target']],
    ['lifetime target below the cap', { lifetimeMinSpendTarget: '99', lifetimeSpendCap: '100' }, LIFETIME_CAMPAIGN, []],
  ];

  it.each(ROWS)('%s', (_rule, adSet, ofCampaign, blamed) => {
    const found = budgetShapeViolations(fields(adSet), context({ campaign: ofCampaign }));
    expect(found.map((v) => v.field)).toEqual(blamed);
    for (const v of found) expect(v.code).toBe(100);
  });

  it('explains the campaign budget to a person', () => {
    expect(budgetShapeViolations(fields({ dailyBudget: '1000' }), context({ campaign: DAILY_CAMPAIGN }))[0]).toMatchObject({
      userTitle: 'Campaign budget in use',
      message: expect.stringContaining('the campaign has a daily budget'),
    });
  });
});

describe('rate table (BUDGET_CURRENCY_RATES)', () => {
  it('starts from the defaults and replaces the currencies named', () => {
    expect(parseRateTable('')).toEqual(DEFAULT_RATES_PER_USD);
    expect(parseRateTable('EUR=0.95, JPY=150,')).toEqual({ ...DEFAULT_RATES_PER_USD, EUR: 0.95, JPY: 150 });
    expect(parseRateTable('USD=1')).toEqual(DEFAULT_RATES_PER_USD);
  });

  it('leaves the default table untouched', () => {
    parseRateTable('EUR=5');
    expect(DEFAULT_RATES_PER_USD.EUR).toBe(0.92);
  });

  it.each([
    ['no rate', 'EUR', 'each entry must look like EUR=0.92, got "EUR"'],
    ['lower case', 'eur=0.92', 'each entry must look like EUR=0.92, got "eur=0.92"'],
    ['a negative rate', 'EUR=-1', 'each entry must look like EUR=0.92, got "EUR=-1"'],
    ['an exponent', 'EUR=1e3', 'each entry must look like EUR=0.92, got "EUR=1e3"'],
    ['a bad entry after a good one', 'EUR=0.9;JPY=150', 'each entry must look like EUR=0.92, got "EUR=0.9;JPY=150"'],
    ['an unsupported currency', 'XYZ=3', 'XYZ is not a supported currency'],
    ['a USD rate other than 1', 'USD=2', 'USD is the base of the table: its rate is 1'],
    ['a zero rate', 'EUR=0', 'the rate of EUR must be at least 0.000001'],
    ['a zero rate with decimals', 'JPY=0.0', 'the rate of JPY must be at least 0.000001'],
    ['a rate too small to count', 'EUR=0.0000001', 'the rate of EUR must be at least 0.000001'],
  ])('refuses %s', (_rule, raw, error) => {
    const parsed = parseRateTable(raw);
    expect(typeof parsed).toBe('string');
    expect(parsed).toContain(error);
  });
});

describe('formatMoney', () => {
  it.each([
    [50n, 'USD', '0.50 USD'],
    [5n, 'USD', '0.05 USD'],
    [0n, 'USD', '0.00 USD'],
    [4000n, 'USD', '40.00 USD'],
    [12345n, 'EUR', '123.45 EUR'],
    [750n, 'JPY', '750 JPY'],
    [55200n, 'KRW', '55200 KRW'],
    [199n, 'XXX', '1.99 XXX'],
  ])('%i %s reads %s', (minor, currency, written) => {
    expect(formatMoney(minor, currency)).toBe(written);
  });
});
