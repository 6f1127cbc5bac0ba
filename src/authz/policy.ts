/**
 * The one authorization model (DECISIONS section 2). Pure tables and functions, no I/O: services ask it
 * before they act or return an object, and `authcheck` (identity) reads the same answers.
 */
export const ROLES = ['owner', 'admin', 'advertiser', 'moderator', 'auditor', 'member'] as const;
export type Role = (typeof ROLES)[number];

export const ACTIONS = ['create', 'read', 'update', 'delete'] as const;
export type Action = (typeof ACTIONS)[number];

export const RESOURCE_TYPES = [
  'user',
  'organization',
  'organization_member',
  'api_client',
  'ad_account',
  'campaign',
  'ad_set',
  'ad',
  'custom_audience',
  'page',
  'post',
  'comment',
] as const;
export type ResourceType = (typeof RESOURCE_TYPES)[number];

export const SCOPES = ['ads_read', 'ads_management', 'pages_read_engagement', 'pages_manage_engagement', 'pages_read_user_content'] as const;
export type Scope = (typeof SCOPES)[number];
/** Shorthands a client's scope column may hold. */
export const SCOPE_ALIASES: Record<string, Scope[]> = {
  read: ['ads_read', 'pages_read_engagement', 'pages_read_user_content'],
  write: [...SCOPES],
};

const CRUD: Action[] = ['create', 'read', 'update', 'delete'];
const READ: Action[] = ['read'];
type Grants = Partial<Record<ResourceType, Action[]>>;

// Every role can do what `member` can; the others add to it.
const MEMBER: Grants = { organization: READ, organization_member: READ, user: READ };
const ADS: ResourceType[] = ['ad_account', 'campaign', 'ad_set', 'ad', 'custom_audience'];
const everything = (actions: Action[]): Grants => Object.fromEntries(RESOURCE_TYPES.map((type) => [type, actions]));

export const ROLE_GRANTS: Record<Role, Grants> = {
  owner: everything(CRUD),
  admin: everything(CRUD),
  // Advertisers run the organization's ad accounts: campaigns, ad sets, ads and the audiences they target.
  advertiser: { ...MEMBER, ad_account: READ, campaign: CRUD, ad_set: CRUD, ad: CRUD, custom_audience: CRUD, page: READ, post: READ, comment: READ },
  // Moderators hold the pages' MODERATE task.
  moderator: { ...MEMBER, page: READ, post: READ, comment: ['read', 'update', 'delete'] },
  auditor: everything(READ),
  member: MEMBER,
};

export const SCOPE_GRANTS: Record<Scope, Grants> = {
  ads_read: Object.fromEntries(ADS.map((type) => [type, READ])),
  ads_management: { ad_account: READ, campaign: CRUD, ad_set: CRUD, ad: CRUD, custom_audience: CRUD },
  pages_read_engagement: { page: READ, post: READ, comment: READ },
  pages_manage_engagement: { page: READ, post: ['read', 'create'], comment: CRUD },
  pages_read_user_content: { page: READ, post: READ, comment: READ },
};

export type Principal =
  | { kind: 'anonymous' }
  | {
      kind: 'user';
      userId: string;
      sessionId?: string;
      siteAdmin: boolean;
      /** organization id -> role */
      roles: ReadonlyMap<string, Role>;
    }
  | { kind: 'client'; clientId: string; apiClientId: string; organizationId: string; scopes: ReadonlySet<Scope> }
  /**
   * A page access token (`/me/accounts`): a person who moderates the page, acting as the page with the page
   * scopes, in the page's organization only, for as long as the session it was given in lives.
   */
  | { kind: 'page'; pageId: string; organizationId: string; userId: string; sessionId: string; scopes: ReadonlySet<Scope> };

export const ANONYMOUS: Principal = { kind: 'anonymous' };

/** What an object looks like to the policy: its type, the organization owning it, and who it is. */
export interface Subject {
  type: ResourceType;
  organizationId?: string | null;
  /** For users: the user's own id; for objects with an author: the author's user id. */
  ownerId?: string | null;
  /** For users: the organizations the user belongs to (users are visible to fellow members). */
  memberOf?: readonly string[];
  /** For users: the user is a site admin, whose account only site admins and the user change. */
  siteAdmin?: boolean;
  /**
   * For comments: what DECISIONS section 6's rules look at. Without it (authcheck on the type), some visible
   * comment on a post that is not a review, by `ownerId` when that is set.
   */
  comment?: CommentFacts;
}

export interface CommentFacts {
  /** The page the post is on wrote it (rather than a person or another page). */
  byPage: boolean;
  /** The kind of post it is on (`review`: the page may not remove comments there). */
  postKind: string;
  hidden: boolean;
  /** Who still sees it while hidden: the post's author, the comment's author, the people tagged in it. */
  visibleTo: readonly string[];
}

/**
 * Pages are public (DECISIONS section 6): every signed-in person reads pages, their posts and their visible
 * comments, writes visitor posts and reviews, and comments. Ad objects stay private to their organization.
 */
export const PUBLIC_GRANTS: Grants = { page: READ, post: ['read', 'create'], comment: ['read', 'create'] };

export function expandScopes(words: Iterable<string>): Set<Scope> {
  const scopes = new Set<Scope>();
  for (const word of words) {
    if ((SCOPES as readonly string[]).includes(word)) scopes.add(word as Scope);
    for (const scope of SCOPE_ALIASES[word] ?? []) scopes.add(scope);
  }
  return scopes;
}

const granted = (grants: Grants, type: ResourceType, action: Action) => grants[type]?.includes(action) ?? false;

/** Holds the page's MODERATE task: a role that may update comments in the page's organization (moderator and above). */
const moderates = (principal: Extract<Principal, { kind: 'user' }>, organizationId: string | null | undefined) => {
  const role = organizationId ? principal.roles.get(organizationId) : undefined;
  return role !== undefined && granted(ROLE_GRANTS[role], 'comment', 'update');
};

/**
 * Whether the principal acts as the page of an organization (a page token, DECISIONS section 6): it holds the
 * MODERATE task there (a moderator or above, or a site admin), or is an API client of it with pages_manage_engagement.
 */
export function actsAsPage(principal: Principal, organizationId: string): boolean {
  switch (principal.kind) {
    case 'anonymous':
      return false;
    case 'user':
      return principal.siteAdmin || moderates(principal, organizationId);
    case 'client':
    case 'page':
      return principal.organizationId === organizationId && principal.scopes.has('pages_manage_engagement');
  }
}

/** The scopes of a page access token: the page's own, which its person's MODERATE task grants (DECISIONS section 6). */
export const PAGE_SCOPES: readonly Scope[] = ['pages_read_engagement', 'pages_manage_engagement', 'pages_read_user_content'];

/** A person may be given a page access token for a page of this organization: it holds the page's MODERATE task. */
export const mayTakePageToken = (principal: Principal, organizationId: string): boolean => principal.kind === 'user' && actsAsPage(principal, organizationId);

export const PAGE_TASKS = ['MANAGE', 'CREATE_CONTENT', 'MODERATE', 'ADVERTISE', 'ANALYZE'] as const;

/**
 * The page tasks (the platform's `tasks` of `/me/accounts`) the principal holds on a page of this organization,
 * read from what the policy lets it do there: manage the page, post as it, moderate, run and read its ads.
 */
export function pageTasks(principal: Principal, organizationId: string): Array<(typeof PAGE_TASKS)[number]> {
  const held = {
    MANAGE: can(principal, 'update', { type: 'page', organizationId }),
    CREATE_CONTENT: mayAsOrganization(principal, 'create', { type: 'post', organizationId }),
    MODERATE: actsAsPage(principal, organizationId),
    ADVERTISE: can(principal, 'create', { type: 'ad_set', organizationId }),
    ANALYZE: can(principal, 'read', { type: 'ad_account', organizationId }),
  };
  return PAGE_TASKS.filter((task) => held[task]);
}

/**
 * Comments, by the specification's permission list: reading follows the post (a hidden comment only for its
 * moderators and the people it stays visible to); anyone comments; its author edits and deletes it; the page
 * (MODERATE) edits, hides and deletes, but never removes a comment on a review.
 */
function userMayOnComment(principal: Extract<Principal, { kind: 'user' }>, action: Action, subject: Subject): boolean {
  const facts = subject.comment;
  const own = subject.ownerId != null && subject.ownerId === principal.userId;
  const moderator = moderates(principal, subject.organizationId);
  switch (action) {
    case 'read':
      return !facts?.hidden || moderator || own || facts.visibleTo.includes(principal.userId);
    case 'create':
      return true;
    case 'update':
      return own || moderator;
    case 'delete':
      return own || (moderator && facts?.postKind !== 'review');
  }
}

/**
 * An API client is the page's token when it has the page scopes: editing needs pages_manage_engagement and
 * pages_read_engagement; deleting the page's own comment the same, another's pages_manage_engagement and
 * pages_read_user_content; never a comment on a review.
 */
function clientMayOnComment(scopes: ReadonlySet<Scope>, action: Action, subject: Subject): boolean {
  const facts = subject.comment;
  const manage = scopes.has('pages_manage_engagement');
  switch (action) {
    case 'read':
      return facts?.hidden ? manage : [...scopes].some((scope) => granted(SCOPE_GRANTS[scope], 'comment', 'read'));
    case 'create':
      return manage;
    case 'update':
      return manage && scopes.has('pages_read_engagement');
    case 'delete': {
      if (!manage || facts?.postKind === 'review') return false;
      // Without details (authcheck on the type), a comment by a named person, or some comment: either scope reaches one.
      const byPage = facts ? facts.byPage : subject.ownerId != null ? false : undefined;
      if (byPage === undefined) return scopes.has('pages_read_engagement') || scopes.has('pages_read_user_content');
      return scopes.has(byPage ? 'pages_read_engagement' : 'pages_read_user_content');
    }
  }
}

function roleAllows(role: Role, subject: Subject, action: Action): boolean {
  return granted(ROLE_GRANTS[role], subject.type, action);
}

/**
 * Another user (a site admin has been answered already). Reading (and creating) needs a shared organization whose
 * role allows it. A user's own account (name, e-mail, password, login type, status) is the user's: changing or
 * deleting it needs that right in every organization the user belongs to, never in one of several, so an admin
 * of one organization cannot take over a person another organization shares (a user in no organization answers
 * to itself and site admins only). A site admin's account answers to site admins only (and itself): the admins of
 * its organizations changing its e-mail or password would make themselves site admins.
 */
function userMayOnUser(principal: Extract<Principal, { kind: 'user' }>, action: Action, subject: Subject): boolean {
  if (subject.ownerId === principal.userId && (action === 'read' || action === 'update')) return true;
  const memberOf = subject.memberOf ?? [];
  if (subject.siteAdmin && (action === 'update' || action === 'delete')) return false;
  const allowedIn = (orgId: string) => {
    const role = principal.roles.get(orgId);
    return role !== undefined && roleAllows(role, subject, action);
  };
  if (action === 'update' || action === 'delete') return memberOf.length > 0 && memberOf.every(allowedIn);
  return memberOf.some(allowedIn);
}

/**
 * Whether the principal's addOrganizationMember puts a user into the organization at once: only a site admin's
 * (the operator's act, as the CLI's). Anyone else's add is an invitation the user accepts, and its answer is the
 * same whether or not the address is registered.
 */
export const addsMembersDirectly = (principal: Principal): boolean => principal.kind === 'user' && principal.siteAdmin;

/** May this principal perform `action` on `subject`? */
export function can(principal: Principal, action: Action, subject: Subject): boolean {
  switch (principal.kind) {
    case 'anonymous':
      return false;
    case 'client':
    case 'page': {
      if (subject.type === 'organization') {
        return action === 'read' && subject.organizationId === principal.organizationId;
      }
      if (!subject.organizationId || subject.organizationId !== principal.organizationId) return false;
      if (subject.type === 'comment') return clientMayOnComment(principal.scopes, action, subject);
      for (const scope of principal.scopes) if (granted(SCOPE_GRANTS[scope], subject.type, action)) return true;
      return false;
    }
    case 'user': {
      if (principal.siteAdmin) return true;
      if (subject.type === 'comment') return userMayOnComment(principal, action, subject);
      if (granted(PUBLIC_GRANTS, subject.type, action)) return true;
      if (subject.type === 'user') return userMayOnUser(principal, action, subject);
      if (!subject.organizationId) return false;
      const role = principal.roles.get(subject.organizationId);
      return role !== undefined && roleAllows(role, subject, action);
    }
  }
}

/**
 * What the principal may do by its role in the object's organization (or its client scopes), leaving out what
 * every signed-in person may do on public pages: whether it acts as the page (posts as the page, not as a visitor).
 */
export function mayAsOrganization(principal: Principal, action: Action, subject: Subject): boolean {
  if (principal.kind !== 'user' || principal.siteAdmin) return can(principal, action, subject);
  const role = subject.organizationId ? principal.roles.get(subject.organizationId) : undefined;
  return role !== undefined && roleAllows(role, subject, action) && can(principal, action, subject);
}

/**
 * Organizations in which the principal may perform `action` on some object of `type` (owned by `ownerId` when
 * given): the same answer as `can` on `{ type, organizationId, ownerId }` for each organization.
 */
export function organizationsAllowing(principal: Principal, action: Action, type: ResourceType, ownerId?: string): string[] | 'all' {
  switch (principal.kind) {
    case 'anonymous':
      return [];
    case 'client':
    case 'page':
      return can(principal, action, { type, organizationId: principal.organizationId, ownerId }) ? [principal.organizationId] : [];
    case 'user':
      if (principal.siteAdmin || granted(PUBLIC_GRANTS, type, action)) return 'all';
      // A person edits and deletes their own comments on every page.
      if (type === 'comment' && ownerId === principal.userId && (action === 'update' || action === 'delete')) return 'all';
      return [...principal.roles]
        .filter(([orgId]) => can(principal, action, type === 'user' ? { type, memberOf: [orgId], ownerId } : { type, organizationId: orgId, ownerId }))
        .map(([orgId]) => orgId);
  }
}

/** What GET /api/v2/auth/scopes lists: `all` and every scope an API client may carry. */
export const EXTERNAL_SCOPES = ['all', ...SCOPES, ...Object.keys(SCOPE_ALIASES)];
