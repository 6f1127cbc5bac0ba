import type { RequestContext } from '../context/index.ts';
import type { ObjectKind } from '../authz/objects.ts';
import { camel, type TableMapping } from '../db/rows.ts';
import type { PageRequest, Slice } from '../db/pagination.ts';
import * as ads from '../ads/service.ts';
import * as comments from '../comments/service.ts';
import {
  adAccounts, ads as adsTable, adSets, campaigns, customAudiences, customConversions,
  type AdAccountRecord, type AdRecord, type AdSetRecord, type CampaignRecord, type CustomAudienceRecord, type CustomConversionRecord,
} from '../ads/store.ts';
import { pages, posts, type PageRecord, type PostRecord } from '../comments/store.ts';

/**
 * What each Graph-style object exposes on /v24.0: its fields (with how to print them), the objects its
 * fields refer to, and its edges. Reads only; writes are wired in writes.ts.
 */
export type FieldKind = 'plain' | 'date' | 'money';

export interface GraphField<T> {
  kind: FieldKind;
  get(record: T, ctx: RequestContext): unknown;
  /** A field that is another object (`campaign{name}`): its node type. */
  ref?: NodeName;
}

export interface GraphEdge<T> {
  node: NodeName;
  list(ctx: RequestContext, parent: T, page: PageRequest): Promise<Slice<{ id: string }>>;
  count(ctx: RequestContext, parent: T): Promise<number>;
}

export interface GraphNode<T> {
  name: string;
  /** The id as the API writes it (act_<id> for ad accounts). */
  id(record: T): string;
  /** The ad account a call about this object counts against (rate limit, usage header). */
  accountId?(record: T): string;
  fields: Record<string, GraphField<T>>;
  edges: Record<string, GraphEdge<T>>;
}

export type NodeName = 'AdAccount' | 'Campaign' | 'AdSet' | 'Ad' | 'CustomAudience' | 'CustomConversion' | 'Page' | 'Post';

/** Fields straight from a table's columns, by their snake_case names; money columns print as numeric strings. */
function columns<T>(mapping: TableMapping<T>, options: { money?: string[]; hide?: string[] } = {}): Record<string, GraphField<T>> {
  const fields: Record<string, GraphField<T>> = {};
  for (const [column, kind] of Object.entries(mapping.columns)) {
    if (options.hide?.includes(column)) continue;
    const key = camel(column);
    fields[column] = {
      kind: kind === 'date' ? 'date' : options.money?.includes(column) ? 'money' : 'plain',
      get: (record) => (record as Record<string, unknown>)[key],
    };
  }
  return fields;
}

const ref = <T>(node: NodeName, load: (record: T, ctx: RequestContext) => Promise<unknown>): GraphField<T> => ({ kind: 'plain', ref: node, get: load });

const AD_ACCOUNT: GraphNode<AdAccountRecord> = {
  name: 'AdAccount',
  id: (account) => `act_${account.id}`,
  accountId: (account) => account.id,
  fields: {
    ...columns(adAccounts, { money: ['spend_cap', 'amount_spent'], hide: ['organization_id', 'country', 'is_bulk'] }),
    id: { kind: 'plain', get: (account) => `act_${account.id}` },
    account_id: { kind: 'plain', get: (account) => account.id },
    business_country_code: { kind: 'plain', get: (account) => account.country },
  },
  edges: {
    campaigns: {
      node: 'Campaign',
      list: (ctx, account, page) => ads.campaignsOfAccount(ctx, account, page),
      count: (ctx, account) => ads.countCampaignsOfAccount(ctx, account),
    },
    adsets: {
      node: 'AdSet',
      list: (ctx, account, page) => ads.adSetsOfAccount(ctx, account, page),
      count: (ctx, account) => ads.countAdSetsOfAccount(ctx, account),
    },
    ads: {
      node: 'Ad',
      list: (ctx, account, page) => ads.adsOfAccount(ctx, account, page),
      count: (ctx, account) => ads.countAdsOfAccount(ctx, account),
    },
    customaudiences: {
      node: 'CustomAudience',
      list: (ctx, account, page) => ads.customAudiencesOfAccount(ctx, account, page),
      count: (ctx, account) => ads.countCustomAudiencesOfAccount(ctx, account),
    },
    customconversions: {
      node: 'CustomConversion',
      list: (ctx, account, page) => ads.customConversionsOfAccount(ctx, account, page),
      count: (ctx, account) => ads.countCustomConversionsOfAccount(ctx, account),
    },
  },
};

const accountOf = <T extends { accountId: string }>(record: T, ctx: RequestContext) => ctx.loaders.ads.adAccountById.load(record.accountId);

const CAMPAIGN: GraphNode<CampaignRecord> = {
  name: 'Campaign',
  id: (campaign) => campaign.id,
  accountId: (campaign) => campaign.accountId,
  fields: {
    ...columns(campaigns, { money: ['daily_budget', 'lifetime_budget', 'spend_cap'], hide: ['organization_id'] }),
    configured_status: { kind: 'plain', get: (campaign) => campaign.status },
    effective_status: { kind: 'plain', get: (campaign) => campaign.status },
    account: ref('AdAccount', accountOf),
  },
  edges: {
    adsets: {
      node: 'AdSet',
      list: (ctx, campaign, page) => ads.adSetsOfCampaign(ctx, campaign, page),
      count: (ctx, campaign) => ads.countAdSetsOfCampaign(ctx, campaign),
    },
    ads: {
      node: 'Ad',
      list: (ctx, campaign, page) => ads.adsOfCampaign(ctx, campaign, page),
      count: (ctx, campaign) => ads.countAdsOfCampaign(ctx, campaign),
    },
  },
};

const AD_SET_MONEY = ['bid_amount', 'budget_remaining', 'daily_budget', 'daily_min_spend_target', 'daily_spend_cap', 'lifetime_budget', 'lifetime_min_spend_target', 'lifetime_spend_cap'];

const AD_SET: GraphNode<AdSetRecord> = {
  name: 'AdSet',
  id: (adSet) => adSet.id,
  accountId: (adSet) => adSet.accountId,
  fields: {
    ...columns(adSets, { money: AD_SET_MONEY, hide: ['organization_id'] }),
    configured_status: { kind: 'plain', get: (adSet) => adSet.status },
    effective_status: { kind: 'plain', get: (adSet, ctx) => ads.adSetEffectiveStatus(ctx, adSet) },
    campaign: ref('Campaign', (adSet, ctx) => ctx.loaders.ads.campaignById.load(adSet.campaignId)),
    account: ref('AdAccount', accountOf),
    source_adset: ref('AdSet', (adSet, ctx) => (adSet.sourceAdsetId ? ads.findAdSet(ctx, adSet.sourceAdsetId) : Promise.resolve(null))),
  },
  edges: {
    ads: {
      node: 'Ad',
      list: (ctx, adSet, page) => ads.adsOfAdSet(ctx, adSet, page),
      count: (ctx, adSet) => ads.countAdsOfAdSet(ctx, adSet),
    },
  },
};

const AD: GraphNode<AdRecord> = {
  name: 'Ad',
  id: (ad) => ad.id,
  accountId: (ad) => ad.accountId,
  fields: {
    ...columns(adsTable, { hide: ['organization_id'] }),
    configured_status: { kind: 'plain', get: (ad) => ad.status },
    effective_status: { kind: 'plain', get: (ad) => ad.status },
    adset: ref('AdSet', (ad, ctx) => ctx.loaders.ads.adSetById.load(ad.adsetId)),
    campaign: ref('Campaign', (ad, ctx) => ctx.loaders.ads.campaignById.load(ad.campaignId)),
    account: ref('AdAccount', accountOf),
  },
  edges: {},
};

const CUSTOM_AUDIENCE: GraphNode<CustomAudienceRecord> = {
  name: 'CustomAudience',
  id: (audience) => audience.id,
  accountId: (audience) => audience.accountId,
  fields: {
    ...columns(customAudiences, { hide: ['organization_id', 'operation_status_code', 'operation_status_description'] }),
    operation_status: { kind: 'plain', get: (audience) => ({ code: audience.operationStatusCode, description: audience.operationStatusDescription ?? '' }) },
  },
  edges: {},
};

const CUSTOM_CONVERSION: GraphNode<CustomConversionRecord> = {
  name: 'CustomConversion',
  id: (conversion) => conversion.id,
  accountId: (conversion) => conversion.accountId,
  fields: columns(customConversions, { hide: ['organization_id'] }),
  edges: {},
};

const postEdge: GraphEdge<PageRecord> = {
  node: 'Post',
  list: (ctx, page, request) => comments.postsOfPage(ctx, page, request),
  count: (ctx, page) => comments.countPostsOfPage(ctx, page),
};

const PAGE: GraphNode<PageRecord> = {
  name: 'Page',
  id: (page) => page.id,
  fields: columns(pages, { hide: ['organization_id'] }),
  edges: { feed: postEdge, posts: postEdge },
};

const POST: GraphNode<PostRecord> = {
  name: 'Post',
  id: (post) => post.id,
  fields: {
    ...columns(posts, { hide: ['organization_id', 'author_user_id', 'author_page_id'] }),
    from: {
      kind: 'plain',
      async get(post, ctx) {
        if (post.authorPageId) {
          const page = await ctx.loaders.comments.pageById.load(post.authorPageId);
          return page && { id: page.id, name: page.name };
        }
        const user = post.authorUserId ? await ctx.loaders.identity.userById.load(post.authorUserId) : null;
        return user && { id: user.id, name: user.name || user.username };
      },
    },
    page: ref('Page', (post, ctx) => ctx.loaders.comments.pageById.load(post.pageId)),
  },
  edges: {},
};

export const NODES: Record<NodeName, GraphNode<any>> = {
  AdAccount: AD_ACCOUNT, Campaign: CAMPAIGN, AdSet: AD_SET, Ad: AD, CustomAudience: CUSTOM_AUDIENCE,
  CustomConversion: CUSTOM_CONVERSION, Page: PAGE, Post: POST,
};

/** The Graph node type of each kind of object the API serves. */
export const NODE_OF_KIND: Partial<Record<ObjectKind, NodeName>> = {
  ad_account: 'AdAccount', campaign: 'Campaign', ad_set: 'AdSet', ad: 'Ad', custom_audience: 'CustomAudience',
  custom_conversion: 'CustomConversion', page: 'Page', post: 'Post',
};
