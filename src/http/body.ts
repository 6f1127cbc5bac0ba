import { isUtf8 } from 'node:buffer';
import { MIMEType } from 'node:util';
import express, { type RequestHandler } from 'express';
import { badInput, DomainError } from '../errors/index.ts';
import { parseFormBytes } from '../text/form-encoding.ts';
import { firstJsonFault, type JsonFault } from '../text/json-limits.ts';

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

// --- Reading bodies: the one parse layer of every surface ------------------------------------------------------

export const FORM_TYPE = 'application/x-www-form-urlencoded';
export const JSON_TYPE = 'application/json';

/**
 * body-parser's mark for a body that is not JSON, so every surface answers bytes that are not UTF-8 with its
 * own bad-JSON answer: RFC 8259 section 8.1 has JSON exchanged as UTF-8, and decoding them anyway would store
 * U+FFFD in place of what was sent.
 */
const notUtf8Json = () => Object.assign(new Error('The request body is not valid UTF-8.'), { status: 400, type: 'entity.parse.failed' });

/** What a surface names in a JSON body, each held to the JSON limits on its own: by default its members. */
export type NamedValues = (body: unknown) => Iterable<[string, unknown]>;

const members: NamedValues = (body) =>
  typeof body === 'object' && body !== null && !Array.isArray(body) ? Object.entries(body) : [['body', body] as [string, unknown]];

/**
 * A JSON body (application/json): UTF-8 when no other charset is declared, and each value it names within the
 * JSON limits (src/text/json-limits.ts) before any handler walks it; `refuse` words the refusal in the
 * surface's own terms.
 */
export function jsonBody(options: { limit: string; namedValues?: NamedValues; refuse: (name: string, fault: JsonFault) => DomainError }): RequestHandler[] {
  const namedValues = options.namedValues ?? members;
  const checkBounds: RequestHandler = (req, _res, next) => {
    const found = req.is(JSON_TYPE) ? firstJsonFault(namedValues(req.body)) : undefined;
    next(found && options.refuse(found.name, found.fault));
  };
  const verify = (_req: unknown, _res: unknown, bytes: Buffer, charset: string) => {
    if (charset === 'utf-8' && !isUtf8(bytes)) throw notUtf8Json();
  };
  return [express.json({ limit: options.limit, verify }), checkBounds];
}

/** The charset a form body declares (lower-cased), utf-8 when it declares none; undefined when the header does not parse. */
function charsetOf(contentType: string | undefined): string | undefined {
  try {
    return new MIMEType(contentType ?? '').params.get('charset')?.toLowerCase() ?? 'utf-8';
  } catch {
    return undefined;
  }
}

/**
 * A form body (application/x-www-form-urlencoded), read by src/text/form-encoding.ts like the query string:
 * UTF-8 only (RFC 6749 appendix B, and the platform), names and values that do not decode to UTF-8 refused with
 * the parameter named. body-parser reads the bytes (size limit, Content-Encoding, aborted bodies).
 */
export function formBody(options: { limit: string; maxParameters: number }): RequestHandler[] {
  const parse: RequestHandler = (req, _res, next) => {
    if (!Buffer.isBuffer(req.body)) return next();
    const charset = charsetOf(req.headers['content-type']);
    if (charset !== 'utf-8' && charset !== 'utf8') {
      return next(Object.assign(new Error(`unsupported charset "${charset ?? ''}"`), { status: 415, type: 'charset.unsupported' }));
    }
    req.body = parseFormBytes(req.body, { maxParameters: options.maxParameters });
    next();
  };
  return [express.raw({ type: FORM_TYPE, limit: options.limit }), parse];
}

/** True when the request carries a body of some length (an empty body is no body, whatever its type). */
export function hasBody(headers: Record<string, string | string[] | undefined>): boolean {
  const length = headers['content-length'];
  return headers['transfer-encoding'] !== undefined || (typeof length === 'string' && Number(length) > 0);
}
