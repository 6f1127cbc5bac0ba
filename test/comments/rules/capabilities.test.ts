import { describe, expect, it } from 'vitest';
import { capabilitiesOf, type Capabilities, type CommentShape, type ViewerFacts } from '../../../src/comments/rules/capabilities.ts';

// The comment's can_* fields for the viewer: can_comment (may reply), can_remove, can_hide (page admins and
// moderators only: absent for everyone else), can_like, can_reply_privately (page views only).

const PERSONS_COMMENT: CommentShape = { isReply: false, byPerson: true };
const PERSONS_REPLY: CommentShape = { isReply: true, byPerson: true };
const PAGES_COMMENT: CommentShape = { isReply: false, byPerson: false };
const PAGES_REPLY: CommentShape = { isReply: true, byPerson: false };

const viewer = (facts: Partial<ViewerFacts>): ViewerFacts => ({
  mayComment: false,
  mayDelete: false,
  isPage: false,
  hideable: false,
  mayLike: false,
  ...facts,
});
const PERSON = viewer({ mayComment: true, mayLike: true });
const AUTHOR = viewer({ mayComment: true, mayLike: true, mayDelete: true });
const PAGE = viewer({ mayComment: true, mayLike: true, mayDelete: true, isPage: true, hideable: true });
const PAGE_NOT_HIDEABLE = viewer({ mayComment: true, mayLike: true, mayDelete: true, isPage: true, hideable: false });
const PAGE_ON_REVIEW = viewer({ mayComment: true, mayLike: true, mayDelete: false, isPage: true, hideable: false });
const READ_ONLY_CLIENT = viewer({});

describe('capabilitiesOf', () => {
  it.each<[string, CommentShape, ViewerFacts, Capabilities]>([
    [
      "a person on someone's top-level comment: may reply and like, no page fields",
      PERSONS_COMMENT,
      PERSON,
      { canComment: true, canRemove: false, canLike: true },
    ],
    ['a person on a reply: no reply to a reply (one level deep)', PERSONS_REPLY, PERSON, { canComment: false, canRemove: false, canLike: true }],
    ['the author on their own comment: may remove it', PERSONS_COMMENT, AUTHOR, { canComment: true, canRemove: true, canLike: true }],
    ['the author on their own reply', PERSONS_REPLY, AUTHOR, { canComment: false, canRemove: true, canLike: true }],
    ["a person on the page's comment", PAGES_COMMENT, PERSON, { canComment: true, canRemove: false, canLike: true }],
    [
      "a hideable person's comment, seen by the page: can hide and reply privately",
      PERSONS_COMMENT,
      PAGE,
      { canComment: true, canRemove: true, canHide: true, canLike: true, canReplyPrivately: true },
    ],
    [
      "a person's comment the page may not hide (rule 4)",
      PERSONS_COMMENT,
      PAGE_NOT_HIDEABLE,
      { canComment: true, canRemove: true, canHide: false, canLike: true, canReplyPrivately: true },
    ],
    [
      "a person's comment on a review, seen by the page: not removable, not hideable",
      PERSONS_COMMENT,
      PAGE_ON_REVIEW,
      { canComment: true, canRemove: false, canHide: false, canLike: true, canReplyPrivately: true },
    ],
    [
      "a person's reply, seen by the page: no private reply to a reply, no reply",
      PERSONS_REPLY,
      PAGE,
      { canComment: false, canRemove: true, canHide: true, canLike: true, canReplyPrivately: false },
    ],
    [
      "the page's own comment, seen by the page: no private reply to itself",
      PAGES_COMMENT,
      PAGE_NOT_HIDEABLE,
      { canComment: true, canRemove: true, canHide: false, canLike: true, canReplyPrivately: false },
    ],
    [
      "the page's own reply, seen by the page",
      PAGES_REPLY,
      PAGE_NOT_HIDEABLE,
      { canComment: false, canRemove: true, canHide: false, canLike: true, canReplyPrivately: false },
    ],
    ['a client that may only read: nothing, and no page fields', PERSONS_COMMENT, READ_ONLY_CLIENT, { canComment: false, canRemove: false, canLike: false }],
    // can_hide is the page's alone: hideable without being the page shows nothing.
    [
      'a viewer who is not the page, on a hideable comment',
      PERSONS_COMMENT,
      viewer({ mayComment: true, mayLike: true, hideable: true }),
      { canComment: true, canRemove: false, canLike: true },
    ],
  ])('%s', (_rule, comment, facts, expected) => {
    // toStrictEqual: can_hide and can_reply_privately must be absent (not false) for viewers who are not the page.
    expect(capabilitiesOf(comment, facts)).toStrictEqual(expected);
  });
});
