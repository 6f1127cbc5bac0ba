import { describe, expect, it } from 'vitest';
import { editRefusal, hideRefusal, isHideable, pageMayRemove, type ModerationFacts } from '../../../src/comments/rules/moderation.ts';
import { POST_KINDS, type PostKind } from '../../../src/comments/store.ts';
import type { Role } from '../../../src/authz/policy.ts';

// The specification's update rule 4 (comments that cannot be hidden), rule 5 (comments on reviews cannot be
// removed by a page) and the decision on edits (a page edits only its own comments).

const PAGE = '100';
const OTHER_PAGE = '200';
const POSTER = 'aaaaaaaa-0000-4000-8000-000000000001'; // the person who wrote the post (visitor post, review, event ...)
const COMMENTER = 'aaaaaaaa-0000-4000-8000-000000000002'; // another person

type Author = { user: string } | { page: string };
const byPerson = (user: string): Author => ({ user });
const byPage = (page: string): Author => ({ page });

function facts(kind: PostKind, postAuthor: Author, commentAuthor: Author, authorRole: Role | null = null): ModerationFacts {
  return {
    pageId: PAGE,
    post: { kind, authorUserId: 'user' in postAuthor ? postAuthor.user : null, authorPageId: 'page' in postAuthor ? postAuthor.page : null },
    comment: { authorUserId: 'user' in commentAuthor ? commentAuthor.user : null, authorPageId: 'page' in commentAuthor ? commentAuthor.page : null },
    authorRole,
  };
}

const OWN = "The page's own comments cannot be hidden";
const OWN_ON_PERSONS = "The page's own comments cannot be hidden, also on a person's post";
const ADMINS = "Comments by the page's admins cannot be hidden";
const REVIEW = 'Comments on a review cannot be hidden';
const GROUP = 'Comments in a group cannot be hidden by the page';
const EVENT_CREATOR = "The event creator's comments cannot be hidden";
const OTHERS_POST = "A person's comment on another person's post cannot be hidden by the page";

describe('rule 4: comments that cannot be hidden', () => {
  it.each<[string, ModerationFacts, string]>([
    // "by the page"
    ['by the page, on its own post', facts('page_post', byPage(PAGE), byPage(PAGE)), OWN],
    ['by the page, on its photo', facts('photo', byPage(PAGE), byPage(PAGE)), OWN],
    ['by the page, on its video', facts('video', byPage(PAGE), byPage(PAGE)), OWN],
    ['by the page, on its event', facts('event', byPage(PAGE), byPage(PAGE)), OWN],
    // "by the page on a user's post"
    ["by the page, on a person's visitor post", facts('visitor_post', byPerson(POSTER), byPage(PAGE)), OWN_ON_PERSONS],
    ["by the page, on a person's event", facts('event', byPerson(POSTER), byPage(PAGE)), OWN_ON_PERSONS],
    ['by the page, on a review', facts('review', byPerson(POSTER), byPage(PAGE)), OWN_ON_PERSONS],
    // "by page administrators": the page's owners and admins (their role in the page's organization)
    ["by the page's owner, on the page's post", facts('page_post', byPage(PAGE), byPerson(COMMENTER), 'owner'), ADMINS],
    ["by the page's admin, on the page's post", facts('page_post', byPage(PAGE), byPerson(COMMENTER), 'admin'), ADMINS],
    ["by the page's admin, on a person's visitor post", facts('visitor_post', byPerson(POSTER), byPerson(COMMENTER), 'admin'), ADMINS],
    ["by the page's owner, on their own visitor post", facts('visitor_post', byPerson(COMMENTER), byPerson(COMMENTER), 'owner'), ADMINS],
    // "by any user on another user's post on the page"
    ["by a person, on another person's visitor post", facts('visitor_post', byPerson(POSTER), byPerson(COMMENTER)), OTHERS_POST],
    ["by a moderator, on another person's visitor post", facts('visitor_post', byPerson(POSTER), byPerson(COMMENTER), 'moderator'), OTHERS_POST],
    ["by a person, on another person's event", facts('event', byPerson(POSTER), byPerson(COMMENTER)), OTHERS_POST],
    // "by an event creator": the event post's author
    ["by the event's creator, on their event", facts('event', byPerson(POSTER), byPerson(POSTER)), EVENT_CREATOR],
    ["by the event's creator who is also a moderator", facts('event', byPerson(POSTER), byPerson(POSTER), 'moderator'), EVENT_CREATOR],
    ['by another page that created the event', facts('event', byPage(OTHER_PAGE), byPage(OTHER_PAGE)), EVENT_CREATOR],
    // "by a group": comments on group posts
    ['by a person, in a group', facts('group_post', byPerson(POSTER), byPerson(COMMENTER)), GROUP],
    ["by the group post's author, in a group", facts('group_post', byPerson(POSTER), byPerson(POSTER)), GROUP],
    ['by another page, in a group', facts('group_post', byPerson(POSTER), byPage(OTHER_PAGE)), GROUP],
    ['by a person, on a group post of the page', facts('group_post', byPage(PAGE), byPerson(COMMENTER)), GROUP],
    // "by any user on a review"
    ['by a person, on a review', facts('review', byPerson(POSTER), byPerson(COMMENTER)), REVIEW],
    ["by the review's author, on their review", facts('review', byPerson(POSTER), byPerson(POSTER)), REVIEW],
    ['by a moderator, on a review', facts('review', byPerson(POSTER), byPerson(COMMENTER), 'moderator'), REVIEW],
    ['by another page, on a review', facts('review', byPerson(POSTER), byPage(OTHER_PAGE)), REVIEW],
  ])('refuses a comment %s', (_rule, moderation, reason) => {
    expect(hideRefusal(moderation)).toBe(reason);
    expect(isHideable(moderation)).toBe(false);
  });
});

describe('rule 4: comments the page may hide', () => {
  it.each<[string, ModerationFacts]>([
    ["a person's comment on the page's post", facts('page_post', byPage(PAGE), byPerson(COMMENTER))],
    ["a person's comment on the page's photo", facts('photo', byPage(PAGE), byPerson(COMMENTER))],
    ["a person's comment on the page's video", facts('video', byPage(PAGE), byPerson(COMMENTER))],
    ["a person's comment on the page's event", facts('event', byPage(PAGE), byPerson(COMMENTER))],
    ["the post author's own comment on their visitor post", facts('visitor_post', byPerson(POSTER), byPerson(POSTER))],
    ["another page's comment on the page's post", facts('page_post', byPage(PAGE), byPage(OTHER_PAGE))],
    ["another page's comment on a person's visitor post", facts('visitor_post', byPerson(POSTER), byPage(OTHER_PAGE))],
    ["another page's comment on the page's event", facts('event', byPage(PAGE), byPage(OTHER_PAGE))],
    ["a moderator's comment on the page's post", facts('page_post', byPage(PAGE), byPerson(COMMENTER), 'moderator')],
    ["an advertiser's comment on the page's post", facts('page_post', byPage(PAGE), byPerson(COMMENTER), 'advertiser')],
    ["an auditor's comment on the page's post", facts('page_post', byPage(PAGE), byPerson(COMMENTER), 'auditor')],
    ["a member's comment on the page's post", facts('page_post', byPage(PAGE), byPerson(COMMENTER), 'member')],
    ["a moderator's own comment on their own visitor post", facts('visitor_post', byPerson(COMMENTER), byPerson(COMMENTER), 'moderator')],
  ])('hides %s', (_rule, moderation) => {
    expect(hideRefusal(moderation)).toBeNull();
    expect(isHideable(moderation)).toBe(true);
  });
});

describe('rule 5: a page removes comments everywhere but on reviews', () => {
  it.each(POST_KINDS.map((kind) => [kind, kind !== 'review'] as const))('on a %s: %s', (kind, allowed) => {
    expect(pageMayRemove(kind)).toBe(allowed);
  });
});

describe("edits: a person edits their own comment, the page its own; nobody rewrites a person's words", () => {
  const REFUSED = "A page can only edit its own comments: a person's comment can be hidden or deleted, not rewritten";
  it.each<[string, { ownComment: boolean; byPage: boolean }, string | null]>([
    ['the author edits their comment', { ownComment: true, byPage: false }, null],
    ["the page edits the page's comment", { ownComment: false, byPage: true }, null],
    ["the page may not edit a person's comment", { ownComment: false, byPage: false }, REFUSED],
  ])('%s', (_rule, input, refusal) => {
    expect(editRefusal(input)).toBe(refusal);
  });
});
