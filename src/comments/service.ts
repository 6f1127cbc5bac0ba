import type { RequestContext } from '../context/index.ts';
import { findReadable, readableChildren, readableCount, requireSignedIn } from '../authz/guards.ts';
import type { PageRequest } from '../db/pagination.ts';
import { parseCommentId, type CommentRecord, type PostRecord } from './store.ts';

const loaders = (ctx: RequestContext) => ctx.loaders.comments;

export const findPage = (ctx: RequestContext, id: string) => findReadable(ctx, 'page', id, (key) => loaders(ctx).pageById.load(key));
export const findPost = (ctx: RequestContext, id: string) => findReadable(ctx, 'post', id, (key) => loaders(ctx).postById.load(key));

/** A comment by its `<post id>_<comment id>`; null when absent, invisible or not under that post. */
export async function findComment(ctx: RequestContext, externalId: string): Promise<CommentRecord | null> {
  requireSignedIn(ctx);
  const parsed = parseCommentId(externalId);
  if (!parsed.ok) return null;
  const comment = await findReadable(ctx, 'comment', parsed.commentId, (key) => loaders(ctx).commentById.load(key));
  return comment && comment.postId === parsed.postId ? comment : null;
}

export const pagesOfOrganization = (ctx: RequestContext, organizationId: string, page: PageRequest) =>
  readableChildren(ctx, 'page', organizationId, () => loaders(ctx).pagesOfOrganization.page(organizationId, page));

/** Top-level comments of a post (replies hang under their parent comment). */
export const commentsOfPost = (ctx: RequestContext, post: PostRecord, page: PageRequest) =>
  readableChildren(ctx, 'comment', post.organizationId, () => loaders(ctx).commentsOfPost.page(post.id, page, { parent_id: null }));

export const repliesOf = (ctx: RequestContext, comment: CommentRecord, page: PageRequest) =>
  readableChildren(ctx, 'comment', comment.organizationId, () => loaders(ctx).repliesOfComment.page(comment.id, page));

export const countPagesOfOrganization = (ctx: RequestContext, organizationId: string) =>
  readableCount(ctx, 'page', organizationId, () => loaders(ctx).pagesOfOrganization.count(organizationId));

export const countCommentsOfPost = (ctx: RequestContext, post: PostRecord) =>
  readableCount(ctx, 'comment', post.organizationId, () => loaders(ctx).commentsOfPost.count(post.id, { parent_id: null }));

export const countRepliesOf = (ctx: RequestContext, comment: CommentRecord) =>
  readableCount(ctx, 'comment', comment.organizationId, () => loaders(ctx).repliesOfComment.count(comment.id));
