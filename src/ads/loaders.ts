import type { Db } from '../db/index.ts';
import { loaderByColumn, loaderById, loaderMaker, pagedChildren } from '../db/batch.ts';
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
export function createAdsLoaders(db: Db) {
  return {
    adAccountById: loaderById(db, adAccounts),
    campaignById: loaderById(db, campaigns),
    adSetById: loaderById(db, adSets),
    adById: loaderById(db, ads),
    creativeById: loaderById(db, adCreatives),
    adRuleById: loaderById(db, adRules),
    adRuleRunById: loaderById(db, adRuleRuns),
    customAudienceById: loaderById(db, customAudiences),
    customConversionById: loaderById(db, customConversions),
    asyncRequestById: loaderById(db, asyncRequests),
    asyncRequestSetById: loaderById(db, asyncRequestSets),
    /** The audiences and conversions each ad set uses (for its issues). */
    referencesOfAdSet: loaderByColumn(db, adSetReferences, 'ad_set_id', 'object_id'),
    adAccountsOfOrganization: pagedChildren(db, adAccounts, 'organization_id'),
    campaignsOfAccount: pagedChildren(db, campaigns, 'account_id'),
    adSetsOfAccount: pagedChildren(db, adSets, 'account_id'),
    adSetsOfCampaign: pagedChildren(db, adSets, 'campaign_id'),
    adsOfAccount: pagedChildren(db, ads, 'account_id'),
    adsOfCampaign: pagedChildren(db, ads, 'campaign_id'),
    adsOfAdSet: pagedChildren(db, ads, 'adset_id'),
    creativesOfAccount: pagedChildren(db, adCreatives, 'account_id'),
    rulesOfAccount: pagedChildren(db, adRules, 'account_id'),
    runsOfRule: pagedChildren(db, adRuleRuns, 'rule_id'),
    customAudiencesOfAccount: pagedChildren(db, customAudiences, 'account_id'),
    customConversionsOfAccount: pagedChildren(db, customConversions, 'account_id'),
    copiesOfAdSet: pagedChildren(db, adSets, 'source_adset_id'),
    asyncRequestSetsOfAccount: pagedChildren(db, asyncRequestSets, 'account_id'),
    asyncRequestsOfAdSet: pagedChildren(db, asyncRequests, 'adset_id'),
    requestsOfSet: pagedChildren(db, asyncRequests, 'set_id'),
    /** Change history: an ad set's (its own and its ads'), a campaign's (and its children's), an account's. */
    activitiesOfAdSet: pagedChildren(db, activities, 'adset_id'),
    activitiesOfCampaign: pagedChildren(db, activities, 'campaign_id'),
    activitiesOfAccount: pagedChildren(db, activities, 'account_id'),
    /** status -> number of requests, per request set. */
    requestStatusCountsOfSet: loaderMaker()<string, Map<string, number>>('async_requests.status_counts_by_set_id', async (setIds) => {
      const rows = (await db('async_requests')
        .select('set_id', 'status')
        .count({ count: '*' })
        .whereIn('set_id', setIds as string[])
        .groupBy('set_id', 'status')) as Array<{ set_id: unknown; status: string; count: unknown }>;
      const bySet = new Map<string, Map<string, number>>(setIds.map((id) => [id, new Map()]));
      for (const row of rows) bySet.get(String(row.set_id))?.set(row.status, Number(row.count));
      return setIds.map((id) => bySet.get(id)!);
    }),
  };
}

export type AdsLoaders = ReturnType<typeof createAdsLoaders>;
