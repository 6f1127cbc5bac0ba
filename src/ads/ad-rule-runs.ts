import type { Knex } from 'knex';
import { ruleExecutedEvent } from './events.ts';
import { createRequestContext, timeNow, type AppDeps, type RequestContext } from '../context/index.ts';
import { insertObjects } from '../db/objects.ts';
import { toDate, type TableMapping } from '../db/rows.ts';
import { DomainError } from '../errors/index.ts';
import { restorePrincipal } from '../identity/principals.ts';
import { objectDelivery } from '../insights/delivery.ts';
import type { InsightsLevel } from '../insights/query.ts';
import { countEvents, optimizationEventOf } from '../insights/rules/learning-stage.ts';
import { todayIn } from '../insights/rules/windows.ts';
import type { JobKind, Lease } from '../jobs/index.ts';
import type { Logger } from '../logging/index.ts';
import { retainedSince } from './activities.ts';
import { adRuleRuns, adRules, checkedRuleOf, type AdRuleRecord, type AdRuleRunRecord } from './ad-rules.ts';
import {
  actionAllowed,
  budgetAfterChange,
  isDue,
  latestRunAt,
  metricsOf,
  objectMatches,
  presetDays,
  runScheduleOf,
  METRIC_FIELDS,
  type CheckedRule,
  type EntityType,
  type Metrics,
} from './rules/ad-rules.ts';
import { adEffectiveStatus, adSetEffectiveStatus, campaignEffectiveStatus } from './service.ts';
import { adSets, ads, campaigns, type AdRecord, type AdSetRecord, type CampaignRecord } from './store.ts';
import { updateAd } from './writes/ads.ts';
import { updateAdSet } from './writes/ad-sets.ts';
import { updateCampaign } from './writes/campaigns.ts';

/**
 * Running automated rules (issue 21). The background runner (src/jobs) queues each enabled rule's due period
 * (`schedule`: one run per rule and period, however many instances look, and one for a period missed while every
 * instance was down) and runs the queued evaluations (`run`) as the rule's creator is now. An evaluation reads
 * the account's objects of the rule's level, their statistics over the rule's time preset (account time zone),
 * keeps those passing every filter, and acts on each through the same domain writes a person uses (so the ad set
 * rules, limits and DSA checks hold, and the change history names the rule). An action that fails is recorded and
 * the others go on. The run's results are the rule's history.
 */

/** The most objects one evaluation reads (the first by id): an account's ad sets fit (the platform allows 5,000). */
export const MAX_EVALUATED_OBJECTS = 5_000;

/** What an evaluation records for an object (the platform's AdRuleHistory actions this gateway takes). */
export const RULE_ACTIONS = ['PAUSED', 'UNPAUSED', 'CHANGED_BUDGET', 'EMAIL', 'NOT_CHANGED', 'ERROR'] as const;
export type RuleActionName = (typeof RULE_ACTIONS)[number];

/** One change (or its refusal) as the platform's AdRuleHistoryResultAction: action, field, old and new value. */
export interface RuleAction {
  action: RuleActionName;
  field: string | null;
  old_value: string | null;
  new_value: string | null;
  /** Why the action failed (action ERROR). */
  error_message?: string;
}

/** What an evaluation did to one object (the platform's AdRuleHistoryResult). */
export interface RuleResult {
  object_id: string;
  object_type: EntityType;
  actions: RuleAction[];
}

type AnyObject = CampaignRecord | AdSetRecord | AdRecord;
interface Candidate {
  type: EntityType;
  record: AnyObject;
  campaignId: string;
  adSetId: string | null;
  effectiveStatus: string;
  metrics: Metrics;
}

const TABLES: Record<EntityType, TableMapping<AnyObject>> = { CAMPAIGN: campaigns, ADSET: adSets, AD: ads } as Record<EntityType, TableMapping<AnyObject>>;
const LEVELS: Record<EntityType, InsightsLevel> = { CAMPAIGN: 'campaign', ADSET: 'adset', AD: 'ad' };
const NO_METRICS = Object.fromEntries(METRIC_FIELDS.map((field) => [field, null])) as Metrics;

/** The account's objects of the rule's level that are neither deleted nor archived, narrowed by its id filters in SQL. */
async function objectsOf(ctx: RequestContext, accountId: string, rule: CheckedRule): Promise<AnyObject[]> {
  const { entityType, ids, campaignIds, adSetIds } = rule.evaluation;
  const mapping = TABLES[entityType];
  const query = ctx.db(mapping.table).where({ account_id: accountId }).whereNotIn('status', ['DELETED', 'ARCHIVED']);
  if (ids) query.whereIn('id', ids);
  if (campaignIds?.operator === 'IN') query.whereIn(entityType === 'CAMPAIGN' ? 'id' : 'campaign_id', campaignIds.ids);
  if (adSetIds?.operator === 'IN') query.whereIn('adset_id', adSetIds.ids);
  const rows: Array<Record<string, unknown>> = await query.orderBy('id').limit(MAX_EVALUATED_OBJECTS);
  return rows.map((row) => mapping.fromRow(row));
}

/** Optimization events of an ad set's goal in some delivery: a rule's `results`. */
const resultsOf = (adSet: AdSetRecord | null | undefined, delivered: { impressions: number; actions: Record<string, number> }) => {
  const event = adSet ? optimizationEventOf(adSet.optimizationGoal, adSet.promotedObject) : null;
  return event ? countEvents(event, [{ impressions: delivered.impressions, actions: delivered.actions }]) : 0;
};

/** The metrics of an object over the rule's preset: its own rollup; results by its ad set's goal (a campaign's: each ad set's). */
async function metricsFor(ctx: RequestContext, type: EntityType, record: AnyObject, rule: CheckedRule, timeZone: string, now: Date): Promise<Metrics> {
  const preset = rule.evaluation.timePreset;
  if (!preset) return NO_METRICS;
  const days = presetDays(preset, todayIn(timeZone, now), todayIn(timeZone, record.createdTime));
  const delivered = await objectDelivery(ctx, LEVELS[type], record.id, days);
  let results: number;
  if (type === 'CAMPAIGN') {
    const rows: Array<Record<string, unknown>> = await ctx
      .db(adSets.table)
      .where({ campaign_id: record.id })
      .whereNot({ status: 'DELETED' })
      .limit(MAX_EVALUATED_OBJECTS);
    const perAdSet = await Promise.all(
      rows.map(async (row) => {
        const adSet = adSets.fromRow(row);
        return resultsOf(adSet, await objectDelivery(ctx, 'adset', adSet.id, days));
      }),
    );
    results = perAdSet.reduce((sum, n) => sum + n, 0);
  } else {
    const adSet = type === 'ADSET' ? (record as AdSetRecord) : await ctx.loaders.ads.adSetById.load((record as AdRecord).adsetId);
    results = resultsOf(adSet, delivered);
  }
  return metricsOf({ impressions: delivered.impressions, clicks: delivered.clicks, spend: delivered.spend, results });
}

async function candidateOf(ctx: RequestContext, type: EntityType, record: AnyObject, rule: CheckedRule, timeZone: string, now: Date): Promise<Candidate> {
  const [effectiveStatus, metrics] = await Promise.all([
    type === 'CAMPAIGN'
      ? campaignEffectiveStatus(record as CampaignRecord)
      : type === 'ADSET'
        ? adSetEffectiveStatus(ctx, record as AdSetRecord)
        : adEffectiveStatus(ctx, record as AdRecord),
    metricsFor(ctx, type, record, rule, timeZone, now),
  ]);
  return {
    type,
    record,
    campaignId: type === 'CAMPAIGN' ? record.id : (record as AdSetRecord | AdRecord).campaignId,
    adSetId: type === 'AD' ? (record as AdRecord).adsetId : type === 'ADSET' ? record.id : null,
    effectiveStatus,
    metrics,
  };
}

/** The objects the rule's filters keep now, in id order. */
async function matching(ctx: RequestContext, rule: AdRuleRecord, checked: CheckedRule, now: Date): Promise<Candidate[]> {
  const account = await ctx.loaders.ads.adAccountById.load(rule.accountId);
  if (!account) return [];
  const type = checked.evaluation.entityType;
  const records = await objectsOf(ctx, rule.accountId, checked);
  const candidates = await Promise.all(records.map((record) => candidateOf(ctx, type, record, checked, account.timezoneName, now)));
  return candidates.filter((c) =>
    objectMatches(
      checked,
      { id: c.record.id, name: c.record.name, effectiveStatus: c.effectiveStatus as never, campaignId: c.campaignId, adSetId: c.adSetId },
      c.metrics,
    ),
  );
}

/** The change an action makes to an object: the field, its value now and after; null when it would change nothing. */
interface PlannedChange {
  action: RuleActionName;
  field: string;
  from: string;
  to: string;
}

/** What the rule's execution does to one object, decided from the object as it is (no write). */
function plan(checked: CheckedRule, candidate: Candidate): PlannedChange | { unchanged: RuleAction } | { error: RuleAction } {
  const { record } = candidate;
  const execution = checked.execution;
  switch (execution.type) {
    case 'PAUSE':
    case 'UNPAUSE': {
      const [from, to, action] = execution.type === 'PAUSE' ? (['ACTIVE', 'PAUSED', 'PAUSED'] as const) : (['PAUSED', 'ACTIVE', 'UNPAUSED'] as const);
      if (record.status !== from) return { unchanged: { action: 'NOT_CHANGED', field: 'status', old_value: record.status, new_value: record.status } };
      return { action, field: 'status', from, to };
    }
    case 'CHANGE_BUDGET':
    case 'CHANGE_CAMPAIGN_BUDGET': {
      const budgeted = record as AdSetRecord | CampaignRecord;
      const field = budgeted.dailyBudget !== null ? 'daily_budget' : budgeted.lifetimeBudget !== null ? 'lifetime_budget' : null;
      if (!field) {
        return {
          error: {
            action: 'ERROR',
            field: 'daily_budget',
            old_value: null,
            new_value: null,
            error_message: `${candidate.type === 'ADSET' ? 'Ad set' : 'Campaign'} ${record.id} has no budget of its own to change`,
          },
        };
      }
      const current = Number(field === 'daily_budget' ? budgeted.dailyBudget : budgeted.lifetimeBudget);
      const next = budgetAfterChange(current, execution.change!);
      if (next === null) return { unchanged: { action: 'NOT_CHANGED', field, old_value: String(current), new_value: String(current) } };
      return { action: 'CHANGED_BUDGET', field, from: String(current), to: String(next) };
    }
    case 'NOTIFICATION':
      return { unchanged: { action: 'EMAIL', field: null, old_value: null, new_value: null } };
  }
}

/** Applies one planned change through the domain write a person would use. */
async function apply(ctx: RequestContext, candidate: Candidate, change: PlannedChange): Promise<void> {
  const params = { [change.field]: change.to };
  if (candidate.type === 'ADSET') await updateAdSet(ctx, candidate.record.id, params);
  else if (candidate.type === 'CAMPAIGN') await updateCampaign(ctx, candidate.record.id, params);
  else await updateAd(ctx, candidate.record.id, params);
}

/** What the rule would do now, evaluated with the caller's permissions; nothing is written (POST /<rule>/execute dry_run). */
export async function dryRunRule(ctx: RequestContext, rule: AdRuleRecord): Promise<RuleResult[]> {
  const checked = checkedRuleOf(rule);
  if (!checked) return [];
  const found = await matching(ctx, rule, checked, timeNow(ctx));
  return found.map((candidate) => {
    const planned = plan(checked, candidate);
    const action: RuleAction =
      'unchanged' in planned
        ? planned.unchanged
        : 'error' in planned
          ? planned.error
          : { action: planned.action, field: planned.field, old_value: planned.from, new_value: planned.to };
    return { object_id: candidate.record.id, object_type: candidate.type, actions: [action] };
  });
}

/** Whether an earlier attempt of this run already changed the object (its change history names the run as actor). */
async function actedInRun(q: Knex, runId: string, objectId: string): Promise<boolean> {
  return Boolean(await q('activities').where({ actor_kind: 'job', actor_id: runId, object_id: objectId }).first('id'));
}

/**
 * Evaluates the rule and acts: each matching object in turn, its action skipped when the rule acted on it within
 * its action_frequency, recorded NOT_CHANGED when there is nothing to do, ERROR (and the next object) when the
 * write refuses. A run taken over after its instance died skips what the first attempt changed.
 */
async function runRule(ctx: RequestContext, rule: AdRuleRecord, checked: CheckedRule, run: AdRuleRunRecord, now: Date): Promise<RuleResult[]> {
  const found = await matching(ctx, rule, checked, now);
  const results: RuleResult[] = [];
  const notified: Candidate[] = [];
  const lastActed = await lastActions(
    ctx.db,
    rule.id,
    found.map((candidate) => candidate.record.id),
  );
  for (const candidate of found) {
    const id = candidate.record.id;
    const last = lastActed.get(id);
    if (last && !actionAllowed(last, now, checked.execution.actionFrequencyMinutes)) continue;
    const planned = plan(checked, candidate);
    let action: RuleAction;
    if ('error' in planned) action = planned.error;
    else if ('unchanged' in planned) {
      action = planned.unchanged;
      if (checked.execution.type === 'NOTIFICATION') notified.push(candidate);
    } else if (run.attempts > 1 && (await actedInRun(ctx.db, run.id, id))) {
      action = { action: planned.action, field: planned.field, old_value: planned.from, new_value: planned.to };
    } else {
      try {
        await apply(ctx, candidate, planned);
        action = { action: planned.action, field: planned.field, old_value: planned.from, new_value: planned.to };
      } catch (error) {
        if (!(error instanceof DomainError)) throw error;
        action = { action: 'ERROR', field: planned.field, old_value: planned.from, new_value: planned.to, error_message: error.message };
      }
    }
    if (action.action !== 'NOT_CHANGED' && action.action !== 'ERROR') await markActed(ctx.db, rule.id, id, now);
    results.push({ object_id: id, object_type: candidate.type, actions: [action] });
  }
  if (notified.length > 0) await notify(ctx, rule, checked, notified);
  return results;
}

/** When the rule last acted on each of these objects: one statement per 500 objects, not one per object. */
async function lastActions(q: Knex, ruleId: string, objectIds: readonly string[]): Promise<Map<string, Date>> {
  const acted = new Map<string, Date>();
  for (let i = 0; i < objectIds.length; i += 500) {
    const rows = (await q('ad_rule_object_actions')
      .where({ rule_id: ruleId })
      .whereIn('object_id', objectIds.slice(i, i + 500))
      .select('object_id', 'acted_at')) as Array<{ object_id: unknown; acted_at: unknown }>;
    for (const row of rows) acted.set(String(row.object_id), toDate(row.acted_at)!);
  }
  return acted;
}

async function markActed(q: Knex, ruleId: string, objectId: string, now: Date): Promise<void> {
  await q('ad_rule_object_actions')
    .insert({ rule_id: ruleId, object_id: objectId, acted_at: now })
    .onConflict(['rule_id', 'object_id'])
    .merge({ acted_at: now });
}

/** NOTIFICATION: one e-mail per evaluation to the rule's creator and its user_ids who are members of the organization. */
async function notify(ctx: RequestContext, rule: AdRuleRecord, checked: CheckedRule, objects: readonly Candidate[]): Promise<void> {
  const userIds = [...new Set([...(rule.principal.kind === 'user' ? [rule.principal.userId] : []), ...checked.execution.userIds])];
  if (userIds.length === 0) return;
  const recipients: Array<{ email: string }> = await ctx
    .db('users')
    .join('organization_members', 'organization_members.user_id', 'users.id')
    .where('organization_members.organization_id', rule.organizationId)
    .whereIn('users.id', userIds)
    .whereNot('users.status', 'suspended')
    .select('users.email');
  const lines = objects.map((c) => `- ${c.type} ${c.record.id}: ${c.record.name}`);
  for (const { email } of recipients) {
    await ctx.mailer.send({
      to: email,
      subject: `Rule "${rule.name}": ${objects.length} ${objects.length === 1 ? 'object matches' : 'objects match'}`,
      text: [`Your automated rule "${rule.name}" (ad account act_${rule.accountId}) matched:`, ...lines].join('\n'),
      kind: 'ad_rule_notification',
    });
  }
}

/** The run of a rule's period (or a manual run), with the specs it ran with. */
export function newRun(rule: AdRuleRecord, period: Date | null, now: Date) {
  return {
    organizationId: rule.organizationId,
    ruleId: rule.id,
    accountId: rule.accountId,
    period,
    isManual: period === null,
    status: 'PENDING' as const,
    evaluationSpec: rule.evaluationSpec,
    executionSpec: rule.executionSpec,
    scheduleSpec: rule.scheduleSpec,
    results: null,
    exceptionCode: null,
    exceptionMessage: null,
    attempts: 0,
    createdTime: now,
    updatedTime: now,
  };
}

/**
 * Every scheduled instant is a local :00 or :30, and time zone offsets are whole quarter hours: instants fall on
 * UTC quarter hours. A rule written since (created, rescheduled, enabled) starts after its latest instant, so the
 * set of due rules changes only when the clock enters a new quarter hour: each instance reads the enabled rules
 * once per quarter hour (and at start), not every poll.
 */
const SLOT_MS = 15 * 60 * 1000;
const scannedSlot = new WeakMap<AppDeps, number>();

/**
 * Queues each enabled rule's due period: the period is claimed on the rule's row (`last_period` moves forward
 * only from the value read), so of several instances one queues it, and a rule missed during downtime gets its
 * latest period only.
 */
async function queueDueRuns(deps: AppDeps, now: Date): Promise<number> {
  const slot = Math.floor(now.getTime() / SLOT_MS);
  if (scannedSlot.get(deps) === slot) return 0;
  const rows: Array<Record<string, unknown>> = await deps
    .db(adRules.table)
    .join('ad_accounts', 'ad_accounts.id', 'ad_rules.account_id')
    .where('ad_rules.status', 'ENABLED')
    .select('ad_rules.*', 'ad_accounts.timezone_name as account_time_zone');
  let queued = 0;
  for (const row of rows) {
    const rule = adRules.fromRow(row);
    const checked = checkedRuleOf(rule);
    if (!checked) continue;
    const latest = latestRunAt(runScheduleOf(checked), String(row.account_time_zone), now);
    if (!latest || !isDue(rule.lastPeriod, latest)) continue;
    const claimed = await deps.db.transaction(async (trx) => {
      const moved = await trx(adRules.table)
        .where({ id: rule.id, status: 'ENABLED' })
        .andWhere((q) => (rule.lastPeriod ? q.where('last_period', rule.lastPeriod) : q.whereNull('last_period')))
        .update({ last_period: latest });
      if (Number(moved) !== 1) return false;
      await insertObjects<AdRuleRunRecord>(trx, 'ad_rule_run', adRuleRuns, [newRun(rule, latest, now)]);
      return true;
    });
    if (claimed) queued += 1;
  }
  // Only once every rule was looked at: a scan the database interrupted is done again at the next poll.
  scannedSlot.set(deps, slot);
  return queued;
}

const HISTORY_SWEEP_EVERY_MS = 60 * 60 * 1000;
let lastHistorySweep = -Infinity;

/** Automated rule evaluations as a job kind of the background runner. */
export const adRuleRunJobs: JobKind<AdRuleRunRecord> = {
  name: 'ad_rule_run',
  queue: { table: adRuleRuns.table, waiting: 'PENDING', claimed: 'RUNNING', held: ['RUNNING'], fromRow: adRuleRuns.fromRow },
  schedule: queueDueRuns,

  async run(deps: AppDeps, run: AdRuleRunRecord, lease: Lease, log: Logger) {
    const row = await deps.db(adRules.table).where({ id: run.ruleId }).first();
    const rule = row ? adRules.fromRow(row) : null;
    // A rule deleted, or disabled since its period was queued, does not run (one asked for by hand does while disabled).
    if (!rule || rule.status === 'DELETED' || (!run.isManual && rule.status !== 'ENABLED')) {
      await lease.finish(deps.db, { status: 'CANCELED' });
      return;
    }
    const viewer = await restorePrincipal(deps, rule.principal);
    if (!viewer) throw new DomainError('FORBIDDEN', 'The user or API client that created this rule can no longer act', { graph: { code: 200 } });
    const checked = checkedRuleOf(rule);
    if (!checked) throw new DomainError('BAD_USER_INPUT', 'The rule no longer passes its checks', { graph: { code: 100 } });
    const ctx = createRequestContext(deps, {
      requestId: `rule-run-${run.id}`,
      viewer,
      log,
      origin: { application: 'Automated rules', job: { id: run.id, label: `Rule "${rule.name}"` } },
    });
    const results = await runRule(ctx, rule, checked, run, timeNow(deps));
    await lease.finish(deps.db, { status: 'DONE', results: JSON.stringify(results) });
  },

  failed: (error) => ({ status: 'FAILED', exception_code: error.graph?.code ?? 1, exception_message: error.message }),
  finishedEvent: ruleExecutedEvent,

  // A rule's history is kept as long as the change history it explains (ACTIVITY_RETENTION_MONTHS), swept hourly.
  async sweep(deps, now) {
    if (now.getTime() - lastHistorySweep < HISTORY_SWEEP_EVERY_MS) return 0;
    lastHistorySweep = now.getTime();
    return deps.db(adRuleRuns.table).whereIn('status', ['DONE', 'FAILED', 'CANCELED']).where('updated_time', '<', retainedSince(now)).delete();
  },
};
