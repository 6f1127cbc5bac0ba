import DataLoader from 'dataloader';
import type { Db } from '../db/index.ts';
import { loaderById, loaderMaker, pagedChildren } from '../db/batch.ts';
import { commentLikes, comments, pages, posts } from './store.ts';

/** Per-request loaders of pages, posts and comments. Raw reads: the service decides what the caller may see. */
export function createCommentLoaders(db: Db) {
  const likedBy = new Map<string, DataLoader<string, boolean>>();
  const makeLoader = loaderMaker();
  return {
    pageById: loaderById(db, pages),
    postById: loaderById(db, posts),
    commentById: loaderById(db, comments),
    pagesOfOrganization: pagedChildren(db, pages, 'organization_id'),
    postsOfPage: pagedChildren(db, posts, 'page_id'),
    commentsOfPost: pagedChildren(db, comments, 'post_id'),
    repliesOfComment: pagedChildren(db, comments, 'parent_id'),
    likesOfComment: pagedChildren(db, commentLikes, 'comment_id'),
    /** Whether one liker (a user, or a page) likes each comment asked about: one statement per liker and batch. */
    likedBy(liker: { userId: string } | { pageId: string }): DataLoader<string, boolean> {
      const [column, value] = 'userId' in liker ? ['user_id', liker.userId] : ['page_id', liker.pageId];
      const key = `${column}:${value}`;
      let loader = likedBy.get(key);
      if (!loader) {
        loader = makeLoader<string, boolean>(`comment_likes.liked_by_${column}`, async (commentIds) => {
          const rows = (await db(commentLikes.table)
            .whereIn('comment_id', commentIds as string[])
            .where(column, value)
            .select('comment_id')) as Array<{ comment_id: unknown }>;
          const liked = new Set(rows.map((row) => String(row.comment_id)));
          return commentIds.map((id) => liked.has(id));
        });
        likedBy.set(key, loader);
      }
      return loader;
    },
  };
}

export type CommentLoaders = ReturnType<typeof createCommentLoaders>;
