/**
 * What the viewer may do with a comment, as the comment's `can_*` fields say it (each computed for the viewer):
 * the answers of the policy and of the moderation rules, put together. Pure.
 */
export interface ViewerFacts {
  /** May create comments here (any signed-in person; a page token with pages_manage_engagement). */
  mayComment: boolean;
  /** May delete this comment (the policy). */
  mayDelete: boolean;
  /** Holds the page's MODERATE task: the page views of the fields (can_hide, can_reply_privately). */
  isPage: boolean;
  /** The comment may be hidden (rule 4). */
  hideable: boolean;
  /** A signed-in person, or the page: who can like. */
  mayLike: boolean;
}

export interface CommentShape {
  /** A reply (replies are one level deep: they take no replies). */
  isReply: boolean;
  byPerson: boolean;
  /** The page already replied privately to it (once per comment). */
  repliedPrivately?: boolean;
  /** Written within the last PRIVATE_REPLY_DAYS days. */
  recent?: boolean;
}

/** A private reply goes out within this many days of the comment (the platform's window). */
export const PRIVATE_REPLY_DAYS = 7;

/** Why the page may not reply privately to a comment, or null when it may (rules of private_replies). */
export function privateReplyRefusal(comment: CommentShape): string | null {
  if (!comment.byPerson) return "a private reply goes to a person: this comment is the page's own";
  if (comment.isReply) return 'a private reply answers a top-level comment, not a reply';
  if (comment.repliedPrivately) return 'the page already replied privately to this comment (once per comment)';
  if (comment.recent === false) return `a private reply must be sent within ${PRIVATE_REPLY_DAYS} days of the comment`;
  return null;
}

export interface Capabilities {
  canComment: boolean;
  canRemove: boolean;
  /** Only for the page (admins, moderators); undefined for everyone else, so the field is left out. */
  canHide?: boolean;
  canLike: boolean;
  /** Page views only: a person's top-level comment may get a private reply. */
  canReplyPrivately?: boolean;
}

export function capabilitiesOf(comment: CommentShape, viewer: ViewerFacts): Capabilities {
  return {
    canComment: viewer.mayComment && !comment.isReply,
    canRemove: viewer.mayDelete,
    ...(viewer.isPage ? { canHide: viewer.hideable, canReplyPrivately: privateReplyRefusal(comment) === null } : {}),
    canLike: viewer.mayLike,
  };
}
