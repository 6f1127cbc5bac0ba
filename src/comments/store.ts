import { defineTable } from '../db/rows.ts';
import { OWNED_COLUMNS, type Owned } from '../db/objects.ts';

export const POST_KINDS = ['page_post', 'visitor_post', 'photo', 'video', 'event', 'group_post', 'review'] as const;
export type PostKind = (typeof POST_KINDS)[number];

export interface PageRecord extends Owned {
  name: string;
  category: string | null;
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
  commentCount: number;
  likeCount: number;
}

export const pages = defineTable<PageRecord>('pages', { ...OWNED_COLUMNS, name: 'string', category: 'string' });

export const posts = defineTable<PostRecord>('posts', {
  ...OWNED_COLUMNS, page_id: 'id', kind: 'string', author_user_id: 'string', author_page_id: 'id', message: 'string',
  attachment: 'json', title: 'string', rating: 'int', event_start_time: 'date', targeting: 'json',
});

export const comments = defineTable<CommentRecord>('comments', {
  ...OWNED_COLUMNS, post_id: 'id', parent_id: 'id', author_user_id: 'string', author_page_id: 'id', message: 'string',
  attachment: 'json', message_tags: 'json', is_hidden: 'bool', comment_count: 'int', like_count: 'int',
});

/** Comments are addressed as `<post id>_<comment id>`, as the Graph API does since it dropped the page prefix. */
export const commentExternalId = (comment: Pick<CommentRecord, 'postId' | 'id'>) => `${comment.postId}_${comment.id}`;

export type ParsedCommentId = { ok: true; postId: string; commentId: string } | { ok: false; reason: 'format' | 'discontinued' };

export function parseCommentId(value: string): ParsedCommentId {
  const parts = value.split('_');
  if (parts.length === 3 && parts.every((p) => /^[1-9][0-9]{0,18}$/.test(p))) return { ok: false, reason: 'discontinued' };
  if (parts.length !== 2 || !parts.every((p) => /^[1-9][0-9]{0,18}$/.test(p))) return { ok: false, reason: 'format' };
  return { ok: true, postId: parts[0]!, commentId: parts[1]! };
}
