import { callerEdge, childEdge } from '../authz/edges.ts';
import type { Filters } from '../db/batch.ts';
import type { PageRequest } from '../db/pagination.ts';
import type { RequestContext } from '../context/index.ts';
import { paramError } from '../graph-api/params.ts';
import { visibleCommentsCondition } from './service.ts';
import { pages, type CommentLikeRecord, type CommentRecord, type PageRecord, type PostReactionRecord, type PostRecord, type ReactionType } from './store.ts';

/**
 * Edges of pages, posts and comments: one object each for GraphQL and /v24.0 alike. Comment lists keep to what
 * the caller may see (hidden comments: rules/visibility.ts), in their lists and their counts alike.
 */
export const COMMENT_FILTERS = ['toplevel', 'stream'] as const;
export const COMMENT_ORDERS = ['chronological', 'reverse_chronological'] as const;

export interface CommentFilter {
  /** toplevel (the default on posts): comments, not replies; stream: both, in one list. */
  filter?: string;
  /** chronological (the default) or reverse_chronological. */
  order?: string;
}

function checked(filter: CommentFilter | undefined): Required<CommentFilter> {
  const value = { filter: filter?.filter ?? 'toplevel', order: filter?.order ?? 'chronological' };
  if (!(COMMENT_FILTERS as readonly string[]).includes(value.filter)) throw paramError('filter', `Param filter must be one of {${COMMENT_FILTERS.join(', ')}}`);
  if (!(COMMENT_ORDERS as readonly string[]).includes(value.order)) throw paramError('order', `Param order must be one of {${COMMENT_ORDERS.join(', ')}}`);
  return value;
}

const visible = (ctx: RequestContext, organizationId: string): Filters => {
  const condition = visibleCommentsCondition(ctx, organizationId);
  return condition ? { visible: condition } : {};
};

/** reverse_chronological pages newest first. */
const newestFirst = (page: PageRequest, filter: CommentFilter | undefined): PageRequest =>
  checked(filter).order === 'reverse_chronological' ? { ...page, descending: true } : page;

export const pageEdges = {
  posts: childEdge<PageRecord, PostRecord>('post', (l) => l.comments.postsOfPage),
};

export const postEdges = {
  /** Its reactions, of one type when asked (`type`); read as the post is. */
  reactions: childEdge<PostRecord, PostReactionRecord, ReactionFilter>('post', (l) => l.comments.reactionsOfPost, {
    filters: (filter): Filters => (filter?.type ? { type: filter.type } : {}),
  }),
  comments: childEdge<PostRecord, CommentRecord, CommentFilter>('comment', (l) => l.comments.commentsOfPost, {
    filters: (filter, ctx, post) => ({ ...(checked(filter).filter === 'toplevel' ? { parent_id: null } : {}), ...visible(ctx, post.organizationId) }),
    order: newestFirst,
  }),
};

const ONLY_LIKES = { type: 'LIKE' };

/** What a reactions edge takes: one type of reaction. */
export interface ReactionFilter {
  type?: ReactionType;
}

export const commentEdges = {
  /** Replies (one level deep: `filter` changes nothing here). */
  comments: childEdge<CommentRecord, CommentRecord, CommentFilter>('comment', (l) => l.comments.repliesOfComment, {
    filters: (filter, ctx, comment) => {
      checked(filter);
      return visible(ctx, comment.organizationId);
    },
    order: newestFirst,
  }),
  /** Its likes: the LIKE reactions. */
  likes: childEdge<CommentRecord, CommentLikeRecord>('comment', (l) => l.comments.likesOfComment, { filters: () => ONLY_LIKES }),
  /** Its reactions, of one type when asked (`type`). */
  reactions: childEdge<CommentRecord, CommentLikeRecord, ReactionFilter>('comment', (l) => l.comments.likesOfComment, {
    filters: (filter): Filters => (filter?.type ? { type: filter.type } : {}),
  }),
};

/** `/me/accounts`: the pages the caller moderates (the pages of the organizations where it may update comments). */
export const callerPages = callerEdge<PageRecord>(pages, 'update', 'comment');
