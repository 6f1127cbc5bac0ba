import { randomBytes, randomUUID } from 'node:crypto';
import type { AppDeps, RequestContext } from '../context/index.ts';
import { SCOPES, SCOPE_ALIASES } from '../authz/policy.ts';
import { findReadable, readableChildren, readableCount } from '../authz/guards.ts';
import { allocateIds } from '../db/ids.ts';
import { listingPage, type ListingRequest, type PageRequest } from '../db/pagination.ts';
import { badInput, DomainError } from '../errors/index.ts';
import { findOrganizationByIdOrName } from '../identity/store.ts';
import { apiClients, findClientByClientId, type ApiClientRecord } from './store.ts';

const SCOPE_WORDS = [...SCOPES, ...Object.keys(SCOPE_ALIASES)];

export function parseScope(scope: string, field = 'scope'): string {
  const words = scope.split(/\s+/).filter(Boolean);
  if (words.length === 0) throw badInput(field, `At least one scope is required: ${SCOPE_WORDS.join(', ')}.`);
  const unknown = words.filter((w) => !SCOPE_WORDS.includes(w));
  if (unknown.length > 0) throw badInput(field, `Unknown scope "${unknown[0]}"; known scopes: ${SCOPE_WORDS.join(', ')}.`);
  return [...new Set(words)].join(' ');
}

/**
 * Registers an API client for an operator (CLI). The secret is generated here, returned once and only
 * its bcrypt hash is stored.
 */
export async function createClient(
  deps: AppDeps,
  input: { name: string; scope: string; organization: string },
): Promise<{ client: ApiClientRecord; clientSecret: string }> {
  const name = input.name.trim();
  if (name === '' || name.length > 255) throw badInput('name', 'Client name must be 1 to 255 characters.');
  const scope = parseScope(input.scope);
  const organization = await findOrganizationByIdOrName(deps.db, input.organization);
  if (!organization) throw badInput('org', `No organization "${input.organization}".`);
  const clientSecret = randomBytes(32).toString('base64url');
  const hash = await deps.passwords.hash(clientSecret, deps.config.bcryptCost);
  const client = await deps.db.transaction(async (trx) => {
    const [id] = await allocateIds(trx, 'api_client');
    const now = new Date();
    const record: ApiClientRecord = {
      id: id!,
      clientId: randomUUID(),
      clientName: name,
      clientSecret: hash,
      secretVersion: 1,
      scope,
      organizationId: organization.id,
      createdAt: now,
      updatedAt: now,
    };
    await trx(apiClients.table).insert(apiClients.toRow(record));
    return record;
  });
  return { client, clientSecret };
}

export async function listAllClients(deps: AppDeps): Promise<ApiClientRecord[]> {
  const rows = await deps.db(apiClients.table).orderBy('id');
  return rows.map(apiClients.fromRow);
}

/** Clients in id order for the CLI's `clients list`: all of them, or one organization's (id or name). */
export async function listClients(deps: AppDeps, request: ListingRequest, filter: { organization?: string } = {}) {
  const query = deps.db(apiClients.table);
  if (filter.organization !== undefined) {
    const organization = await findOrganizationByIdOrName(deps.db, filter.organization);
    if (!organization) throw badInput('org', `No organization "${filter.organization}".`);
    query.where('organization_id', organization.id);
  }
  return listingPage(query, apiClients, request, 'number');
}

/** An API client the caller may read: as its organization's roles allow, or itself (an app addresses its own id: its webhook subscriptions). */
export const findApiClient = (ctx: RequestContext, id: string) =>
  ctx.viewer.kind === 'client' && ctx.viewer.apiClientId === id
    ? ctx.loaders.oauth.apiClientById.load(id)
    : findReadable(ctx, 'api_client', id, (key) => ctx.loaders.oauth.apiClientById.load(key));

export const apiClientsOfOrganization = (ctx: RequestContext, organizationId: string, page: PageRequest) =>
  readableChildren(ctx, 'api_client', organizationId, () => ctx.loaders.oauth.apiClientsOfOrganization.page(organizationId, page));

export const countApiClientsOfOrganization = (ctx: RequestContext, organizationId: string) =>
  readableCount(ctx, 'api_client', organizationId, () => ctx.loaders.oauth.apiClientsOfOrganization.count(organizationId));

export async function requireClient(deps: AppDeps, clientId: string): Promise<ApiClientRecord> {
  const client = await findClientByClientId(deps.db, clientId);
  if (!client) throw new DomainError('NOT_FOUND', `No API client "${clientId.slice(0, 128)}".`, { field: 'client_id' });
  return client;
}

/** Deletes a client: its tokens stop working at once (verification requires the client to exist). */
export async function deleteClient(deps: AppDeps, clientId: string): Promise<ApiClientRecord> {
  const client = await requireClient(deps, clientId);
  // The graph_objects row owns the id; deleting it cascades to the client.
  await deps.db('graph_objects').where('id', client.id).delete();
  return client;
}

/** A new secret, shown once; the old one (and every remembered verification of it) stops working. */
export async function rotateClientSecret(deps: AppDeps, clientId: string): Promise<{ client: ApiClientRecord; clientSecret: string }> {
  const client = await requireClient(deps, clientId);
  const clientSecret = randomBytes(32).toString('base64url');
  const hash = await deps.passwords.hash(clientSecret, deps.config.bcryptCost);
  const now = new Date();
  await deps
    .db(apiClients.table)
    .where('id', client.id)
    .update({ client_secret: hash, secret_version: client.secretVersion + 1, updated_at: now });
  return { client: { ...client, clientSecret: hash, secretVersion: client.secretVersion + 1, updatedAt: now }, clientSecret };
}
