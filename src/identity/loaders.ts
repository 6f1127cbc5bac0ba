import { allByColumn, byId, childrenOf, lazyLoaders } from '../db/lazy-loaders.ts';
import { invitations, memberships, organizations, users } from './store.ts';

/** Per-request loaders of the identity domain. Raw reads: the service decides what the caller may see. */
export const createIdentityLoaders = lazyLoaders({
  organizationById: byId(organizations),
  userById: byId(users),
  membershipById: byId(memberships),
  membershipsByUser: allByColumn(memberships, 'user_id'),
  membersOfOrganization: childrenOf(memberships, 'organization_id'),
  invitationById: byId(invitations),
  invitationsOfOrganization: childrenOf(invitations, 'organization_id'),
});

export type IdentityLoaders = ReturnType<typeof createIdentityLoaders>;
