import { convertUsdCents, formatMoney, type RateTable } from './currencies.ts';
import type { BidStrategy, BillingEvent } from './enums.ts';
import { violation, type Violation } from './violations.ts';

/**
 * Budget rules (the specification's Limits section, DECISIONS section 5).
 *
 * Minimum daily budgets, in US cents, by what the ad set is billed for:
 * | bid strategy               | impressions | clicks, likes, video views | low-frequency actions |
 * |----------------------------|-------------|----------------------------|-----------------------|
 * | LOWEST_COST_WITHOUT_CAP     | 50          | 250                        | 4000                  |
 * | LOWEST_COST_WITH_BID_CAP    | bid amount  | 5 x bid amount             | 5 x bid amount        |
 * COST_CAP and LOWEST_COST_WITH_MIN_ROAS, which the specification does not price, use the first row.
 * Amounts convert to the account currency through the rate table (rounded up to its minor unit); accounts
 * whose business country is in the higher-income list pay double, except low-frequency actions under
 * LOWEST_COST_WITHOUT_CAP.
 * A lifetime budget's minimum is the daily minimum times the days scheduled (started days count whole).
 */
export type BudgetClass = 'impressions' | 'clicks' | 'low_frequency';

/** Which column of the table a billing event falls in. */
export const BUDGET_CLASS_OF: Record<BillingEvent, BudgetClass> = {
  IMPRESSIONS: 'impressions',
  NONE: 'impressions',
  CLICKS: 'clicks',
  LINK_CLICKS: 'clicks',
  PAGE_LIKES: 'clicks',
  POST_ENGAGEMENT: 'clicks',
  THRUPLAY: 'clicks',
  APP_INSTALLS: 'low_frequency',
  OFFER_CLAIMS: 'low_frequency',
  PURCHASE: 'low_frequency',
  LISTING_INTERACTION: 'low_frequency',
};

export const USD_CENTS_WITHOUT_CAP: Record<BudgetClass, bigint> = { impressions: 50n, clicks: 250n, low_frequency: 4000n };

export const DEFAULT_HIGH_INCOME_COUNTRIES = [
  'AU',
  'AT',
  'BE',
  'CA',
  'DK',
  'FI',
  'FR',
  'DE',
  'HK',
  'IE',
  'IL',
  'IT',
  'JP',
  'LU',
  'NL',
  'NZ',
  'NO',
  'SG',
  'KR',
  'ES',
  'SE',
  'CH',
  'TW',
  'GB',
  'US',
] as const;

/** The spend cap value that means "no cap" (Graph API). */
export const NO_SPEND_CAP = 922_337_203_685_478n;

export const BUDGET_TOO_LOW_SUBCODE = 1_885_272;

export interface BudgetSettings {
  rates: RateTable;
  highIncomeCountries: readonly string[];
}

export interface MinimumInput {
  bidStrategy: BidStrategy;
  billingEvent: BillingEvent;
  /** In the account currency's minor units (the bid cap). */
  bidAmount: bigint | null;
  currency: string;
  country: string;
}

/** The minimum daily budget in the account currency's minor units. */
export function minimumDailyBudget(input: MinimumInput, settings: BudgetSettings): bigint {
  const budgetClass = BUDGET_CLASS_OF[input.billingEvent];
  const highIncome = settings.highIncomeCountries.includes(input.country);
  if (input.bidStrategy === 'LOWEST_COST_WITH_BID_CAP' && input.bidAmount !== null) {
    // The bid is already in the account currency.
    const base = budgetClass === 'impressions' ? input.bidAmount : 5n * input.bidAmount;
    return highIncome ? 2n * base : base;
  }
  // The specification's one exception to doubling: low-frequency actions without a cap.
  const doubled = highIncome && !(budgetClass === 'low_frequency' && input.bidStrategy === 'LOWEST_COST_WITHOUT_CAP');
  const usdCents = USD_CENTS_WITHOUT_CAP[budgetClass] * (doubled ? 2n : 1n);
  return convertUsdCents(usdCents, input.currency, settings.rates);
}

const DAY_MS = 86_400_000;

/** Days a lifetime budget runs: started days count whole, at least one. */
export function scheduledDays(start: Date, end: Date): number {
  return Math.max(1, Math.ceil((end.getTime() - start.getTime()) / DAY_MS));
}

export interface BudgetFields {
  bidStrategy: string | null;
  bidAmount: string | null;
  bidConstraints: unknown;
  billingEvent: string | null;
  dailyBudget: string | null;
  lifetimeBudget: string | null;
  dailyMinSpendTarget: string | null;
  dailySpendCap: string | null;
  lifetimeMinSpendTarget: string | null;
  lifetimeSpendCap: string | null;
  startTime: Date | null;
  endTime: Date | null;
}

export interface BudgetContext {
  account: { currency: string; country: string };
  campaign: { bidStrategy: string | null; dailyBudget: string | null; lifetimeBudget: string | null } | null;
  settings: BudgetSettings;
  now: Date;
}

/**
 * The bid strategy in force: the ad set's own, else its campaign's, else the platform's default, which is
 * LOWEST_COST_WITH_BID_CAP when a bid amount is given and LOWEST_COST_WITHOUT_CAP otherwise.
 */
export function effectiveBidStrategy(adSet: Pick<BudgetFields, 'bidStrategy' | 'bidAmount'>, campaign: BudgetContext['campaign']): BidStrategy {
  return (adSet.bidStrategy ?? campaign?.bidStrategy ?? (adSet.bidAmount !== null ? 'LOWEST_COST_WITH_BID_CAP' : 'LOWEST_COST_WITHOUT_CAP')) as BidStrategy;
}

const big = (value: string | null) => (value === null ? null : BigInt(value));

/** Bid rules: a cap strategy needs its bid, a cap-less one takes none; ROAS needs its floor. */
export function bidViolations(adSet: BudgetFields, context: BudgetContext): Violation[] {
  const strategy = effectiveBidStrategy(adSet, context.campaign);
  if ((strategy === 'LOWEST_COST_WITH_BID_CAP' || strategy === 'COST_CAP') && adSet.bidAmount === null) {
    return [
      violation('bid_amount', `The parameter bid_amount is required with bid strategy ${strategy}`, {
        userTitle: 'Bid amount required',
        userMessage: `Enter a ${strategy === 'COST_CAP' ? 'cost cap' : 'bid cap'} (bid_amount) in ${context.account.currency}, or choose the lowest cost without a cap.`,
      }),
    ];
  }
  if (strategy === 'LOWEST_COST_WITHOUT_CAP' && adSet.bidAmount !== null) {
    return [
      violation('bid_amount', 'Param bid_amount cannot be used with bid strategy LOWEST_COST_WITHOUT_CAP', {
        userTitle: 'Bid amount not used',
        userMessage: 'The lowest-cost strategy without a cap does not take a bid amount. Remove it, or choose a bid cap or cost cap strategy.',
      }),
    ];
  }
  if (strategy === 'LOWEST_COST_WITH_MIN_ROAS') {
    const floor = (adSet.bidConstraints as { roas_average_floor?: unknown } | null)?.roas_average_floor;
    if (typeof floor !== 'number' || !Number.isInteger(floor) || floor < 1 || floor > 10_000_000) {
      return [
        violation(
          'bid_constraints',
          'Param bid_constraints.roas_average_floor (an integer from 1 to 10000000, the ROAS x 10000) is required with bid strategy LOWEST_COST_WITH_MIN_ROAS',
          {
            userTitle: 'Minimum ROAS required',
            userMessage: 'Enter the minimum return on ad spend (bid_constraints.roas_average_floor) for this strategy.',
          },
        ),
      ];
    }
  }
  return [];
}

/**
 * Which budget the ad set carries and what it needs: with a campaign budget the ad set has none of its own;
 * without one it has exactly one of daily_budget and lifetime_budget; a lifetime budget needs end_time; a daily
 * budget with an end time needs more than 24 hours; spend targets and caps follow the campaign's budget kind.
 */
export function budgetShapeViolations(adSet: BudgetFields, context: BudgetContext): Violation[] {
  const out: Violation[] = [];
  const campaign = context.campaign;
  const campaignBudget = campaign?.dailyBudget != null ? 'daily' : campaign?.lifetimeBudget != null ? 'lifetime' : null;
  if (campaignBudget !== null) {
    for (const [field, value] of [
      ['daily_budget', adSet.dailyBudget],
      ['lifetime_budget', adSet.lifetimeBudget],
    ] as const) {
      if (value !== null) {
        out.push(
          violation(
            field,
            `Param ${field} cannot be set: the campaign has a ${campaignBudget} budget (campaign budget optimization), which its ad sets share`,
            {
              userTitle: 'Campaign budget in use',
              userMessage: 'This campaign sets the budget for its ad sets. Remove the ad set budget, or remove the campaign budget first.',
            },
          ),
        );
      }
    }
  } else if (adSet.dailyBudget === null && adSet.lifetimeBudget === null) {
    out.push(
      violation('daily_budget', 'The parameter daily_budget or lifetime_budget is required: the campaign has no budget of its own', {
        userTitle: 'Budget required',
        userMessage: 'Enter a daily or a lifetime budget for this ad set.',
      }),
    );
  } else if (adSet.dailyBudget !== null && adSet.lifetimeBudget !== null) {
    out.push(
      violation('lifetime_budget', 'Only one of daily_budget and lifetime_budget may be set on an ad set', {
        userTitle: 'Two budgets',
        userMessage: 'Choose a daily budget or a lifetime budget, not both.',
      }),
    );
  }
  if (adSet.lifetimeBudget !== null && adSet.endTime === null) {
    out.push(
      violation('end_time', 'The parameter end_time is required with a lifetime budget', {
        userTitle: 'End date required',
        userMessage: 'A lifetime budget is spent over a set period: enter an end date and time.',
      }),
    );
  }
  if (adSet.dailyBudget !== null && adSet.endTime !== null) {
    const start = adSet.startTime ?? context.now;
    if (adSet.endTime.getTime() - start.getTime() <= 86_400_000) {
      out.push(
        violation(
          'end_time',
          'A daily budget is allowed only for ad sets that run longer than 24 hours: end_time must be more than 24 hours after start_time',
          {
            userTitle: 'Schedule too short',
            userMessage: 'Ad sets with a daily budget must run for more than 24 hours. Move the end date, or use a lifetime budget.',
          },
        ),
      );
    }
  }
  for (const [field, needs, value] of [
    ['daily_min_spend_target', 'daily', adSet.dailyMinSpendTarget],
    ['daily_spend_cap', 'daily', adSet.dailySpendCap],
    ['lifetime_min_spend_target', 'lifetime', adSet.lifetimeMinSpendTarget],
    ['lifetime_spend_cap', 'lifetime', adSet.lifetimeSpendCap],
  ] as const) {
    if (value !== null && campaignBudget !== needs) {
      out.push(
        violation(field, `Param ${field} needs a ${needs} budget on the campaign`, {
          userTitle: 'Campaign budget needed',
          userMessage: `Spend targets and caps of ad sets apply to a campaign ${needs} budget. Set one on the campaign first.`,
        }),
      );
    }
  }
  for (const [target, cap, targetField] of [
    [adSet.dailyMinSpendTarget, adSet.dailySpendCap, 'daily_min_spend_target'],
    [adSet.lifetimeMinSpendTarget, adSet.lifetimeSpendCap, 'lifetime_min_spend_target'],
  ] as const) {
    if (target !== null && cap !== null && BigInt(target) > BigInt(cap)) {
      out.push(violation(targetField, `Param ${targetField} must not exceed the spend cap`));
    }
  }
  return out;
}

/** 1885272 when the ad set's own budget is below the minimum, with the minimum in error_user_msg. */
export function minimumBudgetViolations(adSet: BudgetFields, context: BudgetContext): Violation[] {
  if (adSet.billingEvent === null) return [];
  const budget = big(adSet.dailyBudget) ?? big(adSet.lifetimeBudget);
  if (budget === null) return [];
  const bidStrategy = effectiveBidStrategy(adSet, context.campaign);
  const daily = minimumDailyBudget(
    {
      bidStrategy,
      billingEvent: adSet.billingEvent as BillingEvent,
      bidAmount: big(adSet.bidAmount),
      currency: context.account.currency,
      country: context.account.country,
    },
    context.settings,
  );
  const currency = context.account.currency;
  if (adSet.dailyBudget !== null) {
    if (BigInt(adSet.dailyBudget) >= daily) return [];
    return [
      violation(
        'daily_budget',
        `Your budget is too low. The minimum daily budget for this ad set is ${formatMoney(daily, currency)} (${daily} in the currency's smallest unit)`,
        {
          subcode: BUDGET_TOO_LOW_SUBCODE,
          userTitle: 'Your Budget Is Too Low',
          userMessage: `The minimum daily budget for this ad set is ${formatMoney(daily, currency)}. Please enter a budget of at least that amount.`,
          data: { minimum_daily_budget: daily.toString(), currency },
        },
      ),
    ];
  }
  if (adSet.lifetimeBudget === null || adSet.endTime === null) return [];
  const days = scheduledDays(adSet.startTime ?? context.now, adSet.endTime);
  const lifetime = daily * BigInt(days);
  if (BigInt(adSet.lifetimeBudget) >= lifetime) return [];
  return [
    violation(
      'lifetime_budget',
      `Your budget is too low. The minimum lifetime budget for this ad set is ${formatMoney(lifetime, currency)} (${days} days at ${formatMoney(daily, currency)})`,
      {
        subcode: BUDGET_TOO_LOW_SUBCODE,
        userTitle: 'Your Budget Is Too Low',
        userMessage: `The minimum lifetime budget for this ad set is ${formatMoney(lifetime, currency)} (${formatMoney(daily, currency)} a day for ${days} day${days === 1 ? '' : 's'}). Please enter a budget of at least that amount, or shorten the schedule.`,
        data: { minimum_lifetime_budget: lifetime.toString(), minimum_daily_budget: daily.toString(), days, currency },
      },
    ),
  ];
}
