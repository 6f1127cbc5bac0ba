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
import { commentEdges, COMMENT_FILTERS, COMMENT_ORDERS, pageEdges, postEdges } from './edges.ts';
import { createFeedPost } from './writes/posts.ts';
import { deleteComment, editComment, publishComment, setCommentLiked } from './writes/comments.ts';
import { commentExternalId, parseCommentId, POST_KINDS, type CommentRecord } from './store.ts';

/** The author of a post or the liker of a comment: a person (id and name, as /v24.0 shows them) or a page. */
async function actor(ctx: RequestContext, authorUserId: string | null, authorPageId: string | null) {
  if (authorPageId) return typed('Page', await comments.findPage(ctx, authorPageId));
  if (authorUserId) return typed('Person', await ctx.loaders.identity.userById.load(authorUserId));
  return null;
}

const postOf = comments.postOfComment;
const capabilities = async (ctx: RequestContext, comment: CommentRecord) => comments.commentCapabilities(ctx, comment, await postOf(ctx, comment));

function commentId(id: string, field = 'id'): string {
  comments.refuseDiscontinuedId(id, field);
  if (!parseCommentId(id).ok) throw badInput(field, `${field} must be a comment id of the form <post id>_<comment id>.`);
  return id;
}

export const commentsResolvers: Resolvers = {
  PostKind: lowercaseEnum(POST_KINDS),
  MessageTagType: lowercaseEnum(['user', 'page', 'group']),
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
  },

  Page: {
    organization: (page, _, ctx) => findOrganization(ctx, page.organizationId),
    posts: (page, args, ctx) => edgeConnection(pageEdges.posts, ctx, page, args),
  },

  Post: {
    page: async (post, _, ctx) => must(await ctx.loaders.comments.pageById.load(post.pageId)),
    from: (post, _, ctx) => actor(ctx, post.authorUserId, post.authorPageId),
    comments: (post, { filter, order, ...args }, ctx) =>
      edgeConnection(postEdges.comments, ctx, post, args, { filter: filter ?? undefined, order: order ?? undefined }),
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
    from: async (comment, _, ctx) => {
      const author = await comments.commentAuthor(ctx, comment);
      if (!author) return null;
      return author.kind === 'page' ? typed('Page', author.page) : typed('Person', must(await ctx.loaders.identity.userById.load(author.userId)));
    },
    post: (comment, _, ctx) => postOf(ctx, comment),
    object: async (comment, _, ctx) => comments.commentedObject(await postOf(ctx, comment)),
    parent: async (comment, _, ctx) => (comment.parentId ? ctx.loaders.comments.commentById.load(comment.parentId) : null),
    permalinkUrl: (comment, _, ctx) => comments.permalinkUrl(ctx, comment),
    comments: (comment, { order, ...args }, ctx) => edgeConnection(commentEdges.comments, ctx, comment, args, { order: order ?? undefined }),
    replies: (comment, args, ctx) => edgeConnection(commentEdges.comments, ctx, comment, args),
    likes: (comment, args, ctx) => edgeConnection(commentEdges.likes, ctx, comment, args),
  },

  CommentLike: {
    actor: (like, _, ctx) => actor(ctx, like.userId, like.pageId),
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
