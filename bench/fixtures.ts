/** Data the benchmarks add to the demo: accounts of a chosen size, built through the admin functions. */
import { createAdAccount, fillAdSets } from '../src/ads/admin.ts';
import { ads, campaigns, type AdAccountRecord, type CampaignRecord } from '../src/ads/store.ts';
import { insertObjects } from '../src/db/objects.ts';
import type { AppDeps } from '../src/context/index.ts';
import { DEMO_ORGANIZATION } from './harness.ts';

/** A new account of the demo's first organization with `count` empty campaigns. */
export async function accountWithCampaigns(
  deps: AppDeps,
  input: { name: string; campaigns: number; isBulk?: boolean },
): Promise<{ account: AdAccountRecord; campaignIds: string[] }> {
  const account = await createAdAccount(deps, { organization: DEMO_ORGANIZATION, name: input.name, currency: 'USD', country: 'US', isBulk: input.isBulk });
  const rows = await deps.db.transaction((trx) =>
    insertObjects<CampaignRecord>(
      trx,
      'campaign',
      campaigns,
      Array.from({ length: input.campaigns }, (_, i) => ({
        organizationId: account.organizationId,
        accountId: account.id,
        name: `${input.name} ${i + 1}`,
        objective: 'OUTCOME_TRAFFIC',
        status: 'ACTIVE',
        specialAdCategories: [],
        specialAdCategoryCountry: null,
        bidStrategy: null,
        buyingType: 'AUCTION',
        dailyBudget: null,
        lifetimeBudget: null,
        spendCap: null,
        activeSeconds: '0',
        statusChangedTime: null,
        startTime: null,
        stopTime: null,
      })),
    ),
  );
  return { account, campaignIds: rows.map((c) => c.id) };
}

/** `count` paused ad sets in a campaign, in slices so that no one transaction holds thousands of rows. */
export async function fillCampaign(deps: AppDeps, campaign: string, count: number): Promise<string[]> {
  const created: string[] = [];
  for (let done = 0; done < count; done += 1000) {
    created.push(...(await fillAdSets(deps, { campaign, count: Math.min(1000, count - done) })).created);
  }
  return created;
}

/** One active ad in each of the ad sets. */
export async function addAds(deps: AppDeps, account: AdAccountRecord, campaignId: string, adSetIds: string[]): Promise<void> {
  await deps.db.transaction((trx) =>
    insertObjects(
      trx,
      'ad',
      ads,
      adSetIds.map((adsetId) => ({
        organizationId: account.organizationId,
        accountId: account.id,
        campaignId,
        adsetId,
        name: `Bench ad of ${adsetId}`,
        status: 'ACTIVE' as const,
        creativeId: null,
        sourceAdId: null,
      })),
    ),
  );
}
