import type { Knex } from 'knex';
import type { RequestContext } from '../../context/index.ts';
import { insertObjects } from '../../db/objects.ts';
import { boolean, dateTime, graphId, jsonObject, nested, oneOf, optionalParam, paramError, text, type Params } from '../../graph-api/params.ts';
import { adSetViolations, withAdSetDefaults, type AdSetDraft } from '../rules/ad-set.ts';
import { RENAME_STRATEGIES, STATUS_OPTIONS, type ObjectStatus, type RenameStrategy, type StatusOption } from '../rules/enums.ts';
import { AD_SET_NAME_MAX, adSetLimitViolation, DEEP_COPY_ASYNC_MAX, DEEP_COPY_SYNC_MAX } from '../rules/limits.ts';
import { refuseFirst } from '../rules/violations.ts';
import { findAdSet } from '../service.ts';
import { ads, adSets, countLiveAdSets, insertAdSets, liveAdsOf, type AdRecord, type AdSetRecord } from '../store.ts';
import { lockRow } from '../../db/locks.ts';
import { codePoints } from '../../text/code-points.ts';
import { refuseExecutionOptions, visibleForWrite } from './common.ts';
import { accountRow, loadRuleFacts } from './ad-set-facts.ts';
import { limitsOf } from './ad-sets.ts';
import { adSetSubject, adSubject, recordMany } from '../activities.ts';
import { copiedEvent } from '../rules/activity-events.ts';

/**
 * POST /<AD_SET_ID>/copies (DECISIONS section 5): a copy of an ad set, under its campaign or another campaign of
 * the same account, with its ads when deep_copy. All or nothing, in one transaction, in a handful of statements
 * however many ads it carries. Synchronously at most 3 ads; the asynchronous form (async-requests.ts) up to 51.
 */
export interface CopyInput {
  campaignId?: string;
  deepCopy: boolean;
  startTime?: Date;
  endTime?: Date;
  rename?: { strategy: RenameStrategy; prefix: string; suffix: string };
  statusOption: StatusOption;
}

export interface AdObjectId {
  adObjectType: 'ad_set' | 'ad';
  sourceId: string;
  copiedId: string;
}

export interface CopyResult {
  copiedAdsetId: string;
  adObjectIds: AdObjectId[];
}

/** A copy's parameters (the Graph API's copies take no execution_options: they are refused, not ignored). */
export function readCopyParams(params: Params): CopyInput {
  refuseExecutionOptions(params);
  const rename = optionalParam(params, 'rename_options', jsonObject);
  let renameOptions: CopyInput['rename'];
  if (rename) {
    const strategy = nested(rename, 'rename_options', 'rename_strategy', oneOf(RENAME_STRATEGIES)) ?? 'ONLY_TOP_LEVEL_RENAME';
    const prefix = nested(rename, 'rename_options', 'rename_prefix', text({ max: AD_SET_NAME_MAX })) ?? '';
    const suffix = nested(rename, 'rename_options', 'rename_suffix', text({ max: AD_SET_NAME_MAX })) ?? '';
    renameOptions = { strategy, prefix, suffix: prefix === '' && suffix === '' ? ' - Copy' : suffix };
  }
  const input: CopyInput = {
    campaignId: optionalParam(params, 'campaign_id', graphId),
    deepCopy: optionalParam(params, 'deep_copy', boolean) ?? false,
    startTime: optionalParam(params, 'start_time', dateTime),
    endTime: optionalParam(params, 'end_time', dateTime),
    rename: renameOptions,
    statusOption: optionalParam(params, 'status_option', oneOf(STATUS_OPTIONS)) ?? 'PAUSED',
  };
  if (input.startTime && input.endTime && input.endTime.getTime() <= input.startTime.getTime()) {
    throw paramError('end_time', 'Param end_time must be after start_time');
  }
  return input;
}

/** A copy's name: "<name> - Copy" by default; rename_options decide which levels are renamed and how. */
export function copyName(name: string, level: 'ad_set' | 'ad', rename: CopyInput['rename']): string {
  const renamedHere = rename ? rename.strategy === 'DEEP_RENAME' || (rename.strategy === 'ONLY_TOP_LEVEL_RENAME' && level === 'ad_set') : level === 'ad_set';
  if (!renamedHere) return name;
  const result = rename ? `${rename.prefix}${name}${rename.suffix}` : `${name} - Copy`;
  if (codePoints(result) > AD_SET_NAME_MAX) {
    throw paramError(
      'rename_options',
      `The copy's name would be longer than ${AD_SET_NAME_MAX} characters: shorten rename_prefix or rename_suffix, or use NO_RENAME`,
    );
  }
  return result;
}

const statusFor = (option: StatusOption, source: ObjectStatus): ObjectStatus => (option === 'INHERITED_FROM_SOURCE' ? source : option);

/**
 * The copy itself, inside the caller's transaction (a synchronous call's own, or an async request's, which
 * also records the result, so a copy is never made twice). `maxAds`: 3 synchronously, 51 asynchronously.
 */
export async function copyAdSetIn(ctx: RequestContext, trx: Knex.Transaction, source: AdSetRecord, input: CopyInput, maxAds: number): Promise<CopyResult> {
  await lockRow(ctx.db, trx, 'ad_accounts', source.accountId);
  const account = await accountRow(trx, source.accountId);
  const current = adSets.fromRow(await trx(adSets.table).where({ id: source.id }).first());
  if (current.status === 'DELETED') throw paramError('id', `Ad set ${current.id} is DELETED and cannot be copied`);
  const sourceAds = input.deepCopy ? (await liveAdsOf(trx, current.id).orderBy('id')).map((row: Record<string, unknown>) => ads.fromRow(row)) : [];
  if (sourceAds.length > maxAds) {
    throw paramError(
      'deep_copy',
      maxAds === DEEP_COPY_SYNC_MAX
        ? `A deep copy of more than ${DEEP_COPY_SYNC_MAX} ads must be asynchronous: ad set ${current.id} has ${sourceAds.length}. POST /act_${account.id}/async_batch_requests with adbatch=[{"name":"copy","relative_url":"${current.id}/copies","body":"deep_copy=true"}] (up to ${DEEP_COPY_ASYNC_MAX} ads)`
        : `A deep copy may carry at most ${DEEP_COPY_ASYNC_MAX} ads: ad set ${current.id} has ${sourceAds.length}`,
      {
        userTitle: 'Too many ads to copy',
        userMessage:
          maxAds === DEEP_COPY_SYNC_MAX
            ? `This ad set has ${sourceAds.length} ads. Copies with more than ${DEEP_COPY_SYNC_MAX} ads run as an asynchronous request.`
            : `An ad set with more than ${DEEP_COPY_ASYNC_MAX} ads cannot be deep-copied.`,
      },
    );
  }
  const targetCampaignId = input.campaignId ?? current.campaignId;
  const target = await trx('campaigns').where({ id: targetCampaignId }).first();
  if (!target || String(target.account_id) !== account.id) {
    throw paramError('campaign_id', `Param campaign_id must be the id of a campaign of ad account act_${account.id}, the ad set's account`);
  }
  const campaignBudget = target.daily_budget !== null || target.lifetime_budget !== null;
  const { id: _id, createdTime: _c, updatedTime: _u, ...fields } = current;
  const start = input.startTime ?? current.startTime;
  let draft: AdSetDraft = {
    ...fields,
    campaignId: String(target.id),
    name: copyName(current.name, 'ad_set', input.rename),
    status: statusFor(input.statusOption, current.status === 'ACTIVE' || current.status === 'PAUSED' ? current.status : 'PAUSED'),
    startTime: start,
    endTime: input.endTime ?? current.endTime,
    sourceAdsetId: current.id,
    // The copy inherits its campaign's budget: under a campaign budget it has none of its own.
    ...(campaignBudget ? { dailyBudget: null, lifetimeBudget: null } : {}),
    // The rotation belongs to the source's ads and schedule.
    timeBasedAdRotationIdBlocks: null,
    timeBasedAdRotationIntervals: null,
  };
  const context = await loadRuleFacts(trx, ctx.config, account, draft, { mode: 'copy', sent: new Set(), lockCampaign: true });
  draft = withAdSetDefaults(draft, context);
  const limit = adSetLimitViolation(account, await countLiveAdSets(trx, account.id), 1, limitsOf(ctx), 'campaign_id');
  refuseFirst([...adSetViolations(draft, context), ...(limit ? [limit] : [])]);
  const [copy] = await insertAdSets(trx, [draft]);
  const copiedAds = await insertObjects<AdRecord>(
    trx,
    'ad',
    ads,
    sourceAds.map((ad) => ({
      organizationId: ad.organizationId,
      accountId: ad.accountId,
      campaignId: copy!.campaignId,
      adsetId: copy!.id,
      name: copyName(ad.name, 'ad', input.rename),
      status: statusFor(input.statusOption, ad.status),
      creativeId: ad.creativeId,
      sourceAdId: ad.id,
    })),
  );
  // The copies' history: each names its source (the copy is its creation).
  await recordMany(ctx, trx, [
    { subject: adSetSubject(copy!), events: [copiedEvent('AD_SET', current, copy!)] },
    ...copiedAds.map((ad, i) => ({ subject: adSubject(ad), events: [copiedEvent('AD', sourceAds[i]!, ad)] })),
  ]);
  return {
    copiedAdsetId: copy!.id,
    adObjectIds: [
      { adObjectType: 'ad_set', sourceId: current.id, copiedId: copy!.id },
      ...copiedAds.map((ad, i) => ({ adObjectType: 'ad' as const, sourceId: sourceAds[i]!.id, copiedId: ad.id })),
    ],
  };
}

/** The ad set a copy starts from: readable (else NOT_FOUND), and the caller may create ad sets in its organization (else FORBIDDEN). */
export const sourceForCopy = (ctx: RequestContext, adSetId: string): Promise<AdSetRecord> =>
  visibleForWrite(ctx, 'ad_set', 'Ad set', adSetId, 'create', findAdSet, 'copy');

/** POST /<AD_SET_ID>/copies, synchronously (a deep copy of at most 3 ads). */
export async function copyAdSet(ctx: RequestContext, adSetId: string, params: Params): Promise<CopyResult> {
  const source = await sourceForCopy(ctx, adSetId);
  const input = readCopyParams(params ?? {});
  const result = await ctx.db.transaction((trx) => copyAdSetIn(ctx, trx, source, input, DEEP_COPY_SYNC_MAX));
  ctx.loaders.ads.adSetById.clear(result.copiedAdsetId);
  return result;
}

/** The platform's shape of a copy's answer. */
export const copyResultJson = (result: CopyResult) => ({
  copied_adset_id: result.copiedAdsetId,
  ad_object_ids: result.adObjectIds.map((o) => ({ ad_object_type: o.adObjectType, source_id: o.sourceId, copied_id: o.copiedId })),
});
