import type { AppDeps } from '../context/index.ts';
import { expandScopes, type Principal } from '../authz/policy.ts';
import { apiClients } from '../oauth/store.ts';
import { principalForUser } from './service.ts';
import { membershipsOfUser, users } from './store.ts';

/** How a stored job acts for the principal who asked: the user, or the API client with the scopes it had. */
export type StoredPrincipal = { kind: 'user'; userId: string } | { kind: 'client'; apiClientId: string; scopes: string[] };

/** The principal as a job stores it: who to act as when it runs (never a token). */
export function storedPrincipal(viewer: Principal): StoredPrincipal {
  if (viewer.kind === 'user') return { kind: 'user', userId: viewer.userId };
  if (viewer.kind === 'client') return { kind: 'client', apiClientId: viewer.apiClientId, scopes: [...viewer.scopes] };
  throw new Error('a stored job needs a principal');
}

/** Who asked, as an owner id: a user's UUID or an API client's id. */
export const ownerOf = (principal: StoredPrincipal) => (principal.kind === 'user' ? principal.userId : principal.apiClientId);

/**
 * The principal a stored job acts as, as it is now: the user with its current roles (none if suspended or
 * gone), or the API client with the scopes it had when it asked that it still holds (none if deleted).
 */
export async function restorePrincipal(deps: Pick<AppDeps, 'db'>, stored: StoredPrincipal): Promise<Principal | null> {
  if (stored.kind === 'user') {
    const row = await deps.db(users.table).where({ id: stored.userId }).first();
    const user = row ? users.fromRow(row) : null;
    if (!user || user.status === 'suspended') return null;
    return principalForUser(user, await membershipsOfUser(deps.db, user.id));
  }
  const row = await deps.db(apiClients.table).where({ id: stored.apiClientId }).first();
  if (!row) return null;
  const client = apiClients.fromRow(row);
  const granted = expandScopes(client.scope.split(' '));
  return {
    kind: 'client',
    clientId: client.clientId,
    apiClientId: client.id,
    organizationId: client.organizationId,
    scopes: new Set(stored.scopes.filter((scope) => granted.has(scope as never)) as never[]),
  };
}
