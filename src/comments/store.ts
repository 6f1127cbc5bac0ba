import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { defineTable } from '../db/rows.ts';
import { insertObjects, OWNED_COLUMNS, type Owned } from '../db/objects.ts';

export const POST_KINDS = ['page_post', 'visitor_post', 'photo', 'video', 'event', 'group_post', 'review'] as const;
export type PostKind = (typeof POST_KINDS)[number];

export interface PageRecord extends Owned {
  name: string;
  category: string | null;
}

/** A group: only a name that mentions resolve to (see the groups migration). */
export interface GroupRecord extends Owned {
  name: string;
}

export interface PostRecord extends Owned {
  pageId: string;
  kind: PostKind;
  authorUserId: string | null;
  authorPageId: string | null;
  message: string | null;
  attachment: unknown;
  title: string | null;
  rating: number | null;
  eventStartTime: Date | null;
  /** Who may see the post (Graph API `targeting`: `locales`); an ad set promoting it must stay within. */
  targeting: unknown;
}

export interface MessageTag {
  id: string;
  name: string;
  type: 'user' | 'page' | 'group';
  offset: number;
  length: number;
}

export interface CommentRecord extends Owned {
  postId: string;
  parentId: string | null;
  authorUserId: string | null;
  authorPageId: string | null;
  message: string | null;
  attachment: unknown;
  messageTags: MessageTag[];
  isHidden: boolean;
  /** Kept with the likes, in their transactions. (A count of replies depends on who asks, so it is counted when read.) */
  likeCount: number;
}

export const pages = defineTable<PageRecord>('pages', { ...OWNED_COLUMNS, name: 'string', category: 'string' });
export const groups = defineTable<GroupRecord>('groups', { ...OWNED_COLUMNS, name: 'string' });

export const posts = defineTable<PostRecord>('posts', {
  ...OWNED_COLUMNS,
  page_id: 'id',
  kind: 'string',
  author_user_id: 'string',
  author_page_id: 'id',
  message: 'string',
  attachment: 'json',
  title: 'string',
  rating: 'int',
  event_start_time: 'date',
  targeting: 'json',
});

export const comments = defineTable<CommentRecord>('comments', {
  ...OWNED_COLUMNS,
  post_id: 'id',
  parent_id: 'id',
  author_user_id: 'string',
  author_page_id: 'id',
  message: 'string',
  attachment: 'json',
  message_tags: 'json',
  is_hidden: 'bool',
  like_count: 'int',
});

export type NewComment = Omit<CommentRecord, 'id' | 'createdTime' | 'updatedTime'> & Partial<Pick<CommentRecord, 'createdTime' | 'updatedTime'>>;

/** The reactions a person or a page may give a comment; a like is LIKE. */
export const REACTION_TYPES = ['LIKE', 'LOVE', 'WOW', 'HAHA', 'SAD', 'ANGRY', 'CARE'] as const;
export type ReactionType = (typeof REACTION_TYPES)[number];

/** A reaction to a comment (a like is the LIKE one): one per person or page and comment. */
export interface CommentLikeRecord {
  id: string;
  commentId: string;
  userId: string | null;
  pageId: string | null;
  type: ReactionType;
  createdTime: Date;
}

export const commentLikes = defineTable<CommentLikeRecord>('comment_likes', {
  id: 'string',
  comment_id: 'id',
  user_id: 'string',
  page_id: 'id',
  type: 'string',
  created_time: 'date',
});

const mentionRows = (comment: Pick<CommentRecord, 'id' | 'messageTags'>) => {
  const seen = new Set<string>();
  return comment.messageTags
    .filter((tag) => !seen.has(tag.id) && seen.add(tag.id))
    .map((tag) => ({ comment_id: comment.id, object_id: tag.id, type: tag.type }));
};

/**
 * Inserts comments with the mentions of their tags, in the caller's transaction. Every insert of comments
 * goes through here, so a hidden comment's tagged people always see it.
 */
export async function insertComments(trx: Knex, inputs: NewComment[]): Promise<CommentRecord[]> {
  const records = await insertObjects<CommentRecord>(trx, 'comment', comments, inputs);
  const rows = records.flatMap(mentionRows);
  for (let i = 0; i < rows.length; i += 500) await trx('comment_mentions').insert(rows.slice(i, i + 500));
  return records;
}

/** After an edit that changes the message: the mentions follow its tags. */
export async function replaceMentions(trx: Knex, comment: Pick<CommentRecord, 'id' | 'messageTags'>): Promise<void> {
  await trx('comment_mentions').where({ comment_id: comment.id }).delete();
  const rows = mentionRows(comment);
  if (rows.length > 0) await trx('comment_mentions').insert(rows);
}

/**
 * Reactions (LIKE unless said otherwise) written with the comments' like_count, which counts the LIKE ones, in the
 * caller's transaction (the seed's; a reaction write's).
 */
export async function insertLikes(
  trx: Knex,
  likes: Array<{ commentId: string; userId?: string; pageId?: string; type?: ReactionType }>,
  now = new Date(),
): Promise<void> {
  if (likes.length === 0) return;
  await trx(commentLikes.table).insert(
    likes.map((like) =>
      commentLikes.toRow({
        id: randomUUID(),
        commentId: like.commentId,
        userId: like.userId ?? null,
        pageId: like.pageId ?? null,
        type: like.type ?? 'LIKE',
        createdTime: now,
      }),
    ),
  );
  const perComment = new Map<string, number>();
  for (const like of likes) if ((like.type ?? 'LIKE') === 'LIKE') perComment.set(like.commentId, (perComment.get(like.commentId) ?? 0) + 1);
  for (const [commentId, added] of perComment) await trx(comments.table).where({ id: commentId }).increment('like_count', added);
}

/** Comments are addressed as `<post id>_<comment id>`, as the Graph API does since it dropped the page prefix. */
export const commentExternalId = (comment: Pick<CommentRecord, 'postId' | 'id'>) => `${comment.postId}_${comment.id}`;

export type ParsedCommentId = { ok: true; postId: string; commentId: string } | { ok: false; reason: 'format' | 'discontinued' };

export function parseCommentId(value: string): ParsedCommentId {
  const parts = value.split('_');
  if (parts.length === 3 && parts.every((p) => /^[1-9][0-9]{0,18}$/.test(p))) return { ok: false, reason: 'discontinued' };
  if (parts.length !== 2 || !parts.every((p) => /^[1-9][0-9]{0,18}$/.test(p))) return { ok: false, reason: 'format' };
  return { ok: true, postId: parts[0]!, commentId: parts[1]! };
}

/** A page's private reply to the author of a person's comment on it (one per comment). */
export interface PrivateReplyRecord {
  id: string;
  organizationId: string;
  commentId: string;
  pageId: string;
  recipientUserId: string;
  sentByUserId: string | null;
  message: string;
  createdTime: Date;
}

export const privateReplies = defineTable<PrivateReplyRecord>('private_replies', {
  id: 'string',
  organization_id: 'string',
  comment_id: 'id',
  page_id: 'id',
  recipient_user_id: 'string',
  sent_by_user_id: 'string',
  message: 'string',
  created_time: 'date',
});

/** A reaction to a post: one per person or page and post (posts have no likes of their own: a like is LIKE). */
export interface PostReactionRecord {
  id: string;
  postId: string;
  userId: string | null;
  pageId: string | null;
  type: ReactionType;
  createdTime: Date;
}

export const postReactions = defineTable<PostReactionRecord>('post_reactions', {
  id: 'string',
  post_id: 'id',
  user_id: 'string',
  page_id: 'id',
  type: 'string',
  created_time: 'date',
});
