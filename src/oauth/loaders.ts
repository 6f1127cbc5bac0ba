import type { Db } from '../db/index.ts';
import { loaderById, pagedChildren } from '../db/batch.ts';
import { apiClients } from './store.ts';

export function createOAuthLoaders(db: Db) {
  return {
    apiClientById: loaderById(db, apiClients),
    apiClientsOfOrganization: pagedChildren(db, apiClients, 'organization_id'),
  };
}
