import type { Knex } from 'knex';
import { timeNow, type RequestContext } from '../../context/index.ts';
import { emitEvents } from '../../events/outbox.ts';
import { commentEvent, reactionEvent, type FeedVerb } from '../events.ts';
import { can } from '../../authz/policy.ts';
import { requireSignedIn } from '../../authz/guards.ts';
import { isNumericId, isUuid } from '../../db/ids.ts';
import { lockRow } from '../../db/locks.ts';
import { forbidden, notFound } from '../../errors/index.ts';
import { boolean, given, graphId, httpUrl, optionalParam, paramError, text, type Params } from '../../graph-api/params.ts';
import { commentContent, MAX_COMMENT_MESSAGE, type ContentInput } from '../rules/content.ts';
import { codePoints } from '../../text/code-points.ts';
import { mentionedIds, renderMentions, type MentionTarget } from '../rules/mentions.ts';
import { editRefusal, hideRefusal } from '../rules/moderation.ts';
import { actorOn, findCommentObject, findPost, isAuthor, moderationFacts, refuseDiscontinuedId, viewsAsPage, type CommentObject } from '../service.ts';
import {
  commentExternalId,
  commentLikes,
  comments,
  insertComments,
  groups,
  insertLikes,
  pages,
  replaceMentions,
  type CommentRecord,
  type MessageTag,
  type PostRecord,
  type ReactionType,
} from '../store.ts';
import { displayName, users } from '../../identity/store.ts';

/**
 * Comment writes (DECISIONS section 6): publish (POST /<object>/comments), edit and hide (POST /<comment>),
 * delete, like and unlike. Who may is the policy's (src/authz/policy.ts); what may be done to which comment is the
 * pure rules' (../rules); each write is one transaction.
 */

/** A comment named by its id: malformed ids of the old three-part form are error 100, others name nothing. */
export async function commentNamed(ctx: RequestContext, id: string): Promise<CommentObject> {
  requireSignedIn(ctx);
  refuseDiscontinuedId(String(id));
  const found = await findCommentObject(ctx, String(id));
  if (!found) throw notFound('Comment', String(id));
  return found;
}

const CONTENT_PARAMS = ['message', 'attachment_url', 'attachment_id', 'attachment_share_url', 'source'] as const;

function readContent(params: Params): ContentInput {
  return {
    message: optionalParam(params, 'message', text({ max: MAX_COMMENT_MESSAGE })),
    attachmentUrl: optionalParam(params, 'attachment_url', httpUrl),
    attachmentId: optionalParam(params, 'attachment_id', graphId),
    attachmentShareUrl: optionalParam(params, 'attachment_share_url', httpUrl),
    source: optionalParam(params, 'source', text({ max: 2048, nonEmpty: true })),
  };
}

/** What the mentioned ids name: people (UUIDs), pages and groups (numeric ids); anything else is error 100 naming message. */
async function mentionTargets(ctx: RequestContext, ids: string[]): Promise<Map<string, MentionTarget>> {
  const userIds = ids.filter(isUuid);
  const numericIds = ids.filter(isNumericId);
  const rowsOf = async (table: string, wanted: string[]): Promise<Array<Record<string, unknown>>> =>
    wanted.length > 0 ? ctx.db(table).whereIn('id', wanted) : [];
  const [userRows, pageRows, groupRows] = await Promise.all([rowsOf(users.table, userIds), rowsOf(pages.table, numericIds), rowsOf(groups.table, numericIds)]);
  const targets = new Map<string, MentionTarget>();
  for (const user of userRows.map(users.fromRow)) targets.set(user.id, { id: user.id, name: displayName(user), type: 'user' });
  for (const page of pageRows.map(pages.fromRow)) targets.set(page.id, { id: page.id, name: page.name, type: 'page' });
  for (const group of groupRows.map(groups.fromRow)) targets.set(group.id, { id: group.id, name: group.name, type: 'group' });
  return targets;
}

/** The content to store: the rules of rules/content.ts, and mentions turned into names and tags. */
async function storedContent(ctx: RequestContext, input: ContentInput): Promise<{ message: string | null; attachment: unknown; messageTags: MessageTag[] }> {
  const content = commentContent(input);
  if (!content.ok) throw paramError(content.field, content.reason);
  if (content.message === null) return { message: null, attachment: content.attachment, messageTags: [] };
  const mentioned = mentionedIds(content.message);
  if (!mentioned.ok) throw paramError('message', `Param message has a malformed mention: ${mentioned.reason}`);
  const rendered = renderMentions(content.message, await mentionTargets(ctx, mentioned.ids));
  if ('missing' in rendered) throw paramError('message', `Param message mentions ${rendered.missing}, which names no user, page or group`);
  if (codePoints(rendered.message) > MAX_COMMENT_MESSAGE) {
    throw paramError('message', `Param message must be at most ${MAX_COMMENT_MESSAGE} characters with its mentions written as names`);
  }
  return { message: rendered.message, attachment: content.attachment, messageTags: rendered.tags };
}

function primed(ctx: RequestContext, comment: CommentRecord): CommentRecord {
  ctx.loaders.comments.commentById.clear(comment.id).prime(comment.id, comment);
  return comment;
}

/**
 * POST /<post>/comments, or /<comment>/comments for a reply (one level deep: a reply takes no replies). A person
 * comments as themselves; the page's API client (a page token) comments as the page.
 */
export async function publishComment(ctx: RequestContext, objectId: string, params: Params): Promise<CommentRecord> {
  requireSignedIn(ctx);
  params ??= {};
  let post: PostRecord;
  let parentId: string | null = null;
  if (String(objectId).includes('_')) {
    const parent = await commentNamed(ctx, objectId);
    if (parent.comment.parentId !== null) {
      throw paramError(
        'id',
        `Comment ${objectId} is a reply, and replies take no replies: reply to ${commentExternalId({ postId: parent.comment.postId, id: parent.comment.parentId })}`,
      );
    }
    ({ post } = parent);
    parentId = parent.comment.id;
  } else {
    const found = await findPost(ctx, String(objectId));
    if (!found) throw notFound('Object', String(objectId));
    post = found;
  }
  // A person writes as themselves, the page's API client as the page.
  const author = actorOn(ctx, post);
  if (!author || !can(ctx.viewer, 'create', { type: 'comment', organizationId: post.organizationId })) {
    throw forbidden(`Permissions error: commenting as the page needs the pages_manage_engagement permission`);
  }
  const content = await storedContent(ctx, readContent(params));
  const [comment] = await ctx.db.transaction(async (trx) => {
    const inserted = await insertComments(trx, [
      {
        organizationId: post.organizationId,
        postId: post.id,
        parentId,
        authorUserId: 'userId' in author ? author.userId : null,
        authorPageId: 'pageId' in author ? author.pageId : null,
        message: content.message,
        attachment: content.attachment,
        messageTags: content.messageTags,
        isHidden: false,
        likeCount: 0,
      },
    ]);
    await emitEvents(ctx, trx, [await commentEvent(trx, inserted[0]!, post, 'add', timeNow(ctx))]);
    return inserted;
  });
  return primed(ctx, comment!);
}

/** Rereads a comment under the transaction's lock (a concurrent delete makes it gone). */
export async function locked(ctx: RequestContext, trx: Knex.Transaction, comment: CommentRecord): Promise<CommentRecord> {
  const row = await lockRow(ctx.db, trx, comments.table, comment.id);
  if (!row) throw notFound('Comment', commentExternalId(comment));
  return comments.fromRow(row);
}

/**
 * POST /<comment>: edit the content (the update rules 1 to 3: a message or an attachment; share URL alone; an id
 * may come with a URL; what is not sent again is removed) and/or `is_hidden` (rule 4, the page only).
 */
export async function editComment(ctx: RequestContext, commentId: string, params: Params): Promise<CommentRecord> {
  const found = await commentNamed(ctx, commentId);
  params ??= {};
  const hidden = optionalParam(params, 'is_hidden', boolean);
  const contentSent = CONTENT_PARAMS.some((name) => given(params, name));
  const { comment, post } = found;
  if (!can(ctx.viewer, 'update', found.subject)) throw forbidden(`Permissions error: you may not change comment ${commentId}`);
  let content: Awaited<ReturnType<typeof storedContent>> | undefined;
  if (contentSent || hidden === undefined) {
    const refusal = editRefusal({
      ownComment: isAuthor(ctx, comment),
      byPage: comment.authorPageId === post.pageId && viewsAsPage(ctx, comment.organizationId),
    });
    if (refusal) throw forbidden(`Permissions error: ${refusal}`);
    content = await storedContent(ctx, readContent(params));
  }
  if (hidden !== undefined) {
    if (!viewsAsPage(ctx, comment.organizationId)) throw forbidden("Permissions error: only the page's admins and moderators can hide or unhide comments");
    // Rule 4 limits hiding; unhiding (or resending is_hidden=false with an edit) is always the page's to do.
    const refusal = hidden ? hideRefusal(await moderationFacts(ctx, comment, post)) : null;
    if (refusal) throw paramError('is_hidden', `Param is_hidden cannot be true: ${refusal}`);
  }
  const updated = await ctx.db.transaction(async (trx) => {
    const current = await locked(ctx, trx, comment);
    const patch: Partial<CommentRecord> = { updatedTime: new Date() };
    if (content) Object.assign(patch, content);
    if (hidden !== undefined) patch.isHidden = hidden;
    await trx(comments.table).where({ id: current.id }).update(comments.toRow(patch));
    const after = comments.fromRow(await trx(comments.table).where({ id: current.id }).first());
    if (content) await replaceMentions(trx, after);
    const verbs: FeedVerb[] = [];
    if (content) verbs.push('edited');
    if (hidden !== undefined && hidden !== current.isHidden) verbs.push(hidden ? 'hide' : 'unhide');
    const now = timeNow(ctx);
    // One after another: the transaction's one connection runs one statement at a time.
    const events = [];
    for (const verb of verbs) events.push(await commentEvent(trx, after, post, verb, now));
    await emitEvents(ctx, trx, events);
    return after;
  });
  return primed(ctx, updated);
}

/** DELETE /<comment>: the comment, its replies and their likes, in one transaction. */
export async function deleteComment(ctx: RequestContext, commentId: string): Promise<void> {
  const found = await commentNamed(ctx, commentId);
  if (!can(ctx.viewer, 'delete', found.subject)) {
    const review = found.post.kind === 'review' && viewsAsPage(ctx, found.comment.organizationId);
    throw forbidden(
      review
        ? "Permissions error: comments on a review cannot be removed by the page, as reviews are not the page's posts"
        : `Permissions error: you may not delete comment ${commentId}`,
    );
  }
  await ctx.db.transaction(async (trx) => {
    const current = await locked(ctx, trx, found.comment);
    const replies = (await trx(comments.table).where({ parent_id: current.id })).map(comments.fromRow);
    // Told before they go (their authors' names are read with them): the comment, then each reply.
    const now = timeNow(ctx);
    const removed = [];
    for (const gone of [current, ...replies]) removed.push(await commentEvent(trx, gone, found.post, 'remove', now));
    await emitEvents(ctx, trx, removed);
    // Removing the ids removes the rows that hang on them (comments, likes, mentions: ON DELETE CASCADE).
    await trx('graph_objects')
      .whereIn('id', [current.id, ...replies.map((reply) => reply.id)])
      .delete();
  });
  ctx.loaders.comments.commentById.clear(found.comment.id);
}

/** POST /<comment>/likes (like) and DELETE /<comment>/likes (unlike): idempotent, like_count kept with the likes. */
export async function setCommentLiked(ctx: RequestContext, commentId: string, liked: boolean): Promise<CommentRecord> {
  // Liking is reacting LIKE (a like replaces another reaction); unliking takes back a like, not another reaction.
  return setCommentReaction(ctx, commentId, liked ? 'LIKE' : null, liked ? undefined : 'LIKE', 'liking');
}

/**
 * POST /<comment>/reactions with `type` (GraphQL react): the caller's one reaction to a comment, replacing the one
 * it had; null takes it back (only when it is `onlyIf`, when given). like_count follows the LIKE reactions, in the
 * same transaction, under the comment's lock.
 */
export async function setCommentReaction(
  ctx: RequestContext,
  commentId: string,
  type: ReactionType | null,
  onlyIf?: ReactionType,
  verb = 'reacting',
): Promise<CommentRecord> {
  const found = await commentNamed(ctx, commentId);
  const liker = actorOn(ctx, found.post);
  if (!liker) throw forbidden(`Permissions error: ${verb} as the page needs the pages_manage_engagement permission`);
  const updated = await ctx.db.transaction(async (trx) => {
    const current = await locked(ctx, trx, found.comment);
    const mine = trx(commentLikes.table).where({ comment_id: current.id, ...('userId' in liker ? { user_id: liker.userId } : { page_id: liker.pageId }) });
    const existingRow = (await mine.clone().first()) as Record<string, unknown> | undefined;
    const existing = existingRow ? commentLikes.fromRow(existingRow).type : null;
    const next = type === null && onlyIf !== undefined && existing !== onlyIf ? existing : type;
    if (next !== existing) {
      if (existing !== null) await mine.clone().delete();
      if (next !== null) await insertLikes(trx, [{ commentId: current.id, ...liker, type: next }]);
      if (existing === 'LIKE') await trx(comments.table).where({ id: current.id }).decrement('like_count', 1);
    }
    const after = comments.fromRow(await trx(comments.table).where({ id: current.id }).first());
    const event = await reactionEvent(trx, { post: found.post, comment: after }, liker, { before: existing, after: next }, timeNow(ctx));
    if (event) await emitEvents(ctx, trx, [event]);
    return after;
  });
  ctx.loaders.comments.likedBy(liker).clear(updated.id);
  return primed(ctx, updated);
}
