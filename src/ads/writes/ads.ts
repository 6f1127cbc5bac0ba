import type { Knex } from 'knex';
import { timeNow, type RequestContext } from '../../context/index.ts';
import { insertObjects } from '../../db/objects.ts';
import { graphId, jsonObject, oneOf, optionalParam, paramError, requiredParam, text, type Params } from '../../graph-api/params.ts';
import { OBJECT_STATUSES } from '../rules/enums.ts';
import { MAX_ADS_PER_AD_SET } from '../rules/limits.ts';
import { stateViolations } from '../rules/state.ts';
import { refuseFirst } from '../rules/violations.ts';
import { findAd } from '../service.ts';
import { ads, countLiveAds, restartLearning, type AdRecord } from '../store.ts';
import { lockRow } from '../../db/locks.ts';
import { createInAccount, createStatus, definedOnly, recordWrite, sentOf, writeLocked, type WriteTarget } from './common.ts';
import { adSubject } from '../activities.ts';
import { adEvents } from '../rules/activity-events.ts';
import { creativeForAd } from './creatives.ts';

/** Ad writes (DECISIONS section 8): POST /act_<ID>/ads, POST /<AD_ID>, DELETE /<AD_ID>. */

const AD_PARAMS = ['name', 'adset_id', 'status', 'creative'] as const;

function readAdParams(params: Params, mode: 'create' | 'update') {
  const read = mode === 'create' ? requiredParam : optionalParam;
  return {
    name: read(params, 'name', text({ max: 400, nonEmpty: true })),
    adsetId: read(params, 'adset_id', graphId),
    status: optionalParam(params, 'status', mode === 'create' ? createStatus : oneOf(OBJECT_STATUSES)),
    creative: read(params, 'creative', jsonObject),
  };
}

const wrongAdSet = (accountId: string) => paramError('adset_id', `Param adset_id must be the id of an ad set of ad account act_${accountId}`);

const AD: WriteTarget<AdRecord> = {
  type: 'ad',
  label: 'Ad',
  mapping: ads,
  find: findAd,
  loader: (ctx) => ctx.loaders.ads.adById,
  history: { subject: adSubject, events: adEvents },
};

/**
 * POST /act_<ID>/ads: an ad in one of the account's ad sets. The ad set's row is held while its ads are counted
 * and the new one inserted, so the limit of 50 ads that are neither ARCHIVED nor DELETED holds under concurrency.
 * With execution_options validate_only the same checks run, under the same lock, and nothing is kept (null).
 */
export function createAd(ctx: RequestContext, accountId: string, params: Params): Promise<AdRecord | null> {
  params ??= {};
  return createInAccount(ctx, accountId, 'ad', 'ads', {
    params,
    read: () => readAdParams(params, 'create'),
    async insert(trx, account, input) {
      const adsetId = input.adsetId!;
      // The ad set is checked under its lock: an id of another type or of another account names no row here.
      const adSet = await lockRow(ctx.db, trx, 'ad_sets', adsetId);
      if (!adSet || String(adSet.account_id) !== account.id) throw wrongAdSet(account.id);
      if (adSet.status === 'DELETED' || adSet.status === 'ARCHIVED') {
        throw paramError('adset_id', `Param adset_id names ad set ${adsetId}, which is ${String(adSet.status)}: ads cannot be added to it`);
      }
      if ((await countLiveAds(trx, adsetId)) >= MAX_ADS_PER_AD_SET) {
        throw paramError(
          'adset_id',
          `Ad set ${adsetId} already has ${MAX_ADS_PER_AD_SET} ads that are not archived or deleted, the most an ad set may have. Archive or delete some before adding more`,
        );
      }
      const [created] = await insertObjects<AdRecord>(trx, 'ad', ads, [
        {
          organizationId: account.organizationId,
          accountId: account.id,
          campaignId: String(adSet.campaign_id),
          adsetId,
          name: input.name!,
          status: input.status ?? 'ACTIVE',
          creativeId: await creativeForAd(trx, ctx, account, input.creative!),
          sourceAdId: null,
        },
      ]);
      // An ad added is a significant edit of its ad set: learning starts again.
      await restartLearning(trx, { adSetId: adsetId }, timeNow(ctx));
      await recordWrite(ctx, trx, AD, null, created!);
      return created!;
    },
    loader: AD.loader,
  });
}

/** POST /<AD_ID>: name, status, creative (an ad stays in its ad set: adset_id may only repeat the current one). Null with validate_only. */
export function updateAd(ctx: RequestContext, adId: string, params: Params): Promise<AdRecord | null> {
  params ??= {};
  const write = async (trx: Knex.Transaction, current: AdRecord) => {
    const input = readAdParams(params, 'update');
    if (input.adsetId !== undefined && input.adsetId !== current.adsetId) {
      throw paramError('adset_id', 'Param adset_id cannot be changed: an ad stays in the ad set it was created in');
    }
    const sent = sentOf(params, AD_PARAMS).filter((name) => name !== 'adset_id');
    refuseFirst(stateViolations('ad', current.id, current.status, sent, { status: input.status }));
    // Only the state table's transitions are allowed, so an ad never returns from ARCHIVED or DELETED and
    // the count of the ad set's live ads cannot grow here.
    const now = timeNow(ctx);
    const creativeId =
      input.creative === undefined
        ? undefined
        : await creativeForAd(trx, ctx, { id: current.accountId, organizationId: current.organizationId }, input.creative);
    const patch: Partial<AdRecord> = { ...definedOnly({ name: input.name, status: input.status, creativeId }), updatedTime: now };
    await trx(ads.table).where({ id: current.id }).update(ads.toRow(patch));
    // A new creative is a significant edit of the ad set: learning starts again.
    if (creativeId !== undefined && creativeId !== current.creativeId) await restartLearning(trx, { adSetId: current.adsetId }, now);
  };
  return writeLocked(ctx, AD, adId, 'update', write, params);
}

/** DELETE /<AD_ID>: status DELETED; the ad stays readable. Deleting twice is no error. */
export async function deleteAd(ctx: RequestContext, adId: string): Promise<void> {
  await writeLocked(ctx, AD, adId, 'delete', async (trx, current) => {
    if (current.status !== 'DELETED') await trx(ads.table).where({ id: current.id }).update({ status: 'DELETED', updated_time: new Date() });
  });
}
