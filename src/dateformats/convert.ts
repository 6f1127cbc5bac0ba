import { isJodaNumericToken, tokenizeJoda, type JodaToken } from './tokenizer.ts';

/**
 * Converts legacy (Elasticsearch 6.x, Joda-Time) custom date formats to java.time formats as Elasticsearch 7.x/8.x
 * reads them (Locale.ROOT, ResolverStyle.STRICT, UTC, ISO weeks), aiming at equivalence rather than at the
 * migration guide's letter-by-letter rules: every string the legacy pattern printed must parse to the same instant
 * and print the same way. Where no java.time pattern can be equivalent, a finding says so and what to do.
 *
 * A format is one or more parts joined with `||`; each part is a built-in name or a pattern. A converted pattern may
 * become several `||` alternatives (the first one prints, like in Elasticsearch, and parsing tries them in order).
 */
export type Severity = 'exact' | 'review' | 'unsupported';

export interface Change {
  /** The pattern letter (or character, or built-in name) concerned. */
  letter: string;
  from: string;
  to: string;
  why: string;
}

export interface Finding {
  severity: Severity;
  message: string;
}

export interface PartConversion {
  input: string;
  /** The converted part: one pattern or several `||`-joined alternatives. */
  output: string;
  severity: Severity;
  lenient: boolean;
  changes: Change[];
  findings: Finding[];
}

export interface Conversion {
  input: string;
  output: string;
  /** Every part is exact: every string the legacy format printed parses to the same instant and prints the same. */
  exact: boolean;
  /** Every part also accepts Joda's fewer-digit inputs (`2010-1-5`, `13:5:7`, `.5`) with the same value. */
  lenient: boolean;
  parts: PartConversion[];
}

export interface ConvertOptions {
  /** Add the alternatives that accept Joda's fewer-digit inputs (up to MAX_ALTERNATIVES per part). */
  lenient?: boolean;
  /** The year Joda's two-digit-year pivot is computed from (default: the current year). */
  currentYear?: number;
}

/** Invalid input: an empty format or part, or a letter that is not a Joda pattern letter. */
export class DateFormatError extends Error {}

/**
 * The most `||` alternatives one part may get for `--lenient`. Elasticsearch tries alternatives in order and each
 * failed attempt throws, so long lists slow down every rejected (and every late-matching) value: beyond this a
 * finding explains what would be needed instead.
 */
export const MAX_ALTERNATIVES = 32;

/** Elasticsearch's built-in format names (kept as they are: Elasticsearch maps them to its own java.time formats). */
export const BUILT_IN_FORMATS: readonly string[] = [
  'epoch_millis', 'epoch_second', 'iso8601',
  'date_optional_time', 'strict_date_optional_time', 'strict_date_optional_time_nanos',
  'basic_date', 'basic_date_time', 'basic_date_time_no_millis',
  'basic_ordinal_date', 'basic_ordinal_date_time', 'basic_ordinal_date_time_no_millis',
  'basic_time', 'basic_time_no_millis', 'basic_t_time', 'basic_t_time_no_millis',
  'basic_week_date', 'strict_basic_week_date', 'basic_week_date_time', 'strict_basic_week_date_time',
  'basic_week_date_time_no_millis', 'strict_basic_week_date_time_no_millis',
  'date', 'strict_date', 'date_hour', 'strict_date_hour', 'date_hour_minute', 'strict_date_hour_minute',
  'date_hour_minute_second', 'strict_date_hour_minute_second',
  'date_hour_minute_second_fraction', 'strict_date_hour_minute_second_fraction',
  'date_hour_minute_second_millis', 'strict_date_hour_minute_second_millis',
  'date_time', 'strict_date_time', 'date_time_no_millis', 'strict_date_time_no_millis',
  'hour', 'strict_hour', 'hour_minute', 'strict_hour_minute', 'hour_minute_second', 'strict_hour_minute_second',
  'hour_minute_second_fraction', 'strict_hour_minute_second_fraction',
  'hour_minute_second_millis', 'strict_hour_minute_second_millis',
  'ordinal_date', 'strict_ordinal_date', 'ordinal_date_time', 'strict_ordinal_date_time',
  'ordinal_date_time_no_millis', 'strict_ordinal_date_time_no_millis',
  'time', 'strict_time', 'time_no_millis', 'strict_time_no_millis',
  't_time', 'strict_t_time', 't_time_no_millis', 'strict_t_time_no_millis',
  'week_date', 'strict_week_date', 'week_date_time', 'strict_week_date_time',
  'week_date_time_no_millis', 'strict_week_date_time_no_millis',
  'weekyear', 'strict_weekyear', 'weekyear_week', 'strict_weekyear_week', 'weekyear_week_day', 'strict_weekyear_week_day',
  'year', 'strict_year', 'year_month', 'strict_year_month', 'year_month_day', 'strict_year_month_day',
];

const toCamel = (name: string) => name.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

/** The deprecated camelCase names (`strictDateOptionalTime`, `basicTTime`, ...) and their snake_case names. */
export const CAMEL_CASE_FORMATS: ReadonlyMap<string, string> = new Map(
  BUILT_IN_FORMATS.filter((name) => name.includes('_') && !name.startsWith('epoch_') && !name.endsWith('_nanos'))
    .map((name) => [toCamel(name), name]),
);

const BUILT_IN = new Set(BUILT_IN_FORMATS);
const SEVERITY_RANK: Record<Severity, number> = { exact: 0, review: 1, unsupported: 2 };
const worst = (a: Severity, b: Severity): Severity => (SEVERITY_RANK[b] > SEVERITY_RANK[a] ? b : a);
/** Characters java.time gives a meaning outside quotes (optional sections, reserved), unlike Joda. */
const JAVA_SPECIAL = new Set(['[', ']', '{', '}', '#']);
const JODA_LETTERS = 'GCYxweEyDMdaKhHkmsSzZ';

/** How one Joda token is written in java.time, and which alternatives it needs. */
interface TokenPlan {
  /** The java text in the printing (first) alternative. */
  printer: string;
  /** Further forms of this token that every output includes (the guide's single-digit day, the zone offset forms). */
  always: string[];
  /** Further forms added with --lenient (fewer digits). */
  lenient: string[];
  /** Joda accepted fewer digits here than the pattern prints, and the alternatives above do not all cover it. */
  fewerDigits: 'no' | 'covered' | 'lenient' | 'impossible';
  changes: Change[];
  findings: Finding[];
}

interface PatternContext {
  tokens: JodaToken[];
  letters: Set<string>;
  currentYear: number;
}

const quoteZeros = (n: number) => (n > 0 ? `'${'0'.repeat(n)}'` : '');

function plan(printer: string, extra: Partial<TokenPlan> = {}): TokenPlan {
  return { printer, always: [], lenient: [], fewerDigits: 'no', changes: [], findings: [], ...extra };
}

/**
 * A numeric field of at most `javaMax` letters in java.time (d, H, h, K, k, m, s, w: 2; D: 3; M: 2 as a number).
 * Joda prints at least `count` digits and parses 1 up to max(count, javaMax) digits.
 */
function numericField(token: Extract<JodaToken, { kind: 'letter' }>, javaLetter: string, javaMax: number, ctx: PatternContext, position: number): TokenPlan {
  const { letter, count, raw } = token;
  const prev = ctx.tokens[position - 1];
  const next = ctx.tokens[position + 1];
  const adjacent = isJodaNumericToken(prev) || isJodaNumericToken(next);
  const changes: Change[] = [];
  const findings: Finding[] = [];
  let printer: string;
  if (count > javaMax) {
    printer = quoteZeros(count - javaMax) + javaLetter.repeat(javaMax);
    changes.push({ letter, from: raw, to: printer, why: `java.time allows at most ${javaMax} '${javaLetter}' letters: the leading zeros Joda printed become a quoted literal` });
  } else {
    printer = javaLetter.repeat(count);
    if (javaLetter !== letter) changes.push({ letter, from: raw, to: printer, why: '' });
  }
  // Joda's minimum is the letter count but it parses from 1 digit; java parses exactly 2 (or 2-3 for DD, 3 for DDD).
  if (count < 2) return plan(printer, { changes, findings });
  // In a run of adjacent numeric fields Joda reads each field greedily, so only the last one can be shorter; java's
  // adjacent value parsing needs fixed widths there, and a shorter alternative would never match.
  if (adjacent) {
    if (!isJodaNumericToken(next)) {
      findings.push({
        severity: 'exact',
        message: `${raw} ends a run of adjacent numeric fields: Joda also accepted fewer digits there (e.g. 2010115 for yyyyMMdd), which no java.time alternative can parse (adjacent value parsing needs fixed widths); not lenient`,
      });
      return plan(printer, { changes, findings, fewerDigits: 'impossible' });
    }
    return plan(printer, { changes, findings });
  }
  if (count > javaMax) {
    findings.push({ severity: 'exact', message: `Joda also accepted fewer than ${count} digits for ${raw}; the quoted zeros require them: not lenient` });
    return plan(printer, { changes, findings, fewerDigits: 'impossible' });
  }
  const single = javaLetter;
  if (letter === 'd') {
    // The guide's rule, applied always: java dd requires two digits.
    changes.push({ letter, from: raw, to: single, why: "added as an alternative (the migration guide's rule): java.time dd requires 2 digits while Joda also accepted 1 (2010-01-5)" });
    return plan(printer, { changes, findings, always: [single], fewerDigits: 'covered' });
  }
  return plan(printer, { changes, findings, lenient: [single], fewerDigits: 'lenient' });
}

function twoDigitYearFinding(raw: string, javaRaw: string, ctx: PatternContext, nextNumeric: boolean): Finding {
  const pivot = ctx.currentYear - 30;
  const low = pivot - 50;
  const high = pivot + 49;
  const lenientNote = nextNumeric ? '' : ` Joda also read any other number of digits (or a signed number) as a full year (2010 as 2010, 5 as year 5), java ${javaRaw} only exactly 2 digits.`;
  return {
    severity: 'unsupported',
    message: `two-digit year ${raw}: Joda pivots on the current year (now ${low}-${high}: ${String(low % 100).padStart(2, '0')}-99 mean ${low}-${Math.floor(low / 100) * 100 + 99}, 00-${String(high % 100).padStart(2, '0')} mean ${Math.floor(high / 100) * 100}-${high}, moving every year), while java ${javaRaw} always means 2000-2099; no java.time pattern can express the pivot. Equivalent only if every value is in ${Math.floor(high / 100) * 100}-${high}; otherwise pre-process the input to 4-digit years (e.g. an ingest pipeline) and use ${javaRaw.repeat(2)}.${lenientNote}`,
  };
}

const TEXT_FINDING = (raw: string, what: string) => ({
  severity: 'review' as const,
  message: `${raw} is text (${what}): Joda parsed it case-insensitively, java.time only in the exact case of the locale data (Locale.ROOT), and the names depend on the runtime's locale providers (ES on JDK 23+/8.16+ uses CLDR); test with real data`,
});

function convertLetter(token: Extract<JodaToken, { kind: 'letter' }>, ctx: PatternContext, position: number): TokenPlan {
  const { letter, count, raw } = token;
  const nextNumeric = isJodaNumericToken(ctx.tokens[position + 1]);
  const change = (to: string, why: string): Change => ({ letter, from: raw, to, why });
  switch (letter) {
    case 'y': {
      const to = 'u'.repeat(count);
      const p = plan(to, { changes: [change(to, 'java.time y is year-of-era (no year 0 or negative years); u is the proleptic year, like Joda y')] });
      if (count === 2) p.findings.push(twoDigitYearFinding(raw, 'uu', ctx, nextNumeric));
      longYear(p, ctx, position, 'u');
      return p;
    }
    case 'Y': {
      const to = 'y'.repeat(count);
      const p = plan(to, { changes: [change(to, 'java.time Y is the week-based year (off by one near New Year); y is year-of-era like Joda Y')] });
      if (count === 2) p.findings.push(twoDigitYearFinding(raw, 'yy', ctx, nextNumeric));
      longYear(p, ctx, position, 'y');
      return p;
    }
    case 'x': {
      const to = 'Y'.repeat(count);
      const p = plan(to, { changes: [change(to, "java.time x is a zone offset; Y is the week-based year (ISO weeks with Elasticsearch's week data: Monday, 4 days)")] });
      if (count === 2) p.findings.push(twoDigitYearFinding(raw, 'YY', ctx, nextNumeric));
      longYear(p, ctx, position, 'Y');
      return p;
    }
    case 'C':
      return plan(raw, {
        findings: [{ severity: 'unsupported', message: `${raw} (century of era) has no java.time letter: pre-process the input (e.g. an ingest pipeline that turns century and year into a 4-digit year) and map that with uuuu; the output keeps ${raw}, which Elasticsearch 7+ rejects` }],
      });
    case 'G':
      return plan('G', {
        changes: count === 1 ? [] : [change('G', 'Joda printed the short era (AD) for any count; java GGGG would print Anno Domini')],
        findings: [{ severity: 'review', message: `${raw} (era) is text: Joda parsed it case-insensitively; with an era, java.time resolves the year u (proleptic) against it: test years before 1 AD` }],
      });
    case 'e': {
      // Joda e is always the ISO day-of-week number (Monday = 1); java e/c are localized (ISO with ES's week data).
      if (count === 1) return plan('c', { changes: [change('c', 'the guide: Joda e is the day-of-week number; java c (one letter) is that number (Monday = 1 with ES\'s week data), while java eee/eeee would be text')] });
      const p = numericField(token, 'e', 2, ctx, position);
      if (count > 2) {
        p.printer = quoteZeros(count - 1) + 'c';
        p.changes = [change(p.printer, 'Joda padded the day-of-week number with zeros; java eee/ccc would be text, so the zeros become a quoted literal and c the number')];
      } else {
        p.changes.push(change('ee', 'java cc does not exist: ee is the 2-digit day-of-week number (Monday = 1 with ES\'s week data)'));
        if (p.fewerDigits === 'lenient') p.lenient = ['c'];
      }
      return p;
    }
    case 'E': {
      const to = count >= 4 ? 'EEEE' : 'E'.repeat(count);
      const p = plan(to, { changes: to !== raw ? [change(to, 'java EEEEE would be the narrow (one-letter) name; Joda printed the full name for 4 or more letters')] : [] });
      p.findings.push(TEXT_FINDING(raw, 'day-of-week name'));
      if (count < 4) {
        p.findings.push({ severity: 'review', message: `Joda ${raw} also accepted full day names (Wednesday), java ${to} only short ones: if inputs have full names, add an alternative with EEEE; Joda also moved a date onto a conflicting weekday, java (STRICT) rejects it` });
      }
      return p;
    }
    case 'M': {
      if (count <= 2) return numericField(token, 'M', 2, ctx, position);
      const to = count >= 4 ? 'MMMM' : 'MMM';
      const p = plan(to, { changes: to !== raw ? [change(to, 'java MMMMM would be the narrow (one-letter) month; Joda printed the full name')] : [] });
      p.findings.push(TEXT_FINDING(raw, 'month name'));
      if (count === 3) p.findings.push({ severity: 'review', message: `Joda ${raw} also accepted full month names (January), java MMM only short ones: if inputs have full names, add an alternative with MMMM` });
      return p;
    }
    case 'd':
    case 'H':
    case 'k':
    case 'm':
    case 's':
      return numericField(token, letter, 2, ctx, position);
    case 'D':
      return numericField(token, 'D', 3, ctx, position);
    case 'w': {
      const p = numericField(token, 'w', 2, ctx, position);
      if (!ctx.letters.has('x')) {
        p.findings.push({ severity: 'unsupported', message: `${raw} (week of weekyear) without x (weekyear): Joda combined the week with the calendar year, while java.time resolves w only with a week-based year (Y), so the same string gives another date; no equivalent pattern: use xxxx (java YYYY) if the values are ISO week dates, or pre-process the input` });
      }
      return p;
    }
    case 'h':
    case 'K': {
      const p = numericField(token, letter, 2, ctx, position);
      if (!ctx.letters.has('a')) {
        p.findings.push({
          severity: 'unsupported',
          message: `${raw} (${letter === 'h' ? 'clock hour 1-12' : 'hour 0-11'} of am/pm) without a: Joda assumed AM (${letter === 'h' ? '12 meant 00' : '0-11 meant 00-11'}, and printing afternoon times lost the PM), while java.time with Elasticsearch's STRICT resolver cannot resolve an hour of am/pm without am/pm, so Elasticsearch silently drops the time of day (every value becomes midnight); no pattern reproduces the AM assumption: use HH if the values are really 0-23 hours, add a if the inputs carry AM/PM, or pre-process the input`,
        });
      }
      return p;
    }
    case 'a':
      return plan('a', { changes: count > 1 ? [change('a', 'java.time allows one a')] : [], findings: [TEXT_FINDING(raw, 'AM/PM')] });
    case 'S': {
      if (count > 9) {
        return plan(raw, { findings: [{ severity: 'unsupported', message: `${raw}: java.time fractions have at most 9 digits (S to SSSSSSSSS); shorten the pattern or pre-process the input` }] });
      }
      const p = numericField(token, 'S', 9, ctx, position);
      if (p.fewerDigits === 'lenient') {
        p.lenient = [];
        for (let n = count - 1; n >= 1; n--) p.lenient.push('S'.repeat(n));
        p.findings.push({ severity: 'exact', message: `Joda ${raw} also accepted 1 to ${count - 1} fraction digits (.5 = 500 ms), java ${raw} exactly ${count}` });
      }
      return p;
    }
    case 'z': {
      const to = count >= 4 ? 'zzzz' : 'z';
      return plan(to, {
        changes: to !== raw ? [change(to, 'java.time allows at most 4 z letters')] : [],
        findings: [{ severity: 'review', message: `${raw} (zone name): java prints Z for UTC where Joda printed UTC (documents still parse: Joda parsed only UT, UTC, GMT and the US abbreviations EST/EDT/CST/CDT/MST/MDT/PST/PDT, as zone names java also parses); printed values (docvalue_fields, key_as_string) change` }],
      });
    }
    case 'Z': {
      if (count >= 3) {
        return plan('VV', {
          changes: [change('VV', 'Joda ZZZ is the zone id (Europe/Paris); java VV is the zone id, java ZZZ would be an offset')],
          findings: [{ severity: 'review', message: `${raw} (zone id) becomes VV, which parses the same ids; java prints Z for UTC where Joda printed UTC (printed values such as docvalue_fields and key_as_string change)` }],
        });
      }
      // Joda Z and ZZ both parse Z, +01, +01:02, +0102, +01:02:03 and +010203; the first form prints like Joda did.
      const [printer, always] = count === 1 ? ['xx', ['X', 'XXX', 'XXXX', 'XXXXX']] : ['xxx', ['XXX', 'X', 'XXXX', 'XXXXX']];
      return plan(printer, {
        always,
        changes: [change([printer, ...always].join(', '), `Joda ${raw} printed ${count === 1 ? '+0530 and +0000' : '+05:30 and +00:00'} (java ${printer}, first so that it prints) and parsed Z, +01, +01:02, +0102, +01:02:03 and +010203: java needs the alternatives ${[printer, ...always].join(', ')} to accept them all (java Z parses neither Z nor +01:00, XXX alone misses 4 of the 6 forms)`)],
      });
    }
    default:
      throw new DateFormatError(`Illegal pattern component: ${raw} (not a Joda-Time pattern letter)`);
  }
}

/**
 * More than 4 year letters (yyyyy): Joda printed the year zero-padded (01949) but, outside a run of adjacent numeric
 * fields, parsed any number of digits (1949), while java uuuuu requires 5. The single letter (any number of digits)
 * is the lenient alternative. (With 4 letters only years below 1000 have fewer digits: not covered.)
 */
function longYear(p: TokenPlan, ctx: PatternContext, position: number, single: string): void {
  const token = ctx.tokens[position];
  if (token?.kind !== 'letter' || token.count <= 4) return;
  if (isJodaNumericToken(ctx.tokens[position - 1]) || isJodaNumericToken(ctx.tokens[position + 1])) return;
  p.lenient = [single];
  p.fewerDigits = 'lenient';
}

/**
 * Elasticsearch turns a java.time parse into an instant only from complete groups of fields (DateFormatters.from and
 * java.time's STRICT resolver): a time of day needs each larger field (minutes need an hour, seconds minutes,
 * fractions seconds), a day of month needs a month, a day of year a year, and a day of week a complete date.
 * Joda filled the missing fields from 1970-01-01T00:00 and used every field, so java either ignores the field (another
 * instant, when the rest still gives a date) or rejects the value. Checked with the dates oracle: mm:ss, HH:ss,
 * HH:mm.SSS, yyyy-MM-dd mm, dd, yyyy-dd, D, e, ee, xxxx-e, yyyy-MM e, eeee yyyy-MM, EEE HH:mm, z, ZZZ.
 */
function resolutionFindings(letters: Set<string>): Finding[] {
  const has = (any: string) => [...any].some((l) => letters.has(l));
  const year = has('yY');
  const date = (year && letters.has('M') && letters.has('d')) || (year && letters.has('D')) || (letters.has('x') && letters.has('w'));
  const findings: Finding[] = [];
  const missing = (what: string, needs: string) => findings.push({
    severity: 'unsupported',
    message: `${what} without ${needs}: Joda filled the missing fields from 1970-01-01T00:00 and kept ${what}, while Elasticsearch's java.time resolution needs ${needs} for it, so java ignores it (another instant) or rejects the value; no equivalent pattern: add the missing field to the pattern and the data, or pre-process the input`,
  });
  if (letters.has('m') && !has('HkhK')) missing('minutes (m)', 'an hour (H)');
  if (letters.has('s') && !letters.has('m')) missing('seconds (s)', 'minutes (m)');
  if (letters.has('S') && !letters.has('s')) missing('fractions of a second (S)', 'seconds (s)');
  if (letters.has('d') && !letters.has('M')) missing('day of month (d)', 'a month (M)');
  if (letters.has('D') && !year) missing('day of year (D)', 'a year (y)');
  if (has('eE') && !date) missing('a day of week (e, E)', 'a complete date (y, M and d; y and D; or x and w)');
  if (has('zZ') && !has('yYxwMdDeEHkhKmsS')) missing('a time zone (z, Z)', 'a date or a time of day');
  return findings;
}

function convertPattern(part: string, options: ConvertOptions): PartConversion {
  const tokens = tokenizeJoda(part);
  const ctx: PatternContext = {
    tokens,
    letters: new Set(tokens.flatMap((t) => (t.kind === 'letter' ? [t.letter] : []))),
    currentYear: options.currentYear ?? new Date().getUTCFullYear(),
  };
  const plans: TokenPlan[] = tokens.map((token, position) => {
    if (token.kind === 'letter') {
      if (!JODA_LETTERS.includes(token.letter)) throw new DateFormatError(`Illegal pattern component: ${token.raw} (not a Joda-Time pattern letter) in "${part}"`);
      const p = convertLetter(token, ctx, position);
      for (const c of p.changes) if (!c.why) c.why = 'same field';
      return p;
    }
    if (token.kind === 'quoted') {
      if (token.terminated) return plan(token.raw);
      const closed = `${token.raw}'`;
      return plan(closed, { changes: [{ letter: "'", from: token.raw, to: closed, why: 'Joda took an unterminated quote to the end of the pattern; java.time rejects it, so it is closed' }] });
    }
    if (JAVA_SPECIAL.has(token.raw)) {
      const quoted = `'${token.raw}'`;
      return plan(quoted, { changes: [{ letter: token.raw, from: token.raw, to: quoted, why: 'a literal in Joda, but java.time reads [ ] as optional sections and reserves # { }: quoted' }] });
    }
    return plan(token.raw);
  });

  const changes = plans.flatMap((p) => p.changes);
  const findings = [...plans.flatMap((p) => p.findings), ...resolutionFindings(ctx.letters)];
  const base = plans.map((p) => [p.printer, ...p.always]);
  const withLenient = plans.map((p) => [p.printer, ...p.always, ...p.lenient]);
  const needsLenient = plans.some((p) => p.fewerDigits === 'lenient');
  const impossible = plans.some((p) => p.fewerDigits === 'impossible');
  const size = (lists: string[][]) => lists.reduce((n, l) => n * l.length, 1);

  let chosen = base;
  let coversFewerDigits = !needsLenient && !impossible;
  if (needsLenient) {
    const wanted = size(withLenient);
    const fields = plans.filter((p) => p.fewerDigits === 'lenient').map((p) => p.printer).join(', ');
    if (!options.lenient) {
      findings.push({ severity: 'exact', message: `Joda also accepted fewer digits in ${fields} (2010-1-5, 13:5:7); this output does not (lenient: ${wanted} alternatives, ask with --lenient)` });
    } else if (wanted > MAX_ALTERNATIVES) {
      findings.push({ severity: 'exact', message: `Joda also accepted fewer digits in ${fields}; accepting them all would take ${wanted} alternatives, over the cap of ${MAX_ALTERNATIVES}, so they are not generated: normalise the inputs to full digits (e.g. an ingest pipeline) or add the few alternatives your data needs` });
    } else {
      chosen = withLenient;
      coversFewerDigits = !impossible;
    }
  }

  const severity = findings.reduce<Severity>((s, f) => worst(s, f.severity), 'exact');
  const alternatives = product(chosen);
  return {
    input: part,
    output: alternatives.join('||'),
    severity,
    lenient: coversFewerDigits && severity !== 'unsupported',
    changes,
    findings,
  };
}

/** Every combination, the first token varying slowest (so the first alternative is the printer). */
function product(lists: string[][]): string[] {
  let out = [''];
  for (const list of lists) out = out.flatMap((prefix) => list.map((item) => prefix + item));
  return out;
}

function convertPart(part: string, options: ConvertOptions, java: boolean): PartConversion {
  if (part.trim() === '') throw new DateFormatError('empty date format part (two || in a row, or || at an end)');
  if (BUILT_IN.has(part)) return { input: part, output: part, severity: 'exact', lenient: true, changes: [], findings: [] };
  const snake = CAMEL_CASE_FORMATS.get(part);
  if (snake) {
    return {
      input: part, output: snake, severity: 'exact', lenient: true,
      changes: [{ letter: part, from: part, to: snake, why: 'camelCase built-in names are deprecated in 7.x and rejected by 8.x; the snake_case name is the same format' }],
      findings: [],
    };
  }
  if (java) return { input: part, output: part, severity: 'exact', lenient: true, changes: [], findings: [] };
  return convertPattern(part, options);
}

/** Converts a `||`-joined legacy format; throws DateFormatError on input Elasticsearch 6.x would have rejected. */
export function convertFormat(format: string, options: ConvertOptions = {}): Conversion {
  if (typeof format !== 'string' || format.trim() === '') throw new DateFormatError('empty date format');
  // Elasticsearch 6.8 read a format starting with 8 as java.time (the whole format); 7.x strips the 8 and 8.x
  // no longer documents it, so the converted format drops it.
  const java = format.startsWith('8');
  const body = java ? format.slice(1) : format;
  const parts = body.split('||').map((part) => convertPart(part, options, java));
  if (java) {
    parts[0]!.changes.unshift({ letter: '8', from: '8', to: '', why: 'the 8 prefix marked a java.time format in 6.8; the format is already java.time, so it is kept and the prefix dropped (7.x ignores it, 8.x no longer needs it)' });
  }
  return {
    input: format,
    output: parts.map((p) => p.output).join('||'),
    exact: parts.every((p) => p.severity === 'exact'),
    lenient: parts.every((p) => p.lenient),
    parts,
  };
}

/** The command line's text form: the converted format, then one line per change and finding. */
export function describeConversion(conversion: Conversion): string {
  const lines = [conversion.output];
  const many = conversion.parts.length > 1;
  conversion.parts.forEach((part, i) => {
    const where = many ? `part ${i + 1} (${part.input}) ` : '';
    for (const c of part.changes) lines.push(`  ${where}change ${c.from || c.letter} -> ${c.to || '(removed)'}: ${c.why}`);
    for (const f of part.findings) lines.push(`  ${where}${f.severity}: ${f.message}`);
  });
  lines.push(`  ${conversion.exact ? 'exact' : 'not exact'}, ${conversion.lenient ? 'lenient' : 'not lenient'}`);
  return lines.join('\n');
}
