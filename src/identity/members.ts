import type { RequestContext } from '../context/index.ts';
import { can, ROLES, type Role } from '../authz/policy.ts';
import { badInput, forbidden, notFound } from '../errors/index.ts';
import { assertUuid, findMembership, findUser, requireViewer, userSubject } from './service.ts';
import * as store from './store.ts';
import type { MembershipRecord, UserRecord } from './store.ts';

export function validateRole(role: unknown): Role {
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
