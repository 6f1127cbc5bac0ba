import { describe, expect, it } from 'vitest';
import {
  actsAsPage,
  can,
  expandScopes,
  mayAsOrganization,
  organizationsAllowing,
  ACTIONS,
  type Action,
  type Principal,
  type ResourceType,
  type Role,
  type Subject,
} from '../../src/authz/policy.ts';
import { commentSubject } from '../../src/comments/service.ts';
import type { CommentRecord, MessageTag, PostKind, PostRecord } from '../../src/comments/store.ts';

// The comment rules of the one policy (DECISIONS sections 2 and 6, the specification's Authentication list):
// pages are public (every signed-in person reads visible comments and comments); the page's MODERATE task
// (owner, admin, moderator, site admin) edits, hides and deletes, but never removes a comment on a review (rule 5);
// a comment's author edits and deletes it; a hidden comment is read by its moderators, the post's author, the
// comment's author and the people tagged in it. An API client of the page's organization acts as the page:
// create needs pages_manage_engagement; update pages_manage_engagement + pages_read_engagement; delete
// pages_manage_engagement + (the page's comment: pages_read_engagement | a person's: pages_read_user_content).

const ORG = 'org-page';
const OTHER = 'org-other';
const POSTER = 'aaaaaaaa-0000-4000-8000-00000000000a';
const AUTHOR = 'aaaaaaaa-0000-4000-8000-00000000000b';
const TAGGED = 'aaaaaaaa-0000-4000-8000-00000000000c';
const SOMEONE = 'aaaaaaaa-0000-4000-8000-00000000000d';

const user = (role: Role | null, extra: Partial<Extract<Principal, { kind: 'user' }>> = {}): Principal => ({
  kind: 'user',
  userId: SOMEONE,
  siteAdmin: false,
  roles: new Map(role ? [[ORG, role]] : []),
  ...extra,
});
const person = (userId: string) => user(null, { userId });
const client = (scopes: string, organizationId = ORG): Principal => ({
  kind: 'client',
  clientId: 'c',
  apiClientId: '1',
  organizationId,
  scopes: expandScopes(scopes.split(' ')),
});
const ANONYMOUS: Principal = { kind: 'anonymous' };

// The three comments, on a person's post (so "the post's author" is someone), each visible or hidden.
type Kind = 'person' | 'page' | 'review';
function subject(kind: Kind, hidden: boolean): Subject {
  const byPage = kind === 'page';
  return {
    type: 'comment',
    organizationId: ORG,
    ownerId: byPage ? null : AUTHOR,
    comment: {
      byPage,
      postKind: kind === 'review' ? 'review' : 'visitor_post',
      hidden,
      visibleTo: byPage ? [POSTER, TAGGED] : [POSTER, AUTHOR, TAGGED],
    },
  };
}

/**
 * What a principal may do on each comment, as letters: R reads it visible, H reads it hidden, C comments
 * (creates), U updates it, D deletes it (U and D on the comment visible and hidden alike); '-' is refused.
 */
type Row = [who: string, principal: Principal, allowed: Record<Kind, string>];
const all = (letters: string): Record<Kind, string> => ({ person: letters, page: letters, review: letters });
const MODERATE = { person: 'RHCUD', page: 'RHCUD', review: 'RHCU-' };

const USERS: Row[] = [
  ['a signed-in person with no role', user(null), all('R-C--')],
  ["a member of the page's organization", user('member'), all('R-C--')],
  ["an advertiser of the page's organization", user('advertiser'), all('R-C--')],
  // Judgement: auditors read everything in their organization (DECISIONS 2), but the specification lists who
  // sees a hidden comment; the code keeps auditors out, as the specification does.
  ["an auditor of the page's organization", user('auditor'), all('R-C--')],
  ["a moderator of the page's organization (MODERATE)", user('moderator'), MODERATE],
  ["an admin of the page's organization", user('admin'), MODERATE],
  ["an owner of the page's organization", user('owner'), MODERATE],
  ['a moderator of another organization', user(null, { roles: new Map([[OTHER, 'moderator']]) }), all('R-C--')],
  // Judgement: the site admin flag "allows everything" (DECISIONS 2), so also removing a comment on a review.
  ['a site admin', user(null, { siteAdmin: true }), all('RHCUD')],
  // The author edits and deletes their own comment, also on a review ("except the author").
  ["the comment's author", person(AUTHOR), { person: 'RHCUD', page: 'R-C--', review: 'RHCUD' }],
  ["the comment's author, a member of the page's organization", user('member', { userId: AUTHOR }), { person: 'RHCUD', page: 'R-C--', review: 'RHCUD' }],
  ["the post's author", person(POSTER), all('RHC--')],
  ['a person tagged in the comment', person(TAGGED), all('RHC--')],
  ['nobody signed in', ANONYMOUS, all('-----')],
];

const PAGE_TOKEN = { person: 'RHCUD', page: 'RHCUD', review: 'RHCU-' };
const CLIENTS: Row[] = [
  ['no page scope (ads_read)', client('ads_read'), all('-----')],
  ['no page scope (ads_management)', client('ads_management'), all('-----')],
  ['pages_read_engagement', client('pages_read_engagement'), all('R----')],
  ['pages_read_user_content', client('pages_read_user_content'), all('R----')],
  ['pages_read_engagement + pages_read_user_content', client('pages_read_engagement pages_read_user_content'), all('R----')],
  ['read (every read scope)', client('read'), all('R----')],
  ['pages_manage_engagement', client('pages_manage_engagement'), all('RHC--')],
  [
    'pages_manage_engagement + pages_read_engagement',
    client('pages_manage_engagement pages_read_engagement'),
    { person: 'RHCU-', page: 'RHCUD', review: 'RHCU-' },
  ],
  [
    'pages_manage_engagement + pages_read_user_content',
    client('pages_manage_engagement pages_read_user_content'),
    { person: 'RHC-D', page: 'RHC--', review: 'RHC--' },
  ],
  [
    'pages_manage_engagement + pages_read_engagement + pages_read_user_content',
    client('pages_manage_engagement pages_read_engagement pages_read_user_content'),
    PAGE_TOKEN,
  ],
  ['write (every scope)', client('write'), PAGE_TOKEN],
  ["write, but another organization's client", client('write', OTHER), all('-----')],
];

/** The letters the policy answers for one principal and comment kind. */
function answered(principal: Principal, kind: Kind): string {
  const visible = subject(kind, false);
  const hidden = subject(kind, true);
  const both = (action: Action) => {
    const onVisible = can(principal, action, visible);
    const onHidden = can(principal, action, hidden);
    // Update and delete do not depend on the comment being hidden; a difference would show as '?'.
    return onVisible === onHidden ? onVisible : '?';
  };
  // Publishing asks about a comment yet to be written: no facts, only the organization.
  const create = can(principal, 'create', visible);
  const createNew = can(principal, 'create', { type: 'comment', organizationId: ORG });
  return [
    can(principal, 'read', visible) ? 'R' : '-',
    can(principal, 'read', hidden) ? 'H' : '-',
    create === createNew ? (create ? 'C' : '-') : '?',
    ((u) => (u === '?' ? '?' : u ? 'U' : '-'))(both('update')),
    ((d) => (d === '?' ? '?' : d ? 'D' : '-'))(both('delete')),
  ].join('');
}

describe.each([
  ['users', USERS],
  ["API clients of the page's organization", CLIENTS],
] as const)('comments: %s', (_group, rows) => {
  describe.each(['person', 'page', 'review'] as const)("on %s's comment (review: a person's comment on a review)", (kind) => {
    it.each(rows.map(([who, principal, allowed]) => [who, principal, allowed[kind]] as const))('%s: %s', (_who, principal, letters) => {
      expect(answered(principal, kind)).toBe(letters);
    });
  });
});

// The subject as the service builds it from the stored comment and its post (src/comments/service.ts).
describe('comments as enforcement sees them (commentSubject)', () => {
  const PAGE = '100';
  const OTHER_PAGE = '200';
  const at = new Date('2025-01-01T00:00:00Z');
  const post = (kind: PostKind, authorUserId: string | null): PostRecord => ({
    id: '500',
    organizationId: ORG,
    createdTime: at,
    updatedTime: at,
    pageId: PAGE,
    kind,
    authorUserId,
    authorPageId: authorUserId ? null : PAGE,
    message: 'post',
    attachment: null,
    title: null,
    rating: null,
    eventStartTime: null,
    targeting: null,
  });
  const comment = (author: { user: string } | { page: string }, fields: Partial<CommentRecord> = {}): CommentRecord => ({
    id: '600',
    organizationId: ORG,
    createdTime: at,
    updatedTime: at,
    postId: '500',
    parentId: null,
    authorUserId: 'user' in author ? author.user : null,
    authorPageId: 'page' in author ? author.page : null,
    message: 'hi',
    attachment: null,
    messageTags: [],
    isHidden: false,
    likeCount: 0,
    ...fields,
  });
  const tag = (id: string, type: MessageTag['type']): MessageTag => ({ id, name: 'x', type, offset: 0, length: 1 });

  // "Deleting a comment made by the page needs ... pages_read_engagement and pages_manage_engagement. Deleting a
  // comment made by a user or another page needs ... pages_manage_engagement and pages_read_user_content."
  it.each<[string, string, boolean, CommentRecord]>([
    ["the page's own comment", 'pages_manage_engagement pages_read_engagement', true, comment({ page: PAGE })],
    ["the page's own comment", 'pages_manage_engagement pages_read_user_content', false, comment({ page: PAGE })],
    ["a person's comment", 'pages_manage_engagement pages_read_user_content', true, comment({ user: AUTHOR })],
    ["a person's comment", 'pages_manage_engagement pages_read_engagement', false, comment({ user: AUTHOR })],
    ["another page's comment", 'pages_manage_engagement pages_read_user_content', true, comment({ page: OTHER_PAGE })],
    ["another page's comment", 'pages_manage_engagement pages_read_engagement', false, comment({ page: OTHER_PAGE })],
  ])('the page token deletes %s, holding %s: %s', (_rule, scopes, allowed, record) => {
    expect(can(client(scopes), 'delete', commentSubject(record, post('page_post', null)))).toBe(allowed);
  });

  it("keeps a hidden comment readable by the post's author, its author and the users tagged in it (not tagged pages)", () => {
    const hidden = commentSubject(
      comment({ user: AUTHOR }, { isHidden: true, messageTags: [tag(TAGGED, 'user'), tag(OTHER_PAGE, 'page')] }),
      post('visitor_post', POSTER),
    );
    expect(hidden).toMatchObject({ type: 'comment', organizationId: ORG, ownerId: AUTHOR, comment: { byPage: false, postKind: 'visitor_post', hidden: true } });
    for (const reader of [POSTER, AUTHOR, TAGGED]) expect(can(person(reader), 'read', hidden)).toBe(true);
    expect(can(person(SOMEONE), 'read', hidden)).toBe(false);
    expect(can(user('moderator'), 'read', hidden)).toBe(true);
  });

  it("gives a page's comment no author person", () => {
    expect(commentSubject(comment({ page: PAGE }), post('review', POSTER))).toMatchObject({ ownerId: null, comment: { byPage: true, postKind: 'review' } });
  });
});

describe('mayAsOrganization: what the principal may do as the page (by role or client scopes, not as a member of the public)', () => {
  const onReview = subject('review', false);
  it.each<[string, Principal, Action, Subject, boolean]>([
    ['the owner posts as the page', user('owner'), 'create', { type: 'post', organizationId: ORG }, true],
    ['the admin posts as the page', user('admin'), 'create', { type: 'post', organizationId: ORG }, true],
    ['a moderator posts as a visitor', user('moderator'), 'create', { type: 'post', organizationId: ORG }, false],
    ['an advertiser posts as a visitor', user('advertiser'), 'create', { type: 'post', organizationId: ORG }, false],
    ['an auditor posts as a visitor', user('auditor'), 'create', { type: 'post', organizationId: ORG }, false],
    ['a member posts as a visitor', user('member'), 'create', { type: 'post', organizationId: ORG }, false],
    ['a person with no role posts as a visitor', user(null), 'create', { type: 'post', organizationId: ORG }, false],
    [
      "another organization's owner posts as a visitor",
      user(null, { roles: new Map([[OTHER, 'owner']]) }),
      'create',
      { type: 'post', organizationId: ORG },
      false,
    ],
    ['a site admin posts as the page', user(null, { siteAdmin: true }), 'create', { type: 'post', organizationId: ORG }, true],
    ['the page token (pages_manage_engagement) posts as the page', client('pages_manage_engagement'), 'create', { type: 'post', organizationId: ORG }, true],
    ['a client with pages_read_engagement may not post', client('pages_read_engagement'), 'create', { type: 'post', organizationId: ORG }, false],
    ["another organization's client may not post", client('write', OTHER), 'create', { type: 'post', organizationId: ORG }, false],
    ['nobody signed in', ANONYMOUS, 'create', { type: 'post', organizationId: ORG }, false],
    ['an advertiser reads the page by role', user('advertiser'), 'read', { type: 'page', organizationId: ORG }, true],
    ['a moderator reads the page by role', user('moderator'), 'read', { type: 'page', organizationId: ORG }, true],
    ['a member reads the page only as the public', user('member'), 'read', { type: 'page', organizationId: ORG }, false],
    ['a person with no role reads the page only as the public', user(null), 'read', { type: 'page', organizationId: ORG }, false],
    ['the owner updates the page', user('owner'), 'update', { type: 'page', organizationId: ORG }, true],
    ['a moderator may not update the page', user('moderator'), 'update', { type: 'page', organizationId: ORG }, false],
    ['a write client may not delete the page', client('write'), 'delete', { type: 'page', organizationId: ORG }, false],
    ['a moderator hides (updates) comments as the page', user('moderator'), 'update', subject('person', false), true],
    ['an advertiser may not', user('advertiser'), 'update', subject('person', false), false],
    ['a member comments only as the public', user('member'), 'create', { type: 'comment', organizationId: ORG }, false],
    ['the page token comments as the page', client('pages_manage_engagement'), 'create', { type: 'comment', organizationId: ORG }, true],
    ['the page token may not remove a comment on a review (rule 5)', client('write'), 'delete', onReview, false],
    // Rule 5 holds for the page whoever acts for it: a moderator acting as the page may not either.
    ['a moderator acting as the page may not remove a comment on a review (rule 5)', user('moderator'), 'delete', onReview, false],
  ])('%s', (_rule, principal, action, target, expected) => {
    expect(mayAsOrganization(principal, action, target)).toBe(expected);
  });
});

describe('organizationsAllowing for pages, posts and comments', () => {
  const both = user(null, {
    roles: new Map<string, Role>([
      [ORG, 'advertiser'],
      [OTHER, 'moderator'],
    ]),
  });
  const ownerAndModerator = user(null, {
    roles: new Map<string, Role>([
      [ORG, 'owner'],
      [OTHER, 'moderator'],
    ]),
  });
  it.each<[string, Principal, Action, ResourceType, string[] | 'all']>([
    ['every signed-in person reads pages everywhere', user(null), 'read', 'page', 'all'],
    ['every signed-in person reads posts everywhere', user(null), 'read', 'post', 'all'],
    ['every signed-in person reads comments everywhere', user(null), 'read', 'comment', 'all'],
    ['every signed-in person writes visitor posts everywhere', user(null), 'create', 'post', 'all'],
    ['every signed-in person comments everywhere', user(null), 'create', 'comment', 'all'],
    ['the owner creates pages in its organization', user('owner'), 'create', 'page', [ORG]],
    ['the admin updates pages in its organization', user('admin'), 'update', 'page', [ORG]],
    ['a moderator updates no page', user('moderator'), 'update', 'page', []],
    ['the owner deletes posts in its organization', user('owner'), 'delete', 'post', [ORG]],
    ['a moderator deletes no post', user('moderator'), 'delete', 'post', []],
    ['a moderator updates comments in its organization', user('moderator'), 'update', 'comment', [ORG]],
    ['the admin deletes comments in its organization', user('admin'), 'delete', 'comment', [ORG]],
    ['an advertiser moderates nowhere', user('advertiser'), 'update', 'comment', []],
    ['an auditor moderates nowhere', user('auditor'), 'delete', 'comment', []],
    ['roles count organization by organization', both, 'delete', 'comment', [OTHER]],
    ['roles count organization by organization (two)', ownerAndModerator, 'update', 'comment', [ORG, OTHER]],
    ['a site admin: everywhere', user(null, { siteAdmin: true }), 'delete', 'page', 'all'],
    ['nobody signed in: nowhere', ANONYMOUS, 'read', 'page', []],
    ['a client with pages_read_engagement reads its pages', client('pages_read_engagement'), 'read', 'page', [ORG]],
    ['a client with pages_read_user_content reads its comments', client('pages_read_user_content'), 'read', 'comment', [ORG]],
    ['a client with ads scopes reads no page', client('ads_read ads_management'), 'read', 'page', []],
    ['a client with ads scopes reads no comment', client('ads_read ads_management'), 'read', 'comment', []],
    ['a client with pages_read_engagement creates no post', client('pages_read_engagement'), 'create', 'post', []],
    ['the page token posts on its pages', client('pages_manage_engagement'), 'create', 'post', [ORG]],
    ['the page token comments on its pages', client('pages_manage_engagement'), 'create', 'comment', [ORG]],
    ['pages_manage_engagement alone edits no comment', client('pages_manage_engagement'), 'update', 'comment', []],
    ['pages_manage_engagement + pages_read_engagement edits comments', client('pages_manage_engagement pages_read_engagement'), 'update', 'comment', [ORG]],
    ['no client scope updates posts', client('write'), 'update', 'post', []],
  ])('%s', (_rule, principal, action, type, expected) => {
    expect(organizationsAllowing(principal, action, type)).toEqual(expected);
  });

  // Its contract: "organizations in which the principal may perform action on some object of type" (owned by
  // ownerId when given). authcheck's any_org answers from it, so wherever `can` allows a comment action in ORG on a
  // comment with that owner, ORG must be listed (or 'all').
  it.each([...USERS, ...CLIENTS].map(([who, principal]) => [who, principal] as const))(
    'lists ORG wherever the policy allows a comment action there: %s',
    (_who, principal) => {
      const missed: string[] = [];
      for (const action of ACTIONS) {
        for (const kind of ['person', 'page', 'review'] as const) {
          for (const hidden of [false, true]) {
            const comment = subject(kind, hidden);
            const allowedIn = organizationsAllowing(principal, action, 'comment', comment.ownerId ?? undefined);
            const listed = allowedIn === 'all' || allowedIn.includes(ORG);
            if (can(principal, action, comment) && !listed) missed.push(`${action} on ${kind}'s comment${hidden ? ' (hidden)' : ''}`);
          }
        }
      }
      expect(missed).toEqual([]);
    },
  );

  it("a person edits and deletes their own comments everywhere, and nobody else's by that alone", () => {
    const author = user(null, { userId: AUTHOR });
    expect(organizationsAllowing(author, 'delete', 'comment', AUTHOR)).toBe('all');
    expect(organizationsAllowing(author, 'update', 'comment', AUTHOR)).toBe('all');
    expect(organizationsAllowing(author, 'delete', 'comment')).toEqual([]);
    expect(organizationsAllowing(author, 'delete', 'comment', POSTER)).toEqual([]);
  });
});

describe('actsAsPage: who is a page token (DECISIONS section 6)', () => {
  it.each<[string, Principal, boolean]>([
    ['the owner', user('owner'), true],
    ['an admin', user('admin'), true],
    ['a moderator', user('moderator'), true],
    ['an advertiser', user('advertiser'), false],
    ['an auditor', user('auditor'), false],
    ['a member', user('member'), false],
    ['a person with no role', user(null), false],
    ['a moderator of another organization', user(null, { roles: new Map([[OTHER, 'moderator']]) }), false],
    ['a site admin', user(null, { siteAdmin: true }), true],
    ['a client with pages_manage_engagement', client('pages_manage_engagement'), true],
    ['a client with every read scope only', client('read'), false],
    ["another organization's client with pages_manage_engagement", client('pages_manage_engagement', OTHER), false],
    ['nobody signed in', ANONYMOUS, false],
  ])('%s: %s', (_who, principal, expected) => {
    expect(actsAsPage(principal, ORG)).toBe(expected);
  });
});
