import type { Db } from '../db/index.ts';
import { lazyLoaders } from '../db/lazy-loaders.ts';
import { loaderById, loaderByColumn, pagedChildren } from '../db/batch.ts';
import { invitations, memberships, organizations, users } from './store.ts';

/** Per-request loaders of the identity domain. Raw reads: the service decides what the caller may see. */
export const createIdentityLoaders = lazyLoaders({
  organizationById: (db: Db) => loaderById(db, organizations),
  userById: (db: Db) => loaderById(db, users),
  membershipById: (db: Db) => loaderById(db, memberships),
  membershipsByUser: (db: Db) => loaderByColumn(db, memberships, 'user_id'),
  membersOfOrganization: (db: Db) => pagedChildren(db, memberships, 'organization_id'),
  invitationById: (db: Db) => loaderById(db, invitations),
  invitationsOfOrganization: (db: Db) => pagedChildren(db, invitations, 'organization_id'),
});

export type IdentityLoaders = ReturnType<typeof createIdentityLoaders>;
