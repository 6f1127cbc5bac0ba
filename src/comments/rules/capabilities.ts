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
    ...(viewer.isPage ? { canHide: viewer.hideable, canReplyPrivately: comment.byPerson && !comment.isReply } : {}),
    canLike: viewer.mayLike,
  };
}
