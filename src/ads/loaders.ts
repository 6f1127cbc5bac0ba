import { loaderByColumn, loaderById, loaderMaker, pagedChildren } from '../db/batch.ts';
import { lazyLoaders } from '../db/lazy-loaders.ts';
import type { Db } from '../db/index.ts';
import { activities } from './activities.ts';
import { adRuleRuns, adRules } from './ad-rules.ts';
import {
  adAccounts,
  adCreatives,
  adSetReferences,
  ads,
  adSets,
  asyncRequests,
  asyncRequestSets,
  campaigns,
  customAudiences,
  customConversions,
} from './store.ts';

/** Per-request loaders of the ads domain. Raw reads: the service decides what the caller may see. */
export const createAdsLoaders = lazyLoaders({
  adAccountById: (db: Db) => loaderById(db, adAccounts),
  campaignById: (db: Db) => loaderById(db, campaigns),
  adSetById: (db: Db) => loaderById(db, adSets),
  adById: (db: Db) => loaderById(db, ads),
  creativeById: (db: Db) => loaderById(db, adCreatives),
  adRuleById: (db: Db) => loaderById(db, adRules),
  adRuleRunById: (db: Db) => loaderById(db, adRuleRuns),
  customAudienceById: (db: Db) => loaderById(db, customAudiences),
  customConversionById: (db: Db) => loaderById(db, customConversions),
  asyncRequestById: (db: Db) => loaderById(db, asyncRequests),
  asyncRequestSetById: (db: Db) => loaderById(db, asyncRequestSets),
  /** The audiences and conversions each ad set uses (for its issues). */
  referencesOfAdSet: (db: Db) => loaderByColumn(db, adSetReferences, 'ad_set_id', 'object_id'),
  adAccountsOfOrganization: (db: Db) => pagedChildren(db, adAccounts, 'organization_id'),
  campaignsOfAccount: (db: Db) => pagedChildren(db, campaigns, 'account_id'),
  adSetsOfAccount: (db: Db) => pagedChildren(db, adSets, 'account_id'),
  adSetsOfCampaign: (db: Db) => pagedChildren(db, adSets, 'campaign_id'),
  adsOfAccount: (db: Db) => pagedChildren(db, ads, 'account_id'),
  adsOfCampaign: (db: Db) => pagedChildren(db, ads, 'campaign_id'),
  adsOfAdSet: (db: Db) => pagedChildren(db, ads, 'adset_id'),
  creativesOfAccount: (db: Db) => pagedChildren(db, adCreatives, 'account_id'),
  rulesOfAccount: (db: Db) => pagedChildren(db, adRules, 'account_id'),
  runsOfRule: (db: Db) => pagedChildren(db, adRuleRuns, 'rule_id'),
  customAudiencesOfAccount: (db: Db) => pagedChildren(db, customAudiences, 'account_id'),
  customConversionsOfAccount: (db: Db) => pagedChildren(db, customConversions, 'account_id'),
  copiesOfAdSet: (db: Db) => pagedChildren(db, adSets, 'source_adset_id'),
  asyncRequestSetsOfAccount: (db: Db) => pagedChildren(db, asyncRequestSets, 'account_id'),
  asyncRequestsOfAdSet: (db: Db) => pagedChildren(db, asyncRequests, 'adset_id'),
  requestsOfSet: (db: Db) => pagedChildren(db, asyncRequests, 'set_id'),
  /** Change history: an ad set's (its own and its ads'), a campaign's (and its children's), an account's. */
  activitiesOfAdSet: (db: Db) => pagedChildren(db, activities, 'adset_id'),
  activitiesOfCampaign: (db: Db) => pagedChildren(db, activities, 'campaign_id'),
  activitiesOfAccount: (db: Db) => pagedChildren(db, activities, 'account_id'),
  /** status -> number of requests, per request set. */
  requestStatusCountsOfSet: (db: Db) =>
    loaderMaker()<string, Map<string, number>>('async_requests.status_counts_by_set_id', async (setIds) => {
      const rows = (await db('async_requests')
        .select('set_id', 'status')
        .count({ count: '*' })
        .whereIn('set_id', setIds as string[])
        .groupBy('set_id', 'status')) as Array<{ set_id: unknown; status: string; count: unknown }>;
      const bySet = new Map<string, Map<string, number>>(setIds.map((id) => [id, new Map()]));
      for (const row of rows) bySet.get(String(row.set_id))?.set(row.status, Number(row.count));
      return setIds.map((id) => bySet.get(id)!);
    }),
});

export type AdsLoaders = ReturnType<typeof createAdsLoaders>;
