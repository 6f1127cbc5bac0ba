import { timeNow, type RequestContext } from '../context/index.ts';
import { notFound } from '../errors/index.ts';
import { paramError } from '../graph-api/params.ts';
import { recentAccountDelivery } from '../insights/delivery.ts';
import { optimizationEventOf } from '../insights/rules/learning-stage.ts';
import { MINOR_UNIT_DIGITS, type CurrencyCode } from './rules/currencies.ts';
import {
  dailyOutcomesCurve,
  deliveryRates,
  estimateAudience,
  type AudienceEstimate,
  type AudienceFacts,
  type DeliveryRates,
  type OutcomePoint,
} from './rules/delivery-estimate.ts';
import { OPTIMIZATION_GOALS } from './rules/enums.ts';
import { MESSAGING_DESTINATIONS } from './rules/objectives.ts';
import { geoViolations, targetingShapeViolations } from './rules/targeting.ts';
import { violationError, type Violation } from './rules/violations.ts';
import { audiencesNamedIn, findAdAccount } from './service.ts';
import type { AdAccountRecord, AdSetRecord } from './store.ts';

/**
 * Delivery estimates (issue 21): for a targeting, an optimization goal and a daily budget, how many people it
 * reaches (a range, never below the privacy floor) and what a day's spend buys (rules/delivery-estimate.ts, the
 * documented population model). The rates come from the account's own last 28 days where it has delivered,
 * from defaults where it has not. One service answers the ad set's `/delivery_estimate` and
 * `/message_delivery_estimate`, the account's `/delivery_estimate` and `/reachestimate` on /v24.0, and
 * GraphQL's `AdSet.deliveryEstimate`, `AdSet.messageDeliveryEstimate` and `estimateDelivery`.
 */

/** What a caller may change of what is estimated (the ad set's own values otherwise; the account's edge needs targeting and goal). */
export interface EstimateRequest {
  /** The Graph shape (snake_case): targeting_spec on /v24.0, TargetingInput in GraphQL. */
  targeting?: unknown;
  optimizationGoal?: string;
  promotedObject?: unknown;
  /** Minor units of the account currency. */
  dailyBudget?: number;
}

export interface DeliveryEstimateRecord {
  /** The estimated object's id (the ad set, or act_<id>): an edge entry needs one. */
  id: string;
  audience: AudienceEstimate;
  rates: DeliveryRates;
  curve: OutcomePoint[];
  /** Minor units a day the curve is centred on. */
  dailyBudget: number;
  currency: string;
}

export interface MessageDeliveryEstimateRecord {
  id: string;
  audience: AudienceEstimate;
  /** Minor units per conversation started, and its range. */
  cost: number;
  costLowerBound: number;
  costUpperBound: number;
  /** Conversations a day at the daily budget, and their range. */
  delivery: number;
  deliveryLowerBound: number;
  deliveryUpperBound: number;
}

/** The default CPM, in US dollars, converted to the account's currency by the budget rates table (BUDGET_CURRENCY_RATES). */
const DEFAULT_CPM_USD = 7;
/** How far a cost or a count may stray from its estimate either way (the audience's range is the model's own). */
const SPREAD = 0.25;

function defaultCpm(ctx: RequestContext, currency: string): number {
  const rate = ctx.config.adSets.budgets.rates[currency as CurrencyCode] ?? 1;
  return Math.round(DEFAULT_CPM_USD * rate * 10 ** (MINOR_UNIT_DIGITS[currency as CurrencyCode] ?? 2));
}

/** The custom audiences the targeting names, as far as the caller may read them (others count at the model's default). */
async function audiencesOf(ctx: RequestContext, organizationId: string, targeting: unknown): Promise<Map<string, AudienceFacts>> {
  const audiences = await audiencesNamedIn(ctx, organizationId, targeting);
  return new Map(audiences.map((audience) => [audience.id, { subtype: audience.subtype, lookalikeSpec: audience.lookalikeSpec }]));
}

/** A targeting a caller sent (not an ad set's, which its writes checked): refused as an ad set write would refuse it, under `param`. */
function checkTargeting(targeting: unknown, param: string): void {
  const [first] = [...targetingShapeViolations(targeting), ...geoViolations(targeting)];
  if (!first) return;
  const renamed: Violation = {
    ...first,
    field: first.field.replace(/^targeting/, param),
    message: first.message.replaceAll('targeting.', `${param}.`).replaceAll('targeting ', `${param} `),
  };
  throw violationError(renamed);
}

function checkGoal(goal: unknown, param: string): string {
  if (typeof goal !== 'string' || !(OPTIMIZATION_GOALS as readonly string[]).includes(goal)) {
    throw paramError(param, `Param ${param} must be one of {${OPTIMIZATION_GOALS.join(', ')}}`);
  }
  return goal;
}

async function estimate(
  ctx: RequestContext,
  id: string,
  account: AdAccountRecord,
  targeting: unknown,
  goal: string | null,
  promotedObject: unknown,
  dailyBudget: number,
): Promise<DeliveryEstimateRecord> {
  const [audiences, recent] = await Promise.all([audiencesOf(ctx, account.organizationId, targeting), recentAccountDelivery(ctx, account)]);
  const audience = estimateAudience(targeting, audiences);
  const rates = deliveryRates(recent, optimizationEventOf(goal, promotedObject), defaultCpm(ctx, account.currency));
  return { id, audience, rates, curve: dailyOutcomesCurve(audience, rates, dailyBudget), dailyBudget, currency: account.currency };
}

const DAY_MS = 86_400_000;

/**
 * The daily budget an ad set's curve is centred on: its daily budget; a lifetime budget over its scheduled days
 * (from now, or its start, to its end; a lifetime without an end counts 30 days); else its campaign's daily
 * budget (a campaign budget shared by its ad sets); 0 when none (the model picks a small one).
 */
async function dailyBudgetOf(ctx: RequestContext, adSet: AdSetRecord): Promise<number> {
  if (adSet.dailyBudget !== null) return Number(adSet.dailyBudget);
  if (adSet.lifetimeBudget !== null) {
    const start = Math.max(timeNow(ctx).getTime(), adSet.startTime?.getTime() ?? 0);
    const days = adSet.endTime ? Math.max(1, Math.ceil((adSet.endTime.getTime() - start) / DAY_MS)) : 30;
    return Math.round(Number(adSet.lifetimeBudget) / days);
  }
  const campaign = await ctx.loaders.ads.campaignById.load(adSet.campaignId);
  return campaign?.dailyBudget != null ? Number(campaign.dailyBudget) : 0;
}

async function accountOfAdSet(ctx: RequestContext, adSet: AdSetRecord): Promise<AdAccountRecord> {
  const account = await ctx.loaders.ads.adAccountById.load(adSet.accountId);
  if (!account) throw new Error(`ad set ${adSet.id} has no account`);
  return account;
}

/** The ad set's estimate, with what the request changes (another goal, targeting or promoted object) instead of its own. */
export async function adSetDeliveryEstimate(ctx: RequestContext, adSet: AdSetRecord, request: EstimateRequest = {}): Promise<DeliveryEstimateRecord> {
  if (request.targeting !== undefined) checkTargeting(request.targeting, 'targeting_spec');
  const goal = request.optimizationGoal !== undefined ? checkGoal(request.optimizationGoal, 'optimization_goal') : adSet.optimizationGoal;
  const account = await accountOfAdSet(ctx, adSet);
  return estimate(
    ctx,
    adSet.id,
    account,
    request.targeting ?? adSet.targeting,
    goal,
    request.promotedObject ?? adSet.promotedObject,
    request.dailyBudget ?? (await dailyBudgetOf(ctx, adSet)),
  );
}

/**
 * An estimate for a targeting that is not an ad set yet (a form's), in an account the caller may read:
 * targeting_spec required, and optimization_goal too unless only the audience is asked (`reachOnly`).
 */
async function accountEstimate(ctx: RequestContext, accountId: string, request: EstimateRequest, reachOnly: boolean): Promise<DeliveryEstimateRecord> {
  const account = await findAdAccount(ctx, accountId);
  if (!account) throw notFound('Ad account', accountId);
  if (request.targeting === undefined) throw paramError('targeting_spec', 'The parameter targeting_spec is required');
  checkTargeting(request.targeting, 'targeting_spec');
  const goal = reachOnly && request.optimizationGoal === undefined ? null : checkGoal(request.optimizationGoal, 'optimization_goal');
  return estimate(ctx, `act_${account.id}`, account, request.targeting, goal, request.promotedObject, request.dailyBudget ?? 0);
}

/** `/act_<id>/delivery_estimate` and GraphQL's estimateDelivery. */
export const accountDeliveryEstimate = (ctx: RequestContext, accountId: string, request: EstimateRequest) => accountEstimate(ctx, accountId, request, false);
/** `/act_<id>/reachestimate`: the audience's range only. */
export const accountReachEstimate = (ctx: RequestContext, accountId: string, request: EstimateRequest) => accountEstimate(ctx, accountId, request, true);

/**
 * What a messaging ad set's budget buys in conversations: the cost of one started (the account's own rate of
 * conversations per impression, or the model's default) and how many a day. Other ad sets are refused, naming
 * destination_type, as the platform refuses them.
 */
export async function adSetMessageDeliveryEstimate(ctx: RequestContext, adSet: AdSetRecord): Promise<MessageDeliveryEstimateRecord> {
  if (adSet.destinationType === null || !(MESSAGING_DESTINATIONS as readonly string[]).includes(adSet.destinationType)) {
    throw paramError(
      'destination_type',
      `A message delivery estimate is for ad sets whose destination_type opens a conversation (${MESSAGING_DESTINATIONS.join(', ')}); this one's is ${adSet.destinationType ?? 'not set'}`,
    );
  }
  // Priced as the ad set's own estimate would be if it optimized for conversations started.
  const account = await accountOfAdSet(ctx, adSet);
  const { audience, rates, dailyBudget } = await estimate(ctx, adSet.id, account, adSet.targeting, 'CONVERSATIONS', null, await dailyBudgetOf(ctx, adSet));
  // Cost per conversation: a thousand impressions' price over the conversations they start.
  const cost = rates.resultsPerImpression > 0 ? Math.round(rates.cpm / (1000 * rates.resultsPerImpression)) : 0;
  const delivery = cost > 0 ? Math.floor(dailyBudget / cost) : 0;
  return {
    id: adSet.id,
    audience,
    cost,
    costLowerBound: Math.round(cost * (1 - SPREAD)),
    costUpperBound: Math.round(cost * (1 + SPREAD)),
    delivery,
    deliveryLowerBound: Math.floor(delivery * (1 - SPREAD)),
    deliveryUpperBound: Math.ceil(delivery * (1 + SPREAD)),
  };
}
