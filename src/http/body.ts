import { badInput, DomainError } from '../errors/index.ts';

/**
 * A JSON request body must be an object with only the fields the route knows: an unknown field is more
 * likely a caller's typo than something to ignore.
 */
export function requireJsonObject(body: unknown, allowed: readonly string[]): Record<string, unknown> {
  if (body === undefined || body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new DomainError('BAD_USER_INPUT', 'Request body must be a JSON object.');
  }
  const unknown = Object.keys(body).find((key) => !allowed.includes(key));
  if (unknown !== undefined) throw badInput(unknown, `Unknown field "${unknown}".`);
  return body as Record<string, unknown>;
}
