import { childEdge } from '../authz/edges.ts';
import { findReadable } from '../authz/guards.ts';
import type { RequestContext } from '../context/index.ts';
import type { RawCondition } from '../db/conditions.ts';
import { OWNED_COLUMNS as OWNED, type Owned } from '../db/objects.ts';
import { defineTable } from '../db/rows.ts';
import type { StoredPrincipal } from '../identity/principals.ts';
import { checkRule, type CheckedRule, type EntityType, type RuleStatus } from './rules/ad-rules.ts';
import { asObject } from './rules/stored-json.ts';
import type { AdAccountRecord, AdSetRecord } from './store.ts';

/**
 * Automated rules (issue 21): an account's rules, stored with their specs in the Graph API's shape, and their
 * evaluations (runs), which are both the background runner's jobs and the rule's history. The rules themselves
 * are pure (rules/ad-rules.ts); writes/ad-rules.ts creates and changes them; ad-rule-runs.ts schedules, evaluates
 * and acts. Rules act on ad sets and are authorized as ad sets are (read with ads_read, written by advertisers).
 */

export const RULE_RESOURCE = 'ad_set';
/** The most rules an ad account may have that are not deleted: each is evaluated on its own schedule. */
export const MAX_RULES_PER_ACCOUNT = 250;

export interface AdRuleRecord extends Owned {
  accountId: string;
  name: string;
  status: RuleStatus;
  entityType: EntityType;
  evaluationType: string;
  evaluationSpec: unknown;
  executionSpec: unknown;
  scheduleSpec: unknown;
  /** Who the rule acts as (its creator), restored with its current roles at each run. */
  principal: StoredPrincipal;
  createdBy: string | null;
  /** The last scheduled instant queued: a period runs once, and a missed one once on restart. */
  lastPeriod: Date | null;
}

export const RUN_STATUSES = ['PENDING', 'RUNNING', 'DONE', 'FAILED', 'CANCELED'] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];

/** One evaluation: a job while PENDING or RUNNING, then an entry of the rule's history. */
export interface AdRuleRunRecord extends Owned {
  ruleId: string;
  accountId: string;
  period: Date | null;
  isManual: boolean;
  status: RunStatus;
  evaluationSpec: unknown;
  executionSpec: unknown;
  scheduleSpec: unknown;
  results: unknown;
  exceptionCode: number | null;
  exceptionMessage: string | null;
  attempts: number;
}

export const adRules = defineTable<AdRuleRecord>('ad_rules', {
  ...OWNED,
  account_id: 'id',
  name: 'string',
  status: 'string',
  entity_type: 'string',
  evaluation_type: 'string',
  evaluation_spec: 'json',
  execution_spec: 'json',
  schedule_spec: 'json',
  principal: 'json',
  created_by: 'string',
  last_period: 'date',
});

export const adRuleRuns = defineTable<AdRuleRunRecord>('ad_rule_runs', {
  ...OWNED,
  rule_id: 'id',
  account_id: 'id',
  period: 'date',
  is_manual: 'bool',
  status: 'string',
  evaluation_spec: 'json',
  execution_spec: 'json',
  schedule_spec: 'json',
  results: 'json',
  exception_code: 'int',
  exception_message: 'string',
  attempts: 'int',
});

export const findAdRule = (ctx: RequestContext, id: string) => findReadable(ctx, RULE_RESOURCE, id, (key) => ctx.loaders.ads.adRuleById.load(key));
/** An evaluation of a rule (an entry of its history), read as its rule is. */
export const findAdRuleRun = (ctx: RequestContext, id: string) => findReadable(ctx, RULE_RESOURCE, id, (key) => ctx.loaders.ads.adRuleRunById.load(key));

/** The ids a stored evaluation spec's id filters name (`id`, `campaign.id`, `adset.id`), by kind. */
export function namedIds(evaluationSpec: unknown): Array<{ kind: 'id' | 'campaign' | 'adset'; operator: 'IN' | 'NOT_IN'; objectId: string }> {
  const filters = asObject(evaluationSpec)?.filters;
  if (!Array.isArray(filters)) return [];
  const kinds = { id: 'id', 'campaign.id': 'campaign', 'adset.id': 'adset' } as const;
  return filters.flatMap((filter) => {
    const { field, operator, value } = asObject(filter) ?? {};
    const kind = kinds[field as keyof typeof kinds];
    if (!kind) return [];
    const ids = Array.isArray(value) ? value : [value];
    const op = operator === 'NOT_IN' ? 'NOT_IN' : 'IN';
    return [...new Set(ids.map(String))].map((objectId) => ({ kind, operator: op, objectId }));
  });
}

/**
 * A stored rule in its checked form, for evaluation. Its ids were checked when it was written; objects deleted
 * since simply match nothing, so they are taken as known here rather than making the rule unreadable.
 */
export function checkedRuleOf(rule: Pick<AdRuleRecord, 'name' | 'status' | 'evaluationSpec' | 'executionSpec' | 'scheduleSpec'>): CheckedRule | null {
  const named = new Set(namedIds(rule.evaluationSpec).map((entry) => entry.objectId));
  const { rule: checked } = checkRule(
    {
      name: rule.name,
      status: rule.status === 'DELETED' ? 'DISABLED' : rule.status,
      evaluationSpec: rule.evaluationSpec,
      executionSpec: rule.executionSpec,
      scheduleSpec: rule.scheduleSpec ?? undefined,
    },
    { objectIds: { AD: named, ADSET: named, CAMPAIGN: named } },
    'update',
  );
  return checked;
}

const notDeleted = { status: ['DISABLED', 'ENABLED'] };

/** A filter of ad_rules rows: this kind of id filter lets `objectId` through (absent, IN naming it, or NOT_IN not naming it). */
const passes = (kind: string, objectIdSql: string) =>
  `(not exists (select 1 from ad_rule_objects o where o.rule_id = ad_rules.id and o.kind = '${kind}' and o.operator = 'IN')` +
  ` or exists (select 1 from ad_rule_objects o where o.rule_id = ad_rules.id and o.kind = '${kind}' and o.operator = 'IN' and o.object_id = ${objectIdSql}))` +
  ` and not exists (select 1 from ad_rule_objects o where o.rule_id = ad_rules.id and o.kind = '${kind}' and o.operator = 'NOT_IN' and o.object_id = ${objectIdSql})`;
const names = (kind: string, objectIdSql: string) =>
  `exists (select 1 from ad_rule_objects o where o.rule_id = ad_rules.id and o.kind = '${kind}' and o.operator = 'IN' and o.object_id = ${objectIdSql})`;

/**
 * The rules governing an ad set, as the platform's edge reads by default: ad set rules whose id filters let it
 * through (naming it, naming its campaign, or naming none: the whole account's ad sets), ad rules naming it by
 * adset.id, campaign rules naming its campaign.
 */
function governing(adSet: AdSetRecord): RawCondition {
  return {
    sql:
      `(ad_rules.entity_type = 'ADSET' and ${passes('id', '?')} and ${passes('campaign', '?')})` +
      ` or (ad_rules.entity_type = 'AD' and ${names('adset', '?')})` +
      ` or (ad_rules.entity_type = 'CAMPAIGN' and ${names('id', '?')})`,
    bindings: [adSet.id, adSet.id, adSet.campaignId, adSet.campaignId, adSet.id, adSet.campaignId],
  };
}

/** What `/<ad set>/adrules_governed` takes: every rule of the account instead of those governing the set. */
export interface GovernedFilter {
  all?: boolean;
}

const HISTORY_STATUSES = { status: ['DONE', 'FAILED'] };

export const ruleEdges = {
  /** `/act_<id>/adrules_library`: the account's rules that are not deleted. */
  ofAccount: childEdge<AdAccountRecord, AdRuleRecord>(RULE_RESOURCE, (l) => l.ads.rulesOfAccount, { filters: () => notDeleted }),
  /** `/<ad set>/adrules_governed`. */
  governing: childEdge<AdSetRecord, AdRuleRecord, GovernedFilter>(RULE_RESOURCE, (l) => l.ads.rulesOfAccount, {
    parentKey: (adSet) => adSet.accountId,
    filters: (filter, _ctx, adSet) => (filter?.all ? notDeleted : { ...notDeleted, governs: governing(adSet) }),
  }),
  /** `/<rule>/history`: its finished evaluations, newest first. */
  history: childEdge<AdRuleRecord, AdRuleRunRecord>(RULE_RESOURCE, (l) => l.ads.runsOfRule, {
    filters: () => HISTORY_STATUSES,
    order: (page) => ({ ...page, descending: true }),
  }),
};
