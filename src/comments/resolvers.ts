import type { Resolvers } from '../graphql/__generated__/resolvers-types.ts';
import { connectionFields } from '../graphql/connections.ts';
import { edgeConnection } from '../graphql/edges.ts';
import { graphParams, lowercaseEnum, must, typed } from '../graphql/helpers.ts';
import { assertNumericId } from '../authz/guards.ts';
import { badInput } from '../errors/index.ts';
import type { RequestContext } from '../context/index.ts';
import { findOrganization, findUser } from '../identity/service.ts';
import { displayName } from '../identity/store.ts';
import * as comments from './service.ts';
import { commentEdges, COMMENT_FILTERS, COMMENT_ORDERS, pageEdges, postEdges, type ReactionFilter } from './edges.ts';
import type { Edge } from '../authz/edges.ts';
import { createFeedPost, setPostReaction } from './writes/posts.ts';
import { deleteComment, editComment, publishComment, setCommentLiked, setCommentReaction } from './writes/comments.ts';
import { privateReplyOf, replyPrivately } from './writes/private-replies.ts';
import { issuePageToken } from './page-tokens.ts';
import { pageTasks } from '../authz/policy.ts';
import { commentExternalId, parseCommentId, POST_KINDS, type CommentLikeRecord, type CommentRecord, type MessageTag, type PostRecord } from './store.ts';

/** A liker: a person (id and name, as /v24.0 shows them) or a page. */
async function liker(ctx: RequestContext, userId: string | null, pageId: string | null) {
  if (pageId) return typed('Page', await comments.findPage(ctx, pageId));
  if (userId) return typed('Person', await ctx.loaders.identity.userById.load(userId));
  return null;
}

/** A post's or comment's author as the one rule lets the viewer see it (comments/rules/authors.ts). */
async function author(ctx: RequestContext, written: Parameters<typeof comments.authorOf>[1]) {
  const found = await comments.authorOf(ctx, written);
  if (!found) return null;
  return found.kind === 'page' ? typed('Page', found.page) : typed('Person', found.user);
}

/** What a mention names (MessageTagType). */
export const MESSAGE_TAG_TYPES = ['user', 'page', 'group'] as const satisfies readonly MessageTag['type'][];

const postOf = comments.postOfComment;
const capabilities = async (ctx: RequestContext, comment: CommentRecord) => comments.commentCapabilities(ctx, comment, await postOf(ctx, comment));

function commentId(id: string, field = 'id'): string {
  comments.refuseDiscontinuedId(id, field);
  if (!parseCommentId(id).ok) throw badInput(field, `${field} must be a comment id of the form <post id>_<comment id>.`);
  return id;
}

export const commentsResolvers: Resolvers = {
  PostKind: lowercaseEnum(POST_KINDS),
  MessageTagType: lowercaseEnum(MESSAGE_TAG_TYPES),
  CommentFilter: lowercaseEnum(COMMENT_FILTERS),
  CommentOrder: lowercaseEnum(COMMENT_ORDERS),

  Query: {
    page: (_, { id }, ctx) => {
      assertNumericId(id);
      return comments.findPage(ctx, id);
    },
    post: (_, { id }, ctx) => {
      assertNumericId(id);
      return comments.findPost(ctx, id);
    },
    comment: (_, { id }, ctx) => comments.findComment(ctx, commentId(id)),
  },

  Mutation: {
    createPagePost: (_, { pageId, input }, ctx) => {
      assertNumericId(pageId, 'pageId');
      return createFeedPost(ctx, pageId, graphParams(input));
    },
    publishComment: (_, { objectId, input }, ctx) => {
      if (objectId.includes('_')) commentId(objectId, 'objectId');
      else assertNumericId(objectId, 'objectId');
      return publishComment(ctx, objectId, graphParams(input));
    },
    editComment: (_, { id, input }, ctx) => editComment(ctx, commentId(id), graphParams(input)),
    setCommentHidden: (_, { id, hidden }, ctx) => editComment(ctx, commentId(id), { is_hidden: hidden }),
    deleteComment: async (_, { id }, ctx) => {
      await deleteComment(ctx, commentId(id));
      return true;
    },
    likeComment: (_, { id }, ctx) => setCommentLiked(ctx, commentId(id), true),
    unlikeComment: (_, { id }, ctx) => setCommentLiked(ctx, commentId(id), false),
    react: (_, { id, type }, ctx) => setCommentReaction(ctx, commentId(id), type ?? null),
    reactToPost: (_, { id, type }, ctx) => setPostReaction(ctx, id, type ?? null),
    replyPrivately: (_, { id, message }, ctx) => replyPrivately(ctx, commentId(id), { message }),
  },

  Page: {
    organization: (page, _, ctx) => findOrganization(ctx, page.organizationId),
    posts: (page, args, ctx) => edgeConnection(pageEdges.posts, ctx, page, args),
    accessToken: (page, _, ctx) => issuePageToken(ctx, page),
    tasks: (page, _, ctx) => pageTasks(ctx.viewer, page.organizationId),
  },

  Post: {
    page: async (post, _, ctx) => must(await ctx.loaders.comments.pageById.load(post.pageId)),
    from: (post, _, ctx) => author(ctx, post),
    comments: (post, { filter, order, ...args }, ctx) =>
      edgeConnection(postEdges.comments, ctx, post, args, { filter: filter ?? undefined, order: order ?? undefined }),
    // A post's reactions read as a comment's do (who, how, since when): the same GraphQL type.
    reactions: (post, { type, ...args }, ctx) =>
      edgeConnection(postEdges.reactions as unknown as Edge<PostRecord, CommentLikeRecord, ReactionFilter>, ctx, post, args, { type: type ?? undefined }),
    reactionCounts: (post, _, ctx) => ctx.loaders.comments.postReactionCountsOf.load(post.id),
  },

  Comment: {
    id: (comment) => commentExternalId(comment),
    commentCount: (comment, _, ctx) => commentEdges.comments.count(ctx, comment),
    userLikes: async (comment, _, ctx) => comments.viewerLikes(ctx, comment, await postOf(ctx, comment)),
    canComment: async (comment, _, ctx) => (await capabilities(ctx, comment)).canComment,
    canRemove: async (comment, _, ctx) => (await capabilities(ctx, comment)).canRemove,
    canHide: async (comment, _, ctx) => (await capabilities(ctx, comment)).canHide ?? null,
    canLike: async (comment, _, ctx) => (await capabilities(ctx, comment)).canLike,
    canReplyPrivately: async (comment, _, ctx) => (await capabilities(ctx, comment)).canReplyPrivately ?? null,
    from: (comment, _, ctx) => author(ctx, comment),
    post: (comment, _, ctx) => postOf(ctx, comment),
    object: async (comment, _, ctx) => comments.commentedObject(await postOf(ctx, comment)),
    parent: async (comment, _, ctx) => (comment.parentId ? ctx.loaders.comments.commentById.load(comment.parentId) : null),
    permalinkUrl: (comment, _, ctx) => comments.permalinkUrl(ctx, comment),
    comments: (comment, { order, ...args }, ctx) => edgeConnection(commentEdges.comments, ctx, comment, args, { order: order ?? undefined }),
    replies: (comment, args, ctx) => edgeConnection(commentEdges.comments, ctx, comment, args),
    likes: (comment, args, ctx) => edgeConnection(commentEdges.likes, ctx, comment, args),
    reactions: (comment, { type, ...args }, ctx) => edgeConnection(commentEdges.reactions, ctx, comment, args, { type: type ?? undefined }),
    reactionCounts: (comment, _, ctx) => ctx.loaders.comments.reactionCountsOf.load(comment.id),
    privateReply: (comment, _, ctx) => privateReplyOf(ctx, comment),
  },

  CommentLike: {
    actor: (like, _, ctx) => liker(ctx, like.userId, like.pageId),
  },

  Actor: {
    __resolveType: (value) => (value as { __typename?: 'Person' | 'Page' }).__typename ?? null,
  },

  Person: {
    name: (user) => displayName(user),
    user: (user, _, ctx) => findUser(ctx, user.id),
  },

  PageConnection: connectionFields,
  PostConnection: connectionFields,
  CommentConnection: connectionFields,
  CommentLikeConnection: connectionFields,
};
