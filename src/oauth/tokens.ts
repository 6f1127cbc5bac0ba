import { errors as joseErrors, jwtVerify, type JWTPayload } from 'jose';
import type { AppDeps } from '../context/index.ts';
import { expandScopes, type Principal } from '../authz/policy.ts';
import { isPageTokenClaims, pagePrincipal } from '../comments/page-tokens.ts';
import { signToken } from './signing.ts';
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
  const ttl = deps.config.tokenTtlSeconds;
  const scopes = narrowed ?? (deps.config.tokenScopeClaim ? client.scope.split(' ').filter(Boolean) : undefined);
  const accessToken = await signToken(deps, { claims: scopes ? { scope: scopes } : {}, subject: client.clientId, audience: client.clientId, ttlSeconds: ttl });
  return { accessToken, expiresIn: ttl, scope: narrowed?.join(' ') };
}

export const looksLikeJwt = (token: string) => /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/.test(token);

/**
 * Why an access token is refused (RFC 6750 `invalid_token`): it has expired, is not valid yet, names an API client
 * that was deleted, or is not ours (malformed, a bad signature, an unpublished key, a wrong issuer or audience,
 * a missing claim). Forgeries learn nothing more than "invalid".
 */
export type TokenFailure = 'expired' | 'not_yet_valid' | 'client_deleted' | 'page_access_ended' | 'invalid';

export const TOKEN_FAILURE_MESSAGES: Record<TokenFailure, string> = {
  expired: 'Invalid access token: it has expired. Get a new one from /oauth2/token.',
  not_yet_valid: 'Invalid access token: it is not valid yet.',
  client_deleted: 'Invalid access token: its API client no longer exists.',
  page_access_ended:
    'Invalid access token: the session this page token was given in has ended, or its person no longer moderates the page. Get a new one from /me/accounts.',
  invalid: 'Invalid access token: it could not be verified.',
};

export type AccessTokenCheck = { ok: true; principal: Principal } | { ok: false; failure: TokenFailure };

function failureOf(error: unknown): TokenFailure {
  if (error instanceof joseErrors.JWTExpired) return 'expired';
  if (error instanceof joseErrors.JWTClaimValidationFailed && error.claim === 'nbf' && error.reason === 'check_failed') return 'not_yet_valid';
  return 'invalid';
}

/**
 * The client principal behind an access token, or why it is refused: RS256 only (no `none`, no HMAC with the
 * public key), a published kid, iss, exp and nbf within the clock tolerance, aud equal to sub, and a client that
 * still exists. The principal acts with its client's organization and the token's scopes (never more than the
 * client has now).
 */
export async function verifyAccessToken(deps: AppDeps, token: string): Promise<AccessTokenCheck> {
  let payload: JWTPayload;
  try {
    ({ payload } = await jwtVerify(
      token,
      async (header) => {
        const key = await deps.keys.verificationKey(header.kid);
        if (!key) throw new Error('unknown kid');
        return key;
      },
      {
        algorithms: ['RS256'],
        issuer: deps.config.tokenIssuer,
        clockTolerance: deps.config.tokenClockToleranceSeconds,
        requiredClaims: ['sub', 'aud', 'iat', 'nbf', 'exp', 'jti'],
      },
    ));
  } catch (error) {
    return { ok: false, failure: failureOf(error) };
  }
  if (isPageTokenClaims(payload)) {
    const principal = await pagePrincipal(deps, payload);
    return principal ? { ok: true, principal } : { ok: false, failure: 'page_access_ended' };
  }
  const audience = Array.isArray(payload.aud) ? payload.aud : [payload.aud];
  if (typeof payload.sub !== 'string' || audience.length !== 1 || audience[0] !== payload.sub) return { ok: false, failure: 'invalid' };
  const client = await findClientByClientId(deps.db, payload.sub);
  if (!client) return { ok: false, failure: 'client_deleted' };
  const granted = expandScopes(client.scope.split(' '));
  const claimed = Array.isArray(payload.scope) ? expandScopes(payload.scope.filter((s): s is string => typeof s === 'string')) : granted;
  return {
    ok: true,
    principal: {
      kind: 'client',
      clientId: client.clientId,
      apiClientId: client.id,
      organizationId: client.organizationId,
      scopes: new Set([...claimed].filter((scope) => granted.has(scope))),
    },
  };
}
