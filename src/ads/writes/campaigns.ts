import type { Knex } from 'knex';
import { timeNow, type RequestContext } from '../../context/index.ts';
import { insertObjects } from '../../db/objects.ts';
import { dateTime, list, oneOf, optionalParam, paramError, positiveInteger, requiredParam, text, type Params } from '../../graph-api/params.ts';
import { BID_STRATEGIES, OBJECT_STATUSES, OBJECTIVES, SPECIAL_AD_CATEGORIES, type ObjectStatus } from '../rules/enums.ts';
import { stateViolations } from '../rules/state.ts';
import { refuseFirst } from '../rules/violations.ts';
import { findCampaign } from '../service.ts';
import { ads, adSets, campaigns, restartLearning, type CampaignRecord } from '../store.ts';
import { adSetSubject, adSubject, campaignSubject } from '../activities.ts';
import { adEvents, adSetEvents, campaignEvents } from '../rules/activity-events.ts';
import { afterStatusChange } from '../../insights/rules/active-time.ts';
import { campaignSignificantEdits } from '../../insights/rules/significant-edits.ts';
import { createInAccount, createStatus, definedOnly, recordStatusCascade, recordWrite, sentOf, writeLocked, type WriteTarget } from './common.ts';

/** Campaign writes (DECISIONS section 8): POST /act_<ID>/campaigns, POST /<CAMPAIGN_ID>, DELETE /<CAMPAIGN_ID>. */

const CAMPAIGN_PARAMS = [
  'name',
  'objective',
  'status',
  'special_ad_categories',
  'bid_strategy',
  'daily_budget',
  'lifetime_budget',
  'start_time',
  'stop_time',
] as const;

interface CampaignChanges {
  name?: string;
  objective?: string;
  status?: ObjectStatus;
  specialAdCategories?: string[];
  bidStrategy?: string;
  dailyBudget?: string;
  lifetimeBudget?: string;
  startTime?: Date;
  stopTime?: Date;
}

function readCampaignParams(params: Params, mode: 'create' | 'update'): CampaignChanges {
  const read = mode === 'create' ? requiredParam : optionalParam;
  const changes: CampaignChanges = {
    name: read(params, 'name', text({ max: 400, nonEmpty: true })),
    objective: read(params, 'objective', oneOf(OBJECTIVES)),
    status: optionalParam(params, 'status', mode === 'create' ? createStatus : oneOf(OBJECT_STATUSES)),
    specialAdCategories: read(params, 'special_ad_categories', list(oneOf(SPECIAL_AD_CATEGORIES), { max: SPECIAL_AD_CATEGORIES.length })),
    bidStrategy: optionalParam(params, 'bid_strategy', oneOf(BID_STRATEGIES)),
    dailyBudget: optionalParam(params, 'daily_budget', positiveInteger),
    lifetimeBudget: optionalParam(params, 'lifetime_budget', positiveInteger),
    startTime: optionalParam(params, 'start_time', dateTime),
    stopTime: optionalParam(params, 'stop_time', dateTime),
  };
  const categories = changes.specialAdCategories;
  if (categories) {
    if (categories.includes('NONE') && categories.length > 1) {
      throw paramError('special_ad_categories', 'Param special_ad_categories cannot combine NONE with other categories');
    }
    changes.specialAdCategories = [...new Set(categories)];
  }
  return changes;
}

/** Budget and schedule rules on the values the campaign will have after the write. */
function assertCampaignCoherent(changes: CampaignChanges, after: Pick<CampaignRecord, 'dailyBudget' | 'lifetimeBudget' | 'startTime' | 'stopTime'>): void {
  if (after.dailyBudget !== null && after.lifetimeBudget !== null) {
    const field = changes.lifetimeBudget !== undefined ? 'lifetime_budget' : 'daily_budget';
    throw paramError(field, 'Only one of daily_budget and lifetime_budget may be set on a campaign');
  }
  if (after.startTime && after.stopTime && after.stopTime.getTime() <= after.startTime.getTime()) {
    const field = changes.stopTime !== undefined ? 'stop_time' : 'start_time';
    throw paramError(field, 'Param stop_time must be after start_time');
  }
}

const CAMPAIGN: WriteTarget<CampaignRecord> = {
  type: 'campaign',
  label: 'Campaign',
  mapping: campaigns,
  find: findCampaign,
  loader: (ctx) => ctx.loaders.ads.campaignById,
  history: { subject: campaignSubject, events: campaignEvents },
};

/** POST /act_<ID>/campaigns: a campaign under the account (null with execution_options validate_only: checked, not created). */
export function createCampaign(ctx: RequestContext, accountId: string, params: Params): Promise<CampaignRecord | null> {
  params ??= {};
  return createInAccount(ctx, accountId, 'campaign', 'campaigns', {
    params,
    read() {
      const changes = readCampaignParams(params, 'create');
      const fields = {
        dailyBudget: changes.dailyBudget ?? null,
        lifetimeBudget: changes.lifetimeBudget ?? null,
        startTime: changes.startTime ?? null,
        stopTime: changes.stopTime ?? null,
      };
      assertCampaignCoherent(changes, fields);
      return { changes, fields };
    },
    async insert(trx, account, { changes, fields }) {
      const [campaign] = await insertObjects<CampaignRecord>(trx, 'campaign', campaigns, [
        {
          organizationId: account.organizationId,
          accountId: account.id,
          name: changes.name!,
          objective: changes.objective!,
          status: changes.status ?? 'ACTIVE',
          specialAdCategories: changes.specialAdCategories!,
          specialAdCategoryCountry: null,
          bidStrategy: changes.bidStrategy ?? null,
          buyingType: 'AUCTION',
          spendCap: null,
          activeSeconds: '0',
          statusChangedTime: null,
          ...fields,
          // On the clock that running lengths and learning read.
          createdTime: timeNow(ctx),
          updatedTime: timeNow(ctx),
        },
      ]);
      await recordWrite(ctx, trx, CAMPAIGN, null, campaign!);
      return campaign!;
    },
    loader: CAMPAIGN.loader,
  });
}

/**
 * Marks a campaign DELETED with its ad sets and ads, as the Graph API deletes a campaign's children with it; each
 * child's deletion is in its own history.
 */
async function cascadeCampaignDelete(ctx: RequestContext, trx: Knex.Transaction, campaignId: string, now: Date): Promise<void> {
  // Ad sets first, then ads: an ad being created under one of these ad sets holds that ad set's row, and
  // is either committed before the ads update starts (and is deleted with the rest) or sees a DELETED ad set.
  const liveAdSets = trx(adSets.table).where({ campaign_id: campaignId }).whereNot({ status: 'DELETED' });
  const deletedAdSets = (await liveAdSets.clone().select('*')).map((row) => adSets.fromRow(row));
  await liveAdSets.update({ status: 'DELETED', status_changed_time: now, updated_time: now });
  await recordStatusCascade(ctx, trx, { subject: adSetSubject, events: adSetEvents }, deletedAdSets, 'DELETED', now);
  const liveAds = trx(ads.table).where({ campaign_id: campaignId }).whereNot({ status: 'DELETED' });
  const deletedAds = (await liveAds.clone().select('*')).map((row) => ads.fromRow(row));
  await liveAds.update({ status: 'DELETED', updated_time: now });
  await recordStatusCascade(ctx, trx, { subject: adSubject, events: adEvents }, deletedAds, 'DELETED', now);
}

/** POST /<CAMPAIGN_ID>: the same parameters as create (any subset), plus status changes (null with validate_only). */
export async function updateCampaign(ctx: RequestContext, campaignId: string, params: Params): Promise<CampaignRecord | null> {
  params ??= {};
  const write = async (trx: Knex.Transaction, current: CampaignRecord) => {
    const changes = readCampaignParams(params, 'update');
    refuseFirst(stateViolations('campaign', current.id, current.status, sentOf(params, CAMPAIGN_PARAMS), { status: changes.status }));
    if (changes.objective !== undefined && changes.objective !== current.objective) {
      throw paramError('objective', 'Param objective cannot be changed once the campaign is created');
    }
    const after = {
      dailyBudget: changes.dailyBudget ?? current.dailyBudget,
      lifetimeBudget: changes.lifetimeBudget ?? current.lifetimeBudget,
      startTime: changes.startTime ?? current.startTime,
      stopTime: changes.stopTime ?? current.stopTime,
    };
    assertCampaignCoherent(changes, after);
    const now = timeNow(ctx);
    const patch: Partial<CampaignRecord> = { ...definedOnly(changes), updatedTime: now };
    delete patch.objective;
    // Its running length counts ACTIVE spells; a campaign budget's significant edits restart its ad sets' learning.
    if (changes.status !== undefined && changes.status !== current.status) Object.assign(patch, afterStatusChange(current, now));
    await trx(campaigns.table).where({ id: current.id }).update(campaigns.toRow(patch));
    const bidStrategy = changes.bidStrategy ?? current.bidStrategy;
    if (campaignSignificantEdits(current, { ...after, bidStrategy }).length > 0) await restartLearning(trx, { campaignId: current.id }, now);
    if (changes.status === 'DELETED' && current.status !== 'DELETED') await cascadeCampaignDelete(ctx, trx, current.id, now);
  };
  return writeLocked(ctx, CAMPAIGN, campaignId, 'update', write, params);
}

/** DELETE /<CAMPAIGN_ID>: status DELETED (the campaign stays readable), its ad sets and ads with it. Deleting twice is no error. */
export async function deleteCampaign(ctx: RequestContext, campaignId: string): Promise<void> {
  await writeLocked(ctx, CAMPAIGN, campaignId, 'delete', async (trx, current) => {
    if (current.status === 'DELETED') return;
    const now = timeNow(ctx);
    await trx(campaigns.table)
      .where({ id: current.id })
      .update(campaigns.toRow({ status: 'DELETED', ...afterStatusChange(current, now), updatedTime: now }));
    await cascadeCampaignDelete(ctx, trx, current.id, now);
  });
}
