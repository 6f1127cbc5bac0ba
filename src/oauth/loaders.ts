import { byId, childrenOf, lazyLoaders } from '../db/lazy-loaders.ts';
import { apiClients } from './store.ts';

export const createOAuthLoaders = lazyLoaders({
  apiClientById: byId(apiClients),
  apiClientsOfOrganization: childrenOf(apiClients, 'organization_id'),
});
