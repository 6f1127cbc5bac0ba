import type { JWTPayload } from 'jose';
import type { AppDeps, RequestContext } from '../context/index.ts';
import { mayTakePageToken, PAGE_SCOPES, type Principal } from '../authz/policy.ts';
import { isNumericId, isUuid } from '../db/ids.ts';
import { signToken } from '../oauth/signing.ts';
import { principalForUser } from '../identity/service.ts';
import { findLiveSession } from '../identity/store.ts';
import { pages, type PageRecord } from './store.ts';

/** The claim that tells a page token from an API client's access token (which never carries it). */
const TOKEN_USE = 'page';

/**
 * The page access token a person gets for a page in `/me/accounts` (or `?fields=access_token`, GraphQL
 * `Page.accessToken`): only in a session of its own (a session token, not a job), only for a page whose MODERATE
 * task it holds. An RS256 JWT like the client-credentials tokens (iss, iat, nbf, exp, jti) whose sub is the person,
 * aud the page and `sid` the session: nothing is stored, and it lives as long as that session does (checked on
 * every request, so a logout or a password change ends it) and the person still moderates the page.
 */
export async function issuePageToken(ctx: RequestContext, page: PageRecord): Promise<string | null> {
  const viewer = ctx.viewer;
  if (viewer.kind !== 'user' || !viewer.sessionId || !mayTakePageToken(viewer, page.organizationId)) return null;
  // Never longer than a session can live; the session's own end is checked on every use.
  return signToken(ctx, {
    claims: { token_use: TOKEN_USE, sid: viewer.sessionId },
    subject: viewer.userId,
    audience: page.id,
    ttlSeconds: ctx.config.sessionTtlSeconds,
  });
}

export const isPageTokenClaims = (payload: JWTPayload): boolean => payload.token_use === TOKEN_USE;

/**
 * The principal behind a verified page token's claims, or null when it no longer acts: its session ended (expired,
 * revoked, a password change), its person was suspended or no longer moderates the page, or the page is gone.
 */
export async function pagePrincipal(deps: Pick<AppDeps, 'db'>, payload: JWTPayload): Promise<Principal | null> {
  const { sub, aud, sid } = payload;
  if (typeof sub !== 'string' || typeof aud !== 'string' || typeof sid !== 'string' || !isNumericId(aud) || !isUuid(sid)) return null;
  const found = await findLiveSession(deps.db, { id: sid }, new Date());
  if (!found || found.user.id !== sub || found.user.status === 'suspended') return null;
  const row = await deps.db(pages.table).where({ id: aud }).first('organization_id');
  if (!row) return null;
  const organizationId = String(row.organization_id);
  if (!mayTakePageToken(principalForUser(found.user, found.memberships, sid), organizationId)) return null;
  return { kind: 'page', pageId: aud, organizationId, userId: sub, sessionId: sid, scopes: new Set(PAGE_SCOPES) };
}
