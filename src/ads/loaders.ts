import { keptLoaderById, loaderById, loaderMaker } from '../db/batch.ts';
import { allByColumn, byId, childrenOf, lazyLoaders } from '../db/lazy-loaders.ts';
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
  // Kept across HTTP requests while no account changed (src/db/generations.ts): most reads name one account.
  adAccountById: (db, shared) =>
    shared ? keptLoaderById(db, adAccounts, shared.adAccounts, async () => (await shared.generations())?.adAccounts ?? null) : loaderById(db, adAccounts),
  campaignById: byId(campaigns),
  adSetById: byId(adSets),
  adById: byId(ads),
  creativeById: byId(adCreatives),
  adRuleById: byId(adRules),
  adRuleRunById: byId(adRuleRuns),
  customAudienceById: byId(customAudiences),
  customConversionById: byId(customConversions),
  asyncRequestById: byId(asyncRequests),
  asyncRequestSetById: byId(asyncRequestSets),
  /** The audiences and conversions each ad set uses (for its issues). */
  referencesOfAdSet: allByColumn(adSetReferences, 'ad_set_id', 'object_id'),
  adAccountsOfOrganization: childrenOf(adAccounts, 'organization_id'),
  campaignsOfAccount: childrenOf(campaigns, 'account_id'),
  adSetsOfAccount: childrenOf(adSets, 'account_id'),
  adSetsOfCampaign: childrenOf(adSets, 'campaign_id'),
  adsOfAccount: childrenOf(ads, 'account_id'),
  adsOfCampaign: childrenOf(ads, 'campaign_id'),
  adsOfAdSet: childrenOf(ads, 'adset_id'),
  creativesOfAccount: childrenOf(adCreatives, 'account_id'),
  rulesOfAccount: childrenOf(adRules, 'account_id'),
  runsOfRule: childrenOf(adRuleRuns, 'rule_id'),
  customAudiencesOfAccount: childrenOf(customAudiences, 'account_id'),
  customConversionsOfAccount: childrenOf(customConversions, 'account_id'),
  copiesOfAdSet: childrenOf(adSets, 'source_adset_id'),
  asyncRequestSetsOfAccount: childrenOf(asyncRequestSets, 'account_id'),
  asyncRequestsOfAdSet: childrenOf(asyncRequests, 'adset_id'),
  requestsOfSet: childrenOf(asyncRequests, 'set_id'),
  /** Change history: an ad set's (its own and its ads'), a campaign's (and its children's), an account's. */
  activitiesOfAdSet: childrenOf(activities, 'adset_id'),
  activitiesOfCampaign: childrenOf(activities, 'campaign_id'),
  activitiesOfAccount: childrenOf(activities, 'account_id'),
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
