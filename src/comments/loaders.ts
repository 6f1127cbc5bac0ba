import type { Db } from '../db/index.ts';
import { loaderById, pagedChildren } from '../db/batch.ts';
import { comments, pages, posts } from './store.ts';

/** Per-request loaders of pages, posts and comments. Raw reads: the service decides what the caller may see. */
export function createCommentLoaders(db: Db) {
  return {
    pageById: loaderById(db, pages),
    postById: loaderById(db, posts),
    commentById: loaderById(db, comments),
    pagesOfOrganization: pagedChildren(db, pages, 'organization_id'),
    postsOfPage: pagedChildren(db, posts, 'page_id'),
    commentsOfPost: pagedChildren(db, comments, 'post_id'),
    repliesOfComment: pagedChildren(db, comments, 'parent_id'),
  };
}

export type CommentLoaders = ReturnType<typeof createCommentLoaders>;
