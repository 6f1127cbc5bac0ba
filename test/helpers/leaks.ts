/**
 * What must never reach a client (issue 12): stack traces, SQL and database errors, file paths, and the names of
 * the program's insides (error classes, tables, secret columns). An answer may quote what the caller sent, so a
 * match that the request itself contains is the caller's own text echoed, not a leak.
 */

const PATTERNS: Array<[string, RegExp]> = [
  ['stack trace', /\n\s*at \S|\bat (?:async )?[\w$.<>[\]]+ \((?:file:|node:|\/)|\bat (?:file:|node:|\/)\S+:\d+/g],
  ['stack trace', /"stack"\s*:|stacktrace/gi],
  ['file path', /\/(?:work|home|root|usr|tmp|var|etc|opt)\/[\w./-]*[\w/-]|node_modules|file:\/\/\S+|\b[\w-]+\.(?:ts|tsx|mts|mjs|cjs|js):\d+/g],
  [
    'SQL or database error',
    /\bselect\s+(?:\*|["\w]+(?:\s*,\s*["\w.]+)*)\s+from\b|\binsert\s+into\b|\bdelete\s+from\b|\bupdate\s+"?\w+"?\s+set\b|\bsqlite\w*|\bpostgres\w*|\bpg_\w+|syntax error at or near|\brelation "|violates (?:foreign key|unique|not-null|check)|duplicate key|\bknex\b|\bSQLSTATE\b|\bER_\w+/gi,
  ],
  [
    'internal error',
    /\b(?:TypeError|ReferenceError|RangeError|SyntaxError|EvalError|URIError|AggregateError|DomainError|KnexTimeoutError|SqliteError|DatabaseError)\b|Cannot read propert(?:y|ies) of|[\w$)\]] is not a function|[\w$] is not defined\b|Maximum call stack|\[object Object\]|\bundefined\b|\bNaN\b|\bECONN\w+/g,
  ],
];

/**
 * Names only the program uses: table names with an underscore (single words such as `comments` are also public
 * edge names) and secret or bookkeeping columns. `custom_audiences` is left out: it is a public targeting key.
 */
const PUBLIC_WORDS = new Set(['custom_audiences', 'excluded_custom_audiences']);
const INTERNAL_COLUMNS = ['token_hash', 'code_hash', 'password_hash', 'private_key_pem', 'public_jwk', 'secret_version', 'claimed_by', 'lease_expires_at'];

export function internalNamesPattern(tableNames: readonly string[]): RegExp {
  const names = [...tableNames.filter((name) => name.includes('_') && !PUBLIC_WORDS.has(name)), ...INTERNAL_COLUMNS];
  return new RegExp(`\\b(?:${names.map((name) => name.replace(/[^\w]/g, '')).join('|')})\\b`, 'gi');
}

/** Every string inside a JSON value, and inside strings that hold JSON themselves (batch answers' bodies). */
function stringsOf(value: unknown, into: string[] = [], depth = 0): string[] {
  if (typeof value === 'string') {
    into.push(value);
    if (depth < 4 && /^\s*[[{]/.test(value)) {
      try {
        stringsOf(JSON.parse(value), into, depth + 1);
      } catch {
        // Not JSON after all.
      }
    }
  } else if (Array.isArray(value)) {
    for (const item of value) stringsOf(item, into, depth + 1);
  } else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      into.push(key);
      stringsOf(item, into, depth + 1);
    }
  }
  return into;
}

/**
 * The request as text in every form an answer could quote it: raw, %-decoded, form fields and JSON strings
 * decoded, and the same again inside those (a batch item's relative_url inside a JSON list inside a form field).
 */
export interface RequestMaterial {
  /** Every form of every part, longest first. */
  texts: string[];
  /** All of it, lower-cased, for quick containment checks. */
  lower: string;
}

export function requestMaterial(parts: ReadonlyArray<string | undefined>): RequestMaterial {
  const seen = new Set<string>();
  let layer = parts.filter((part): part is string => part !== undefined && part !== '');
  for (let depth = 0; depth < 5 && layer.length > 0; depth++) {
    const next: string[] = [];
    const add = (text: string) => {
      if (text !== '' && !seen.has(text)) next.push(text);
    };
    for (const text of layer) {
      if (seen.has(text)) continue;
      seen.add(text);
      add(safeDecode(text));
      add(safeDecode(text.replace(/\+/g, ' ')));
      try {
        for (const inner of stringsOf(JSON.parse(text))) add(inner);
      } catch {
        // Not JSON.
      }
      if (text.includes('=')) {
        for (const [name, value] of new URLSearchParams(text)) {
          add(name);
          add(value);
        }
      }
    }
    layer = next;
  }
  for (const text of layer) seen.add(text);
  const texts = [...seen].sort((x, y) => y.length - x.length);
  return { texts, lower: texts.join('\n').toLowerCase() };
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/**
 * The leaks in an answer's body (raw, and every string of it once JSON-decoded), as `kind: match`. What the request
 * itself said is taken out first (an answer may quote it inside a longer text), and a match the request contains
 * is not counted either.
 */
export function findLeaks(body: string, material: RequestMaterial, internalNames?: RegExp): string[] {
  const haystacks = [body];
  try {
    haystacks.push(...stringsOf(JSON.parse(body)));
  } catch {
    // Not JSON: the raw text is checked.
  }
  const quoted = material.texts.filter((text) => text.length >= 4);
  const patterns = internalNames ? [...PATTERNS, ['internal name', internalNames] as [string, RegExp]] : PATTERNS;
  const found = new Set<string>();
  for (const raw of haystacks) {
    let text = raw;
    for (const part of quoted) if (text.includes(part)) text = text.split(part).join(' ');
    for (const [kind, pattern] of patterns) {
      for (const match of text.matchAll(new RegExp(pattern.source, pattern.flags.includes('g') ? pattern.flags : `${pattern.flags}g`))) {
        if (!material.lower.includes(match[0].toLowerCase())) found.add(`${kind}: ${match[0]}`);
      }
    }
  }
  return [...found];
}
