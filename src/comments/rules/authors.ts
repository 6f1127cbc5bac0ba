/**
 * Who wrote something on a page (a post on its feed, a comment, a reply), as a viewer may see it. The
 * specification: "For page comments, a page access token is needed to see user information"; the platform asks
 * the same of every object a page owns (its feed's posts too). So a page is always named, and a person only to
 * the page (a page token: its MODERATE task, or its API client) and to that person. Both surfaces ask this one
 * rule: GraphQL's `from` and `/v24.0`'s `?fields=from`.
 */
export interface Authorship {
  authorUserId: string | null;
  authorPageId: string | null;
}

export interface AuthorViewer {
  /** The viewer acts as the page the object is on (policy.ts actsAsPage). */
  isPage: boolean;
  /** The signed-in person, if the viewer is one. */
  userId: string | null;
}

export type VisibleAuthor = { kind: 'page'; pageId: string } | { kind: 'person'; userId: string };

export function visibleAuthor(written: Authorship, viewer: AuthorViewer): VisibleAuthor | null {
  if (written.authorPageId) return { kind: 'page', pageId: written.authorPageId };
  if (!written.authorUserId) return null;
  return viewer.isPage || viewer.userId === written.authorUserId ? { kind: 'person', userId: written.authorUserId } : null;
}
