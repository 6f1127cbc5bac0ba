import { randomUUID } from 'node:crypto';
import { jwtVerify, SignJWT, type JWTPayload } from 'jose';
import type { AppDeps } from '../context/index.ts';
import { expandScopes, type Principal } from '../authz/policy.ts';
import { findClientByClientId } from './store.ts';
import type { ApiClientRecord } from './store.ts';

export interface IssuedToken {
  accessToken: string;
  expiresIn: number;
  /** The narrowed scope, when the request asked for one. */
  scope?: string;
}

/**
 * An RS256 access token for a client (DECISIONS section 3): sub = aud = client_id, iss, iat, nbf, exp,
 * a unique jti, and `scope` (a JSON array) when configured or when the token was narrowed.
 */
export async function issueAccessToken(deps: AppDeps, client: ApiClientRecord, narrowed?: string[]): Promise<IssuedToken> {
  const key = await deps.keys.active();
  const now = Math.floor(Date.now() / 1000);
  const ttl = deps.config.tokenTtlSeconds;
  const scopes = narrowed ?? (deps.config.tokenScopeClaim ? client.scope.split(' ').filter(Boolean) : undefined);
  const accessToken = await new SignJWT(scopes ? { scope: scopes } : {})
    .setProtectedHeader({ alg: 'RS256', kid: key.kid, typ: 'JWT' })
    .setSubject(client.clientId)
    .setAudience(client.clientId)
    .setIssuer(deps.config.tokenIssuer)
    .setIssuedAt(now)
    .setNotBefore(now)
    .setExpirationTime(now + ttl)
    .setJti(randomUUID())
    .sign(key.privateKey);
  return { accessToken, expiresIn: ttl, scope: narrowed?.join(' ') };
}

export const looksLikeJwt = (token: string) => /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/.test(token);

/**
 * The client principal behind an access token, or null when the token fails any check: RS256 only (no
 * `none`, no HMAC with the public key), a published kid, iss, exp and nbf within the clock tolerance,
 * aud equal to sub, and a client that still exists. The principal acts with its client's organization and
 * the token's scopes (never more than the client has now).
 */
export async function authenticateAccessToken(deps: AppDeps, token: string): Promise<Principal | null> {
  let payload: JWTPayload;
  try {
    ({ payload } = await jwtVerify(token, async (header) => {
      const key = await deps.keys.verificationKey(header.kid);
      if (!key) throw new Error('unknown kid');
      return key;
    }, {
      algorithms: ['RS256'],
      issuer: deps.config.tokenIssuer,
      clockTolerance: deps.config.tokenClockToleranceSeconds,
      requiredClaims: ['sub', 'aud', 'iat', 'nbf', 'exp', 'jti'],
    }));
  } catch {
    return null;
  }
  const audience = Array.isArray(payload.aud) ? payload.aud : [payload.aud];
  if (typeof payload.sub !== 'string' || audience.length !== 1 || audience[0] !== payload.sub) return null;
  const client = await findClientByClientId(deps.db, payload.sub);
  if (!client) return null;
  const granted = expandScopes(client.scope.split(' '));
  const claimed = Array.isArray(payload.scope) ? expandScopes(payload.scope.filter((s): s is string => typeof s === 'string')) : granted;
  return {
    kind: 'client',
    clientId: client.clientId,
    apiClientId: client.id,
    organizationId: client.organizationId,
    scopes: new Set([...claimed].filter((scope) => granted.has(scope))),
  };
}
