import { DomainError } from '../errors/index.ts';

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

export const unknownField = (field: string, type: string) =>
  new DomainError('BAD_USER_INPUT', `Tried accessing nonexisting field (${field}) on node type (${type})`, { field: 'fields', graph: { code: 100 } });

/** ISO 8601 with a numeric offset, as the Graph API writes times: 2026-01-05T10:00:00+0000. */
export function graphTime(date: Date, format: 'iso' | 'unix'): string | number {
  if (format === 'unix') return Math.floor(date.getTime() / 1000);
  return `${date.toISOString().slice(0, 19)}+0000`;
}
