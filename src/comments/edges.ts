import { childEdge } from '../authz/edges.ts';
import type { PageRecord, PostRecord } from './store.ts';

/** Edges of pages: their posts (the feed), one object for GraphQL and /v24.0 alike. */
export const pageEdges = {
  posts: childEdge<PageRecord, PostRecord>('post', (l) => l.comments.postsOfPage),
};
