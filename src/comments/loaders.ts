import DataLoader from 'dataloader';
import type { Db } from '../db/index.ts';
import { byId, childrenOf, lazyLoaders } from '../db/lazy-loaders.ts';
import { loaderMaker } from '../db/batch.ts';
import { commentLikes, comments, pages, postReactions, posts, privateReplies, REACTION_TYPES, type ReactionType } from './store.ts';

/** Per-request loaders of pages, posts and comments. Raw reads: the service decides what the caller may see. */
export const createCommentLoaders = lazyLoaders({
  pageById: byId(pages),
  postById: byId(posts),
  commentById: byId(comments),
  pagesOfOrganization: childrenOf(pages, 'organization_id'),
  postsOfPage: childrenOf(posts, 'page_id'),
  commentsOfPost: childrenOf(comments, 'post_id'),
  repliesOfComment: childrenOf(comments, 'parent_id'),
  likesOfComment: childrenOf(commentLikes, 'comment_id'),
  reactionsOfPost: childrenOf(postReactions, 'post_id'),
  /** Each post's reactions counted by type (those it has), in REACTION_TYPES order. */
  postReactionCountsOf: (db: Db) =>
    loaderMaker()<string, Array<{ type: ReactionType; count: number }>>('post_reactions.counts_by_post', (postIds) =>
      countsByType(db, postReactions.table, 'post_id', postIds),
    ),
  /** The page's private reply to each comment, if it sent one. */
  privateReplyOfComment: byId(privateReplies, 'comment_id'),
  /** Each comment's reactions counted by type (those it has), in REACTION_TYPES order: one statement per batch. */
  reactionCountsOf: (db: Db) =>
    loaderMaker()<string, Array<{ type: ReactionType; count: number }>>('comment_likes.counts_by_comment', (commentIds) =>
      countsByType(db, commentLikes.table, 'comment_id', commentIds),
    ),
  likedBy: (db: Db) => likedByLoaders(db),
});

/** Whether one liker (a user, or a page) likes (reacts LIKE to) each comment asked about: one statement per liker and batch. */
function likedByLoaders(db: Db): (liker: { userId: string } | { pageId: string }) => DataLoader<string, boolean> {
  const likedBy = new Map<string, DataLoader<string, boolean>>();
  const makeLoader = loaderMaker();
  return (liker) => {
    const [column, value] = 'userId' in liker ? ['user_id', liker.userId] : ['page_id', liker.pageId];
    const key = `${column}:${value}`;
    let loader = likedBy.get(key);
    if (!loader) {
      loader = makeLoader<string, boolean>(`comment_likes.liked_by_${column}`, async (commentIds) => {
        const rows = (await db(commentLikes.table)
          .whereIn('comment_id', commentIds as string[])
          .where(column, value)
          .where('type', 'LIKE')
          .select('comment_id')) as Array<{ comment_id: unknown }>;
        const liked = new Set(rows.map((row) => String(row.comment_id)));
        return commentIds.map((id) => liked.has(id));
      });
      likedBy.set(key, loader);
    }
    return loader;
  };
}

export type CommentLoaders = ReturnType<typeof createCommentLoaders>;

/** Reactions counted by type for each parent (a comment, a post): one statement for the batch. */
async function countsByType(
  db: Db,
  table: string,
  parentColumn: string,
  parentIds: readonly string[],
): Promise<Array<Array<{ type: ReactionType; count: number }>>> {
  const rows = (await db(table)
    .whereIn(parentColumn, parentIds as string[])
    .select(parentColumn, 'type')
    .count({ n: '*' })
    .groupBy(parentColumn, 'type')) as Array<Record<string, unknown>>;
  return parentIds.map((id) =>
    REACTION_TYPES.flatMap((type) => {
      const row = rows.find((r) => String(r[parentColumn]) === id && r.type === type);
      return row ? [{ type, count: Number(row.n) }] : [];
    }),
  );
}
