import type { Db } from '../db/index.ts';
import { lazyLoaders } from '../db/lazy-loaders.ts';
import { loaderById, pagedChildren } from '../db/batch.ts';
import { apiClients } from './store.ts';

export const createOAuthLoaders = lazyLoaders({
  apiClientById: (db: Db) => loaderById(db, apiClients),
  apiClientsOfOrganization: (db: Db) => pagedChildren(db, apiClients, 'organization_id'),
});
