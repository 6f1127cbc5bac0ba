import type { RequestContext } from '../context/index.ts';
import type { AdAccountRecord, AdRecord, AdSetRecord, CampaignRecord } from '../ads/store.ts';
import { commentExternalId, type CommentRecord, type PageRecord, type PostRecord } from '../comments/store.ts';
import { deleteComment, editComment, publishComment, setCommentLiked } from '../comments/writes/comments.ts';
import * as campaigns from '../ads/writes/campaigns.ts';
import * as adWrites from '../ads/writes/ads.ts';
import * as audiences from '../ads/writes/audiences.ts';
import * as adSets from '../ads/writes/ad-sets.ts';
import { copyAdSet, copyResultJson } from '../ads/writes/ad-set-copies.ts';
import { createAsyncBatch } from '../ads/writes/async-requests.ts';
import { recommendationJson } from '../ads/rules/recommendations.ts';
import { createFeedPost } from '../comments/writes/posts.ts';
import type { Params } from './params.ts';
import type { NodeName } from './nodes.ts';

/** The writes each Graph node type accepts: update (POST /<id>), delete (DELETE /<id>), create (POST /<id>/<edge>). */
export interface NodeWrites {
  update?(ctx: RequestContext, record: any, params: Params): Promise<Record<string, unknown>>;
  remove?(ctx: RequestContext, record: any): Promise<unknown>;
  create?: Record<string, (ctx: RequestContext, parent: any, params: Params) => Promise<Record<string, unknown>>>;
  /** DELETE /<id>/<edge> (unlike). */
  removeFromEdge?: Record<string, (ctx: RequestContext, parent: any) => Promise<Record<string, unknown>>>;
}

// Creating answers the new object's id, as the platform does; updating answers success.
const created = async (record: Promise<{ id: string }>) => ({ id: (await record).id });
const succeeded = async (write: Promise<unknown>) => {
  await write;
  return { success: true };
};

/** An ad set write's answer: `{id, success}` for a create (`{success}` when only validated), recommendations when asked for. */
async function adSetAnswer(write: Promise<adSets.AdSetWriteResult>, withId: boolean): Promise<Record<string, unknown>> {
  const { adSet, recommendations } = await write;
  return {
    ...(withId && adSet ? { id: adSet.id } : {}),
    success: true,
    ...(recommendations ? { recommendations: recommendations.map(recommendationJson) } : {}),
  };
}

export const WRITES: Partial<Record<NodeName, NodeWrites>> = {
  AdAccount: {
    create: {
      campaigns: (ctx, account: AdAccountRecord, params) => created(campaigns.createCampaign(ctx, account.id, params)),
      adsets: (ctx, account: AdAccountRecord, params) => adSetAnswer(adSets.createAdSet(ctx, account.id, params), true),
      ads: (ctx, account: AdAccountRecord, params) => created(adWrites.createAd(ctx, account.id, params)),
      customaudiences: (ctx, account: AdAccountRecord, params) => created(audiences.createCustomAudience(ctx, account.id, params)),
      customconversions: (ctx, account: AdAccountRecord, params) => created(audiences.createCustomConversion(ctx, account.id, params)),
      async_batch_requests: (ctx, account: AdAccountRecord, params) => created(createAsyncBatch(ctx, account.id, params)),
    },
  },
  Campaign: {
    update: (ctx, campaign: CampaignRecord, params) => succeeded(campaigns.updateCampaign(ctx, campaign.id, params)),
    remove: (ctx, campaign: CampaignRecord) => campaigns.deleteCampaign(ctx, campaign.id),
  },
  AdSet: {
    update: (ctx, adSet: AdSetRecord, params) => adSetAnswer(adSets.updateAdSet(ctx, adSet.id, params), false),
    remove: (ctx, adSet: AdSetRecord) => adSets.deleteAdSet(ctx, adSet.id),
    create: {
      copies: async (ctx, adSet: AdSetRecord, params) => copyResultJson(await copyAdSet(ctx, adSet.id, params)),
    },
  },
  Ad: {
    update: (ctx, ad: AdRecord, params) => succeeded(adWrites.updateAd(ctx, ad.id, params)),
    remove: (ctx, ad: AdRecord) => adWrites.deleteAd(ctx, ad.id),
  },
  Page: {
    create: {
      feed: (ctx, page: PageRecord, params) => created(createFeedPost(ctx, page.id, params)),
    },
  },
  Post: {
    create: {
      comments: async (ctx, post: PostRecord, params) => ({ id: commentExternalId(await publishComment(ctx, post.id, params)) }),
    },
  },
  Comment: {
    update: (ctx, comment: CommentRecord, params) => succeeded(editComment(ctx, commentExternalId(comment), params)),
    remove: (ctx, comment: CommentRecord) => deleteComment(ctx, commentExternalId(comment)),
    create: {
      comments: async (ctx, comment: CommentRecord, params) => ({ id: commentExternalId(await publishComment(ctx, commentExternalId(comment), params)) }),
      likes: (ctx, comment: CommentRecord) => succeeded(setCommentLiked(ctx, commentExternalId(comment), true)),
    },
    removeFromEdge: {
      likes: (ctx, comment: CommentRecord) => succeeded(setCommentLiked(ctx, commentExternalId(comment), false)),
    },
  },
};
