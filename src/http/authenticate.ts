import type { RequestHandler } from 'express';
import type { AppDeps, RequestContext } from '../context/index.ts';
import { createRequestContext } from '../context/index.ts';
import { ANONYMOUS, type Principal } from '../authz/policy.ts';
import { authenticateSessionToken } from '../identity/service.ts';
import { looksLikeJwt, TOKEN_FAILURE_MESSAGES, verifyAccessToken } from '../oauth/tokens.ts';
import { invalidAccessToken, invalidSessionToken } from '../errors/index.ts';

const MAX_TOKEN_LENGTH = 8192;

declare module 'express-serve-static-core' {
  interface Locals {
    ctx: RequestContext;
  }
}

/** The token a request carries: `Service-Session-Token`, or `Authorization: Bearer <token>` (a session token or an access token). */
export function presentedToken(headers: Record<string, string | string[] | undefined>): string | undefined {
  const session = headers['service-session-token'];
  if (typeof session === 'string' && session !== '') return session;
  const authorization = headers.authorization;
  if (typeof authorization === 'string') {
    const match = /^Bearer\s+(\S+)$/i.exec(authorization);
    if (match) return match[1];
  }
  return undefined;
}

/**
 * The principal behind a session token or an access token (a JWT). A session that is unknown or lapsed is null
 * (the caller is anonymous and whatever needs a principal answers "signed out"); an access token that fails is
 * refused here, with why, for every surface alike (RFC 6750 `invalid_token`, /v24.0's error 190).
 */
export async function resolvePrincipal(deps: AppDeps, token: string): Promise<Principal | null> {
  if (looksLikeJwt(token)) {
    const check = token.length > MAX_TOKEN_LENGTH ? { ok: false as const, failure: 'invalid' as const } : await verifyAccessToken(deps, token);
    if (!check.ok) throw invalidAccessToken(TOKEN_FAILURE_MESSAGES[check.failure]);
    return check.principal;
  }
  return token.length > MAX_TOKEN_LENGTH ? null : authenticateSessionToken(deps, token);
}

export interface AuthenticateOptions {
  /**
   * Refuse a session token that names no live session (unknown, expired, revoked, a suspended user's) as an
   * invalid access token is refused, instead of taking the caller for anonymous: /graphql's status policy.
   */
  refuseInvalidSession?: boolean;
  /** The surface, as the change history names it (`GraphQL`, `Identity API`). */
  application?: string;
}

/**
 * Resolves the principal once per request and builds the request context (res.locals.ctx) that the
 * routes and resolvers read; they never parse credentials themselves. A missing token leaves the caller
 * anonymous, and the services refuse what needs a principal; an access token that fails is refused at once
 * (resolvePrincipal), in the surface's error shape (its error handler), and so is a session that is not valid
 * when the surface asks for it (refuseInvalidSession); otherwise that caller is anonymous too.
 */
export function authenticate(deps: AppDeps, options: AuthenticateOptions = {}): RequestHandler {
  return async (req, res, next) => {
    const token = presentedToken(req.headers);
    const principal = token !== undefined ? await resolvePrincipal(deps, token) : null;
    if (token !== undefined && principal === null && options.refuseInvalidSession) return next(invalidSessionToken());
    res.locals.ctx = createRequestContext(deps, {
      requestId: String(req.id),
      viewer: principal ?? ANONYMOUS,
      ip: req.ip,
      log: () => req.log,
      origin: { application: options.application ?? 'adgraph' },
      sharedCaches: true,
    });
    next();
  };
}
