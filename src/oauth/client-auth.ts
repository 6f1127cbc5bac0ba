import { createHash } from 'node:crypto';
import type { AppDeps } from '../context/index.ts';
import { DomainError } from '../errors/index.ts';
import { dummyPasswordHash } from '../identity/service.ts';
import { findClientByClientId, type ApiClientRecord } from './store.ts';

const MAX_CACHED = 10_000;
// client_id, stored hash and SHA-256 of the presented secret -> when the remembered success expires.
const verified = new Map<string, number>();

const cacheKey = (client: ApiClientRecord, secret: string) =>
  `${client.clientId}\u0000${client.clientSecret}\u0000${createHash('sha256').update(secret).digest('hex')}`;

function remember(key: string, ttlMs: number): void {
  if (verified.size >= MAX_CACHED) verified.delete(verified.keys().next().value!); // oldest first
  verified.set(key, Date.now() + ttlMs);
}

function remembered(key: string): boolean {
  const until = verified.get(key);
  if (until === undefined) return false;
  if (until > Date.now()) return true;
  verified.delete(key);
  return false;
}

export const invalidClient = () => new DomainError('UNAUTHENTICATED', 'Client authentication failed.', { oauthError: 'invalid_client' });

/**
 * Checks client credentials. Unknown client and wrong secret give the same error after the same bcrypt work
 * (a dummy hash for unknown ids); failures count per client_id and per IP. A success is remembered for a
 * short time, keyed by the stored hash too, so rotating the secret forgets it: a client fetching tokens
 * again and again costs a signature, not a bcrypt.
 */
export async function authenticateClient(deps: AppDeps, clientId: string, secret: string, ipAddress = 'unknown'): Promise<ApiClientRecord> {
  await deps.rateLimits.check('tokenFailuresByClient', clientId);
  await deps.rateLimits.check('tokenFailuresByIp', ipAddress);
  const client = clientId.length <= 128 ? await findClientByClientId(deps.db, clientId) : null;
  const key = client ? cacheKey(client, secret) : undefined;
  const cached = key !== undefined && remembered(key);
  const ok = cached || (await deps.passwords.verify(secret.slice(0, 256), client?.clientSecret ?? (await dummyPasswordHash(deps))));
  if (!client || !ok) {
    await deps.rateLimits.consume('tokenFailuresByClient', clientId);
    await deps.rateLimits.consume('tokenFailuresByIp', ipAddress);
    throw invalidClient();
  }
  if (!cached) {
    // As a successful login does: a client that authenticates is not a brute-force attempt in progress.
    await deps.rateLimits.reset('tokenFailuresByClient', clientId);
    if (deps.config.clientAuthCacheSeconds > 0) remember(key!, deps.config.clientAuthCacheSeconds * 1000);
  }
  return client;
}
