import type { Knex } from 'knex';
import { timeNow, type RequestContext } from '../../context/index.ts';
import { camel } from '../../db/rows.ts';
import type { Params } from '../../graph-api/params.ts';
import { adSetViolations, withAdSetDefaults, type AdSetDraft, type AdSetRuleContext } from '../rules/ad-set.ts';
import { adSetLimitViolation, type AdSetLimits } from '../rules/limits.ts';
import { recommendationsOf, type AdRecommendation } from '../rules/recommendations.ts';
import { stateViolations } from '../rules/state.ts';
import { refuseFirst, type Violation } from '../rules/violations.ts';
import { findAdSet } from '../service.ts';
import { ads, adSets, countLiveAdSets, insertAdSets, newAdSet, replaceAdSetReferences, type AdAccountRecord, type AdSetRecord } from '../store.ts';
import { lockRow } from '../../db/locks.ts';
import { accountForCreate, recordStatusCascade, recordWrite, visibleForWrite, writeLocked, type WriteTarget } from './common.ts';
import { adSetSubject, adSubject } from '../activities.ts';
import { adEvents, adSetEvents } from '../rules/activity-events.ts';
import { accountRow, loadRuleFacts } from './ad-set-facts.ts';
import { significantEdits } from '../../insights/rules/significant-edits.ts';
import { AD_SET_PARAMS, readAdSetParams, statusOf, type AdSetInput } from './ad-set-params.ts';

/**
 * Ad set writes: POST /act_<ID>/adsets, POST /<AD_SET_ID>, DELETE /<AD_SET_ID>, and the checks alone
 * (execution_options validate_only; GraphQL validateAdSet). The flow is the house's: parameters (ad-set-params)
 * -> rules (rules/ad-set, pure) -> one transaction here that holds what it counts or changes -> store.
 */
export interface AdSetWriteResult {
  /** The ad set as written; null when only validated. */
  adSet: AdSetRecord | null;
  /** With include_recommendations. */
  recommendations?: AdRecommendation[];
}

const AD_SET: WriteTarget<AdSetRecord> = {
  type: 'ad_set',
  label: 'Ad set',
  mapping: adSets,
  find: findAdSet,
  loader: (ctx) => ctx.loaders.ads.adSetById,
  history: { subject: adSetSubject, events: adSetEvents },
};

export const limitsOf = (ctx: RequestContext): AdSetLimits => ctx.config.adSets.limits;

/** Rule violations about fields other than those whose parameters were already refused (no double report). */
function besides(reported: readonly Violation[], found: Violation[]): Violation[] {
  const fields = reported.map((v) => v.field);
  return found.filter((v) => !fields.some((f) => v.field === f || v.field.startsWith(`${f}.`) || v.field.startsWith(`${f}[`)));
}

/** The draft a create starts from: what was sent over an empty ad set. */
function createDraft(account: AdAccountRecord, input: AdSetInput): AdSetDraft {
  return newAdSet({
    ...input.changes,
    organizationId: account.organizationId,
    accountId: account.id,
    campaignId: input.changes.campaignId ?? '',
    name: input.changes.name ?? '',
    status: statusOf(input) ?? 'ACTIVE',
  });
}

/** Every violation of a create: the parameters', the rules', and the account's limit. */
async function createViolations(ctx: RequestContext, q: Knex, account: AdAccountRecord, input: AdSetInput, lock: boolean) {
  const sent = createDraft(account, input);
  const context = await loadRuleFacts(q, ctx.config, account, sent, { mode: 'create', sent: input.sent, lockCampaign: lock });
  const draft = withAdSetDefaults(sent, context);
  const violations: Violation[] = [...input.violations, ...besides(input.violations, adSetViolations(draft, context))];
  const limit = adSetLimitViolation(account, await countLiveAdSets(q, account.id), 1, limitsOf(ctx));
  if (limit) violations.push(limit);
  return { draft, context, violations };
}

const wantsRecommendations = (input: AdSetInput, draft: AdSetDraft, context: AdSetRuleContext) =>
  input.executionOptions.has('include_recommendations') ? recommendationsOf(draft, context) : undefined;

/**
 * POST /act_<ID>/adsets. The account's row is held while its ad sets are counted and the new one inserted, so
 * the limit of non-deleted ad sets (5,000; 10,000 for bulk accounts) holds exactly under concurrent creates.
 */
export async function createAdSet(ctx: RequestContext, accountId: string, params: Params): Promise<AdSetWriteResult> {
  const account = await accountForCreate(ctx, accountId, 'ad_set', 'ad sets');
  const input = readAdSetParams(params ?? {}, 'create');
  refuseFirst(input.violations);
  if (input.executionOptions.has('validate_only')) {
    const { draft, context, violations } = await createViolations(ctx, ctx.db, account, input, false);
    refuseFirst(violations);
    return { adSet: null, recommendations: wantsRecommendations(input, draft, context) };
  }
  const result = await ctx.db.transaction(async (trx) => {
    const locked = (await lockRow(ctx.db, trx, 'ad_accounts', account.id)) ? await accountRow(trx, account.id) : account;
    const { draft, context, violations } = await createViolations(ctx, trx, locked, input, true);
    refuseFirst(violations);
    const [adSet] = await insertAdSets(trx, [{ ...draft, createdTime: timeNow(ctx) }]);
    await recordWrite(ctx, trx, AD_SET, null, adSet!);
    return { adSet: adSet!, recommendations: wantsRecommendations(input, draft, context) };
  });
  ctx.loaders.ads.adSetById.clear(result.adSet.id).prime(result.adSet.id, result.adSet);
  return result;
}

/** GraphQL validateAdSet: every violation of a create, nothing written. */
export async function validateAdSetCreate(ctx: RequestContext, accountId: string, params: Params): Promise<Violation[]> {
  const account = await accountForCreate(ctx, accountId, 'ad_set', 'ad sets');
  const input = readAdSetParams(params ?? {}, 'create');
  return (await createViolations(ctx, ctx.db, account, input, false)).violations;
}

/** Every violation of an update: the state table's, the parameters', and the rules whose inputs change. */
async function updateViolations(ctx: RequestContext, q: Knex, current: AdSetRecord, input: AdSetInput, sentNames: string[], lock: boolean) {
  const state = stateViolations('ad set', current.id, current.status, sentNames, { status: input.changes.status, campaign_status: input.changes.status });
  const account = await accountRow(q, current.accountId);
  const merged: AdSetDraft = { ...current, ...input.changes };
  const context = await loadRuleFacts(q, ctx.config, account, merged, {
    mode: 'update',
    sent: input.sent,
    currentCampaignId: current.campaignId,
    lockCampaign: lock,
  });
  const draft = withAdSetDefaults(merged, context);
  const violations = state.length > 0 ? [...state, ...input.violations] : [...input.violations, ...besides(input.violations, adSetViolations(draft, context))];
  return { draft, context, violations };
}

const sentNamesOf = (params: Params) =>
  Object.keys(params).filter((name) => params[name] !== undefined && params[name] !== null && name !== 'access_token' && name !== 'execution_options');

/** The columns an update writes: what changed, and what the defaults filled in. */
function patchOf(current: AdSetRecord, draft: AdSetDraft): Partial<AdSetRecord> {
  const patch: Record<string, unknown> = {};
  for (const column of Object.keys(adSets.columns)) {
    const key = camel(column) as keyof AdSetDraft;
    if (key === ('id' as never) || key === ('createdTime' as never) || key === ('updatedTime' as never)) continue;
    if (JSON.stringify(draft[key]) !== JSON.stringify(current[key as keyof AdSetRecord])) patch[key] = draft[key];
  }
  return patch as Partial<AdSetRecord>;
}

/**
 * What an update means for delivery (src/insights/delivery.ts): a significant edit restarts learning, and a status
 * change starts the new status's spell (a pause of 7 days or more is known by it).
 */
function deliveryStateOf(before: AdSetRecord, after: AdSetRecord, now: Date): Partial<AdSetRecord> {
  return {
    ...(significantEdits(before, after, now).length > 0 ? { lastSignificantEditTime: now } : {}),
    ...(after.status !== before.status ? { statusChangedTime: now } : {}),
  };
}

/**
 * POST /<AD_SET_ID>: any subset of the create parameters, and campaign_status. The state table first; then the
 * rules whose inputs change (a retargeting into the EU applies the DSA defaults and rules; a flagged audience
 * added is refused). DELETED and ARCHIVED reach the ad set's ads too.
 */
export async function updateAdSet(ctx: RequestContext, adSetId: string, params: Params): Promise<AdSetWriteResult> {
  params ??= {};
  const input = readAdSetParams(params, 'update');
  const sentNames = sentNamesOf(params).filter((name) => name in AD_SET_PARAMS);
  if (input.executionOptions.has('validate_only')) {
    const found = await visibleForWrite(ctx, 'ad_set', 'Ad set', adSetId, 'update', findAdSet);
    const { draft, context, violations } = await updateViolations(ctx, ctx.db, found, input, sentNames, false);
    refuseFirst(violations);
    return { adSet: null, recommendations: wantsRecommendations(input, draft, context) };
  }
  let recommendations: AdRecommendation[] | undefined;
  const adSet = await writeLocked(ctx, AD_SET, adSetId, 'update', async (trx, current) => {
    const { draft, context, violations } = await updateViolations(ctx, trx, current, input, sentNames, true);
    refuseFirst(violations);
    recommendations = wantsRecommendations(input, draft, context);
    const now = timeNow(ctx);
    const patch = patchOf(current, draft);
    if (Object.keys(patch).length === 0) return;
    await trx(adSets.table)
      .where({ id: current.id })
      .update(adSets.toRow({ ...patch, ...deliveryStateOf(current, { ...current, ...patch }, now), updatedTime: now }));
    if ('targeting' in patch || 'promotedObject' in patch) await replaceAdSetReferences(trx, { ...draft, id: current.id });
    if (patch.status === 'DELETED' || patch.status === 'ARCHIVED') await cascadeToAds(ctx, trx, current.id, patch.status, now);
  });
  return { adSet, recommendations };
}

/** GraphQL validateAdSetUpdate: every violation of an update, nothing written. */
export async function validateAdSetUpdate(ctx: RequestContext, adSetId: string, params: Params): Promise<Violation[]> {
  params ??= {};
  const found = await visibleForWrite(ctx, 'ad_set', 'Ad set', adSetId, 'update', findAdSet);
  const input = readAdSetParams(params, 'update');
  return (
    await updateViolations(
      ctx,
      ctx.db,
      found,
      input,
      sentNamesOf(params).filter((name) => name in AD_SET_PARAMS),
      false,
    )
  ).violations;
}

/** An ad set's ads follow it to DELETED (and to ARCHIVED, leaving deleted ones deleted), each change in their history. */
async function cascadeToAds(ctx: RequestContext, trx: Knex.Transaction, adSetId: string, status: 'DELETED' | 'ARCHIVED', now: Date): Promise<void> {
  const query = trx(ads.table).where({ adset_id: adSetId }).whereNot({ status: 'DELETED' });
  if (status === 'ARCHIVED') query.whereNot({ status: 'ARCHIVED' });
  const affected = (await query.clone().select('*')).map((row) => ads.fromRow(row));
  if (affected.length === 0) return;
  await query.update({ status, updated_time: now });
  await recordStatusCascade(ctx, trx, { subject: adSubject, events: adEvents }, affected, status, now);
}

/** DELETE /<AD_SET_ID>: status DELETED, its ads with it; the ad set stays readable by id. Deleting twice is no error. */
export async function deleteAdSet(ctx: RequestContext, adSetId: string): Promise<void> {
  await writeLocked(ctx, AD_SET, adSetId, 'delete', async (trx, current) => {
    if (current.status === 'DELETED') return;
    const now = timeNow(ctx);
    await trx(adSets.table).where({ id: current.id }).update({ status: 'DELETED', status_changed_time: now, updated_time: now });
    await cascadeToAds(ctx, trx, current.id, 'DELETED', now);
  });
}
