import { describe, expect, it } from 'vitest';
import {
  actsAsPage,
  addsMembersDirectly,
  can,
  expandScopes,
  mayTakePageToken,
  organizationsAllowing,
  PAGE_SCOPES,
  pageTasks,
  type Action,
  type Principal,
  type ResourceType,
  type Role,
} from '../../src/authz/policy.ts';

const ORG = 'org-a';
const OTHER = 'org-b';
const user = (role: Role | null, extra: Partial<Extract<Principal, { kind: 'user' }>> = {}): Principal => ({
  kind: 'user',
  userId: 'u1',
  siteAdmin: false,
  roles: new Map(role ? [[ORG, role]] : []),
  ...extra,
});
const pageToken: Principal = { kind: 'page', pageId: '1', organizationId: ORG, userId: 'u1', sessionId: 's1', scopes: new Set(PAGE_SCOPES) };
const client = (scope: string): Principal => ({ kind: 'client', clientId: 'c', apiClientId: '1', organizationId: ORG, scopes: expandScopes(scope.split(' ')) });

// One row per rule of DECISIONS section 2.
const ROWS: Array<[string, Principal, Action, ResourceType, boolean]> = [
  ['owner does everything in its organization', user('owner'), 'delete', 'page', true],
  ['admin does everything in its organization', user('admin'), 'create', 'api_client', true],
  ['advertiser creates ad sets', user('advertiser'), 'create', 'ad_set', true],
  ['advertiser deletes ads', user('advertiser'), 'delete', 'ad', true],
  ['advertiser updates campaigns', user('advertiser'), 'update', 'campaign', true],
  ['advertiser reads comments', user('advertiser'), 'read', 'comment', true],
  ['advertiser may not update comments', user('advertiser'), 'update', 'comment', false],
  ['advertiser may not create ad accounts', user('advertiser'), 'create', 'ad_account', false],
  ['moderator reads pages', user('moderator'), 'read', 'page', true],
  ['moderator updates comments', user('moderator'), 'update', 'comment', true],
  ['moderator deletes comments', user('moderator'), 'delete', 'comment', true],
  ['moderator may not read ad sets', user('moderator'), 'read', 'ad_set', false],
  ['auditor reads everything', user('auditor'), 'read', 'api_client', true],
  ['auditor changes nothing', user('auditor'), 'update', 'campaign', false],
  ['member reads the organization', user('member'), 'read', 'organization', true],
  ['member reads the members', user('member'), 'read', 'organization_member', true],
  ['member may not read ad accounts', user('member'), 'read', 'ad_account', false],
  ['no role, nothing', user(null), 'read', 'organization', false],
  ['site admin does everything', user(null, { siteAdmin: true }), 'delete', 'organization', true],
  ['ads_read reads ad sets', client('ads_read'), 'read', 'ad_set', true],
  ['ads_read may not create ad sets', client('ads_read'), 'create', 'ad_set', false],
  ['ads_management creates ad sets', client('ads_management'), 'create', 'ad_set', true],
  [
    "pages_manage_engagement with pages_read_engagement deletes the page's comments",
    client('pages_manage_engagement pages_read_engagement'),
    'delete',
    'comment',
    true,
  ],
  ['pages_manage_engagement alone may not delete comments', client('pages_manage_engagement'), 'delete', 'comment', false],
  ['pages_read_engagement may not delete comments', client('pages_read_engagement'), 'delete', 'comment', false],
  ['read implies every read scope', client('read'), 'read', 'comment', true],
  ['write implies every scope', client('write'), 'update', 'ad', true],
  ['a client reads its organization', client('ads_read'), 'read', 'organization', true],
  ['anonymous does nothing', { kind: 'anonymous' }, 'read', 'organization', false],
  ["a page token deletes its organization's comments", pageToken, 'delete', 'comment', true],
  ['a page token posts on its pages', pageToken, 'create', 'post', true],
  ['a page token reads no ad sets', pageToken, 'read', 'ad_set', false],
  ['a page token reads no users', pageToken, 'read', 'user', false],
  ['a page token changes no page', pageToken, 'update', 'page', false],
];

describe('authorization policy', () => {
  it.each(ROWS)('%s', (_rule, principal, action, type, expected) => {
    expect(can(principal, action, { type, organizationId: ORG })).toBe(expected);
  });

  it.each([
    ['a role in one organization gives nothing in another', user('admin')],
    ['a client acts only for its own organization', client('write')],
  ])('%s', (_rule, principal) => {
    expect(can(principal, 'read', { type: 'ad_set', organizationId: OTHER })).toBe(false);
  });

  it('lets a user read and update itself, and read fellow members only', () => {
    const me = user('member');
    expect(can(me, 'read', { type: 'user', ownerId: 'u1' })).toBe(true);
    expect(can(me, 'update', { type: 'user', ownerId: 'u1' })).toBe(true);
    expect(can(me, 'delete', { type: 'user', ownerId: 'u1' })).toBe(false);
    expect(can(me, 'read', { type: 'user', ownerId: 'u2', memberOf: [ORG] })).toBe(true);
    expect(can(me, 'update', { type: 'user', ownerId: 'u2', memberOf: [ORG] })).toBe(false);
    expect(can(me, 'read', { type: 'user', ownerId: 'u3', memberOf: [OTHER] })).toBe(false);
  });

  it("changes a user's account only for itself, a site admin, or an owner or admin of every organization the user belongs to", () => {
    // Issue 25: never one organization of several, which could otherwise take over a person another organization shares.
    const adminOf = (...orgs: string[]) => user(null, { userId: 'boss', roles: new Map(orgs.map((org) => [org, 'admin' as Role])) });
    const inBoth = { type: 'user' as const, ownerId: 'u2', memberOf: [ORG, OTHER] };
    const ROWS: Array<[string, Principal, Action, { type: 'user'; ownerId: string; memberOf: string[]; siteAdmin?: boolean }, boolean]> = [
      ['an admin of its only organization updates it', adminOf(ORG), 'update', { type: 'user', ownerId: 'u2', memberOf: [ORG] }, true],
      ['an admin of one of its two organizations may not update it', adminOf(ORG), 'update', inBoth, false],
      ['nor delete it', adminOf(ORG), 'delete', inBoth, false],
      ['but reads it', adminOf(ORG), 'read', inBoth, true],
      ['an admin of both updates it', adminOf(ORG, OTHER), 'update', inBoth, true],
      [
        'an owner and an admin of its organizations delete it',
        user(null, {
          roles: new Map<string, Role>([
            [ORG, 'owner'],
            [OTHER, 'admin'],
          ]),
        }),
        'delete',
        inBoth,
        true,
      ],
      [
        'an admin of one and auditor of the other may not update it',
        user(null, {
          roles: new Map<string, Role>([
            [ORG, 'admin'],
            [OTHER, 'auditor'],
          ]),
        }),
        'update',
        inBoth,
        false,
      ],
      [
        'nobody but itself and site admins updates a user in no organization',
        adminOf(ORG, OTHER),
        'update',
        { type: 'user', ownerId: 'u2', memberOf: [] },
        false,
      ],
      ['it updates itself', user(null, { userId: 'u2' }), 'update', inBoth, true],
      ['a site admin updates it', user(null, { siteAdmin: true }), 'update', inBoth, true],
      // The admins of a site admin's organizations changing its e-mail or password would make themselves site admins.
      ["an admin of a site admin's only organization may not update it", adminOf(ORG), 'update', { ...inBoth, memberOf: [ORG], siteAdmin: true }, false],
      ['nor delete it', adminOf(ORG), 'delete', { ...inBoth, memberOf: [ORG], siteAdmin: true }, false],
      ['but reads it', adminOf(ORG), 'read', { ...inBoth, memberOf: [ORG], siteAdmin: true }, true],
      ['a site admin updates itself', user(null, { userId: 'u2', siteAdmin: true }), 'update', { ...inBoth, siteAdmin: true }, true],
      ['another site admin updates it', user(null, { siteAdmin: true }), 'update', { ...inBoth, siteAdmin: true }, true],
    ];
    for (const [rule, principal, action, subject, expected] of ROWS) expect(can(principal, action, subject), rule).toBe(expected);
  });

  it('adds members directly for a site admin only', () => {
    expect(addsMembersDirectly(user(null, { siteAdmin: true }))).toBe(true);
    expect(addsMembersDirectly(user('owner'))).toBe(false);
    expect(addsMembersDirectly(client('write'))).toBe(false);
    expect(addsMembersDirectly({ kind: 'anonymous' })).toBe(false);
  });

  it('lists the organizations where an action is allowed', () => {
    const principal = user(null, {
      roles: new Map<string, Role>([
        [ORG, 'advertiser'],
        [OTHER, 'moderator'],
      ]),
    });
    expect(organizationsAllowing(principal, 'read', 'ad_set')).toEqual([ORG]);
    expect(organizationsAllowing(principal, 'update', 'comment')).toEqual([OTHER]);
    // Pages are public: every signed-in person reads them everywhere.
    expect(organizationsAllowing(principal, 'read', 'page')).toBe('all');
    expect(organizationsAllowing(user(null, { siteAdmin: true }), 'read', 'ad_set')).toBe('all');
  });

  it('gives page tokens to people holding the MODERATE task, and names the page tasks each role holds', () => {
    expect(mayTakePageToken(user('moderator'), ORG)).toBe(true);
    expect(mayTakePageToken(user('admin'), ORG)).toBe(true);
    expect(mayTakePageToken(user('advertiser'), ORG)).toBe(false);
    expect(mayTakePageToken(user('moderator'), OTHER)).toBe(false);
    // An API client's token is a page token already; a page token gives no other.
    expect(mayTakePageToken(client('write'), ORG)).toBe(false);
    expect(mayTakePageToken(pageToken, ORG)).toBe(false);
    expect(actsAsPage(pageToken, ORG)).toBe(true);
    expect(actsAsPage(pageToken, OTHER)).toBe(false);

    expect(pageTasks(user('owner'), ORG)).toEqual(['MANAGE', 'CREATE_CONTENT', 'MODERATE', 'ADVERTISE', 'ANALYZE']);
    expect(pageTasks(user('advertiser'), ORG)).toEqual(['ADVERTISE', 'ANALYZE']);
    expect(pageTasks(user('moderator'), ORG)).toEqual(['MODERATE']);
    expect(pageTasks(user('auditor'), ORG)).toEqual(['ANALYZE']);
    expect(pageTasks(user('member'), ORG)).toEqual([]);
    expect(pageTasks(pageToken, ORG)).toEqual(['CREATE_CONTENT', 'MODERATE']);
    expect(pageTasks(user('owner'), OTHER)).toEqual([]);
  });
});
