import type { RequestContext } from '../context/index.ts';
import { commentExternalId } from '../comments/store.ts';
import { deleteComment, editComment, publishComment, setCommentLiked, setCommentReaction } from '../comments/writes/comments.ts';
import { REACTION_TYPES } from '../comments/store.ts';
import { replyPrivately } from '../comments/writes/private-replies.ts';
import * as campaigns from '../ads/writes/campaigns.ts';
import * as adWrites from '../ads/writes/ads.ts';
import * as audiences from '../ads/writes/audiences.ts';
import * as adSets from '../ads/writes/ad-sets.ts';
import { copyAdSet, copyResultJson } from '../ads/writes/ad-set-copies.ts';
import { createAsyncBatch } from '../ads/writes/async-requests.ts';
import { recommendationJson } from '../ads/rules/recommendations.ts';
import { createFeedPost, setPostReaction } from '../comments/writes/posts.ts';
import { refuseExecutionOptions } from '../ads/writes/common.ts';
import { postReportRun } from './report-runs.ts';
import { oneOf, requiredParam, type Params } from './params.ts';
import type { NodeName, NodeRecords } from './nodes.ts';
import { createAdStudy } from '../ads/studies.ts';
import { createAdCreative, deleteAdCreative, updateAdCreative } from '../ads/writes/creatives.ts';
import { createAdRule, deleteAdRule, executeAdRule, updateAdRule } from '../ads/writes/ad-rules.ts';
import { subscribeApp, subscribePage, unsubscribeApp, unsubscribePage } from '../webhooks/service.ts';

/** The writes a Graph node type of records T accepts: update (POST /<id>), delete (DELETE /<id>), create (POST /<id>/<edge>). */
export interface NodeWrites<T> {
  update?(ctx: RequestContext, record: T, params: Params): Promise<Record<string, unknown>>;
  remove?(ctx: RequestContext, record: T): Promise<unknown>;
  create?: Record<string, (ctx: RequestContext, parent: T, params: Params) => Promise<Record<string, unknown>>>;
  /** DELETE /<id>/<edge> (unlike, unsubscribe). */
  removeFromEdge?: Record<string, (ctx: RequestContext, parent: T, params: Params) => Promise<Record<string, unknown>>>;
}

// Creating answers the new object's id, as the platform does (success alone when execution_options asked only for
// the checks: there is no object); updating answers success.
const created = async (record: Promise<{ id: string } | null>) => {
  const written = await record;
  return written ? { id: written.id } : { success: true };
};
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

const NODE_WRITES: { [N in NodeName]?: NodeWrites<NodeRecords[N]> } = {
  AdAccount: {
    create: {
      campaigns: (ctx, account, params) => created(campaigns.createCampaign(ctx, account.id, params)),
      adsets: (ctx, account, params) => adSetAnswer(adSets.createAdSet(ctx, account.id, params), true),
      ads: (ctx, account, params) => created(adWrites.createAd(ctx, account.id, params)),
      customaudiences: (ctx, account, params) => created(audiences.createCustomAudience(ctx, account.id, params)),
      customconversions: (ctx, account, params) => created(audiences.createCustomConversion(ctx, account.id, params)),
      async_batch_requests: (ctx, account, params) => created(createAsyncBatch(ctx, account.id, params)),
      insights: (ctx, account, params) => postReportRun(ctx, { kind: 'account', id: account.id }, params),
      ad_studies: (ctx, account, params) => created(createAdStudy(ctx, account.id, params)),
      adcreatives: (ctx, account, params) => created(createAdCreative(ctx, account.id, params)),
      adrules_library: (ctx, account, params) => created(createAdRule(ctx, account.id, params)),
    },
  },
  Campaign: {
    update: (ctx, campaign, params) => succeeded(campaigns.updateCampaign(ctx, campaign.id, params)),
    remove: (ctx, campaign) => campaigns.deleteCampaign(ctx, campaign.id),
    create: {
      insights: (ctx, campaign, params) => postReportRun(ctx, { kind: 'campaign', id: campaign.id }, params),
    },
  },
  AdSet: {
    update: (ctx, adSet, params) => adSetAnswer(adSets.updateAdSet(ctx, adSet.id, params), false),
    remove: (ctx, adSet) => adSets.deleteAdSet(ctx, adSet.id),
    create: {
      copies: async (ctx, adSet, params) => copyResultJson(await copyAdSet(ctx, adSet.id, params)),
      insights: (ctx, adSet, params) => postReportRun(ctx, { kind: 'adset', id: adSet.id }, params),
    },
  },
  Ad: {
    update: (ctx, ad, params) => succeeded(adWrites.updateAd(ctx, ad.id, params)),
    remove: (ctx, ad) => adWrites.deleteAd(ctx, ad.id),
    create: {
      insights: (ctx, ad, params) => postReportRun(ctx, { kind: 'ad', id: ad.id }, params),
    },
  },
  AdRule: {
    update: (ctx, rule, params) => succeeded(updateAdRule(ctx, rule.id, params)),
    remove: (ctx, rule) => deleteAdRule(ctx, rule.id),
    create: {
      execute: async (ctx, rule, params) => {
        const outcome = await executeAdRule(ctx, rule.id, params);
        return outcome.kind === 'dry_run' ? { success: true, results: outcome.results } : { success: true };
      },
    },
  },
  AdCreative: {
    update: (ctx, creative, params) => succeeded(updateAdCreative(ctx, creative.id, params)),
    remove: (ctx, creative) => deleteAdCreative(ctx, creative.id),
  },
  Page: {
    create: {
      feed: (ctx, page, params) => created(createFeedPost(ctx, page.id, params)),
      subscribed_apps: (ctx, page, params) => subscribePage(ctx, page, params),
    },
    removeFromEdge: {
      subscribed_apps: (ctx, page) => unsubscribePage(ctx, page),
    },
  },
  Application: {
    create: {
      subscriptions: (ctx, app, params) => subscribeApp(ctx, app, params),
    },
    removeFromEdge: {
      subscriptions: (ctx, app, params) => unsubscribeApp(ctx, app, params),
    },
  },
  Post: {
    create: {
      comments: async (ctx, post, params) => ({ id: commentExternalId(await publishComment(ctx, post.id, params)) }),
      reactions: (ctx, post, params) => succeeded(setPostReaction(ctx, post.id, requiredParam(params ?? {}, 'type', oneOf(REACTION_TYPES)))),
    },
    removeFromEdge: {
      reactions: (ctx, post) => succeeded(setPostReaction(ctx, post.id, null)),
    },
  },
  Comment: {
    update: (ctx, comment, params) => succeeded(editComment(ctx, commentExternalId(comment), params)),
    remove: (ctx, comment) => deleteComment(ctx, commentExternalId(comment)),
    create: {
      comments: async (ctx, comment, params) => ({ id: commentExternalId(await publishComment(ctx, commentExternalId(comment), params)) }),
      likes: (ctx, comment) => succeeded(setCommentLiked(ctx, commentExternalId(comment), true)),
      private_replies: async (ctx, comment, params) => {
        const reply = await replyPrivately(ctx, commentExternalId(comment), params);
        return { id: reply.id, user_id: reply.recipientUserId };
      },
      reactions: (ctx, comment, params) =>
        succeeded(setCommentReaction(ctx, commentExternalId(comment), requiredParam(params ?? {}, 'type', oneOf(REACTION_TYPES)))),
    },
    removeFromEdge: {
      likes: (ctx, comment) => succeeded(setCommentLiked(ctx, commentExternalId(comment), false)),
      reactions: (ctx, comment) => succeeded(setCommentReaction(ctx, commentExternalId(comment), null)),
    },
  },
};

/**
 * The writes with their record types forgotten, as the dispatcher calls them: it hands a node type's writes only
 * records it found as that node type.
 */
export const WRITES = NODE_WRITES as Partial<Record<NodeName, NodeWrites<unknown>>>;

/**
 * The writes that take execution_options, as the platform's do: campaigns, ad sets and ads, created under an account
 * (`<node>/<edge>`) or updated (`<node>`). Their services honour validate_only; every other write refuses the parameter.
 */
const TAKE_EXECUTION_OPTIONS = new Set(['AdAccount/campaigns', 'AdAccount/adsets', 'AdAccount/ads', 'AdAccount/adrules_library', 'Campaign', 'AdSet', 'Ad']);

export type Write = (ctx: RequestContext, record: unknown, params: Params) => Promise<unknown>;

/**
 * The creates that answer the new object's id, so `fields` can read it back: the node type it is, by the
 * `<node>/<edge>` it is made on. A like, a copy or a report run answers something else, and takes no `fields`.
 */
const CREATED_NODE: Partial<Record<string, NodeName>> = {
  'AdAccount/campaigns': 'Campaign',
  'AdAccount/adsets': 'AdSet',
  'AdAccount/ads': 'Ad',
  'AdAccount/customaudiences': 'CustomAudience',
  'AdAccount/customconversions': 'CustomConversion',
  'AdAccount/adcreatives': 'AdCreative',
  'AdAccount/adrules_library': 'AdRule',
  'AdAccount/ad_studies': 'AdStudy',
  'AdAccount/async_batch_requests': 'AdAsyncRequestSet',
  'Page/feed': 'Post',
  'Post/comments': 'Comment',
  'Comment/comments': 'Comment',
};

/** The node type a POST writes and answers the id of (itself for an update), or undefined when it answers no object. */
export const writtenNode = (node: NodeName, edge: string | undefined): NodeName | undefined => (edge === undefined ? node : CREATED_NODE[`${node}/${edge}`]);

/** The write a POST or DELETE of `<node>` or `<node>/<edge>` names, or undefined when there is none. */
export function writeOf(node: NodeName, method: 'POST' | 'DELETE', edge: string | undefined): Write | undefined {
  const writes = WRITES[node];
  const remove = writes?.remove;
  const write: Write | undefined =
    method === 'POST'
      ? edge === undefined
        ? writes?.update
        : writes?.create?.[edge]
      : edge === undefined
        ? remove && ((ctx, record) => succeeded(remove(ctx, record)))
        : writes?.removeFromEdge?.[edge];
  if (!write || (method === 'POST' && TAKE_EXECUTION_OPTIONS.has(edge === undefined ? node : `${node}/${edge}`))) return write;
  return (ctx, record, params) => {
    refuseExecutionOptions(params);
    return write(ctx, record, params);
  };
}
