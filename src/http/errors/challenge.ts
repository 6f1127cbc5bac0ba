import type { DomainError } from '../../errors/index.ts';

/**
 * RFC 6750 section 3: the `WWW-Authenticate` challenge an OAuth resource server answers a refused access token
 * with, on every surface (each keeps its own body). Undefined for anything else: a missing or lapsed session
 * is not a bearer token failure.
 */
export function bearerChallenge(error: DomainError): string | undefined {
  if (error.oauthError !== 'invalid_token') return undefined;
  // error_description is a quoted-string of printable ASCII without `"` or `\` (RFC 6750 section 3).
  const description = error.message.replace(/[^\x20-\x7e]|["\\]/g, '');
  return `Bearer realm="adgraph", error="invalid_token", error_description="${description}"`;
}
