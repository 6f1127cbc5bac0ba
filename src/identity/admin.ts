import type { AppDeps } from '../context/index.ts';
import { isUuid } from '../db/ids.ts';
import { listingPage, type ListingRequest } from '../db/pagination.ts';
import { badInput, DomainError } from '../errors/index.ts';
import type { Role } from '../authz/policy.ts';
import { checkPasswordPolicy } from './password.ts';
import { validateEmail } from './service.ts';
import * as store from './store.ts';
import type { OrganizationRecord, UserRecord } from './store.ts';

/**
 * Operator reads and the password reset for the command line (DECISIONS section 7). No principal: whoever can
 * run the CLI against the database is the operator. Bad input names the CLI option or argument it came from.
 */

export async function findOrganizationOrNotFound(deps: AppDeps, idOrName: string, field = 'organization'): Promise<OrganizationRecord> {
  const found = await store.findOrganizationByIdOrName(deps.db, idOrName);
  if (!found) throw new DomainError('NOT_FOUND', `No organization "${idOrName}".`, { field });
  return found;
}

export function listOrganizations(deps: AppDeps, request: ListingRequest) {
  return listingPage(deps.db(store.organizations.table), store.organizations, request, 'uuid');
}

export interface OrganizationDetails {
  organization: OrganizationRecord;
  /** Members by role. */
  members: Partial<Record<Role, number>>;
}

export async function organizationDetails(deps: AppDeps, idOrName: string): Promise<OrganizationDetails> {
  const organization = await findOrganizationOrNotFound(deps, idOrName);
  const rows: Array<{ role: Role; n: number | string }> = await deps
    .db(store.memberships.table)
    .where('organization_id', organization.id)
    .groupBy('role')
    .orderBy('role')
    .select('role', deps.db.raw('count(*) as n'));
  return { organization, members: Object.fromEntries(rows.map((row) => [row.role, Number(row.n)])) };
}

/** Users, all of them or the members of one organization (id or name). */
export async function listUsers(deps: AppDeps, request: ListingRequest, filter: { organization?: string } = {}) {
  const query = deps.db(store.users.table);
  if (filter.organization !== undefined) {
    const organization = await findOrganizationOrNotFound(deps, filter.organization, 'org');
    query
      .join(store.memberships.table, `${store.memberships.table}.user_id`, `${store.users.table}.id`)
      .where(`${store.memberships.table}.organization_id`, organization.id);
  }
  return listingPage(query, store.users, request, 'uuid');
}

/** A user by id or e-mail address; `field` names the argument it came from. */
export async function findUserOrNotFound(deps: AppDeps, idOrEmail: string, field = 'user'): Promise<UserRecord> {
  let user: UserRecord | null;
  if (isUuid(idOrEmail)) {
    const row = await deps.db(store.users.table).where('id', idOrEmail.toLowerCase()).first();
    user = row ? store.users.fromRow(row) : null;
  } else {
    if (!idOrEmail.includes('@')) throw badInput(field, `"${idOrEmail}" is neither a user id (a UUID) nor an e-mail address.`);
    user = await store.findUserByEmail(deps.db, validateEmail(idOrEmail, field));
  }
  if (!user) throw new DomainError('NOT_FOUND', `No user "${idOrEmail}".`, { field });
  return user;
}

export interface UserDetails {
  user: UserRecord;
  memberships: Array<{ organizationId: string; organizationName: string; role: Role }>;
  /** Sessions not revoked and not expired. */
  liveSessions: number;
}

export async function userDetails(deps: AppDeps, idOrEmail: string): Promise<UserDetails> {
  const user = await findUserOrNotFound(deps, idOrEmail);
  const [memberships, sessions] = await Promise.all([
    deps
      .db(store.memberships.table)
      .join(store.organizations.table, `${store.organizations.table}.id`, `${store.memberships.table}.organization_id`)
      .where(`${store.memberships.table}.user_id`, user.id)
      .orderBy(`${store.organizations.table}.name`)
      .select(
        `${store.organizations.table}.id as organization_id`,
        `${store.organizations.table}.name as organization_name`,
        `${store.memberships.table}.role`,
      ),
    deps.db(store.sessions.table).where('user_id', user.id).whereNull('revoked_at').where('expires_at', '>', new Date()).count({ n: '*' }).first(),
  ]);
  return {
    user,
    memberships: memberships.map((row: { organization_id: string; organization_name: string; role: Role }) => ({
      organizationId: row.organization_id,
      organizationName: row.organization_name,
      role: row.role,
    })),
    liveSessions: Number(sessions?.n ?? 0),
  };
}

/**
 * An operator sets a user's password: the same policy as every other way to set one, hashed like them, and
 * every session of the user revoked (whoever held one signs in again). Users who sign in elsewhere (GitHub,
 * OIDC) or with tokens only are refused: a password would open a second way in that their provider does not see.
 */
export async function resetPassword(deps: AppDeps, input: { user: string; password: string }): Promise<{ user: UserRecord; revokedSessions: number }> {
  const user = await findUserOrNotFound(deps, input.user);
  if (user.loginType !== 'password' && user.loginType !== 'none') {
    throw badInput('user', `${user.email} signs in with ${user.loginType}, not a password; a password reset does not apply.`);
  }
  const verdict = checkPasswordPolicy(input.password);
  if (!verdict.valid) throw badInput('password', verdict.details);
  const hashed = await deps.passwords.hash(input.password, deps.config.bcryptCost);
  const revokedSessions = await store.resetPassword(deps.db, user.id, hashed, new Date());
  return { user, revokedSessions };
}
