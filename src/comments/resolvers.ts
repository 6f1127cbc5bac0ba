import type { Resolvers } from '../graphql/__generated__/resolvers-types.ts';
import { connection, connectionFields } from '../graphql/connections.ts';
import { edgeConnection } from '../graphql/edges.ts';
import { pageEdges } from './edges.ts';
import { graphParams, lowercaseEnum, must, typed } from '../graphql/helpers.ts';
import { assertNumericId } from '../authz/guards.ts';
import { badInput } from '../errors/index.ts';
import type { RequestContext } from '../context/index.ts';
import { findUser } from '../identity/service.ts';
import * as comments from './service.ts';
import { createFeedPost } from './writes.ts';
import { commentExternalId, parseCommentId, POST_KINDS } from './store.ts';


/** The author of a post or comment: a user (when you may see them) or a page. */
async function actor(ctx: RequestContext, authorUserId: string | null, authorPageId: string | null) {
  if (authorPageId) return typed('Page', await comments.findPage(ctx, authorPageId));
  if (authorUserId) return typed('User', await findUser(ctx, authorUserId));
  return null;
}

export const commentsResolvers: Resolvers = {
  PostKind: lowercaseEnum(POST_KINDS),
  MessageTagType: lowercaseEnum(['user', 'page', 'group']),

  Query: {
    page: (_, { id }, ctx) => {
      assertNumericId(id);
      return comments.findPage(ctx, id);
    },
    post: (_, { id }, ctx) => {
      assertNumericId(id);
      return comments.findPost(ctx, id);
    },
    comment: (_, { id }, ctx) => {
      const parsed = parseCommentId(id);
      if (!parsed.ok) throw badInput('id', 'id must be a comment id of the form <post id>_<comment id>.');
      return comments.findComment(ctx, id);
    },
  },

  Mutation: {
    createPagePost: (_, { pageId, input }, ctx) => {
      assertNumericId(pageId, 'pageId');
      return createFeedPost(ctx, pageId, graphParams(input));
    },
  },

  Page: {
    organization: async (page, _, ctx) => must(await ctx.loaders.identity.organizationById.load(page.organizationId)),
    posts: (page, args, ctx) => edgeConnection(pageEdges.posts, ctx, page, args),
  },

  Post: {
    page: async (post, _, ctx) => must(await ctx.loaders.comments.pageById.load(post.pageId)),
    from: (post, _, ctx) => actor(ctx, post.authorUserId, post.authorPageId),
    comments: (post, args, ctx) =>
      connection(args, (slice) => comments.commentsOfPost(ctx, post, slice),
        () => comments.countCommentsOfPost(ctx, post)),
  },

  Comment: {
    id: (comment) => commentExternalId(comment),
    from: (comment, _, ctx) => actor(ctx, comment.authorUserId, comment.authorPageId),
    post: async (comment, _, ctx) => must(await ctx.loaders.comments.postById.load(comment.postId)),
    parent: async (comment, _, ctx) => (comment.parentId ? ctx.loaders.comments.commentById.load(comment.parentId) : null),
    replies: (comment, args, ctx) =>
      connection(args, (slice) => comments.repliesOf(ctx, comment, slice),
        () => comments.countRepliesOf(ctx, comment)),
  },

  Actor: {
    __resolveType: (actor) => (actor as { __typename?: 'User' | 'Page' }).__typename ?? null,
  },

  PageConnection: connectionFields,
  PostConnection: connectionFields,
  CommentConnection: connectionFields,
};
