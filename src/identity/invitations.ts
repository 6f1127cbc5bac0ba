import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { RequestContext } from '../context/index.ts';
import { addsMembersDirectly, can, type Principal } from '../authz/policy.ts';
import { EMPTY_SLICE } from '../authz/guards.ts';
import { countRows, fetchSlice, type Filters } from '../db/batch.ts';
import type { Db } from '../db/index.ts';
import { lockRow } from '../db/locks.ts';
import type { PageRequest, Slice } from '../db/pagination.ts';
import { DomainError, forbidden, notFound, validateFields } from '../errors/index.ts';
import { validateRole } from './members.ts';
import { emailKey, invitationStatus, whyClosed, type InvitationStatus } from './rules/invitations.ts';
import { assertUuid, findOrganization, requireViewer, validateEmail } from './service.ts';
import * as store from './store.ts';
import type { InvitationRecord, OrganizationRecord, UserRecord } from './store.ts';

/**
 * Joining an organization takes the user's consent (issue 25): an owner's or admin's addOrganizationMember writes
 * an invitation to the address, which the user having that address accepts or declines, and the organization
 * revokes until then. The answer is the same invitation whether the address is registered, belongs to a member of
 * another organization or to nobody yet, and until it is accepted the organization reads nothing of the user
 * (fellow members read each other; an invitation is no membership). A site admin's add is direct.
 */

/** Who manages an organization's invitations: whoever may add its members (its owners and admins, site admins). */
const managesInvitations = (viewer: Principal, organizationId: string) => can(viewer, 'create', { type: 'organization_member', organizationId });

/** Locks the organization's row: its membership and open invitations change one writer at a time. */
const lockOrganization = (ctx: RequestContext, trx: Knex.Transaction, organizationId: string) =>
  lockRow(ctx.db, trx, store.organizations.table, organizationId);

const conflict = (message: string, field: string) => new DomainError('CONFLICT', message, { field });

/** The user an address names for invitations (rules/invitations.ts emailKey), if any. */
async function userAddressed(db: Db, email: string): Promise<UserRecord | null> {
  const user = await store.findUserByEmail(db, email);
  return user && emailKey(user.email) === emailKey(email) ? user : null;
}

export async function addMember(ctx: RequestContext, input: { organizationId: string; email: string; role: string }): Promise<InvitationRecord> {
  const viewer = requireViewer(ctx);
  assertUuid(input.organizationId, 'organizationId');
  const organization = await findOrganization(ctx, input.organizationId);
  if (!organization) throw notFound('Organization', input.organizationId);
  if (!managesInvitations(viewer, organization.id)) throw forbidden();
  const [role, email] = validateFields([() => validateRole(input.role), () => validateEmail(input.email)]);
  const now = new Date();
  const pending: InvitationRecord = {
    id: randomUUID(),
    organizationId: organization.id,
    email,
    emailKey: emailKey(email),
    role,
    status: 'pending',
    invitedByUserId: viewer.kind === 'user' ? viewer.userId : null,
    membershipId: null,
    createdAt: now,
    updatedAt: now,
    expiresAt: new Date(now.getTime() + ctx.config.invitationTtlSeconds * 1000),
    respondedAt: null,
  };
  const { invitation, invitee } = await ctx.db.transaction(async (trx) => {
    await lockOrganization(ctx, trx, organization.id);
    const user = await userAddressed(trx, email);
    // The caller reads its organization's members anyway: this says nothing about anyone else.
    if (user && (await store.findMembership(trx, organization.id, user.id))) throw conflict('This user is already a member of the organization.', 'email');
    const replaced = await store.closeOpenInvitation(trx, organization.id, pending.emailKey, now);
    if (user && addsMembersDirectly(viewer)) {
      const membership = await store.insertMembership(trx, organization.id, user.id, role);
      const accepted: InvitationRecord = { ...pending, status: 'accepted', membershipId: membership.id, respondedAt: now };
      await store.insertInvitation(trx, accepted);
      return { invitation: accepted, invitee: null };
    }
    await store.insertInvitation(trx, pending);
    // Only the first open invitation is mailed: an admin re-inviting in a loop must not flood someone's inbox
    // (a replacement is in the invitee's myInvitations all the same).
    return { invitation: pending, invitee: replaced ? null : user };
  });
  if (invitee && invitee.status !== 'suspended') mailInvitation(ctx, invitation, invitee, organization);
  return invitation;
}

/** Tells a registered invitee, after the reply (as one-time passcodes do): the answer never waits for it or says it. */
function mailInvitation(ctx: RequestContext, invitation: InvitationRecord, invitee: UserRecord, organization: OrganizationRecord): void {
  void (async () => {
    const inviter = invitation.invitedByUserId ? await ctx.loaders.identity.userById.load(invitation.invitedByUserId) : null;
    await ctx.mailer.send({
      to: invitee.email,
      kind: 'organization_invitation',
      subject: `You are invited to join ${organization.name} on adgraph`,
      text:
        `Hi ${store.displayName(invitee)},\n\n${inviter ? store.displayName(inviter) : 'An administrator'} invited you to join ` +
        `${organization.name} as ${invitation.role}.\n\nSign in to accept or decline it (myInvitations). It expires on ` +
        `${invitation.expiresAt.toISOString()}. Until you accept, ${organization.name} sees nothing of your account.\n`,
    });
  })().catch((error: unknown) => ctx.log.error({ err: error, invitationId: invitation.id }, 'invitation e-mail could not be sent'));
}

async function addressedToViewer(ctx: RequestContext, invitation: InvitationRecord): Promise<boolean> {
  if (ctx.viewer.kind !== 'user') return false;
  const me = await ctx.loaders.identity.userById.load(ctx.viewer.userId);
  return me !== null && emailKey(me.email) === invitation.emailKey;
}

/** An invitation its organization's managers or its addressee may see; null otherwise, as if it did not exist. */
export async function findInvitation(ctx: RequestContext, id: string): Promise<InvitationRecord | null> {
  requireViewer(ctx);
  const invitation = await ctx.loaders.identity.invitationById.load(id.toLowerCase());
  if (!invitation) return null;
  return managesInvitations(ctx.viewer, invitation.organizationId) || (await addressedToViewer(ctx, invitation)) ? invitation : null;
}

/** An invitation the caller may answer this way: invisible is 404, someone else's to answer 403, answered already 409. */
async function openInvitation(ctx: RequestContext, id: string, answer: 'accept' | 'decline' | 'revoke'): Promise<InvitationRecord> {
  requireViewer(ctx);
  assertUuid(id);
  const invitation = await findInvitation(ctx, id);
  if (!invitation) throw notFound('Invitation', id);
  const mayAnswer = answer === 'revoke' ? managesInvitations(ctx.viewer, invitation.organizationId) : await addressedToViewer(ctx, invitation);
  if (!mayAnswer) throw forbidden();
  const closed = whyClosed(invitationStatus(invitation, new Date()));
  if (closed) throw conflict(closed, 'id');
  return invitation;
}

/** The refusal for an invitation another request answered first. */
async function answeredMeanwhile(db: Db, id: string, now: Date): Promise<DomainError> {
  const current = await store.findInvitation(db, id);
  return conflict(whyClosed(current ? invitationStatus(current, now) : 'revoked') ?? 'This invitation has been answered already.', 'id');
}

/** Accepting makes the membership and closes the invitation in one transaction; an invitation is accepted once. */
export async function acceptInvitation(ctx: RequestContext, id: string): Promise<InvitationRecord> {
  const invitation = await openInvitation(ctx, id, 'accept');
  const viewer = ctx.viewer as Extract<Principal, { kind: 'user' }>;
  const now = new Date();
  const membership = await ctx.db.transaction(async (trx) => {
    await lockOrganization(ctx, trx, invitation.organizationId);
    if (!(await store.respondToInvitation(trx, invitation.id, 'accepted', now))) throw await answeredMeanwhile(trx, invitation.id, now);
    if (await store.findMembership(trx, invitation.organizationId, viewer.userId)) throw conflict('You are a member of this organization already.', 'id');
    const made = await store.insertMembership(trx, invitation.organizationId, viewer.userId, invitation.role);
    await store.setInvitationMembership(trx, invitation.id, made.id);
    return made;
  });
  // The rest of this request sees the caller as the member it now is.
  ctx.viewer = { ...viewer, roles: new Map([...viewer.roles, [membership.organizationId, membership.role]]) };
  ctx.loaders.identity.membershipsByUser.clear(viewer.userId);
  return { ...invitation, status: 'accepted', membershipId: membership.id, respondedAt: now, updatedAt: now };
}

async function close(ctx: RequestContext, id: string, answer: 'decline' | 'revoke'): Promise<InvitationRecord> {
  const invitation = await openInvitation(ctx, id, answer);
  const status = answer === 'decline' ? 'declined' : 'revoked';
  const now = new Date();
  if (!(await store.respondToInvitation(ctx.db, invitation.id, status, now))) throw await answeredMeanwhile(ctx.db, invitation.id, now);
  return { ...invitation, status, respondedAt: now, updatedAt: now };
}

export const declineInvitation = (ctx: RequestContext, id: string) => close(ctx, id, 'decline');
export const revokeInvitation = (ctx: RequestContext, id: string) => close(ctx, id, 'revoke');

/** The filters of the caller's own open invitations (those to its address it may still accept); null for API clients. */
async function myOpenInvitations(ctx: RequestContext): Promise<Filters | null> {
  const viewer = requireViewer(ctx);
  const me = viewer.kind === 'user' ? await ctx.loaders.identity.userById.load(viewer.userId) : null;
  return me && { email_key: emailKey(me.email), open: store.invitationStatusCondition(['pending'], new Date()) };
}

export async function myInvitations(ctx: RequestContext, page: PageRequest): Promise<Slice<InvitationRecord>> {
  const filters = await myOpenInvitations(ctx);
  return filters ? fetchSlice(ctx.db, store.invitations, page, filters) : EMPTY_SLICE;
}

export async function countMyInvitations(ctx: RequestContext): Promise<number> {
  const filters = await myOpenInvitations(ctx);
  return filters ? countRows(ctx.db, store.invitations.table, filters) : 0;
}

/** An organization's invitations (of these statuses), for those who manage them; an empty list for anyone else. */
const invitationFilters = (statuses: readonly InvitationStatus[] | undefined): Filters =>
  statuses ? { status: store.invitationStatusCondition(statuses, new Date()) } : {};

export async function invitationsOf(
  ctx: RequestContext,
  organizationId: string,
  page: PageRequest,
  statuses?: readonly InvitationStatus[],
): Promise<Slice<InvitationRecord>> {
  if (!managesInvitations(ctx.viewer, organizationId)) return EMPTY_SLICE;
  return ctx.loaders.identity.invitationsOfOrganization.page(organizationId, page, invitationFilters(statuses));
}

export async function countInvitationsOf(ctx: RequestContext, organizationId: string, statuses?: readonly InvitationStatus[]): Promise<number> {
  if (!managesInvitations(ctx.viewer, organizationId)) return 0;
  return ctx.loaders.identity.invitationsOfOrganization.count(organizationId, invitationFilters(statuses));
}
