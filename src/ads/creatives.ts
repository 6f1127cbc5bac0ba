import { childEdge } from '../authz/edges.ts';
import { findReadable } from '../authz/guards.ts';
import type { RequestContext } from '../context/index.ts';
import type { AdAccountRecord, AdCreativeRecord, AdRecord, AdSetRecord } from './store.ts';

/**
 * Ad creatives (issue 21): an account's creatives, which its ads show by id. Read as ads are (the policy's
 * resource for creatives); written in writes/creatives.ts. The edges are the one list and count both surfaces
 * wire from: the account's creatives, an ad set's (the creatives its ads use), an ad's (the one it shows).
 */

const RESOURCE = 'ad';

export const findAdCreative = (ctx: RequestContext, id: string) => findReadable(ctx, RESOURCE, id, (key) => ctx.loaders.ads.creativeById.load(key));

/** The creative an ad shows, read as the ad is (it was, to get here). */
export const creativeOfAd = (ctx: RequestContext, ad: AdRecord) => (ad.creativeId ? ctx.loaders.ads.creativeById.load(ad.creativeId) : Promise.resolve(null));

/** Without a status filter the platform's lists leave deleted creatives out (read by id, they still answer). */
const live = { status: ['ACTIVE'] };

/** The creatives its ads use: distinct, in id order, through the ads' (creative_id, status) index. */
const usedByAdsOf = (column: 'adset_id' | 'id', id: string) => ({
  ...live,
  used: { sql: `ad_creatives.id in (select ads.creative_id from ads where ads.${column} = ?)`, bindings: [id] },
});

export const creativeEdges = {
  ofAccount: childEdge<AdAccountRecord, AdCreativeRecord>('ad', (l) => l.ads.creativesOfAccount, { filters: () => live }),
  ofAdSet: childEdge<AdSetRecord, AdCreativeRecord>('ad', (l) => l.ads.creativesOfAccount, {
    parentKey: (adSet) => adSet.accountId,
    filters: (_filter, _ctx, adSet) => usedByAdsOf('adset_id', adSet.id),
  }),
  ofAd: childEdge<AdRecord, AdCreativeRecord>('ad', (l) => l.ads.creativesOfAccount, {
    parentKey: (ad) => ad.accountId,
    filters: (_filter, _ctx, ad) => usedByAdsOf('id', ad.id),
  }),
};
