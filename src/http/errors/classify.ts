import { DomainError, serviceUnavailable } from '../../errors/index.ts';
import { isConnectionError } from '../../db/index.ts';

/**
 * Every surface starts here: a domain error stays as it is, a path that does not decode is BAD_USER_INPUT, a lost
 * database becomes SERVICE_UNAVAILABLE, and anything else is unexpected (null), to be logged in full and answered
 * without internals.
 */
export function classify(error: unknown): DomainError | null {
  if (error instanceof DomainError) return error;
  if (isMalformedPath(error)) return malformedPath();
  if (isConnectionError(error)) return serviceUnavailable(error);
  return null;
}

/**
 * Express's router %-decodes a route's parameters and marks a URIError with status 400 when one does not decode
 * (`/users/%E0%A4%A/convert-login`): the caller's mistake, not a fault of ours.
 */
function isMalformedPath(error: unknown): boolean {
  return error instanceof URIError && (error as { status?: unknown }).status === 400;
}

const malformedPath = () =>
  new DomainError('BAD_USER_INPUT', 'The request path is malformed: a %-escape in it does not decode to UTF-8.', {
    graph: { code: 100 },
    oauthError: 'invalid_request',
  });

/** Express's body parser marks malformed JSON this way. */
export function isBodyParseError(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { type?: string }).type === 'entity.parse.failed';
}

/**
 * Any other error body-parser raises about the request itself (too large, too many parameters, an
 * unsupported charset or content encoding, an aborted or mis-sized body): the client's fault, never a 500.
 */
export function isBodyReadError(error: unknown): error is { status: number } {
  if (typeof error !== 'object' || error === null) return false;
  const { type, status, expose } = error as { type?: unknown; status?: unknown; expose?: unknown };
  // A body that does not decompress (Content-Encoding: gzip over plain bytes) comes from zlib with only
  // status 400 and expose set by http-errors, no type.
  return (typeof type === 'string' || expose === true) && typeof status === 'number' && status >= 400 && status < 500;
}
