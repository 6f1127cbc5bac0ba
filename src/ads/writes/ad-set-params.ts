import { camel } from '../../db/rows.ts';
import { DomainError } from '../../errors/index.ts';
import {
  boolean,
  dateTime,
  given,
  graphId,
  integer,
  jsonObject,
  list,
  MAX_EXACT_INTEGER,
  missingParam,
  oneOf,
  paramError,
  positiveInteger,
  text,
  wholeNumber,
  type Params,
  type Reader,
} from '../../graph-api/params.ts';
import type { AdSetDraft } from '../rules/ad-set.ts';
import { NO_SPEND_CAP } from '../rules/budgets.ts';
import {
  AUTOMATIC_MANUAL_STATES,
  BID_STRATEGIES,
  BILLING_EVENTS,
  BUDGET_SOURCES,
  DESTINATION_TYPES,
  MULTI_OPTIMIZATION_GOAL_WEIGHTS,
  OBJECT_STATUSES,
  OPTIMIZATION_GOALS,
  OPTIMIZATION_SUB_EVENTS,
  PACING_TYPES,
  TUNE_FOR_CATEGORIES,
  type ExecutionOption,
  type ObjectStatus,
} from '../rules/enums.ts';
import { AD_SET_NAME_MAX, DSA_NAME_MAX } from '../rules/limits.ts';
import { REGIONAL_REGULATED_CATEGORIES, REGULATION_IDENTITY_KEYS } from '../rules/regional-regulations.ts';
import { createStatus, executionOptions } from './common.ts';
import { violation, violationOf, type Violation } from '../rules/violations.ts';

/**
 * The ad set's parameters (the specification's create table, plus `campaign_status` on update): each one's
 * reader and the column it sets. Reading collects every bad parameter, so validateAdSet can report them all;
 * a write refuses the first. Unknown parameters are ignored, as the Graph API ignores them.
 */
interface ParamSpec {
  read: Reader<unknown>;
  /** The draft's key it sets (default: the camelCase of its name). */
  key?: keyof AdSetDraft;
  only?: 'create' | 'update';
  /** Turns the read value into the stored one (spend caps: the no-cap value removes the cap). */
  store?: (value: unknown) => unknown;
}

const percentage = integer({ min: 0n, max: 100n });
const nonNegative = integer({ min: 0n, max: MAX_EXACT_INTEGER });
const bidAmount = integer({ min: 1n, max: 4_294_967_295n });
const noCapMeansNone = (value: unknown) => (BigInt(value as string) === NO_SPEND_CAP ? null : value);
const objects = list(jsonObject);

export const AD_SET_PARAMS: Record<string, ParamSpec> = {
  name: { read: text({ max: AD_SET_NAME_MAX, nonEmpty: true }) },
  campaign_id: { read: graphId },
  status: { read: oneOf(OBJECT_STATUSES) },
  campaign_status: { read: oneOf(OBJECT_STATUSES), key: 'status', only: 'update' },
  adlabels: { read: objects },
  adset_schedule: { read: objects },
  anchor_event_attribution_window_days: { read: integer({ min: 1n, max: 365n }) },
  attribution_spec: { read: objects },
  automatic_manual_state: { read: oneOf(AUTOMATIC_MANUAL_STATES) },
  bid_adjustments: { read: jsonObject },
  bid_amount: { read: bidAmount },
  bid_constraints: { read: jsonObject },
  bid_strategy: { read: oneOf(BID_STRATEGIES) },
  billing_event: { read: oneOf(BILLING_EVENTS) },
  brand_safety_config: { read: jsonObject },
  budget_schedule_specs: { read: objects },
  budget_source: { read: oneOf(BUDGET_SOURCES) },
  budget_split_set_id: { read: graphId },
  campaign_attribution: { read: text({ max: 64, nonEmpty: true }) },
  campaign_spec: { read: jsonObject },
  contextual_bundling_spec: { read: jsonObject },
  creative_sequence: { read: list(graphId, { max: 50 }) },
  daily_budget: { read: positiveInteger },
  daily_imps: { read: nonNegative },
  daily_min_spend_target: { read: positiveInteger },
  daily_spend_cap: { read: positiveInteger, store: noCapMeansNone },
  destination_type: { read: oneOf(DESTINATION_TYPES) },
  dsa_beneficiary: { read: text({ max: DSA_NAME_MAX, nonEmpty: true }) },
  dsa_payor: { read: text({ max: DSA_NAME_MAX, nonEmpty: true }) },
  end_time: { read: dateTime },
  time_stop: { read: dateTime, key: 'endTime' },
  existing_customer_budget_percentage: { read: percentage },
  frequency_control_specs: { read: objects },
  instagram_user_id: { read: graphId },
  is_dynamic_creative: { read: boolean },
  is_incremental_attribution_enabled: { read: boolean },
  is_sac_cfca_terms_certified: { read: boolean },
  lifetime_budget: { read: positiveInteger },
  lifetime_imps: { read: wholeNumber(0, 2_147_483_647) },
  lifetime_min_spend_target: { read: positiveInteger },
  lifetime_spend_cap: { read: positiveInteger, store: noCapMeansNone },
  max_budget_spend_percentage: { read: percentage },
  min_budget_spend_percentage: { read: percentage },
  multi_optimization_goal_weight: { read: oneOf(MULTI_OPTIMIZATION_GOAL_WEIGHTS) },
  optimization_goal: { read: oneOf(OPTIMIZATION_GOALS) },
  optimization_sub_event: { read: oneOf(OPTIMIZATION_SUB_EVENTS) },
  pacing_type: { read: list(oneOf(PACING_TYPES), { max: 2 }) },
  promoted_object: { read: jsonObject },
  rf_prediction_id: { read: graphId },
  source_adset_id: { read: graphId },
  start_time: { read: dateTime },
  time_start: { read: dateTime, key: 'startTime' },
  targeting: { read: jsonObject },
  // Integers in the resource table: stored and read back as JSON numbers.
  time_based_ad_rotation_id_blocks: { read: list(list(wholeNumber(1, Number.MAX_SAFE_INTEGER), { max: 50 }), { max: 100 }) },
  time_based_ad_rotation_intervals: { read: list(wholeNumber(0, 253_402_300_799), { max: 100 }) },
  tune_for_category: { read: oneOf(TUNE_FOR_CATEGORIES) },
  use_new_app_click: { read: boolean },
  value_rule_set_id: { read: graphId },
  value_rules_applied: { read: boolean },
  // Fields of the resource table the create table does not list: taken and read back rather than dropped.
  asset_feed_id: { read: graphId },
  bid_info: { read: jsonObject },
  recurring_budget_semantics: { read: boolean },
  review_feedback: { read: text({ max: 2048 }) },
  regional_regulated_categories: { read: list(oneOf(REGIONAL_REGULATED_CATEGORIES), { max: REGIONAL_REGULATED_CATEGORIES.length }) },
  regional_regulation_identities: { read: regulationIdentities },
};

/** regional_regulation_identities: an object of the known identity keys, each an id. */
function regulationIdentities(value: unknown, name: string): Record<string, string> {
  const object = jsonObject(value, name);
  const out: Record<string, string> = {};
  for (const [key, id] of Object.entries(object)) {
    if (!(REGULATION_IDENTITY_KEYS as readonly string[]).includes(key)) {
      throw paramError(`${name}.${key}`, `Param ${name}.${key} is not an identity; the identities are ${REGULATION_IDENTITY_KEYS.join(', ')}`);
    }
    out[key] = graphId(id, `${name}.${key}`);
  }
  return out;
}

/** Parameters required on create. */
const REQUIRED = ['name', 'campaign_id', 'billing_event', 'targeting'] as const;

/** Parameters that set the same column: a pair may not disagree. */
const ALIASES: Record<string, string> = { time_start: 'start_time', time_stop: 'end_time', campaign_status: 'status' };

export interface AdSetInput {
  /** The values sent, as the draft's keys (spend caps sent as "no cap" are null). */
  changes: Partial<AdSetDraft>;
  /** Canonical names of the parameters sent (aliases as the parameter they stand for). */
  sent: Set<string>;
  executionOptions: Set<ExecutionOption>;
  /** Every bad parameter, in the table's order. */
  violations: Violation[];
}

function attempt<T>(violations: Violation[], read: () => T): T | undefined {
  try {
    return read();
  } catch (error) {
    if (error instanceof DomainError && error.code === 'BAD_USER_INPUT') {
      violations.push(violationOf(error));
      return undefined;
    }
    throw error;
  }
}

/** Reads an ad set's parameters for a create (required ones enforced) or an update (any subset). */
export function readAdSetParams(params: Params, mode: 'create' | 'update'): AdSetInput {
  const violations: Violation[] = [];
  const changes: Record<string, unknown> = {};
  const sent = new Set<string>();
  if (mode === 'create') {
    for (const name of REQUIRED) {
      const value = params[name];
      if (!given(params, name) || (typeof value === 'string' && value.trim() === '')) violations.push(violationOf(missingParam(name)));
    }
  }
  const canonicalValues = new Map<string, unknown>();
  for (const [name, spec] of Object.entries(AD_SET_PARAMS)) {
    if (!given(params, name)) continue;
    if (spec.only && spec.only !== mode) continue;
    const read = name === 'status' && mode === 'create' ? createStatus : spec.read;
    const value = attempt(violations, () => read(params[name], name));
    if (value === undefined) continue;
    const canonical = ALIASES[name] ?? name;
    const stored = spec.store ? spec.store(value) : value;
    if (canonicalValues.has(canonical) && JSON.stringify(canonicalValues.get(canonical)) !== JSON.stringify(stored)) {
      violations.push(violation(name, `Param ${name} and ${canonical} set the same value and disagree: send one of them`));
      continue;
    }
    canonicalValues.set(canonical, stored);
    sent.add(canonical);
    changes[spec.key ?? camel(canonical)] = stored;
  }
  const options = given(params, 'execution_options') ? attempt(violations, () => executionOptions(params.execution_options, 'execution_options')) : [];
  // A field whose required check already failed is not reported twice.
  const seen = new Set<string>();
  const unique = violations.filter((v) => (seen.has(v.field) ? false : (seen.add(v.field), true)));
  return { changes: changes as Partial<AdSetDraft>, sent, executionOptions: new Set(options ?? []), violations: unique };
}

/** The status a write asks for (status or campaign_status). */
export const statusOf = (input: AdSetInput) => input.changes.status as ObjectStatus | undefined;
