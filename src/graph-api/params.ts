import { DomainError } from '../errors/index.ts';
import { isNumericId } from '../db/ids.ts';
import { codePoints } from '../text/code-points.ts';
import { describeJsonFault, jsonFault } from '../text/json-limits.ts';
import { parseFormEncoded } from '../text/form-encoding.ts';

/**
 * The Graph-style API's parameters (DECISIONS section 4), read once here for every domain: the readers the
 * write services check their raw snake_case parameters with, the one error 100 they all raise, and the one
 * decoding of JSON carried in form fields. GraphQL inputs become the same parameters (graphql/helpers.ts),
 * so both surfaces are checked by the same readers and answer in the same words.
 *
 * Messages are the Graph API's without the "(#100) " prefix, which the `/v24.0` envelope adds.
 */
export type Params = Record<string, unknown>;

/** Reads one parameter's value; `name` is what an error names (`targeting`, `special_ad_categories[1]`). */
export type Reader<T> = (value: unknown, name: string) => T;

/** Error 100 naming the parameter: the one way a bad parameter is reported. */
export const paramError = (field: string, message: string, extra: { userTitle?: string; userMessage?: string } = {}) =>
  new DomainError('BAD_USER_INPUT', message, { field, graph: { code: 100, ...extra } });

export const missingParam = (name: string) => paramError(name, `The parameter ${name} is required`);

const absent = (value: unknown) => value === undefined || value === null;

/** True when the parameter was sent (not undefined or null: null counts as not sent). */
export const given = (params: Params, name: string) => !absent(params[name]);

/** The parameter's checked value, or undefined when it was not sent. */
export function optionalParam<T>(params: Params, name: string, read: Reader<T>): T | undefined {
  const value = params[name];
  return absent(value) ? undefined : read(value, name);
}

/** The parameter's checked value; absent or an empty string is "The parameter <name> is required". */
export function requiredParam<T>(params: Params, name: string, read: Reader<T>): T {
  const value = params[name];
  if (absent(value) || (typeof value === 'string' && value.trim() === '')) throw missingParam(name);
  return read(value, name);
}

// --- JSON carried in strings -----------------------------------------------------------------------------

const JSON_OPENING = /^\s*[[{]/;

/** Error 100 for a JSON value beyond the JSON limits (src/text/json-limits.ts), checked before anything walks it. */
function requireJsonWithinLimits(value: unknown, name: string): void {
  const fault = jsonFault(value);
  if (fault) throw paramError(name, describeJsonFault(`Param ${name}`, fault));
}

/**
 * A string that opens like JSON (`{`, `[`) decoded, within the JSON limits; any other value as it is. Form
 * fields carry objects and lists this way (the Python SDK's shape), and so may GraphQL's JSON scalar. Only
 * readers that expect an object or a list decode (here, the one place), so a name such as "[Q3] Spring sale"
 * stays text.
 */
export function decodeJsonText(value: unknown, name: string): unknown {
  if (typeof value !== 'string' || !JSON_OPENING.test(value)) return value;
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    throw paramError(name, `Param ${name} must be JSON-encoded: ${value.length > 80 ? `${value.slice(0, 80)}…` : value}`);
  }
  requireJsonWithinLimits(parsed, name);
  return parsed;
}

/**
 * Parameters of a query string, a form or a JSON body, as they came (DECISIONS section 4): JSON inside a form
 * field is decoded by the reader that expects it (decodeJsonText). In a query string or a form a list can only
 * mean the name came twice, which is refused; in a JSON body it is a list.
 */
export function collectParams(raw: Record<string, unknown>, source: 'form' | 'json' = 'form'): Params {
  for (const [name, value] of Object.entries(raw)) {
    if (Array.isArray(value) && source === 'form') throw paramError(name, `Param ${name} is repeated`);
  }
  return { ...raw };
}

/**
 * The parameters of a call inside a batch (/v24.0 batch items, asynchronous ad requests): its relative_url's query
 * string and its body (form-encoded text or a JSON object), read as a request's own are.
 */
export function itemParams(query: string, body: unknown): Params {
  const bodyParams = typeof body === 'string' ? parseFormEncoded(body) : isPlainObject(body) ? body : {};
  return collectParams({ ...parseFormEncoded(query), ...bodyParams });
}

// --- Readers ------------------------------------------------------------------------------------------------

/** A string of at most `max` characters (counted in code points, as PostgreSQL counts them), without NUL. */
export const text =
  (options: { max: number; nonEmpty?: boolean }): Reader<string> =>
  (value, name) => {
    if (typeof value !== 'string') throw paramError(name, `Param ${name} must be a string`);
    if (options.nonEmpty && value.trim() === '') throw missingParam(name);
    if (codePoints(value) > options.max) throw paramError(name, `Param ${name} must be at most ${options.max} characters`);
    if (value.includes('\u0000')) throw paramError(name, `Param ${name} must not contain NUL characters`);
    return value;
  };

/** An http or https URL of at most 2,048 characters. */
export const httpUrl: Reader<string> = (value, name) => {
  const url = text({ max: 2048 })(value, name);
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {
    parsed = undefined;
  }
  if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')) throw paramError(name, `Param ${name} must be an http or https URL`);
  return url;
};

export const oneOf =
  <const T extends string>(values: readonly T[]): Reader<T> =>
  (value, name) => {
    if (typeof value !== 'string' || !(values as readonly string[]).includes(value)) {
      throw paramError(name, `Param ${name} must be one of {${values.join(', ')}}`);
    }
    return value as T;
  };

/** A boolean: JSON true/false, or the strings "true"/"false" (and "1"/"0") a form sends. */
export const boolean: Reader<boolean> = (value, name) => {
  if (typeof value === 'boolean') return value;
  if (value === 'true' || value === '1' || value === 1) return true;
  if (value === 'false' || value === '0' || value === 0) return false;
  throw paramError(name, `Param ${name} must be a boolean`);
};

const INT64_MAX = 2n ** 63n - 1n;

/** A whole number (JSON number, numeric string or bigint) within [min, max]; returned as a decimal string. */
export const integer =
  (options: { min?: bigint; max?: bigint } = {}): Reader<string> =>
  (value, name) => {
    let parsed: bigint | undefined;
    if (typeof value === 'bigint') parsed = value;
    else if (typeof value === 'number' && Number.isSafeInteger(value)) parsed = BigInt(value);
    else if (typeof value === 'string' && /^-?[0-9]{1,20}$/.test(value.trim())) parsed = BigInt(value.trim());
    if (parsed === undefined) {
      const decimals = (typeof value === 'number' && Number.isFinite(value)) || (typeof value === 'string' && /^-?[0-9]+\.[0-9]+$/.test(value.trim()));
      throw paramError(
        name,
        decimals
          ? `Param ${name} must be a whole number in the currency's smallest unit or the field's unit, without decimals`
          : `Param ${name} must be an integer`,
      );
    }
    const min = options.min ?? -INT64_MAX - 1n;
    const max = options.max ?? INT64_MAX;
    if (parsed < min || parsed > max) {
      // A range open at the top (int64, or the exact range of money) is worded by the side that was crossed.
      const openTop = max === INT64_MAX || max === BigInt(Number.MAX_SAFE_INTEGER);
      const message = !openTop
        ? `Param ${name} must be between ${min} and ${max}`
        : parsed > max
          ? `Param ${name} must be at most ${max}`
          : min === 1n
            ? `Param ${name} must be a positive integer`
            : `Param ${name} must be at least ${min}`;
      throw paramError(name, message);
    }
    return parsed.toString();
  };

/**
 * Money and counts in the currency's minor unit: positive, and at most 2^53 - 1 (9,007,199,254,740,991),
 * the largest whole number both databases and every JSON client keep exactly.
 */
export const MAX_EXACT_INTEGER = BigInt(Number.MAX_SAFE_INTEGER);
export const positiveInteger = integer({ min: 1n, max: MAX_EXACT_INTEGER });

/** A whole number within [min, max] returned as a number (min and max within 2^53). */
export const wholeNumber =
  (min: number, max: number): Reader<number> =>
  (value, name) =>
    Number(integer({ min: BigInt(min), max: BigInt(max) })(value, name));

/** A small integer returned as a number. */
export const smallInteger = wholeNumber;

/** A number (JSON number or numeric string) within [min, max]. */
export const decimal =
  (min: number, max: number): Reader<number> =>
  (value, name) => {
    const parsed = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
    if (!Number.isFinite(parsed)) throw paramError(name, `Param ${name} must be a number`);
    if (parsed < min || parsed > max) throw paramError(name, `Param ${name} must be between ${min} and ${max}`);
    return parsed;
  };

const ISO_8601 = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}(?::?\d{2})?)?)?$/;
const MAX_UNIX_SECONDS = 253_402_300_799; // 9999-12-31T23:59:59Z

/**
 * A date-time as the Graph API takes it: ISO 8601 (`2026-01-05T10:00:00+0000`, `...Z`, `...+01:00`; without an
 * offset it is UTC; a date alone is its midnight UTC) or Unix seconds (number or numeric string).
 */
export const dateTime: Reader<Date> = (value, name) => {
  const invalid = () => paramError(name, `Param ${name} must be a valid date-time (ISO 8601 or Unix seconds)`);
  if (typeof value === 'number' || (typeof value === 'string' && /^[0-9]{1,12}$/.test(value.trim()))) {
    const seconds = Number(value);
    if (!Number.isSafeInteger(seconds) || seconds < 0 || seconds > MAX_UNIX_SECONDS) throw invalid();
    return new Date(seconds * 1000);
  }
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) throw invalid();
    return value;
  }
  if (typeof value !== 'string') throw invalid();
  const match = ISO_8601.exec(value.trim());
  if (!match) throw invalid();
  const [, y, mo, d, h = '0', mi = '0', s = '0', fraction = '', offset = 'Z'] = match;
  const [year, month, day, hour, minute, second] = [y, mo, d, h, mi, s].map(Number) as [number, number, number, number, number, number];
  const utc = Date.UTC(year, month - 1, day, hour, minute, second, Number(fraction.padEnd(3, '0').slice(0, 3)));
  const check = new Date(utc);
  // Date.UTC rolls 2026-02-30 over to March: a date that does not round-trip does not exist.
  if (
    year < 1970 ||
    check.getUTCFullYear() !== year ||
    check.getUTCMonth() !== month - 1 ||
    check.getUTCDate() !== day ||
    hour > 23 ||
    minute > 59 ||
    second > 59
  ) {
    throw invalid();
  }
  let offsetMinutes = 0;
  if (offset !== 'Z') {
    const digits = offset.slice(1).replace(':', '');
    const hours = Number(digits.slice(0, 2));
    const minutes = Number(digits.slice(2) || '0');
    if (hours > 23 || minutes > 59) throw invalid();
    offsetMinutes = (offset.startsWith('-') ? -1 : 1) * (hours * 60 + minutes);
  }
  return new Date(utc - offsetMinutes * 60_000);
};

export const MAX_JSON_CHARACTERS = 65_536;

/** A value as the JSON text it is stored as, within the JSON limits and the size every JSON column allows. */
export function jsonText(value: unknown, name: string): string {
  requireJsonWithinLimits(value, name);
  const serialized = JSON.stringify(value);
  if (serialized.length > MAX_JSON_CHARACTERS) throw paramError(name, `Param ${name} must be at most ${MAX_JSON_CHARACTERS} characters of JSON`);
  // PostgreSQL cannot store NUL in text or JSON.
  if (serialized.includes('\\u0000')) throw paramError(name, `Param ${name} must not contain NUL characters`);
  return serialized;
}

export const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);

/** A JSON object (a string holding one is decoded: form fields, GraphQL's JSON scalar). */
export const jsonObject: Reader<Record<string, unknown>> = (value, name) => {
  const parsed = decodeJsonText(value, name);
  if (!isPlainObject(parsed)) throw paramError(name, `Param ${name} must be a JSON object`);
  jsonText(parsed, name);
  return parsed;
};

/**
 * A list (a JSON array, or a string holding one); each element is checked as `<name>[i]`, and the error names
 * `name` (the parameter), with the element's index in its message.
 */
export const list =
  <T>(item: Reader<T>, options: { max?: number; min?: number } = {}): Reader<T[]> =>
  (value, name) => {
    const parsed = decodeJsonText(value, name);
    if (!Array.isArray(parsed)) throw paramError(name, `Param ${name} must be an array`);
    if (options.max !== undefined && parsed.length > options.max) throw paramError(name, `Param ${name} must have at most ${options.max} elements`);
    if (options.min !== undefined && parsed.length < options.min) throw paramError(name, `Param ${name} must have at least ${options.min} elements`);
    jsonText(parsed, name);
    return parsed.map((element, i) => {
      try {
        return item(element, `${name}[${i}]`);
      } catch (error) {
        if (error instanceof DomainError && error.code === 'BAD_USER_INPUT') throw paramError(name, error.message);
        throw error;
      }
    });
  };

/** Any JSON value, within the size limit (nested specs the specification leaves open: adlabels, bid_adjustments...). */
export const json: Reader<unknown> = (value, name) => {
  const parsed = decodeJsonText(value, name);
  jsonText(parsed, name);
  return parsed;
};

/** A Graph object id: a numeric string or an integer. */
export const graphId: Reader<string> = (value, name) => {
  const id = typeof value === 'number' && Number.isSafeInteger(value) ? String(value) : typeof value === 'string' ? value.trim() : '';
  if (!isNumericId(id)) throw paramError(name, `Param ${name} must be a valid ID`);
  return id;
};

/** Reads a key of a nested object; an error names its path (`targeting.geo_locations.countries`), as a form shows it. */
export function nested<T>(object: Record<string, unknown>, parent: string, key: string, read: Reader<T>): T | undefined {
  const value = object[key];
  return absent(value) ? undefined : read(value, `${parent}.${key}`);
}
