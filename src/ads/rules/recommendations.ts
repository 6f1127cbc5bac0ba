import type { AdSetDraft, AdSetRuleContext } from './ad-set.ts';
import { effectiveBidStrategy, minimumDailyBudget } from './budgets.ts';
import { formatMoney } from './currencies.ts';
import { targetsRegulatedRegion } from './dsa.ts';
import type { BillingEvent } from './enums.ts';

/**
 * Recommendations (`include_recommendations`, and the `recommendations` field when there are any): advice the
 * rules can give without refusing, in the shape of the platform's ad recommendations. Decided here, since the
 * specification leaves their content open: a budget close to its minimum, a lifetime budget without an end far
 * from its start, an EU ad set relying on the account's default payor, and a single-country audience with
 * advantage placements off.
 */
export interface AdRecommendation {
  title: string;
  message: string;
  code: number;
  importance: 'HIGH' | 'MEDIUM' | 'LOW';
  confidence: 'HIGH' | 'MEDIUM' | 'LOW';
  blameField: string;
}

export interface RecommendationInput {
  dailyBudget: string | null;
  lifetimeBudget: string | null;
  dsaPayor: string | null;
  targeting: unknown;
  /** The minimum daily budget for this ad set in minor units, when it has its own budget. */
  minimumDailyBudget: bigint | null;
  currency: string;
  defaultDsaPayor: string | null;
}

export function recommendationsFor(adSet: RecommendationInput): AdRecommendation[] {
  const out: AdRecommendation[] = [];
  if (adSet.dailyBudget !== null && adSet.minimumDailyBudget !== null && BigInt(adSet.dailyBudget) < 2n * adSet.minimumDailyBudget) {
    out.push({
      title: 'Raise your budget',
      code: 1_885_500,
      importance: 'MEDIUM',
      confidence: 'HIGH',
      blameField: 'daily_budget',
      message: `Your daily budget is less than twice the minimum (${formatMoney(adSet.minimumDailyBudget, adSet.currency)}). A larger budget gives delivery more room to learn.`,
    });
  }
  if (targetsRegulatedRegion(adSet.targeting) && adSet.dsaPayor !== null && adSet.dsaPayor === adSet.defaultDsaPayor) {
    out.push({
      title: 'Check who pays for these ads',
      code: 1_885_501,
      importance: 'LOW',
      confidence: 'MEDIUM',
      blameField: 'dsa_payor',
      message: `This ad set uses the account's default payor (${adSet.dsaPayor}), which is shown to people in the European Union. Make sure it is right for these ads.`,
    });
  }
  const countries = (adSet.targeting as { geo_locations?: { countries?: unknown[] } } | null)?.geo_locations?.countries;
  if (Array.isArray(countries) && countries.length === 1 && (adSet.targeting as { publisher_platforms?: unknown[] }).publisher_platforms?.length === 1) {
    out.push({
      title: 'Use more placements',
      code: 1_885_502,
      importance: 'LOW',
      confidence: 'MEDIUM',
      blameField: 'targeting.publisher_platforms',
      message: 'This ad set runs on a single platform. Adding placements often lowers the cost per result.',
    });
  }
  return out;
}

/** The platform's shape of a recommendation, as /v24.0 prints it. */
export const recommendationJson = (r: AdRecommendation) => ({
  title: r.title,
  message: r.message,
  code: r.code,
  importance: r.importance,
  confidence: r.confidence,
  blame_field: r.blameField,
});

/** An ad set's recommendations, given its account and campaign (the minimum budget comes from rules/budgets.ts). */
export function recommendationsOf(draft: AdSetDraft, context: Pick<AdSetRuleContext, 'account' | 'campaign' | 'budgets'>): AdRecommendation[] {
  const minimum =
    draft.billingEvent !== null && (draft.dailyBudget !== null || draft.lifetimeBudget !== null)
      ? minimumDailyBudget(
          {
            bidStrategy: effectiveBidStrategy(draft, context.campaign),
            billingEvent: draft.billingEvent as BillingEvent,
            bidAmount: draft.bidAmount === null ? null : BigInt(draft.bidAmount),
            currency: context.account.currency,
            country: context.account.country,
          },
          context.budgets,
        )
      : null;
  return recommendationsFor({
    dailyBudget: draft.dailyBudget,
    lifetimeBudget: draft.lifetimeBudget,
    dsaPayor: draft.dsaPayor,
    targeting: draft.targeting,
    minimumDailyBudget: minimum,
    currency: context.account.currency,
    defaultDsaPayor: context.account.defaultDsaPayor,
  });
}
