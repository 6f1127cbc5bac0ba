import { isUtf8 } from 'node:buffer';
import { DomainError } from '../errors/index.ts';

/**
 * application/x-www-form-urlencoded, read one way wherever it comes: the query string, a form body, a batch
 * item's relative_url and body. Names and values are decoded alike (`%61ccess_token` is access_token; `+` is a
 * space; a `%` not followed by two hex digits stays as it is, as WHATWG URL parsing keeps it). What does not
 * decode to UTF-8 (`name=Bad%FF%FEname`, or raw bytes that are not UTF-8) is refused with the parameter named,
 * rather than changed into U+FFFD (Node's querystring) or kept undecoded (qs) and stored so.
 *
 * A name that comes more than once is a list of its values; the readers refuse it where one value is meant.
 * The object has no prototype, so a parameter named `__proto__` is a parameter like any other.
 */
export type FormFields = Record<string, string | string[]>;

export const MAX_FORM_PARAMETERS = 1_000;

const STRAY_PERCENT = /%(?![0-9A-Fa-f]{2})/g;

/** One name or value %-decoded as UTF-8, or undefined when its escapes do not decode to UTF-8. */
export function decodeFormComponent(text: string): string | undefined {
  if (!text.includes('%') && !text.includes('+')) return text;
  try {
    return decodeURIComponent(text.replace(/\+/g, ' ').replace(STRAY_PERCENT, '%25'));
  } catch {
    return undefined;
  }
}

/** Bytes (one Latin-1 character each) as they would be %-escaped, for a name that cannot be shown as text. */
const asSent = (latin1: string) => latin1.replace(/[\x80-\xff]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

const shown = (text: string) => (text.length > 80 ? `${text.slice(0, 80)}…` : text);

/** Error 100 on /v24.0 and invalid_request on /oauth2, naming the parameter (or, when that is what fails, its name as sent). */
function notUtf8(name: string | undefined, rawName: string): DomainError {
  return name === undefined
    ? new DomainError('BAD_USER_INPUT', `A parameter name is not valid UTF-8: ${shown(rawName)}`, { field: rawName, graph: { code: 100 } })
    : new DomainError('BAD_USER_INPUT', `Param ${name} is not valid UTF-8`, { field: name, graph: { code: 100 } });
}

const tooMany = (limit: number) => new DomainError('BAD_USER_INPUT', `Too many parameters: the limit is ${limit}`, { graph: { code: 100 } });

/** The parameters of form-encoded text (the query string without its `?`). */
export function parseFormEncoded(text: string, options: { maxParameters?: number } = {}): FormFields {
  const limit = options.maxParameters ?? MAX_FORM_PARAMETERS;
  const fields: FormFields = Object.create(null) as FormFields;
  let count = 0;
  for (const piece of text.split('&')) {
    if (piece === '') continue;
    if (++count > limit) throw tooMany(limit);
    const equals = piece.indexOf('=');
    const rawName = equals < 0 ? piece : piece.slice(0, equals);
    const name = decodeFormComponent(rawName);
    const value = decodeFormComponent(equals < 0 ? '' : piece.slice(equals + 1));
    if (name === undefined || value === undefined) throw notUtf8(name, rawName);
    const before = fields[name];
    fields[name] = before === undefined ? value : [...(Array.isArray(before) ? before : [before]), value];
  }
  return fields;
}

/** The parameters of a form body's bytes: UTF-8, raw or %-escaped. */
export function parseFormBytes(body: Buffer, options: { maxParameters?: number } = {}): FormFields {
  if (isUtf8(body)) return parseFormEncoded(body.toString('utf8'), options);
  // `&` and `=` are single bytes that UTF-8 never uses inside a character: split the bytes (one Latin-1 character
  // each) to find the parameter whose bytes are not UTF-8.
  for (const piece of body.toString('latin1').split('&')) {
    const bytes = Buffer.from(piece, 'latin1');
    if (isUtf8(bytes)) continue;
    const equals = piece.indexOf('=');
    const rawName = equals < 0 ? piece : piece.slice(0, equals);
    const nameBytes = Buffer.from(rawName, 'latin1');
    throw notUtf8(isUtf8(nameBytes) ? decodeFormComponent(nameBytes.toString('utf8')) : undefined, asSent(rawName));
  }
  // Not reached: a sequence that is not UTF-8 lies within one piece, as `&` is never part of a character.
  throw notUtf8(undefined, '');
}
