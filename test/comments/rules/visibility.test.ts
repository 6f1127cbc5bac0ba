import { describe, expect, it } from 'vitest';
import { visibleTo, type VisibilityFacts } from '../../../src/comments/rules/visibility.ts';
import { can, expandScopes, type Principal, type Role } from '../../../src/authz/policy.ts';

// A hidden comment "stays visible to the author of the original post, the page admin and tagged users"
// (the specification), and to its own author (the issue); to nobody else.

const ORG = 'org-page';
const POSTER = 'aaaaaaaa-0000-4000-8000-00000000000a';
const AUTHOR = 'aaaaaaaa-0000-4000-8000-00000000000b';
const TAGGED = 'aaaaaaaa-0000-4000-8000-00000000000c';
const TAGGED_TOO = 'aaaaaaaa-0000-4000-8000-00000000000d';
const STRANGER = 'aaaaaaaa-0000-4000-8000-00000000000e';

const comment = (fields: Partial<VisibilityFacts>): VisibilityFacts => ({
  hidden: true,
  authorUserId: null,
  postAuthorUserId: null,
  taggedUserIds: [],
  ...fields,
});

describe('visibleTo: the people who still see a hidden comment, beside its moderators', () => {
  it.each<[string, VisibilityFacts, string[]]>([
    [
      "a person's comment on a person's post: the post's author and the comment's author",
      comment({ authorUserId: AUTHOR, postAuthorUserId: POSTER }),
      [POSTER, AUTHOR],
    ],
    ["a person's comment on the page's post (no person wrote the post)", comment({ authorUserId: AUTHOR }), [AUTHOR]],
    ["the page's comment on a person's post (no person wrote the comment)", comment({ postAuthorUserId: POSTER }), [POSTER]],
    ["the page's comment on the page's post: only its moderators", comment({}), []],
    [
      'the people tagged in it',
      comment({ authorUserId: AUTHOR, postAuthorUserId: POSTER, taggedUserIds: [TAGGED, TAGGED_TOO] }),
      [POSTER, AUTHOR, TAGGED, TAGGED_TOO],
    ],
    ['the post author commenting on their own post is listed once', comment({ authorUserId: POSTER, postAuthorUserId: POSTER }), [POSTER]],
    [
      'a person tagged twice, or tagging themselves, is listed once',
      comment({ authorUserId: AUTHOR, taggedUserIds: [TAGGED, TAGGED, AUTHOR] }),
      [AUTHOR, TAGGED],
    ],
  ])('%s', (_rule, facts, people) => {
    expect(visibleTo(facts)).toEqual(people);
  });

  it('never lists anyone else', () => {
    const people = visibleTo(comment({ authorUserId: AUTHOR, postAuthorUserId: POSTER, taggedUserIds: [TAGGED] }));
    expect(people).not.toContain(STRANGER);
    expect(people).toHaveLength(3);
  });
});

// What enforcement does with it: the policy reads a hidden comment for its moderators and for exactly these people.
describe('each kind of viewer, on a hidden comment and on the same comment visible', () => {
  const user = (userId: string, role: Role | null = null, siteAdmin = false): Principal => ({
    kind: 'user',
    userId,
    siteAdmin,
    roles: new Map(role ? [[ORG, role]] : []),
  });
  const client = (scopes: string, organizationId = ORG): Principal => ({
    kind: 'client',
    clientId: 'c',
    apiClientId: '1',
    organizationId,
    scopes: expandScopes(scopes.split(' ')),
  });
  const facts = { authorUserId: AUTHOR, postAuthorUserId: POSTER, taggedUserIds: [TAGGED] };
  const subject = (hidden: boolean) => ({
    type: 'comment' as const,
    organizationId: ORG,
    ownerId: AUTHOR,
    comment: { byPage: false, postKind: 'visitor_post', hidden, visibleTo: visibleTo({ hidden, ...facts }) },
  });

  it.each<[string, Principal, boolean]>([
    ["the post's author", user(POSTER), true],
    ["the comment's author", user(AUTHOR), true],
    ['a person tagged in it', user(TAGGED), true],
    ["the page's owner", user(STRANGER, 'owner'), true],
    ["the page's admin", user(STRANGER, 'admin'), true],
    ["the page's moderator", user(STRANGER, 'moderator'), true],
    ['a site admin', user(STRANGER, null, true), true],
    ['the page token (pages_manage_engagement)', client('pages_manage_engagement'), true],
    ['another signed-in person', user(STRANGER), false],
    ["a member of the page's organization", user(STRANGER, 'member'), false],
    ["an advertiser of the page's organization", user(STRANGER, 'advertiser'), false],
    // Judgement: auditors "read everything in the organization" (DECISIONS 2), but the specification names who
    // sees a hidden comment and auditors are not among them.
    ["an auditor of the page's organization", user(STRANGER, 'auditor'), false],
    ['a client with pages_read_engagement only (not a page token)', client('pages_read_engagement'), false],
    ['a client with every read scope only', client('read'), false],
    ["another organization's page token", client('write', 'org-other'), false],
    ['nobody signed in', { kind: 'anonymous' }, false],
  ])('%s: sees it hidden = %s', (_who, principal, seesHidden) => {
    expect(can(principal, 'read', subject(true))).toBe(seesHidden);
  });

  it.each<[string, Principal, boolean]>([
    ['another signed-in person', user(STRANGER), true],
    ['an auditor', user(STRANGER, 'auditor'), true],
    ['a client with pages_read_engagement', client('pages_read_engagement'), true],
    ['a client with pages_read_user_content', client('pages_read_user_content'), true],
    ['a client with ads scopes only', client('ads_read ads_management'), false],
    ["another organization's page token", client('write', 'org-other'), false],
    ['nobody signed in', { kind: 'anonymous' }, false],
  ])('visible: %s reads it = %s', (_who, principal, reads) => {
    expect(can(principal, 'read', subject(false))).toBe(reads);
  });
});
