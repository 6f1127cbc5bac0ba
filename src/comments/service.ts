import { timeNow, type RequestContext } from '../context/index.ts';
import { findReadable, readableChildren, readableCount, requireSignedIn } from '../authz/guards.ts';
import { actsAsPage, can, type Role, type Subject } from '../authz/policy.ts';
import type { PageRequest } from '../db/pagination.ts';
import { paramError } from '../graph-api/params.ts';
import { capabilitiesOf, PRIVATE_REPLY_DAYS, type Capabilities } from './rules/capabilities.ts';
import { isHideable, type ModerationFacts } from './rules/moderation.ts';
import { visibleTo } from './rules/visibility.ts';
import { visibleAuthor, type Authorship } from './rules/authors.ts';
import type { UserRecord } from '../identity/store.ts';
import { parseCommentId, type CommentRecord, type PageRecord, type PostRecord } from './store.ts';

const loaders = (ctx: RequestContext) => ctx.loaders.comments;

export const findPage = (ctx: RequestContext, id: string) => findReadable(ctx, 'page', id, (key) => loaders(ctx).pageById.load(key));
export const findPost = (ctx: RequestContext, id: string) => findReadable(ctx, 'post', id, (key) => loaders(ctx).postById.load(key));

// --- What the policy sees of a comment --------------------------------------------------------------------------

/** A comment as the policy sees it: its author, its post's kind, whether it is hidden and who still sees it then. */
export function commentSubject(comment: CommentRecord, post: PostRecord): Subject {
  return {
    type: 'comment',
    organizationId: comment.organizationId,
    ownerId: comment.authorUserId,
    comment: {
      byPage: comment.authorPageId === post.pageId,
      postKind: post.kind,
      hidden: comment.isHidden,
      visibleTo: visibleTo({
        hidden: comment.isHidden,
        authorUserId: comment.authorUserId,
        postAuthorUserId: post.authorUserId,
        taggedUserIds: comment.messageTags.filter((tag) => tag.type === 'user').map((tag) => tag.id),
      }),
    },
  };
}

export interface CommentObject {
  comment: CommentRecord;
  post: PostRecord;
  subject: Subject;
}

/**
 * A comment by its `<post id>_<comment id>` with its post and policy subject; null when it is absent, not under
 * that post, or the caller may not read it (a hidden one, or a reply under a parent the caller may not read).
 */
export async function findCommentObject(ctx: RequestContext, externalId: string): Promise<CommentObject | null> {
  requireSignedIn(ctx);
  const parsed = parseCommentId(externalId);
  if (!parsed.ok) return null;
  const comment = await loaders(ctx).commentById.load(parsed.commentId);
  if (!comment || comment.postId !== parsed.postId) return null;
  return readableComment(ctx, comment);
}

/** The comment, its post and subject when the caller may read it and what it hangs under. */
export async function readableComment(ctx: RequestContext, comment: CommentRecord): Promise<CommentObject | null> {
  const post = await findPost(ctx, comment.postId);
  if (!post) return null;
  const subject = commentSubject(comment, post);
  if (!can(ctx.viewer, 'read', subject)) return null;
  if (comment.parentId !== null) {
    const parent = await loaders(ctx).commentById.load(comment.parentId);
    if (!parent || !can(ctx.viewer, 'read', commentSubject(parent, post))) return null;
  }
  return { comment, post, subject };
}

/** The discontinued `{page-id}_{post-id}_{comment-id}` form is error 100 (the specification); other ids name or not. */
export function refuseDiscontinuedId(id: string, field = 'id'): void {
  const parsed = parseCommentId(id);
  if (!parsed.ok && parsed.reason === 'discontinued') {
    throw paramError(field, `The comment id ${id} uses the discontinued {page-id}_{post-id}_{comment-id} form: use {pagepost-id}_{comment-id}`);
  }
}

export async function findComment(ctx: RequestContext, externalId: string): Promise<CommentRecord | null> {
  return (await findCommentObject(ctx, externalId))?.comment ?? null;
}

// --- Who asks: the page, or a person -------------------------------------------------------------------------

/** The caller acts as the page of this organization (policy.ts `actsAsPage`: a page token). */
export const viewsAsPage = (ctx: RequestContext, organizationId: string): boolean => actsAsPage(ctx.viewer, organizationId);

/**
 * The SQL condition that keeps a list to the comments the caller may see (the rule of rules/visibility.ts):
 * everything for the page, otherwise visible ones and the hidden ones the caller wrote, is tagged in, or whose
 * post the caller wrote; a reply only when its parent passes the same test (as reading it by id requires).
 */
export function visibleCommentsCondition(ctx: RequestContext, organizationId: string) {
  if (viewsAsPage(ctx, organizationId)) return undefined;
  const viewer = ctx.viewer;
  const seen = (alias: string) =>
    viewer.kind !== 'user'
      ? { sql: `not ${alias}.is_hidden`, bindings: [] }
      : {
          sql: `(not ${alias}.is_hidden or ${alias}.author_user_id = ?
        or exists (select 1 from comment_mentions m where m.comment_id = ${alias}.id and m.object_id = ?)
        or exists (select 1 from posts p where p.id = ${alias}.post_id and p.author_user_id = ?))`,
          bindings: [viewer.userId, viewer.userId, viewer.userId],
        };
  const own = seen('comments');
  const parent = seen('parent');
  return {
    sql: `${own.sql} and (comments.parent_id is null
      or exists (select 1 from comments parent where parent.id = comments.parent_id and ${parent.sql}))`,
    bindings: [...own.bindings, ...parent.bindings],
  };
}

// --- What the viewer may do ---------------------------------------------------------------------------------

async function authorRole(ctx: RequestContext, comment: CommentRecord): Promise<Role | null> {
  if (!comment.authorUserId) return null;
  const memberships = await ctx.loaders.identity.membershipsByUser.load(comment.authorUserId);
  return memberships.find((m) => m.organizationId === comment.organizationId)?.role ?? null;
}

export async function moderationFacts(ctx: RequestContext, comment: CommentRecord, post: PostRecord): Promise<ModerationFacts> {
  return {
    pageId: post.pageId,
    post: { kind: post.kind, authorUserId: post.authorUserId, authorPageId: post.authorPageId },
    comment: { authorUserId: comment.authorUserId, authorPageId: comment.authorPageId },
    authorRole: await authorRole(ctx, comment),
  };
}

/** The `can_*` fields for the viewer (batched: the author's memberships are one statement for a page of comments). */
export async function commentCapabilities(ctx: RequestContext, comment: CommentRecord, post: PostRecord): Promise<Capabilities> {
  const subject = commentSubject(comment, post);
  const isPage = viewsAsPage(ctx, comment.organizationId);
  return capabilitiesOf(
    {
      isReply: comment.parentId !== null,
      byPerson: comment.authorUserId !== null,
      // Only the page's views read these (can_reply_privately): nobody else pays for the lookup.
      repliedPrivately: isPage ? (await loaders(ctx).privateReplyOfComment.load(comment.id)) !== null : undefined,
      recent: timeNow(ctx).getTime() - comment.createdTime.getTime() < PRIVATE_REPLY_DAYS * 86_400_000,
    },
    {
      mayComment: can(ctx.viewer, 'create', subject),
      mayDelete: can(ctx.viewer, 'delete', subject),
      isPage,
      hideable: isPage && can(ctx.viewer, 'update', subject) && isHideable(await moderationFacts(ctx, comment, post)),
      mayLike: ctx.viewer.kind === 'user' || isPage,
    },
  );
}

/** Who the viewer writes and likes as on a post: the person, or, for a page token (an API client's or a person's), the page. */
export function actorOn(ctx: RequestContext, post: PostRecord): { userId: string } | { pageId: string } | null {
  if (ctx.viewer.kind === 'user') return { userId: ctx.viewer.userId };
  if (viewsAsPage(ctx, post.organizationId)) return { pageId: post.pageId };
  return null;
}

export async function viewerLikes(ctx: RequestContext, comment: CommentRecord, post: PostRecord): Promise<boolean> {
  const liker = actorOn(ctx, post);
  return liker ? loaders(ctx).likedBy(liker).load(comment.id) : false;
}

/** The viewer is the person who wrote the comment. */
export const isAuthor = (ctx: RequestContext, comment: CommentRecord): boolean => ctx.viewer.kind === 'user' && comment.authorUserId === ctx.viewer.userId;

/** A post's or a comment's author as the viewer may see it (rules/authors.ts), loaded: the page, or the person. */
export type Author = { kind: 'page'; page: PageRecord } | { kind: 'person'; user: UserRecord };

/** The one answer to "who wrote it" for both surfaces (GraphQL `from`, `/v24.0` `?fields=from`); null when the viewer may not know. */
export async function authorOf(ctx: RequestContext, written: Authorship & { organizationId: string }): Promise<Author | null> {
  const author = visibleAuthor(written, { isPage: viewsAsPage(ctx, written.organizationId), userId: ctx.viewer.kind === 'user' ? ctx.viewer.userId : null });
  if (!author) return null;
  if (author.kind === 'page') {
    const page = await loaders(ctx).pageById.load(author.pageId);
    return page ? { kind: 'page', page } : null;
  }
  const user = await ctx.loaders.identity.userById.load(author.userId);
  return user ? { kind: 'person', user } : null;
}

// --- Derived fields ---------------------------------------------------------------------------------------

/** A readable comment's post: it exists (foreign keys) and was read on the way to the comment. */
export const postOfComment = async (ctx: RequestContext, comment: CommentRecord): Promise<PostRecord> => (await loaders(ctx).postById.load(comment.postId))!;

/** The comment's `object`: the photo or video post commented on; nothing for other posts. */
export const commentedObject = (post: PostRecord): PostRecord | null => (post.kind === 'photo' || post.kind === 'video' ? post : null);

/**
 * The comment's permalink, for whoever may read the comment, except an API client of another organization: the
 * specification's "not returned when the calling app only has the public-content page access feature" (from
 * v20.0, which every served version is), as a client reads other organizations' pages only as public content.
 */
export const permalinkUrl = (ctx: RequestContext, comment: CommentRecord): string | null =>
  (ctx.viewer.kind === 'client' || ctx.viewer.kind === 'page') && ctx.viewer.organizationId !== comment.organizationId
    ? null
    : `${ctx.config.publicUrl}/${comment.postId}?comment_id=${comment.id}`;

// --- Lists that are not comments ----------------------------------------------------------------------------

export const pagesOfOrganization = (ctx: RequestContext, organizationId: string, page: PageRequest) =>
  readableChildren(ctx, 'page', organizationId, () => loaders(ctx).pagesOfOrganization.page(organizationId, page));

export const countPagesOfOrganization = (ctx: RequestContext, organizationId: string) =>
  readableCount(ctx, 'page', organizationId, () => loaders(ctx).pagesOfOrganization.count(organizationId));
