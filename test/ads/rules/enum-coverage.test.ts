import { describe, expect, it } from 'vitest';
import { adSetViolations, withAdSetDefaults, type AdSetDraft, type AdSetRuleContext, type CampaignFacts } from '../../../src/ads/rules/ad-set.ts';
import { DEFAULT_HIGH_INCOME_COUNTRIES } from '../../../src/ads/rules/budgets.ts';
import { DEFAULT_RATES_PER_USD } from '../../../src/ads/rules/currencies.ts';
import {
  AUTOMATIC_MANUAL_STATES,
  BID_STRATEGIES,
  BILLING_EVENTS,
  BUDGET_SOURCES,
  DESTINATION_TYPES,
  MULTI_OPTIMIZATION_GOAL_WEIGHTS,
  OBJECT_STATUSES,
  OBJECTIVES,
  OPTIMIZATION_GOALS,
  OPTIMIZATION_SUB_EVENTS,
  PACING_TYPES,
  SPECIAL_AD_CATEGORIES,
  TUNE_FOR_CATEGORIES,
  type ObjectStatus,
  type Objective,
} from '../../../src/ads/rules/enums.ts';
import { billableBy, PAIRINGS } from '../../../src/ads/rules/objectives.ts';
import { stateViolations } from '../../../src/ads/rules/state.ts';
import { newAdSet } from '../../../src/ads/store.ts';
import { readAdSetParams, statusOf } from '../../../src/ads/writes/ad-set-params.ts';
import type { Params } from '../../../src/graph-api/params.ts';

/**
 * Every value of every closed list an ad set carries (the specification's enums, src/ads/rules/enums.ts) has at
 * least one ad set the platform accepts: parameters POST /act_<id>/adsets reads without a complaint, and a draft
 * adSetViolations passes with no violation (an ad set may only reach ARCHIVED and DELETED by an update).
 * The ad sets are built from the pairing tables (PAIRINGS, billableBy), never listed by hand, so a value that
 * every pairing drops fails here. Read-only enums (effective_status, configured_status) are not carried on a write.
 */

const NOW = new Date('2026-03-01T12:00:00Z');
const ACCOUNT = { id: '1001', currency: 'USD', country: 'BR', defaultDsaPayor: null, defaultDsaBeneficiary: null };

/** One ad set to try: its campaign, the parameters of its create, and an update after it when one is needed. */
interface Trial {
  objective: Objective;
  specialAdCategories: string[];
  params: Params;
  /** Then updated with these parameters (the statuses a create does not take). */
  update?: Params;
}

const campaignOf = (trial: Trial): CampaignFacts => ({
  id: '2001',
  accountId: ACCOUNT.id,
  objective: trial.objective,
  status: 'ACTIVE',
  specialAdCategories: trial.specialAdCategories,
  bidStrategy: null,
  dailyBudget: null,
  lifetimeBudget: null,
});

const contextOf = (trial: Trial, overrides: Partial<AdSetRuleContext> = {}): AdSetRuleContext => ({
  mode: 'create',
  sent: new Set(),
  account: ACCOUNT,
  campaign: campaignOf(trial),
  audiences: new Map(),
  conversions: new Map(),
  budgets: { rates: DEFAULT_RATES_PER_USD, highIncomeCountries: DEFAULT_HIGH_INCOME_COUNTRIES },
  now: NOW,
  ...overrides,
});

/** What the trial's writes refuse: its parameters', its rules' and, for an update, the state table's. */
function refusals(trial: Trial): string[] {
  const input = readAdSetParams(trial.params, 'create');
  const created: AdSetDraft = newAdSet({
    ...input.changes,
    organizationId: 'org',
    accountId: ACCOUNT.id,
    campaignId: input.changes.campaignId ?? '',
    name: input.changes.name ?? '',
    status: statusOf(input) ?? 'ACTIVE',
  });
  const context = contextOf(trial, { sent: input.sent });
  const found = [...input.violations, ...adSetViolations(withAdSetDefaults(created, context), context)];
  if (found.length > 0 || trial.update === undefined) return found.map((v) => `${v.field}: ${v.message}`);
  const change = readAdSetParams(trial.update, 'update');
  const updated: AdSetDraft = { ...created, ...change.changes };
  const updateContext = contextOf(trial, { mode: 'update', sent: change.sent, currentCampaignId: created.campaignId });
  const sent = Object.keys(trial.update);
  return [
    ...stateViolations('ad set', '5001', created.status, sent, { status: statusOf(change) }),
    ...change.violations,
    ...adSetViolations(withAdSetDefaults(updated, updateContext), updateContext),
  ].map((v) => `${v.field}: ${v.message}`);
}

/** Enough for every minimum: the low-frequency one, and five times the bid below. */
const BASE: Params = {
  name: 'Every value',
  campaign_id: '2001',
  status: 'PAUSED',
  daily_budget: '100000',
  targeting: { geo_locations: { countries: ['US'] } },
};
/** What a pairing may need besides: nothing, a Page (lead goals), or a mobile app and its store URL (install goals). */
const PROMOTED: Array<Params> = [
  {},
  { promoted_object: { page_id: '3001' } },
  { promoted_object: { application_id: '4001', object_store_url: 'https://play.google.com/store/apps/details?id=com.example' } },
];
/** What a bid strategy may need: nothing, a bid (cap or cost cap), or a minimum ROAS. */
const BIDS: Array<Params> = [{}, { bid_amount: '100' }, { bid_constraints: { roas_average_floor: 10000 } }];

/** Every objective, destination (or none), goal and billing event the tables pair, with each promoted object. */
function* pairings(): Generator<Trial> {
  for (const objective of OBJECTIVES) {
    for (const row of PAIRINGS[objective]) {
      for (const destination of row.destinations) {
        for (const goal of row.goals) {
          for (const billingEvent of billableBy(goal)) {
            for (const promoted of PROMOTED) {
              const params: Params = { ...BASE, ...promoted, optimization_goal: goal, billing_event: billingEvent };
              if (destination !== null) params.destination_type = destination;
              yield { objective, specialAdCategories: [], params };
            }
          }
        }
      }
    }
  }
}

function* filter<T>(items: Iterable<T>, keep: (item: T) => boolean): Generator<T> {
  for (const item of items) if (keep(item)) yield item;
}

/** The pairings that carry this value of a pairing parameter. */
const pairedWith = (param: string) => (value: string) => filter(pairings(), (trial) => trial.params[param] === value);

/** Any pairing, with this ad set parameter set (and a bid, for the strategies that need one). */
const anyPairingWith = (param: string, encode: (value: string) => unknown = (value) => value) =>
  function* (value: string): Generator<Trial> {
    for (const trial of pairings()) {
      for (const bid of BIDS) yield { ...trial, params: { ...trial.params, ...bid, [param]: encode(value) } };
    }
  };

const CREATABLE: readonly ObjectStatus[] = ['ACTIVE', 'PAUSED'];

/** Each closed list an ad set carries (on itself or, for special_ad_categories, on its campaign) and how to reach a value. */
const ENUMS: Array<[string, readonly string[], (value: string) => Iterable<Trial>]> = [
  ['objective (campaign)', OBJECTIVES, (value) => filter(pairings(), (trial) => trial.objective === value)],
  ['special_ad_categories (campaign)', SPECIAL_AD_CATEGORIES, withCategory],
  ['optimization_goal', OPTIMIZATION_GOALS, pairedWith('optimization_goal')],
  ['billing_event', BILLING_EVENTS, pairedWith('billing_event')],
  ['destination_type', DESTINATION_TYPES, pairedWith('destination_type')],
  ['bid_strategy', BID_STRATEGIES, anyPairingWith('bid_strategy')],
  ['pacing_type', PACING_TYPES, anyPairingWith('pacing_type', (value) => [value])],
  ['optimization_sub_event', OPTIMIZATION_SUB_EVENTS, anyPairingWith('optimization_sub_event')],
  ['multi_optimization_goal_weight', MULTI_OPTIMIZATION_GOAL_WEIGHTS, anyPairingWith('multi_optimization_goal_weight')],
  ['tune_for_category', TUNE_FOR_CATEGORIES, anyPairingWith('tune_for_category')],
  ['automatic_manual_state', AUTOMATIC_MANUAL_STATES, anyPairingWith('automatic_manual_state')],
  ['budget_source', BUDGET_SOURCES, anyPairingWith('budget_source')],
  ['status', OBJECT_STATUSES, (value) => withStatus(value as ObjectStatus)],
];

function* withCategory(category: string): Generator<Trial> {
  for (const trial of pairings()) yield { ...trial, specialAdCategories: [category] };
}

/** Created with the status, or, for the ones a create does not take, created paused and then set to it. */
function* withStatus(status: ObjectStatus): Generator<Trial> {
  for (const trial of pairings()) {
    yield CREATABLE.includes(status) ? { ...trial, params: { ...trial.params, status } } : { ...trial, update: { status } };
  }
}

/** The first trial that nothing refuses, if any. */
function accepted(trials: Iterable<Trial>): Trial | undefined {
  for (const trial of trials) if (refusals(trial).length === 0) return trial;
  return undefined;
}

describe('every value of every ad set enum has a valid ad set', () => {
  it.each(ENUMS)('%s', (_name, values, trialsFor) => {
    expect(values.length).toBeGreaterThan(0);
    const covered = values.filter((value) => accepted(trialsFor(value)) !== undefined);
    expect(values.filter((value) => !covered.includes(value))).toEqual([]);
    expect(covered).toHaveLength(values.length);
  });

  // The walk proves something only if a trial can fail: each part of `refusals` is seen refusing.
  it.each<[string, (trial: Trial) => Trial, string]>([
    ['a goal no reader takes', (t) => ({ ...t, params: { ...t.params, optimization_goal: 'NOT_A_GOAL' } }), 'optimization_goal'],
    ['a goal the objective does not pair', (t) => ({ ...t, params: { ...t.params, optimization_goal: 'LEAD_GENERATION' } }), 'optimization_goal'],
    ['a budget below the minimum', (t) => ({ ...t, params: { ...t.params, daily_budget: '1' } }), 'daily_budget'],
    ['an update that moves the ad set to another campaign', (t) => ({ ...t, update: { campaign_id: '9999' } }), 'campaign_id'],
  ])('refuses %s', (_case, change, field) => {
    const valid = accepted(pairings())!;
    expect(refusals(valid)).toEqual([]);
    expect(refusals(change(valid))[0]).toMatch(new RegExp(`^${field}: `));
  });
});
