import type { Resolvers } from '../../graphql/__generated__/resolvers-types.ts';
import type { EstimateRequest } from '../estimates.ts';
import { graphSpec } from '../graphql-shapes.ts';

/**
 * Delivery estimates as GraphQL types them (src/ads/estimates.ts computes them, for /v24.0 too): counts as BigInt
 * (a worldwide audience passes 2^31), spends in minor units as budgets are.
 */
export const estimateResolvers: Pick<Resolvers, 'DeliveryEstimate' | 'DailyOutcome' | 'MessageDeliveryEstimate'> = {
  DeliveryEstimate: {
    estimateMauLowerBound: (estimate) => String(estimate.audience.mauLowerBound),
    estimateMauUpperBound: (estimate) => String(estimate.audience.mauUpperBound),
    estimateDau: (estimate) => String(estimate.audience.dau),
    estimateReady: () => true,
    // The generated resolver types give mapped enums no type of their own (as bidStrategy's): the value is the domain's.
    ratesFrom: (estimate) => estimate.rates.source as never,
    dailyOutcomesCurve: (estimate) => estimate.curve,
  },
  DailyOutcome: {
    spend: (point) => String(point.spend),
    reach: (point) => String(point.reach),
    impressions: (point) => String(point.impressions),
    actions: (point) => String(point.actions),
  },
  MessageDeliveryEstimate: {
    estimateCost: (estimate) => String(estimate.cost),
    estimateCostLowerBound: (estimate) => String(estimate.costLowerBound),
    estimateCostUpperBound: (estimate) => String(estimate.costUpperBound),
    estimateCoverageLowerBound: (estimate) => String(estimate.audience.mauLowerBound),
    estimateCoverageUpperBound: (estimate) => String(estimate.audience.mauUpperBound),
    estimateDelivery: (estimate) => String(estimate.delivery),
    estimateDeliveryLowerBound: (estimate) => String(estimate.deliveryLowerBound),
    estimateDeliveryUpperBound: (estimate) => String(estimate.deliveryUpperBound),
  },
};

/** GraphQL's estimate arguments as the service's request: typed specs in the Graph shape, the budget in minor units. */
export function estimateRequestOf(args: {
  targeting?: unknown;
  optimizationGoal?: string | null;
  promotedObject?: unknown;
  dailyBudget?: string | null;
}): EstimateRequest {
  const request: EstimateRequest = {};
  const targeting = graphSpec(args.targeting);
  if (targeting !== undefined) request.targeting = targeting;
  const promotedObject = graphSpec(args.promotedObject);
  if (promotedObject !== undefined) request.promotedObject = promotedObject;
  if (args.optimizationGoal != null) request.optimizationGoal = args.optimizationGoal;
  if (args.dailyBudget != null) request.dailyBudget = Number(args.dailyBudget);
  return request;
}
