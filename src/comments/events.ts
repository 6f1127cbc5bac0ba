import type { Knex } from 'knex';
import type { Subject } from '../authz/policy.ts';
import { displayName, users } from '../identity/store.ts';
import type { NewEvent } from '../events/types.ts';
import { commentSubject } from './service.ts';
import { commentExternalId, pages, type CommentRecord, type PostRecord, type ReactionType } from './store.ts';

/**
 * The page `feed` changes (the platform's webhook values), emitted by the comment and post writes in their
 * transactions: `item` (comment, reaction, post), `verb` (add, edited, hide, unhide, remove), the ids, `from`, the
 * message and the time in Unix seconds.
 */
export type FeedVerb = 'add' | 'edited' | 'hide' | 'unhide' | 'remove';

type Author = { userId: string | null; pageId: string | null };

const unixSeconds = (date: Date) => Math.floor(date.getTime() / 1000);

/** `from` as the platform writes it, read in the write's transaction (never through loaders: SQLite has one connection). */
async function profileOf(trx: Knex.Transaction, author: Author): Promise<{ id: string; name: string } | undefined> {
  if (author.pageId) {
    const page = (await trx(pages.table).where({ id: author.pageId }).first('name')) as { name: string } | undefined;
    return page ? { id: author.pageId, name: page.name } : undefined;
  }
  if (!author.userId) return undefined;
  const user = (await trx(users.table).where({ id: author.userId }).first('name', 'username')) as { name: string; username: string } | undefined;
  return user ? { id: author.userId, name: displayName(user) } : undefined;
}

function feedEvent(post: PostRecord, objectId: string, verb: string, value: Record<string, unknown>, subject: Subject): NewEvent {
  return { organizationId: post.organizationId, topic: 'feed', entryId: post.pageId, objectId, verb, value, subject };
}

/** A comment added, edited, hidden, unhidden or removed; heard by whoever may read the comment as it is (or was). */
export async function commentEvent(trx: Knex.Transaction, comment: CommentRecord, post: PostRecord, verb: FeedVerb, at: Date): Promise<NewEvent> {
  const id = commentExternalId(comment);
  const from = await profileOf(trx, { userId: comment.authorUserId, pageId: comment.authorPageId });
  const value: Record<string, unknown> = {
    item: 'comment',
    verb,
    comment_id: id,
    post_id: post.id,
    parent_id: comment.parentId ? commentExternalId({ postId: comment.postId, id: comment.parentId }) : post.id,
    created_time: unixSeconds(verb === 'add' ? comment.createdTime : at),
    ...(from ? { from } : {}),
    ...(verb === 'remove' || comment.message === null ? {} : { message: comment.message }),
  };
  return feedEvent(post, id, verb, value, commentSubject(comment, post));
}

/** A reaction added, changed or taken back, on a post or on a comment; heard by whoever may read what it is on. */
export async function reactionEvent(
  trx: Knex.Transaction,
  on: { post: PostRecord; comment?: CommentRecord },
  reactor: { userId: string } | { pageId: string },
  change: { before: ReactionType | null; after: ReactionType | null },
  at: Date,
): Promise<NewEvent | null> {
  if (change.before === change.after) return null;
  const verb = change.after === null ? 'remove' : change.before === null ? 'add' : 'edit';
  const from = await profileOf(trx, { userId: 'userId' in reactor ? reactor.userId : null, pageId: 'pageId' in reactor ? reactor.pageId : null });
  const { post, comment } = on;
  const commentId = comment ? commentExternalId(comment) : undefined;
  const value: Record<string, unknown> = {
    item: 'reaction',
    verb,
    reaction_type: (change.after ?? change.before)!.toLowerCase(),
    post_id: post.id,
    ...(commentId ? { comment_id: commentId } : {}),
    parent_id: commentId ?? post.id,
    created_time: unixSeconds(at),
    ...(from ? { from } : {}),
  };
  const subject: Subject = comment ? commentSubject(comment, post) : { type: 'post', organizationId: post.organizationId };
  return feedEvent(post, commentId ?? post.id, verb, value, subject);
}

/** A post published on the page (a visitor's, a review, the page's own). */
export async function postEvent(trx: Knex.Transaction, post: PostRecord): Promise<NewEvent> {
  const from = await profileOf(trx, { userId: post.authorUserId, pageId: post.authorPageId });
  const value: Record<string, unknown> = {
    item: post.kind === 'photo' || post.kind === 'video' ? post.kind : 'post',
    verb: 'add',
    post_id: post.id,
    created_time: unixSeconds(post.createdTime),
    ...(from ? { from } : {}),
    ...(post.message === null ? {} : { message: post.message }),
  };
  return feedEvent(post, post.id, 'add', value, { type: 'post', organizationId: post.organizationId });
}
