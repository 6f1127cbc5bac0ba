/**
 * Hidden comments (the specification's `is_hidden`): a hidden comment stays visible to the author of the post
 * it is on, to the page's admins and moderators (the policy's MODERATE), to its own author and to the people
 * tagged in it, and to nobody else: not read by id, not in any edge, not in any count.
 */
export interface VisibilityFacts {
  hidden: boolean;
  authorUserId: string | null;
  postAuthorUserId: string | null;
  taggedUserIds: readonly string[];
}

/** The people (user ids) who still see a hidden comment, beside its moderators. */
export function visibleTo(comment: VisibilityFacts): string[] {
  return [...new Set([comment.postAuthorUserId, comment.authorUserId, ...comment.taggedUserIds].filter((id): id is string => id !== null))];
}
