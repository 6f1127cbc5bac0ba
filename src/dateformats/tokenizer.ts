/**
 * A tokenizer for Joda-Time patterns, following `DateTimeFormat.parseToken` of Joda-Time 2.10:
 * - a run of the same ASCII letter is one field token (`yyyy`, `MM`, `ZZ`);
 * - text between single quotes is a literal, and `''` (inside or outside quotes) is one quote character;
 * - every other character is a literal as well.
 * Quoted literals keep their raw text so that a converter can copy them unchanged (they are never converted).
 */
export type JodaToken =
  | { kind: 'letter'; letter: string; count: number; raw: string; index: number }
  | { kind: 'quoted'; raw: string; value: string; terminated: boolean; index: number }
  | { kind: 'other'; raw: string; index: number };

const isAsciiLetter = (c: string) => (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');

export function tokenizeJoda(pattern: string): JodaToken[] {
  const tokens: JodaToken[] = [];
  let i = 0;
  while (i < pattern.length) {
    const c = pattern[i]!;
    if (isAsciiLetter(c)) {
      let j = i + 1;
      while (j < pattern.length && pattern[j] === c) j++;
      tokens.push({ kind: 'letter', letter: c, count: j - i, raw: pattern.slice(i, j), index: i });
      i = j;
    } else if (c === "'") {
      if (pattern[i + 1] === "'") {
        // '' outside a quoted literal: one quote character.
        tokens.push({ kind: 'quoted', raw: "''", value: "'", terminated: true, index: i });
        i += 2;
        continue;
      }
      let j = i + 1;
      let value = '';
      let terminated = false;
      while (j < pattern.length) {
        if (pattern[j] === "'") {
          if (pattern[j + 1] === "'") {
            value += "'";
            j += 2;
            continue;
          }
          terminated = true;
          j++;
          break;
        }
        value += pattern[j];
        j++;
      }
      tokens.push({ kind: 'quoted', raw: pattern.slice(i, j), value, terminated, index: i });
      i = j;
    } else {
      tokens.push({ kind: 'other', raw: c, index: i });
      i++;
    }
  }
  return tokens;
}

/** Joda's `isNumericToken`: a field token that is parsed as digits (used for adjacent-field rules). */
export function isJodaNumericToken(token: JodaToken | undefined): boolean {
  if (!token || token.kind !== 'letter') return false;
  if ('CxyYdhHmsSeDwkK'.includes(token.letter)) return true;
  return token.letter === 'M' && token.count <= 2;
}
