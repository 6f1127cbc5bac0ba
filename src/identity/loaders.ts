import type { Db } from '../db/index.ts';
import { loaderById, loaderByColumn, pagedChildren } from '../db/batch.ts';
import { invitations, memberships, organizations, users } from './store.ts';

/** Per-request loaders of the identity domain. Raw reads: the service decides what the caller may see. */
export function createIdentityLoaders(db: Db) {
  return {
    organizationById: loaderById(db, organizations),
    userById: loaderById(db, users),
    membershipById: loaderById(db, memberships),
    membershipsByUser: loaderByColumn(db, memberships, 'user_id'),
    membersOfOrganization: pagedChildren(db, memberships, 'organization_id'),
    invitationById: loaderById(db, invitations),
    invitationsOfOrganization: pagedChildren(db, invitations, 'organization_id'),
  };
}

export type IdentityLoaders = ReturnType<typeof createIdentityLoaders>;
