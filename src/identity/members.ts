import type { RequestContext } from '../context/index.ts';
import { can, ROLES, type Role } from '../authz/policy.ts';
import { badInput, DomainError, forbidden, notFound } from '../errors/index.ts';
import { assertUuid, findMembership, findOrganization, findUser, requireViewer, userSubject, validateEmail } from './service.ts';
import * as store from './store.ts';
import type { MembershipRecord, UserRecord } from './store.ts';

function validateRole(role: unknown): Role {
  if (typeof role !== 'string' || !(ROLES as readonly string[]).includes(role)) throw badInput('role', `Role must be one of ${ROLES.join(', ')}.`);
  return role as Role;
}

/** The standard order of checks for a write: invisible is 404, visible but not allowed is 403. */
async function visibleMembership(ctx: RequestContext, id: string, action: 'update' | 'delete'): Promise<MembershipRecord> {
  requireViewer(ctx);
  assertUuid(id);
  const membership = await findMembership(ctx, id);
  if (!membership) throw notFound('Organization member', id);
  if (!can(ctx.viewer, action, { type: 'organization_member', organizationId: membership.organizationId })) throw forbidden();
  return membership;
}

export async function addMember(ctx: RequestContext, input: { organizationId: string; email: string; role: string }): Promise<MembershipRecord> {
  requireViewer(ctx);
  assertUuid(input.organizationId, 'organizationId');
  const organization = await findOrganization(ctx, input.organizationId);
  if (!organization) throw notFound('Organization', input.organizationId);
  if (!can(ctx.viewer, 'create', { type: 'organization_member', organizationId: organization.id })) throw forbidden();
  const role = validateRole(input.role);
  const user = await store.findUserByEmail(ctx.db, validateEmail(input.email));
  if (!user) throw new DomainError('NOT_FOUND', 'No user has this e-mail address.', { field: 'email' });
  if (await store.findMembership(ctx.db, organization.id, user.id)) {
    throw new DomainError('CONFLICT', 'This user is already a member of the organization.', { field: 'email' });
  }
  return store.insertMembership(ctx.db, organization.id, user.id, role);
}

export async function changeMemberRole(ctx: RequestContext, input: { id: string; role: string }): Promise<MembershipRecord> {
  const membership = await visibleMembership(ctx, input.id, 'update');
  const role = validateRole(input.role);
  const now = new Date();
  await store.updateMembershipRole(ctx.db, membership.id, role, now);
  return { ...membership, role, updatedAt: now };
}

export async function removeMember(ctx: RequestContext, id: string): Promise<void> {
  const membership = await visibleMembership(ctx, id, 'delete');
  await store.deleteMembership(ctx.db, membership.id);
}

export async function updateUser(ctx: RequestContext, input: { id: string; name: string }): Promise<UserRecord> {
  requireViewer(ctx);
  assertUuid(input.id);
  const user = await findUser(ctx, input.id);
  if (!user) throw notFound('User', input.id);
  if (!can(ctx.viewer, 'update', await userSubject(ctx, user.id))) throw forbidden();
  if (input.name.length > 128) throw badInput('name', 'Name must be at most 128 characters.');
  // PostgreSQL refuses NUL in text: refused here as the caller's mistake, never a 500.
  if (input.name.includes('\u0000')) throw badInput('name', 'Name must not contain NUL characters.');
  const now = new Date();
  await store.updateUserName(ctx.db, user.id, input.name, now);
  return { ...user, name: input.name, updatedAt: now };
}
