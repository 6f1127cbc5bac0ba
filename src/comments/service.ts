import type { RequestContext } from '../context/index.ts';
import { findReadable, getReadable, readableChildren, requireSignedIn } from '../authz/guards.ts';
import type { PageRequest } from '../db/pagination.ts';
import { badInput, notFound } from '../errors/index.ts';
import { parseCommentId, type CommentRecord, type PageRecord, type PostRecord } from './store.ts';

const loaders = (ctx: RequestContext) => ctx.loaders.comments;

export const findPage = (ctx: RequestContext, id: string) => findReadable(ctx, 'page', id, (key) => loaders(ctx).pageById.load(key));
export const findPost = (ctx: RequestContext, id: string) => findReadable(ctx, 'post', id, (key) => loaders(ctx).postById.load(key));
export const getPage = (ctx: RequestContext, id: string) => getReadable(ctx, 'page', 'Page', id, (key) => loaders(ctx).pageById.load(key));
export const getPost = (ctx: RequestContext, id: string) => getReadable(ctx, 'post', 'Post', id, (key) => loaders(ctx).postById.load(key));

/** A comment by its `<post id>_<comment id>`; null when absent, invisible or not under that post. */
export async function findComment(ctx: RequestContext, externalId: string): Promise<CommentRecord | null> {
  requireSignedIn(ctx);
  const parsed = parseCommentId(externalId);
  if (!parsed.ok) return null;
  const comment = await findReadable(ctx, 'comment', parsed.commentId, (key) => loaders(ctx).commentById.load(key));
  return comment && comment.postId === parsed.postId ? comment : null;
}

export async function getComment(ctx: RequestContext, externalId: string): Promise<CommentRecord> {
  requireSignedIn(ctx);
  const parsed = parseCommentId(externalId);
  if (!parsed.ok) {
    throw badInput('id', parsed.reason === 'discontinued'
      ? 'The comment id format <page id>_<post id>_<comment id> is discontinued; use <post id>_<comment id>.'
      : 'id must be a comment id of the form <post id>_<comment id>.');
  }
  return (await findComment(ctx, externalId)) ?? Promise.reject(notFound('Comment', externalId));
}

export const pagesOfOrganization = (ctx: RequestContext, organizationId: string, page: PageRequest) =>
  readableChildren(ctx, 'page', organizationId, () => loaders(ctx).pagesOfOrganization.page(organizationId, page));

export const postsOfPage = (ctx: RequestContext, pageRecord: PageRecord, page: PageRequest) =>
  readableChildren(ctx, 'post', pageRecord.organizationId, () => loaders(ctx).postsOfPage.page(pageRecord.id, page));

/** Top-level comments of a post (replies hang under their parent comment). */
export const commentsOfPost = (ctx: RequestContext, post: PostRecord, page: PageRequest) =>
  readableChildren(ctx, 'comment', post.organizationId, () => loaders(ctx).commentsOfPost.page(post.id, page, { parent_id: null }));

export const repliesOf = (ctx: RequestContext, comment: CommentRecord, page: PageRequest) =>
  readableChildren(ctx, 'comment', comment.organizationId, () => loaders(ctx).repliesOfComment.page(comment.id, page));
