import { DomainError, serviceUnavailable } from '../../errors/index.ts';
import { isConnectionError } from '../../db/index.ts';

/**
 * Every surface starts here: a domain error stays as it is, a lost database becomes SERVICE_UNAVAILABLE,
 * and anything else is unexpected (null), to be logged in full and answered without internals.
 */
export function classify(error: unknown): DomainError | null {
  if (error instanceof DomainError) return error;
  if (isConnectionError(error)) return serviceUnavailable(error);
  return null;
}

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
