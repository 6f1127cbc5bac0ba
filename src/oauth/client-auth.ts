import { hash } from 'node:crypto';
import type { AppDeps } from '../context/index.ts';
import { DomainError } from '../errors/index.ts';
import { dummyPasswordHash } from '../identity/service.ts';
import { limitGuess } from '../ratelimit/index.ts';
import { findClientByClientId, type ApiClientRecord } from './store.ts';

const MAX_CACHED = 10_000;
// client_id, stored hash and SHA-256 of the presented secret -> when the remembered success expires.
const verified = new Map<string, number>();
// The same keys -> the comparison running now, so concurrent requests with one secret cost one bcrypt.
const inFlight = new Map<string, Promise<boolean>>();

const cacheKey = (client: ApiClientRecord, secret: string) => `${client.clientId}\u0000${client.clientSecret}\u0000${hash('sha256', secret, 'hex')}`;

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
 * (a dummy hash for unknown ids). Each comparison takes a point per client_id and per IP first (limitGuess): a
 * wrong secret keeps them, a right one gives back its own. A success is remembered for a short time, keyed by
 * the stored hash too, so rotating the secret forgets it: a client fetching tokens again and again costs a
 * signature, not a bcrypt.
 */
export async function authenticateClient(deps: AppDeps, clientId: string, secret: string, ipAddress = 'unknown'): Promise<ApiClientRecord> {
  const limits = [['tokenFailuresByClient', clientId] as const, ['tokenFailuresByIp', ipAddress] as const];
  const client = clientId.length <= 128 ? await findClientByClientId(deps.db, clientId) : null;
  const key = client ? cacheKey(client, secret) : undefined;
  const pending = key === undefined ? undefined : inFlight.get(key);
  if (client && (remembered(key!) || pending)) {
    // Nothing new is compared, so no point is taken (a busy client's concurrent fetches must not use up its
    // allowance); but over the limit the answer is the one a guess gets.
    for (const [rule, limitKey] of limits) await deps.rateLimits.check(rule, limitKey);
    if (pending && !(await pending)) throw invalidClient();
    return client;
  }
  const verifying = limitGuess(deps.rateLimits, limits, async () => {
    const ok = await deps.passwords.verify(secret.slice(0, 256), client?.clientSecret ?? (await dummyPasswordHash(deps)));
    if (!client || !ok) return undefined;
    if (deps.config.clientAuthCacheSeconds > 0) remember(key!, deps.config.clientAuthCacheSeconds * 1000);
    return client;
  });
  if (key !== undefined) {
    // The same secret for the same client sent again while it is being checked waits for that check.
    const settled = verifying.then(Boolean);
    inFlight.set(key, settled);
    void settled.finally(() => inFlight.delete(key)).catch(() => undefined);
  }
  const authenticated = await verifying;
  if (!authenticated) throw invalidClient();
  return authenticated;
}
