import type { Knex } from 'knex';
import { timeNow, type RequestContext } from '../../context/index.ts';
import { lockRow } from '../../db/locks.ts';
import { isNumericId } from '../../db/ids.ts';
import { insertObjects } from '../../db/objects.ts';
import { boolean, decodeJsonText, given, optionalParam, paramError, type Params } from '../../graph-api/params.ts';
import { ownerOf, storedPrincipal } from '../../identity/principals.ts';
import { adRuleRuns, adRules, findAdRule, MAX_RULES_PER_ACCOUNT, namedIds, RULE_RESOURCE, type AdRuleRecord, type AdRuleRunRecord } from '../ad-rules.ts';
import { dryRunRule, newRun, type RuleResult } from '../ad-rule-runs.ts';
import { checkRule, latestRunAt, runScheduleOf, specsOf, type CheckedRule, type RuleFacts, type RuleInput } from '../rules/ad-rules.ts';
import { refuseFirst, violation } from '../rules/violations.ts';
import { createInAccount, lockRecord, visibleForWrite } from './common.ts';

/**
 * Automated rule writes (issue 21): POST /act_<id>/adrules_library (GraphQL createAdRule), POST /<rule>, DELETE
 * /<rule>, POST /<rule>/execute. Every rule is checked whole by rules/ad-rules.ts (the first violation refused),
 * its ids against the account's objects; the account's row is held while its rules are counted, so the limit holds
 * under concurrency. A rule acts as whoever created it, with that principal's roles at the time it runs.
 */

const SPEC_PARAMS = { evaluation_spec: 'evaluationSpec', execution_spec: 'executionSpec', schedule_spec: 'scheduleSpec' } as const;

/** The parameters as the rules read them: specs decoded from JSON text (form fields) when sent as text. */
function inputOf(params: Params, base: RuleInput = {}): RuleInput {
  const input: RuleInput = { ...base };
  if (given(params, 'name')) input.name = params.name;
  if (given(params, 'status')) input.status = params.status;
  for (const [param, key] of Object.entries(SPEC_PARAMS)) {
    if (given(params, param)) input[key] = decodeJsonText(params[param], param);
  }
  return input;
}

/** The account's objects (not deleted) among those the spec's id filters name: what the rules check ids against. */
async function factsFor(q: Knex, accountId: string, evaluationSpec: unknown): Promise<RuleFacts> {
  const ids = [...new Set(namedIds(evaluationSpec).map((entry) => entry.objectId))].filter(isNumericId);
  const existing = async (table: string) =>
    ids.length === 0
      ? new Set<string>()
      : new Set(
          ((await q(table).where({ account_id: accountId }).whereNot({ status: 'DELETED' }).whereIn('id', ids).select('id')) as Array<{ id: unknown }>).map(
            (row) => String(row.id),
          ),
        );
  // One after another: `q` may be a transaction, whose one connection runs one statement at a time.
  const AD = await existing('ads');
  const ADSET = await existing('ad_sets');
  const CAMPAIGN = await existing('campaigns');
  return { objectIds: { AD, ADSET, CAMPAIGN } };
}

function checked(input: RuleInput, facts: RuleFacts, mode: 'create' | 'update'): CheckedRule {
  const { rule, violations } = checkRule(input, facts, mode);
  refuseFirst(violations);
  return rule!;
}

/** The columns a checked rule writes: its specs as the Graph API reads them back, and what the edges filter on. */
function ruleColumns(rule: CheckedRule) {
  const specs = specsOf(rule);
  return {
    name: rule.name,
    status: rule.status,
    entityType: rule.evaluation.entityType,
    evaluationType: rule.evaluation.type,
    evaluationSpec: specs.evaluation_spec,
    executionSpec: specs.execution_spec,
    scheduleSpec: specs.schedule_spec ?? null,
  };
}

/** The objects its id filters name, for `/<ad set>/adrules_governed`: replaced whole with the spec. */
async function replaceObjects(trx: Knex.Transaction, ruleId: string, evaluationSpec: unknown): Promise<void> {
  await trx('ad_rule_objects').where({ rule_id: ruleId }).delete();
  const rows = namedIds(evaluationSpec).map((entry) => ({ rule_id: ruleId, kind: entry.kind, operator: entry.operator, object_id: entry.objectId }));
  for (let i = 0; i < rows.length; i += 300) await trx('ad_rule_objects').insert(rows.slice(i, i + 300));
}

/**
 * POST /act_<id>/adrules_library: a rule, checked and stored in one transaction. Its first scheduled run is the
 * next instant of its schedule (a daily rule created at noon runs at midnight), in the account's time zone. With
 * execution_options validate_only the same checks run and nothing is kept (null).
 */
export function createAdRule(ctx: RequestContext, accountId: string, params: Params): Promise<AdRuleRecord | null> {
  params ??= {};
  return createInAccount(ctx, accountId, RULE_RESOURCE, 'automated rules', {
    params,
    read: () => inputOf(params),
    async insert(trx, account, input) {
      await lockRow(ctx.db, trx, 'ad_accounts', account.id);
      const rule = checked(input, await factsFor(trx, account.id, input.evaluationSpec), 'create');
      const live = Number(
        ((await trx('ad_rules').where({ account_id: account.id }).whereNot({ status: 'DELETED' }).count({ n: '*' })) as Array<{ n: unknown }>)[0]!.n,
      );
      if (live >= MAX_RULES_PER_ACCOUNT) {
        refuseFirst([
          violation(
            'name',
            `Ad account act_${account.id} already has ${MAX_RULES_PER_ACCOUNT} rules that are not deleted, the most it may have. Delete some first`,
          ),
        ]);
      }
      const now = timeNow(ctx);
      const principal = storedPrincipal(ctx.viewer);
      const [created] = await insertObjects<AdRuleRecord>(trx, 'ad_rule', adRules, [
        {
          organizationId: account.organizationId,
          accountId: account.id,
          ...ruleColumns(rule),
          principal,
          createdBy: ownerOf(principal),
          lastPeriod: latestRunAt(runScheduleOf(rule), account.timezoneName, now),
          createdTime: now,
          updatedTime: now,
        },
      ]);
      await replaceObjects(trx, created!.id, created!.evaluationSpec);
      return created!;
    },
    loader: (c) => c.loaders.ads.adRuleById,
  });
}

const ruleLabel = 'Rule';

/**
 * POST /<rule>: any of name, status (ENABLED or DISABLED), evaluation_spec, execution_spec, schedule_spec; the rule
 * is checked whole as it will be. A new schedule, or enabling the rule, starts from the schedule's next instant:
 * periods that passed while it was disabled are not run.
 */
export async function updateAdRule(ctx: RequestContext, ruleId: string, params: Params): Promise<AdRuleRecord> {
  params ??= {};
  const found = await visibleForWrite(ctx, RULE_RESOURCE, ruleLabel, ruleId, 'update', findAdRule);
  const updated = await ctx.db.transaction(async (trx) => {
    const current = await lockRecord(ctx, trx, adRules, found.id);
    if (current.status === 'DELETED') throw paramError('id', `Rule ${current.id} is deleted and cannot be changed`);
    const input = inputOf(params, {
      name: current.name,
      status: current.status,
      evaluationSpec: current.evaluationSpec,
      executionSpec: current.executionSpec,
      scheduleSpec: current.scheduleSpec ?? undefined,
    });
    const rule = checked(input, await factsFor(trx, current.accountId, input.evaluationSpec), 'update');
    const columns = ruleColumns(rule);
    // Read in the transaction: on SQLite its one connection is held until it ends.
    const { timezone_name: timeZone } = (await trx('ad_accounts').where({ id: current.accountId }).first('timezone_name')) as { timezone_name: string };
    const now = timeNow(ctx);
    const rescheduled = JSON.stringify(columns.scheduleSpec) !== JSON.stringify(current.scheduleSpec) || columns.evaluationType !== current.evaluationType;
    const enabled = current.status !== 'ENABLED' && columns.status === 'ENABLED';
    const lastPeriod = rescheduled || enabled ? latestRunAt(runScheduleOf(rule), timeZone, now) : current.lastPeriod;
    await trx(adRules.table)
      .where({ id: current.id })
      .update(adRules.toRow({ ...columns, lastPeriod, updatedTime: now }));
    await replaceObjects(trx, current.id, columns.evaluationSpec);
    return adRules.fromRow(await trx(adRules.table).where({ id: current.id }).first());
  });
  ctx.loaders.ads.adRuleById.clear(updated.id).prime(updated.id, updated);
  return updated;
}

/** DELETE /<rule>: status DELETED (readable by id, off the lists); its queued runs are canceled. Deleting twice is no error. */
export async function deleteAdRule(ctx: RequestContext, ruleId: string): Promise<void> {
  const found = await visibleForWrite(ctx, RULE_RESOURCE, ruleLabel, ruleId, 'delete', findAdRule);
  await ctx.db.transaction(async (trx) => {
    const current = await lockRecord(ctx, trx, adRules, found.id);
    if (current.status === 'DELETED') return;
    const now = timeNow(ctx);
    await trx(adRules.table)
      .where({ id: current.id })
      .update(adRules.toRow({ status: 'DELETED', updatedTime: now }));
    await trx(adRuleRuns.table).where({ rule_id: current.id, status: 'PENDING' }).update({ status: 'CANCELED', updated_time: now });
  });
  ctx.loaders.ads.adRuleById.clear(found.id);
}

/** What POST /<rule>/execute answers: the queued run, or (dry_run) what the rule would do now. */
export type ExecuteOutcome = { kind: 'queued'; run: AdRuleRunRecord } | { kind: 'dry_run'; results: RuleResult[] };

/**
 * POST /<rule>/execute: runs the rule now, outside its schedule, on the background runner (its history marks it
 * manual); a disabled rule may be run this way. With dry_run=true it is evaluated at once with the caller's
 * permissions and nothing changes: the answer says what each matching object would have had done to it.
 */
export async function executeAdRule(ctx: RequestContext, ruleId: string, params: Params): Promise<ExecuteOutcome> {
  params ??= {};
  const dryRun = optionalParam(params, 'dry_run', boolean) ?? false;
  const rule = await visibleForWrite(ctx, RULE_RESOURCE, ruleLabel, ruleId, 'update', findAdRule, 'execute');
  if (rule.status === 'DELETED') throw paramError('id', `Rule ${rule.id} is deleted and cannot be run`);
  if (dryRun) return { kind: 'dry_run', results: await dryRunRule(ctx, rule) };
  const run = await ctx.db.transaction(async (trx) => {
    const now = timeNow(ctx);
    const [queued] = await insertObjects<AdRuleRunRecord>(trx, 'ad_rule_run', adRuleRuns, [newRun(rule, null, now)]);
    return queued!;
  });
  ctx.jobs?.wake();
  return { kind: 'queued', run };
}
