import { randomUUID } from 'node:crypto';
import { SignJWT, type JWTPayload } from 'jose';
import type { AppDeps } from '../context/index.ts';

/**
 * Signs one of the server's RS256 tokens with the active key: iss, iat, nbf, exp and a unique jti around the
 * caller's claims (an API client's access token, a person's page token).
 */
export async function signToken(
  deps: Pick<AppDeps, 'keys' | 'config'>,
  token: { claims: JWTPayload; subject: string; audience: string; ttlSeconds: number },
): Promise<string> {
  const key = await deps.keys.active();
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT(token.claims)
    .setProtectedHeader({ alg: 'RS256', kid: key.kid, typ: 'JWT' })
    .setSubject(token.subject)
    .setAudience(token.audience)
    .setIssuer(deps.config.tokenIssuer)
    .setIssuedAt(now)
    .setNotBefore(now)
    .setExpirationTime(now + token.ttlSeconds)
    .setJti(randomUUID())
    .sign(key.privateKey);
}
