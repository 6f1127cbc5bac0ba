import { DomainError } from '../errors/index.ts';
import { RecentlyUsed } from '../db/recently-used.ts';

/**
 * The `fields` parameter: a comma list with nested selections and modifiers, e.g.
 * `name,campaign{name,status},ads.limit(3){name}`.
 */
export interface FieldSelection {
  name: string;
  modifiers: Record<string, string>;
  children?: FieldSelection[];
}

const parseError = (message: string) => new DomainError('BAD_USER_INPUT', message, { field: 'fields', graph: { code: 2500 } });

export function parseFields(input: string): FieldSelection[] {
  let pos = 0;
  const peek = () => input[pos];
  const skipSpaces = () => {
    while (peek() === ' ') pos++;
  };
  const name = (): string => {
    skipSpaces();
    const match = /^[A-Za-z_][A-Za-z0-9_]*/.exec(input.slice(pos));
    if (!match) throw parseError(`Syntax error "Expected name." at character ${pos}: ${input.slice(0, 200)}`);
    pos += match[0].length;
    return match[0];
  };
  const list = (depth: number): FieldSelection[] => {
    if (depth > 5) throw parseError('Syntax error: fields are nested too deeply.');
    const out: FieldSelection[] = [];
    for (;;) {
      const selection: FieldSelection = { name: name(), modifiers: {} };
      while (peek() === '.') {
        pos++;
        const modifier = name();
        if (peek() !== '(') throw parseError(`Syntax error "Expected (." at character ${pos}: ${input.slice(0, 200)}`);
        const close = input.indexOf(')', pos);
        if (close < 0) throw parseError(`Syntax error "Expected )." at character ${pos}: ${input.slice(0, 200)}`);
        selection.modifiers[modifier] = input.slice(pos + 1, close).trim();
        pos = close + 1;
      }
      skipSpaces();
      if (peek() === '{') {
        pos++;
        selection.children = list(depth + 1);
        skipSpaces();
        if (peek() !== '}') throw parseError(`Syntax error "Expected }." at character ${pos}: ${input.slice(0, 200)}`);
        pos++;
      }
      out.push(selection);
      skipSpaces();
      if (peek() !== ',') return out;
      pos++;
    }
  };
  if (input.length > 4096) throw parseError('The fields parameter is too long.');
  const result = list(0);
  skipSpaces();
  if (pos !== input.length) throw parseError(`Syntax error "Unexpected ${input[pos]}" at character ${pos}: ${input.slice(0, 200)}`);
  return result;
}

/** Parsed `fields` texts, the least recently used forgotten first (each text is at most 4,096 characters). */
const parsedTexts = new RecentlyUsed<string, FieldSelection[]>(500);

function deepFreeze(selections: FieldSelection[]): FieldSelection[] {
  for (const selection of selections) {
    Object.freeze(selection.modifiers);
    if (selection.children) deepFreeze(selection.children);
    Object.freeze(selection);
  }
  return Object.freeze(selections) as FieldSelection[];
}

/**
 * parseFields, once per text: callers send the same few `fields` over and over (an SDK's, a dashboard's). The
 * selections are frozen and the same objects call after call, so what is worked out from them (the columns an
 * edge reads, projection.ts; an edge's filter from its modifiers, dispatch.ts) is kept by them. A text that does
 * not parse is not kept: it throws each time.
 */
export function parsedFields(input: string): FieldSelection[] {
  return parsedTexts.use(input, () => deepFreeze(parseFields(input))).value;
}

export const unknownField = (field: string, type: string) =>
  new DomainError('BAD_USER_INPUT', `Tried accessing nonexisting field (${field}) on node type (${type})`, { field: 'fields', graph: { code: 100 } });

/** ISO 8601 with a numeric offset, as the Graph API writes times: 2026-01-05T10:00:00+0000. */
export function graphTime(date: Date, format: 'iso' | 'unix'): string | number {
  if (format === 'unix') return Math.floor(date.getTime() / 1000);
  return `${date.toISOString().slice(0, 19)}+0000`;
}
