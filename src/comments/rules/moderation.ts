import type { Role } from '../../authz/policy.ts';

/**
 * What a page may do to a comment beyond the permission to (the specification's update rules 4 and 5, and
 * editing): pure decisions over the comment, its post and its author. Each answers the reason it is refused,
 * or null.
 */
export interface ModerationFacts {
  pageId: string;
  post: { kind: string; authorUserId: string | null; authorPageId: string | null };
  comment: { authorUserId: string | null; authorPageId: string | null };
  /** The comment author's role in the page's organization, when the author is a person with one. */
  authorRole: Role | null;
}

/** Rule 4: comments that cannot be hidden. */
export function hideRefusal(facts: ModerationFacts): string | null {
  const { post, comment } = facts;
  if (comment.authorPageId === facts.pageId) {
    return post.authorUserId !== null ? "The page's own comments cannot be hidden, also on a person's post" : "The page's own comments cannot be hidden";
  }
  if (facts.authorRole === 'owner' || facts.authorRole === 'admin') return "Comments by the page's admins cannot be hidden";
  if (post.kind === 'review') return 'Comments on a review cannot be hidden';
  if (post.kind === 'group_post') return 'Comments in a group cannot be hidden by the page';
  const postAuthor = post.authorUserId ?? post.authorPageId;
  if (post.kind === 'event' && postAuthor !== null && (comment.authorUserId ?? comment.authorPageId) === postAuthor) {
    return "The event creator's comments cannot be hidden";
  }
  if (post.authorUserId !== null && comment.authorUserId !== null && comment.authorUserId !== post.authorUserId) {
    return "A person's comment on another person's post cannot be hidden by the page";
  }
  return null;
}

export const isHideable = (facts: ModerationFacts) => hideRefusal(facts) === null;

/** Rule 5 (the policy enforces it too): a page cannot remove comments on reviews, which are not the page's posts. */
export const pageMayRemove = (postKind: string) => postKind !== 'review';

/**
 * Content edits: a person edits their own comment; the page (a moderator, or the page's API client) edits the
 * page's own comments, never a person's words.
 */
export function editRefusal(facts: { ownComment: boolean; byPage: boolean }): string | null {
  if (facts.ownComment || facts.byPage) return null;
  return "A page can only edit its own comments: a person's comment can be hidden or deleted, not rewritten";
}
