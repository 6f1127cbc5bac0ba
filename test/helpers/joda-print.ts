/**
 * A tiny, independent re-implementation of how Joda-Time 2.10 (Elasticsearch 6.x) PRINTED the numeric letters of a
 * custom pattern, written from Joda's documented behaviour (not from the converter), so that tests can compare what
 * the converter's java.time printer produces with what Joda wrote into documents.
 *
 * Supported: y, Y (year, zero-padded to the letter count; yy/YY print the last two digits), M (1-2 letters: month
 * number), d, H, m, s (zero-padded to the count), S (fraction of the second: the first `count` digits of the
 * milliseconds, zeros beyond 3), Z (+HHMM), ZZ (+HH:MM; Joda printed +0000 / +00:00 for UTC, never Z), quoted
 * literals with '' escapes, and any other non-letter character. Any other letter returns undefined: callers skip
 * the independent check for that pattern.
 */
export interface JodaFields {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  millis: number;
  /** The zone offset the value is printed in, in minutes (whole minutes only). */
  offsetMinutes: number;
}

export interface JodaPrintOptions {
  /**
   * Print these letters (y, Y except yy/YY, M, d, H, m, s) without zero padding and S without trailing zeros (at least one digit):
   * inputs Joda's parser also accepted with the same value (2010-1-5, 13:5:7, .5), though Joda never printed them.
   */
  fewerDigits?: ReadonlySet<string>;
}

type Token = { letter: string; count: number } | { literal: string };

/** Joda's pattern tokens: runs of one ASCII letter, quoted text ('' is a quote, inside or outside quotes), other chars. */
function tokenize(pattern: string): Token[] {
  const tokens: Token[] = [];
  for (let i = 0; i < pattern.length;) {
    const c = pattern[i]!;
    if (/[A-Za-z]/.test(c)) {
      let j = i;
      while (pattern[j] === c) j++;
      tokens.push({ letter: c, count: j - i });
      i = j;
    } else if (c === "'") {
      let j = i + 1;
      let text = '';
      if (pattern[j] === "'") {
        tokens.push({ literal: "'" });
        i += 2;
        continue;
      }
      for (; j < pattern.length; j++) {
        if (pattern[j] === "'") {
          if (pattern[j + 1] === "'") {
            text += "'";
            j++;
            continue;
          }
          break;
        }
        text += pattern[j];
      }
      tokens.push({ literal: text });
      i = j + 1;
    } else {
      tokens.push({ literal: c });
      i++;
    }
  }
  return tokens;
}

const pad = (n: number, width: number) => String(n).padStart(width, '0');

/** The string Joda printed for these fields, or undefined if the pattern has a letter this printer does not know. */
export function jodaPrint(pattern: string, f: JodaFields, options: JodaPrintOptions = {}): string | undefined {
  const fewer = options.fewerDigits ?? new Set<string>();
  let out = '';
  for (const t of tokenize(pattern)) {
    if ('literal' in t) {
      out += t.literal;
      continue;
    }
    const { letter, count } = t;
    const width = fewer.has(letter) ? 1 : count;
    switch (letter) {
      case 'y':
      case 'Y':
        out += count === 2 ? pad(f.year % 100, 2) : pad(f.year, width);
        break;
      case 'M':
        if (count > 2) return undefined; // text month
        out += pad(f.month, width);
        break;
      case 'd':
        out += pad(f.day, width);
        break;
      case 'H':
        out += pad(f.hour, width);
        break;
      case 'm':
        out += pad(f.minute, width);
        break;
      case 's':
        out += pad(f.second, width);
        break;
      case 'S': {
        const digits = (pad(f.millis, 3) + '0'.repeat(Math.max(0, count - 3))).slice(0, count);
        out += fewer.has('S') ? digits.replace(/(?<=\d)0+$/, '') : digits;
        break;
      }
      case 'Z': {
        if (count > 2) return undefined; // zone id
        const sign = f.offsetMinutes < 0 ? '-' : '+';
        const abs = Math.abs(f.offsetMinutes);
        out += `${sign}${pad(Math.floor(abs / 60), 2)}${count === 2 ? ':' : ''}${pad(abs % 60, 2)}`;
        break;
      }
      default:
        return undefined;
    }
  }
  return out;
}
