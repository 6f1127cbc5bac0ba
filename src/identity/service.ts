import { hash, randomBytes } from 'node:crypto';
import type { AppDeps, RequestContext } from '../context/index.ts';
import { can, ROLES, type Principal, type Role, type Subject } from '../authz/policy.ts';
import { badInput, credentialsRefused, DomainError, unauthenticated, validateFields } from '../errors/index.ts';
import { isUuid } from '../db/ids.ts';
import type { Slice, PageRequest } from '../db/pagination.ts';
import { limitGuess } from '../ratelimit/index.ts';
import { checkPasswordPolicy, MAX_PASSWORD_LENGTH, type PasswordVerdict } from './password.ts';
import * as store from './store.ts';
import type { Generations } from '../db/generations.ts';
import type { MembershipRecord, OrganizationRecord, UserRecord } from './store.ts';

export const EMAIL_MAX_LENGTH = 256;
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const USERNAME_PATTERN = /^[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,30}[a-zA-Z0-9])?$/;

// One call, not a Hash object per request: every authenticated request hashes its token.
export const hashToken = (token: string) => hash('sha256', token, 'hex');

export function principalForUser(user: UserRecord, memberships: MembershipRecord[], sessionId?: string): Principal {
  return {
    kind: 'user',
    userId: user.id,
    sessionId,
    siteAdmin: user.siteAdmin,
    roles: new Map(memberships.map((m) => [m.organizationId, m.role])),
  };
}

// Writing last_used_at on every request would turn every read into a write; a minute's precision is enough.
const TOUCH_INTERVAL_MS = 60_000;

/** The principal behind a session token, or null when the token is unknown, expired, revoked or its user suspended. */
export async function authenticateSessionToken(deps: AppDeps, token: string): Promise<Principal | null> {
  const now = new Date();
  const tokenHash = hashToken(token);
  // Kept by the session cache while nothing changed who the token stands for (./session-cache.ts).
  const { value: found, generations } = await deps.sessions.get(tokenHash, () => store.findLiveSession(deps.db, { tokenHash }, now));
  // A kept session may have expired since it was read.
  if (!found || found.session.expiresAt <= now || found.user.status === 'suspended') return null;
  if (now.getTime() - found.session.lastUsedAt.getTime() > TOUCH_INTERVAL_MS) {
    await store.touchSession(deps.db, found.session.id, now);
    found.session.lastUsedAt = now; // the kept copy too: one touch a minute, not one per request after the first minute
  }
  const principal = principalForUser(found.user, found.memberships, found.session.id);
  sessionUsers.set(principal, found.user);
  if (generations) principalGenerations.set(principal, generations);
  return principal;
}

/**
 * The generations read for the request a session principal was resolved for (after the request arrived): the
 * request's other caches answer from the same read (src/context/index.ts).
 */
const principalGenerations = new WeakMap<Principal, Generations>();

export const generationsReadFor = (principal: Principal): Generations | undefined => principalGenerations.get(principal);

/**
 * The user record a session principal was resolved with, as read with it (under the identity generation the
 * session cache checked): `me` answers it without reading the user again.
 */
const sessionUsers = new WeakMap<Principal, UserRecord>();

export function validateEmail(email: unknown, field = 'email'): string {
  if (typeof email !== 'string' || email.trim() === '') throw badInput(field, 'An e-mail address is required.');
  if (email.length > EMAIL_MAX_LENGTH) throw badInput(field, `E-mail address must be at most ${EMAIL_MAX_LENGTH} characters.`);
  if (!EMAIL_PATTERN.test(email)) throw badInput(field, 'Must be a valid e-mail address.');
  return email.trim();
}

// Compared against when the address is unknown, so a login takes as long whether or not the user exists.
let dummyHash: Promise<string> | undefined;
export function dummyPasswordHash(deps: AppDeps): Promise<string> {
  return (dummyHash ??= deps.passwords.hash(randomBytes(16).toString('hex'), deps.config.bcryptCost));
}

export async function issueSession(deps: AppDeps, user: UserRecord, ipAddress?: string): Promise<{ sessionToken: string; expiresAt: Date }> {
  const token = randomBytes(32).toString('base64url');
  const now = new Date();
  const expiresAt = new Date(now.getTime() + deps.config.sessionTtlSeconds * 1000);
  await store.insertSession(deps.db, {
    userId: user.id,
    tokenHash: hashToken(token),
    loginType: user.loginType,
    ipAddress: ipAddress ?? null,
    createdAt: now,
    expiresAt,
    lastUsedAt: now,
  });
  return { sessionToken: token, expiresAt };
}

export const passwordRequired = (field = 'password') => badInput(field, 'A password is required.');

export function validatePasswordInput(password: unknown, field = 'password'): string {
  if (typeof password !== 'string' || password === '') throw passwordRequired(field);
  if (password.length > MAX_PASSWORD_LENGTH) throw badInput(field, `Password must be at most ${MAX_PASSWORD_LENGTH} characters.`);
  return password;
}

const INCORRECT_CREDENTIALS = 'Incorrect email or password.';

/**
 * Checks an e-mail and password the way login does (Coder's loginRequest), under the brute-force limits: each
 * attempt takes a point per address and per client IP before the comparison, a wrong password keeps them, a
 * right one gives back its own (limitGuess).
 */
export async function verifyCredentials(deps: AppDeps, emailInput: unknown, passwordInput: unknown, ipAddress = 'unknown'): Promise<UserRecord> {
  const [email, password] = validateFields([() => validateEmail(emailInput), () => validatePasswordInput(passwordInput)]);
  const limits = [['loginFailuresByEmail', email] as const, ['loginFailuresByIp', ipAddress] as const];
  const user = await limitGuess(deps.rateLimits, limits, async () => {
    const found = await store.findUserByEmail(deps.db, email);
    const matches = await deps.passwords.verify(password, found?.hashedPassword ?? (await dummyPasswordHash(deps)));
    return found?.hashedPassword && matches ? found : undefined;
  });
  if (!user) throw credentialsRefused(INCORRECT_CREDENTIALS);
  if (user.loginType !== 'password') {
    throw new DomainError('FORBIDDEN', `Incorrect login type, attempting to use "password" but user is of login type "${user.loginType}".`);
  }
  if (user.status === 'suspended') throw credentialsRefused('Your account is suspended. Contact an admin to reactivate your account.');
  return user;
}

/** Says whether a password would be accepted, and what to add when not (needs a signed-in caller). */
export function validatePassword(ctx: RequestContext, password: unknown): PasswordVerdict {
  requireViewer(ctx);
  if (typeof password !== 'string') throw passwordRequired();
  return checkPasswordPolicy(password);
}

export async function login(deps: AppDeps, input: { email?: unknown; password?: unknown }, ipAddress?: string) {
  const user = await verifyCredentials(deps, input.email, input.password, ipAddress);
  return issueSession(deps, user, ipAddress);
}

export async function logout(ctx: RequestContext): Promise<void> {
  if (ctx.viewer.kind !== 'user' || !ctx.viewer.sessionId) throw unauthenticated();
  await store.revokeSession(ctx.db, ctx.viewer.sessionId, new Date());
}

export interface CreateUserInput {
  email: string;
  password?: string;
  username?: string;
  name?: string;
  siteAdmin?: boolean;
  organization?: string;
  role?: string;
}

function usernameFromEmail(email: string): string {
  const local = email
    .split('@')[0]!
    .replace(/[^a-zA-Z0-9-]/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 32);
  return local || 'user';
}

/** Creates a user (and its membership) for operators: the CLI and the demo seed. */
export async function createUser(deps: AppDeps, input: CreateUserInput): Promise<{ user: UserRecord; membership?: MembershipRecord }> {
  const email = validateEmail(input.email);
  const username = input.username ?? usernameFromEmail(email);
  if (!USERNAME_PATTERN.test(username)) {
    throw badInput('username', 'Username must be 1 to 32 letters, digits or single hyphens, starting and ending with a letter or digit.');
  }
  if (input.name !== undefined && input.name.length > 128) throw badInput('name', 'Name must be at most 128 characters.');
  if (input.password !== undefined) {
    const verdict = checkPasswordPolicy(input.password);
    if (!verdict.valid) throw badInput('password', verdict.details);
  }
  if ((input.organization === undefined) !== (input.role === undefined)) {
    throw badInput(input.role === undefined ? 'role' : 'org', 'An organization and a role go together.');
  }
  if (input.role !== undefined && !(ROLES as readonly string[]).includes(input.role)) {
    throw badInput('role', `Role must be one of ${ROLES.join(', ')}.`);
  }
  const organization = input.organization === undefined ? undefined : await store.findOrganizationByIdOrName(deps.db, input.organization);
  if (input.organization !== undefined && !organization) throw badInput('org', `No organization "${input.organization}".`);
  if (await store.findUserByEmail(deps.db, email)) throw new DomainError('CONFLICT', 'A user with this e-mail address already exists.', { field: 'email' });
  if (await store.findUserByUsername(deps.db, username)) throw new DomainError('CONFLICT', 'This username is taken.', { field: 'username' });
  const hashedPassword = input.password === undefined ? null : await deps.passwords.hash(input.password, deps.config.bcryptCost);

  return deps.db.transaction(async (trx) => {
    const user = await store.insertUser(trx, {
      email,
      username,
      name: input.name ?? '',
      loginType: hashedPassword ? 'password' : 'none',
      hashedPassword,
      siteAdmin: input.siteAdmin ?? false,
    });
    const membership = organization ? await store.insertMembership(trx, organization.id, user.id, input.role as Role) : undefined;
    return { user, membership };
  });
}

export async function createOrganization(deps: AppDeps, name: string): Promise<OrganizationRecord> {
  const trimmed = name.trim();
  if (trimmed === '' || trimmed.length > 255) throw badInput('name', 'Organization name must be 1 to 255 characters.');
  if (await store.findOrganizationByIdOrName(deps.db, trimmed)) {
    throw new DomainError('CONFLICT', `An organization named "${trimmed}" already exists.`, { field: 'name' });
  }
  return store.insertOrganization(deps.db, trimmed);
}

// --- Reads, with authorization -------------------------------------------------------------------

export function requireViewer(ctx: RequestContext): Exclude<Principal, { kind: 'anonymous' }> {
  if (ctx.viewer.kind === 'anonymous') throw unauthenticated();
  return ctx.viewer;
}

export async function me(ctx: RequestContext): Promise<UserRecord | null> {
  const viewer = requireViewer(ctx);
  if (viewer.kind !== 'user') return null;
  return sessionUsers.get(viewer) ?? ctx.loaders.identity.userById.load(viewer.userId);
}

export function assertUuid(id: string, field = 'id'): void {
  if (!isUuid(id)) throw badInput(field, `${field} must be a UUID.`);
}

export async function findOrganization(ctx: RequestContext, id: string): Promise<OrganizationRecord | null> {
  requireViewer(ctx);
  const organization = await ctx.loaders.identity.organizationById.load(id.toLowerCase());
  return organization && can(ctx.viewer, 'read', { type: 'organization', organizationId: organization.id }) ? organization : null;
}

/** Whether an organization exists, readable or not (its pages are public: see authcheck). */
export async function organizationExists(ctx: RequestContext, id: string): Promise<boolean> {
  return isUuid(id) && (await ctx.loaders.identity.organizationById.load(id.toLowerCase())) !== null;
}

/** A user as the policy sees it: itself, and the organizations it belongs to. */
export async function userSubject(ctx: RequestContext, userId: string): Promise<Subject> {
  const [memberships, user] = await Promise.all([ctx.loaders.identity.membershipsByUser.load(userId), ctx.loaders.identity.userById.load(userId)]);
  return { type: 'user', ownerId: userId, memberOf: memberships.map((m) => m.organizationId), siteAdmin: user?.siteAdmin ?? false };
}

export async function findUser(ctx: RequestContext, id: string): Promise<UserRecord | null> {
  requireViewer(ctx);
  const user = await ctx.loaders.identity.userById.load(id.toLowerCase());
  return user && can(ctx.viewer, 'read', await userSubject(ctx, user.id)) ? user : null;
}

export async function findMembership(ctx: RequestContext, id: string): Promise<MembershipRecord | null> {
  requireViewer(ctx);
  const membership = await ctx.loaders.identity.membershipById.load(id.toLowerCase());
  return membership && can(ctx.viewer, 'read', { type: 'organization_member', organizationId: membership.organizationId }) ? membership : null;
}

/** The memberships of a user that the caller may see. */
export async function membershipsOf(ctx: RequestContext, userId: string): Promise<MembershipRecord[]> {
  const all = await ctx.loaders.identity.membershipsByUser.load(userId);
  return all.filter((m) => can(ctx.viewer, 'read', { type: 'organization_member', organizationId: m.organizationId }));
}

export async function membersOf(ctx: RequestContext, organizationId: string, page: PageRequest): Promise<Slice<MembershipRecord>> {
  if (!can(ctx.viewer, 'read', { type: 'organization_member', organizationId })) return { items: [], hasNextPage: false, hasPreviousPage: false };
  return ctx.loaders.identity.membersOfOrganization.page(organizationId, page);
}

export async function countMembers(ctx: RequestContext, organizationId: string): Promise<number> {
  if (!can(ctx.viewer, 'read', { type: 'organization_member', organizationId })) return 0;
  return ctx.loaders.identity.membersOfOrganization.count(organizationId);
}
