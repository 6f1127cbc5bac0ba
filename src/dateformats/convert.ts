import { builtInSuggestions } from './built-in-patterns.ts';
import { isJodaNumericToken, tokenizeJoda, type JodaToken } from './tokenizer.ts';

/**
 * Converts legacy (Elasticsearch 6.x, Joda-Time) custom date formats to java.time formats as Elasticsearch 7.x/8.x
 * reads them (Locale.ROOT, ResolverStyle.STRICT, UTC, ISO weeks), aiming at equivalence rather than at the
 * migration guide's letter-by-letter rules: every string the legacy pattern printed must parse to the same instant
 * and print the same way. Where no java.time pattern can be equivalent, a finding says so and what to do, and the
 * conversion has no `output` (only a `bestEffortOutput` that must not be used as is).
 *
 * A format is one or more parts joined with `||`; each part is a built-in name or a pattern. A converted pattern may
 * become several `||` alternatives (the first one prints, like in Elasticsearch, and parsing tries them in order).
 * Findings name every letter with its library (Joda `xxxx`, java.time `YYYY`): the same letter means different
 * fields in the two.
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

/** A built-in format that does what a converted pattern does: worth considering instead of the pattern. */
export interface Suggestion {
  builtIn: string;
  message: string;
}

export interface PartConversion {
  input: string;
  /**
   * The converted part (one pattern or several `||`-joined alternatives), or null when the part is unsupported: no
   * java.time format is equivalent then, and nothing of it may be used as is.
   */
  output: string | null;
  /** The converted part even when it is unsupported (what `dates migrate --allow-unsupported` writes). */
  bestEffortOutput: string;
  severity: Severity;
  lenient: boolean;
  changes: Change[];
  findings: Finding[];
  suggestions: Suggestion[];
}

export interface Conversion {
  input: string;
  /** The whole converted format (parts joined with `||`), or null when any part is unsupported. */
  output: string | null;
  /** The whole converted format even when a part is unsupported: then it is not equivalent; read the findings. */
  bestEffortOutput: string;
  /** Every part is exact: every string the legacy pattern printed parses to the same instant and prints the same. */
  exact: boolean;
  /**
   * Every part also accepts, with the same value, what else Joda accepted: fewer digits (`2010-1-5`, `13:5:7`, `.5`,
   * the year `194`) and month and day names of the other length (`January` under `MMM`). Letter case is not included:
   * no java.time pattern parses names case-insensitively (a finding says what to do).
   */
  lenient: boolean;
  /** No part is unsupported, so `output` is set. */
  usable: boolean;
  parts: PartConversion[];
}

export interface ConvertOptions {
  /** Add the alternatives that accept what else Joda accepted (fewer digits, names of the other length), up to MAX_ALTERNATIVES per part. */
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
  'epoch_millis',
  'epoch_second',
  'iso8601',
  'date_optional_time',
  'strict_date_optional_time',
  'strict_date_optional_time_nanos',
  'basic_date',
  'basic_date_time',
  'basic_date_time_no_millis',
  'basic_ordinal_date',
  'basic_ordinal_date_time',
  'basic_ordinal_date_time_no_millis',
  'basic_time',
  'basic_time_no_millis',
  'basic_t_time',
  'basic_t_time_no_millis',
  'basic_week_date',
  'strict_basic_week_date',
  'basic_week_date_time',
  'strict_basic_week_date_time',
  'basic_week_date_time_no_millis',
  'strict_basic_week_date_time_no_millis',
  'date',
  'strict_date',
  'date_hour',
  'strict_date_hour',
  'date_hour_minute',
  'strict_date_hour_minute',
  'date_hour_minute_second',
  'strict_date_hour_minute_second',
  'date_hour_minute_second_fraction',
  'strict_date_hour_minute_second_fraction',
  'date_hour_minute_second_millis',
  'strict_date_hour_minute_second_millis',
  'date_time',
  'strict_date_time',
  'date_time_no_millis',
  'strict_date_time_no_millis',
  'hour',
  'strict_hour',
  'hour_minute',
  'strict_hour_minute',
  'hour_minute_second',
  'strict_hour_minute_second',
  'hour_minute_second_fraction',
  'strict_hour_minute_second_fraction',
  'hour_minute_second_millis',
  'strict_hour_minute_second_millis',
  'ordinal_date',
  'strict_ordinal_date',
  'ordinal_date_time',
  'strict_ordinal_date_time',
  'ordinal_date_time_no_millis',
  'strict_ordinal_date_time_no_millis',
  'time',
  'strict_time',
  'time_no_millis',
  'strict_time_no_millis',
  't_time',
  'strict_t_time',
  't_time_no_millis',
  'strict_t_time_no_millis',
  'week_date',
  'strict_week_date',
  'week_date_time',
  'strict_week_date_time',
  'week_date_time_no_millis',
  'strict_week_date_time_no_millis',
  'weekyear',
  'strict_weekyear',
  'weekyear_week',
  'strict_weekyear_week',
  'weekyear_week_day',
  'strict_weekyear_week_day',
  'year',
  'strict_year',
  'year_month',
  'strict_year_month',
  'year_month_day',
  'strict_year_month_day',
];

const toCamel = (name: string) => name.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

/** The deprecated camelCase names (`strictDateOptionalTime`, `basicTTime`, ...) and their snake_case names. */
export const CAMEL_CASE_FORMATS: ReadonlyMap<string, string> = new Map(
  BUILT_IN_FORMATS.filter((name) => name.includes('_') && !name.startsWith('epoch_') && !name.endsWith('_nanos')).map((name) => [toCamel(name), name]),
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
  /** This token's forms in the alternatives --lenient adds (default: the printer and `always`). */
  lenient?: string[];
  /**
   * What Joda accepted here beyond what the printer parses: nothing; something the `always` forms cover; something
   * the `lenient` forms cover; or something no java.time alternative can parse (a finding says what).
   */
  beyond: 'nothing' | 'covered' | 'lenient' | 'impossible';
  /** For `beyond: 'lenient'`: what else Joda accepted, in words (`fewer digits in Joda \`MM\``). */
  accepts?: string;
  changes: Change[];
  findings: Finding[];
}

interface PatternContext {
  tokens: JodaToken[];
  letters: Set<string>;
  currentYear: number;
}

const quoteZeros = (n: number) => (n > 0 ? `'${'0'.repeat(n)}'` : '');
const code = (text: string) => `\`${text}\``;
const joda = (text: string) => `Joda ${code(text)}`;
const java = (text: string) => `java.time ${code(text)}`;

function plan(printer: string, extra: Partial<TokenPlan> = {}): TokenPlan {
  return { printer, always: [], beyond: 'nothing', changes: [], findings: [], ...extra };
}

/** Whether java.time reads this Joda numeric token with a fixed width (what adjacent value parsing needs before the last field). */
function javaFixedWidth(token: JodaToken | undefined): boolean {
  if (token?.kind !== 'letter') return false;
  if ('yYx'.includes(token.letter)) return token.count === 2;
  return token.letter === 'S' || token.count >= 2;
}

/**
 * Where a numeric token stands among adjacent numeric fields (`yyyyMMdd`). Joda read every field of such a run with a
 * fixed width but the last, which took any number of digits. java.time can give the last field a variable width too,
 * but only when every field before it has a fixed width in java.time (a 4-letter year has not: `uuuu` takes 4 to 19).
 */
function adjacency(ctx: PatternContext, position: number): 'alone' | 'inside' | 'last, coverable' | 'last, not coverable' {
  const next = ctx.tokens[position + 1];
  const before: JodaToken[] = [];
  for (let i = position - 1; i >= 0 && isJodaNumericToken(ctx.tokens[i]); i--) before.push(ctx.tokens[i]!);
  if (isJodaNumericToken(next)) return 'inside';
  if (!before.length) return 'alone';
  return before.every(javaFixedWidth) ? 'last, coverable' : 'last, not coverable';
}

function adjacentRunFinding(raw: string): Finding {
  return {
    severity: 'exact',
    message: `${joda(raw)} ends a run of adjacent numeric fields that starts with a field java.time reads with a variable width (a 4-letter year): Joda also accepted fewer digits in ${joda(raw)} (2010115 for yyyyMMdd), which no java.time alternative can parse (adjacent value parsing needs the fields before the last one to have fixed widths); not lenient`,
  };
}

/**
 * A numeric field of at most `javaMax` letters in java.time (d, H, h, K, k, m, s, w: 2; D: 3; M: 2 as a number).
 * Joda prints at least `count` digits and parses 1 up to max(count, javaMax) digits; the single java.time letter
 * parses any number of digits, so it is the lenient form.
 */
function numericField(token: Extract<JodaToken, { kind: 'letter' }>, javaLetter: string, javaMax: number, ctx: PatternContext, position: number): TokenPlan {
  const { letter, count, raw } = token;
  const changes: Change[] = [];
  const findings: Finding[] = [];
  let printer: string;
  if (count > javaMax) {
    printer = quoteZeros(count - javaMax) + javaLetter.repeat(javaMax);
    changes.push({
      letter,
      from: raw,
      to: printer,
      why: `java.time allows at most ${javaMax} ${code(javaLetter)} letters: the leading zeros Joda printed become a quoted literal`,
    });
  } else {
    printer = javaLetter.repeat(count);
    if (javaLetter !== letter) changes.push({ letter, from: raw, to: printer, why: '' });
  }
  // Joda's minimum is the letter count but it parses from 1 digit; java parses exactly 2 (or 2-3 for DD, 3 for DDD).
  if (count < 2) return plan(printer, { changes, findings });
  const where = adjacency(ctx, position);
  if (where === 'inside') return plan(printer, { changes, findings });
  if (where === 'last, not coverable') return plan(printer, { changes, findings: [adjacentRunFinding(raw)], beyond: 'impossible' });
  if (count > javaMax) {
    findings.push({
      severity: 'exact',
      message: `Joda also accepted fewer than ${count} digits for ${joda(raw)}; the quoted zeros of ${java(printer)} require them: not lenient`,
    });
    return plan(printer, { changes, findings, beyond: 'impossible' });
  }
  const single = javaLetter;
  const accepts = `fewer digits in ${joda(raw)}`;
  if (letter === 'd' && where === 'alone') {
    // The guide's rule, applied always: java dd requires two digits.
    changes.push({
      letter,
      from: raw,
      to: single,
      why: `added as an alternative (the migration guide's rule): ${java('dd')} requires 2 digits while ${joda('dd')} also accepted 1 (2010-01-5)`,
    });
    return plan(printer, { changes, findings, always: [single], lenient: [single], beyond: 'covered' });
  }
  return plan(printer, { changes, findings, lenient: [single], beyond: 'lenient', accepts });
}

function twoDigitYearFinding(raw: string, javaRaw: string, ctx: PatternContext, nextNumeric: boolean): Finding {
  const pivot = ctx.currentYear - 30;
  const low = pivot - 50;
  const high = pivot + 49;
  const lenientNote = nextNumeric
    ? ''
    : ` Joda also read any other number of digits (or a signed number) as a full year (2010 as 2010, 5 as year 5), ${java(javaRaw)} only exactly 2 digits.`;
  return {
    severity: 'unsupported',
    message: `two-digit year ${joda(raw)}: Joda pivots on the current year (now ${low}-${high}: ${String(low % 100).padStart(2, '0')}-99 mean ${low}-${Math.floor(low / 100) * 100 + 99}, 00-${String(high % 100).padStart(2, '0')} mean ${Math.floor(high / 100) * 100}-${high}, moving every year), while ${java(javaRaw)} always means 2000-2099; no java.time pattern can express the pivot. Equivalent only if every value is in ${Math.floor(high / 100) * 100}-${high}; otherwise pre-process the input to 4-digit years (e.g. an ingest pipeline) and use ${java(javaRaw.repeat(2))}.${lenientNote}`,
  };
}

/**
 * Names (months, days, AM/PM, eras): Joda matched them in any letter case, java.time only as the locale data writes
 * them, and no java.time pattern can change that; the way out is to bring the data to the printed case first.
 */
function textFinding(raw: string, what: string, examples: string): Finding {
  return {
    severity: 'review',
    message: `${joda(raw)} is text (${what}): Joda parsed it in any letter case (${examples}), java.time only in the case the locale data prints, and no java.time pattern can parse case-insensitively. If the data has other cases, bring the names to the printed case before the date is parsed: e.g. a \`script\` processor in the ingest pipeline ahead of the \`date\` processor (or a reindex script) that rewrites them. The names also depend on the runtime's locale providers (Elasticsearch on JDK 23+/8.16+ uses CLDR): test with real data`,
  };
}

/**
 * A year field (Joda `y`, `Y`, `x`) of 3 or more letters: Joda printed at least that many digits but, outside a run of
 * adjacent numeric fields (or at the end of one), parsed any number (the year 194 from `5.1.194`), while java.time
 * `uuuu` requires 4. The single letter (any number of digits) is the lenient form.
 */
function yearPlan(token: Extract<JodaToken, { kind: 'letter' }>, javaLetter: string, why: string, ctx: PatternContext, position: number): TokenPlan {
  const { letter, count, raw } = token;
  const printer = javaLetter.repeat(count);
  const p = plan(printer, { changes: [{ letter, from: raw, to: printer, why }] });
  if (count > 19) {
    p.findings.push({
      severity: 'unsupported',
      message: `${joda(raw)}: java.time reads a year of at most 19 letters (${count} here), so Elasticsearch 7+ would refuse the pattern; use 4 letters (${java(javaLetter.repeat(4))})`,
    });
    return p;
  }
  if (count === 2) {
    p.findings.push(twoDigitYearFinding(raw, printer, ctx, isJodaNumericToken(ctx.tokens[position + 1])));
    return p;
  }
  if (count < 3) return p;
  const where = adjacency(ctx, position);
  if (where === 'inside') return p;
  if (where === 'last, not coverable') return { ...p, beyond: 'impossible', findings: [adjacentRunFinding(raw)] };
  return { ...p, lenient: [javaLetter], beyond: 'lenient', accepts: `years of fewer digits in ${joda(raw)} (194)` };
}

/** Month and day names: Joda's short and full forms each also parsed the other length. */
function namePlan(raw: string, printer: string, other: string, what: string, examples: { short: string; full: string; cases: string }): TokenPlan {
  const full = printer.length >= 4;
  return plan(printer, {
    lenient: [printer, other],
    beyond: 'lenient',
    accepts: full ? `short ${what} names under ${joda(raw)} (${examples.short})` : `full ${what} names under ${joda(raw)} (${examples.full})`,
    findings: [textFinding(raw, `${what} name`, examples.cases)],
  });
}

function convertLetter(token: Extract<JodaToken, { kind: 'letter' }>, ctx: PatternContext, position: number): TokenPlan {
  const { letter, count, raw } = token;
  const change = (to: string, why: string): Change => ({ letter, from: raw, to, why });
  switch (letter) {
    case 'y':
      return yearPlan(
        token,
        'u',
        `${java('y')} is year-of-era (no year 0 or negative years); ${java('u')} is the proleptic year, like ${joda('y')}`,
        ctx,
        position,
      );
    case 'Y':
      return yearPlan(
        token,
        'y',
        `${java('Y')} is the week-based year (off by one near New Year); ${java('y')} is year-of-era, like ${joda('Y')}`,
        ctx,
        position,
      );
    case 'x':
      return yearPlan(
        token,
        'Y',
        `${java('x')} is a zone offset; ${java('Y')} is the week-based year, like ${joda('x')} (ISO weeks with Elasticsearch's week data: Monday, 4 days)`,
        ctx,
        position,
      );
    case 'C':
      return plan(raw, {
        findings: [
          {
            severity: 'unsupported',
            message: `${joda(raw)} (century of era) has no java.time letter: pre-process the input (e.g. an ingest pipeline that turns century and year into a 4-digit year) and map that with ${java('uuuu')}; the best-effort output keeps ${code(raw)}, which Elasticsearch 7+ rejects`,
          },
        ],
      });
    case 'G':
      return plan('G', {
        changes: count === 1 ? [] : [change('G', `Joda printed the short era (AD) for any count; ${java('GGGG')} would print Anno Domini`)],
        findings: [
          {
            severity: 'review',
            message: `${joda(raw)} (era) is text: Joda parsed it in any letter case; with an era, java.time resolves the year (${java('u')}, proleptic) against it: test years before 1 AD`,
          },
        ],
      });
    case 'e': {
      // Joda e is always the ISO day-of-week number (Monday = 1); java e/c are localized (ISO with ES's week data).
      if (count === 1)
        return plan('c', {
          changes: [
            change(
              'c',
              `the guide: ${joda('e')} is the day-of-week number; ${java('c')} (one letter) is that number (Monday = 1 with Elasticsearch's week data), while ${java('eee')} would be text`,
            ),
          ],
        });
      const p = numericField(token, 'e', 2, ctx, position);
      if (count > 2) {
        p.printer = quoteZeros(count - 1) + 'c';
        p.changes = [
          change(
            p.printer,
            `Joda padded the day-of-week number with zeros; ${java('eee')} and ${java('ccc')} would be text, so the zeros become a quoted literal and ${java('c')} the number`,
          ),
        ];
      } else {
        p.changes.push(
          change('ee', `${java('cc')} does not exist: ${java('ee')} is the 2-digit day-of-week number (Monday = 1 with Elasticsearch's week data)`),
        );
        if (p.beyond === 'lenient') p.lenient = ['c'];
      }
      return p;
    }
    case 'E': {
      const to = count >= 4 ? 'EEEE' : 'E'.repeat(count);
      const p = namePlan(raw, to, count >= 4 ? 'EEE' : 'EEEE', 'day', { short: 'Wed', full: 'Wednesday', cases: 'wed, WED' });
      if (to !== raw) p.changes.push(change(to, `${java('EEEEE')} would be the narrow (one-letter) name; Joda printed the full name for 4 or more letters`));
      return p;
    }
    case 'M': {
      if (count <= 2) return numericField(token, 'M', 2, ctx, position);
      const to = count >= 4 ? 'MMMM' : 'MMM';
      const p = namePlan(raw, to, count >= 4 ? 'MMM' : 'MMMM', 'month', { short: 'Jan', full: 'January', cases: 'jan, JAN' });
      if (to !== raw) p.changes.push(change(to, `${java('MMMMM')} would be the narrow (one-letter) month; Joda printed the full name`));
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
        p.findings.push({
          severity: 'unsupported',
          message: `${joda(raw)} (week of weekyear) without ${joda('xxxx')} (weekyear): Joda combined the week with the calendar year, while ${java('w')} resolves only with a week-based year (${java('YYYY')}), so the same string gives another date; no equivalent pattern. If the values are ISO week dates, write the year as ${joda('xxxx')} in the legacy format (it converts to ${java('YYYY')}) and convert again; otherwise pre-process the input`,
        });
      }
      return p;
    }
    case 'h':
    case 'K': {
      const p = numericField(token, letter, 2, ctx, position);
      if (!ctx.letters.has('a')) {
        p.findings.push({
          severity: 'unsupported',
          message: `${joda(raw)} (${letter === 'h' ? 'clock hour 1-12' : 'hour 0-11'} of am/pm) without ${joda('a')}: Joda assumed AM (${letter === 'h' ? '12 meant 00' : '0-11 meant 00-11'}, and printing afternoon times lost the PM), while java.time with Elasticsearch's STRICT resolver cannot resolve an hour of am/pm without am/pm, so Elasticsearch silently drops the time of day (every value becomes midnight); no pattern reproduces the AM assumption: use ${java('HH')} if the values are really 0-23 hours, add ${code('a')} if the inputs carry AM/PM, or pre-process the input`,
        });
      }
      return p;
    }
    case 'a':
      return plan('a', { changes: count > 1 ? [change('a', `java.time allows one ${code('a')}`)] : [], findings: [textFinding(raw, 'AM/PM', 'am, pm')] });
    case 'S': {
      if (count > 9) {
        return plan(raw, {
          findings: [
            {
              severity: 'unsupported',
              message: `${joda(raw)}: java.time fractions have at most 9 digits (${code('S')} to ${code('SSSSSSSSS')}); shorten the pattern or pre-process the input`,
            },
          ],
        });
      }
      const p = numericField(token, 'S', 9, ctx, position);
      if (p.beyond === 'lenient') {
        // A java.time fraction has a fixed width: one alternative per shorter width.
        p.lenient = Array.from({ length: count }, (_, i) => 'S'.repeat(count - i));
        p.accepts = `1 to ${count - 1} fraction digits in ${joda(raw)} (.5 = 500 ms)`;
      }
      return p;
    }
    case 'z': {
      const to = count >= 4 ? 'zzzz' : 'z';
      return plan(to, {
        changes: to !== raw ? [change(to, `java.time allows at most 4 ${code('z')} letters`)] : [],
        findings: [
          {
            severity: 'review',
            message: `${joda(raw)} (zone name): ${java(to)} prints Z for UTC where Joda printed UTC (documents still parse: Joda parsed only UT, UTC, GMT and the US abbreviations EST/EDT/CST/CDT/MST/MDT/PST/PDT, as zone names java.time also parses); printed values (docvalue_fields, key_as_string) change`,
          },
        ],
      });
    }
    case 'Z': {
      if (count >= 3) {
        return plan('VV', {
          changes: [change('VV', `${joda('ZZZ')} is the zone id (Europe/Paris); ${java('VV')} is the zone id, ${java('ZZZ')} would be an offset`)],
          findings: [
            {
              severity: 'review',
              message: `${joda(raw)} (zone id) becomes ${java('VV')}, which parses the same ids; java.time prints Z for UTC where Joda printed UTC (printed values such as docvalue_fields and key_as_string change)`,
            },
          ],
        });
      }
      // Joda Z and ZZ both parse Z, +01, +01:02, +0102, +01:02:03 and +010203; the first form prints like Joda did.
      const [printer, always] = count === 1 ? ['xx', ['X', 'XXX', 'XXXX', 'XXXXX']] : ['xxx', ['XXX', 'X', 'XXXX', 'XXXXX']];
      const forms = [printer, ...always];
      return plan(printer, {
        always,
        changes: [
          change(
            forms.join(', '),
            `${joda(raw)} printed ${count === 1 ? '+0530 and +0000' : '+05:30 and +00:00'} (${java(printer)}, first so that it prints) and parsed Z, +01, +01:02, +0102, +01:02:03 and +010203: java.time needs the alternatives ${forms.map(code).join(', ')} to accept them all (${java('Z')} parses neither Z nor +01:00, ${java('XXX')} alone misses 4 of the 6 forms)`,
          ),
        ],
      });
    }
    default:
      throw new DateFormatError(`Illegal pattern component: ${raw} (not a Joda-Time pattern letter)`);
  }
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
  const missing = (what: string, needs: string) =>
    findings.push({
      severity: 'unsupported',
      message: `${what} without ${needs}: Joda filled the missing fields from 1970-01-01T00:00 and kept ${what}, while Elasticsearch's java.time resolution needs ${needs} for it, so java.time ignores it (another instant) or rejects the value; no equivalent pattern: add the missing field to the pattern and the data, or pre-process the input`,
    });
  if (letters.has('m') && !has('HkhK')) missing(`minutes (${joda('m')})`, `an hour (${joda('H')})`);
  if (letters.has('s') && !letters.has('m')) missing(`seconds (${joda('s')})`, `minutes (${joda('m')})`);
  if (letters.has('S') && !letters.has('s')) missing(`fractions of a second (${joda('S')})`, `seconds (${joda('s')})`);
  if (letters.has('d') && !letters.has('M')) missing(`day of month (${joda('d')})`, `a month (${joda('M')})`);
  if (letters.has('D') && !year) missing(`day of year (${joda('D')})`, `a year (${joda('y')})`);
  if (has('eE') && !date)
    missing(
      `a day of week (${joda('e')}, ${joda('E')})`,
      `a complete date (Joda ${code('y')}, ${code('M')} and ${code('d')}; ${code('y')} and ${code('D')}; or ${code('x')} and ${code('w')})`,
    );
  if (has('zZ') && !has('yYxwMdDeEHkhKmsS')) missing(`a time zone (${joda('z')}, ${joda('Z')})`, 'a date or a time of day');
  return findings;
}

/**
 * A day of week beside a calendar date: Joda moved the date onto the weekday the value named when the two disagreed,
 * java.time (STRICT) refuses the value, and no alternative can accept it (checked with the dates oracle).
 */
function weekdayConflict(letters: Set<string>): Finding[] {
  const calendarDate = ['y', 'Y'].some((l) => letters.has(l)) && ((letters.has('M') && letters.has('d')) || letters.has('D'));
  if (!calendarDate || !(letters.has('e') || letters.has('E'))) return [];
  return [
    {
      severity: 'exact',
      message: `Joda also accepted a day of week that contradicts the date (\`Monday 25.1.1989\` read as Monday 1989-01-23: Joda moved the date onto that weekday), while java.time (STRICT) refuses such values and no alternative can accept them: not lenient. Documents with a wrong weekday fail to reindex: find them first (e.g. a script query), fix them or set ignore_malformed`,
    },
  ];
}

/**
 * No year: Joda and java.time both put such dates in 1970, so Feb 29 (which Joda refused, 1970 not being a leap
 * year, and so never stored) stays refused, and every value's year is 1970 on both sides.
 */
function yearlessFinding(letters: Set<string>): Finding[] {
  const hasYear = [...'yYxC'].some((l) => letters.has(l));
  if (hasYear || !letters.has('M')) return [];
  return [
    {
      severity: 'exact',
      message: `no year: Joda and java.time both read these dates in 1970, so Feb 29 is refused by both (Joda refused it too, so no stored value has it) and a value's year is lost on both sides`,
    },
  ];
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
      if (!JODA_LETTERS.includes(token.letter))
        throw new DateFormatError(`Illegal pattern component: ${token.raw} (not a Joda-Time pattern letter) in "${part}"`);
      const p = convertLetter(token, ctx, position);
      for (const c of p.changes) if (!c.why) c.why = 'same field';
      return p;
    }
    if (token.kind === 'quoted') {
      if (token.terminated) return plan(token.raw);
      const closed = `${token.raw}'`;
      return plan(closed, {
        changes: [
          { letter: "'", from: token.raw, to: closed, why: 'Joda took an unterminated quote to the end of the pattern; java.time rejects it, so it is closed' },
        ],
      });
    }
    if (JAVA_SPECIAL.has(token.raw)) {
      const quoted = `'${token.raw}'`;
      return plan(quoted, {
        changes: [
          { letter: token.raw, from: token.raw, to: quoted, why: 'a literal in Joda, but java.time reads [ ] as optional sections and reserves # { }: quoted' },
        ],
      });
    }
    return plan(token.raw);
  });

  const changes = plans.flatMap((p) => p.changes);
  const conflicts = weekdayConflict(ctx.letters);
  const findings = [...plans.flatMap((p) => p.findings), ...resolutionFindings(ctx.letters), ...conflicts, ...yearlessFinding(ctx.letters)];
  const base = product(plans.map((p) => [p.printer, ...p.always]));
  const wanting = plans.filter((p) => p.beyond === 'lenient');
  const impossible = plans.some((p) => p.beyond === 'impossible') || conflicts.length > 0;

  let alternatives = base;
  let coversJoda = wanting.length === 0 && !impossible;
  if (wanting.length) {
    // The printing alternatives first, then one more per combination of lenient forms: a single java.time letter
    // parses any number of digits, so the lenient alternatives also accept everything the printing ones do.
    const lenient = [...new Set([...base, ...product(plans.map((p) => p.lenient ?? [p.printer, ...p.always]))])];
    const accepted = wanting.map((p) => p.accepts).join(', ');
    if (!options.lenient) {
      findings.push({
        severity: 'exact',
        message: `Joda also accepted ${accepted}; this output does not (the lenient option, --lenient or lenient: true, adds them: ${lenient.length} alternatives)`,
      });
    } else if (lenient.length > MAX_ALTERNATIVES) {
      findings.push({
        severity: 'exact',
        message: `Joda also accepted ${accepted}; accepting them all would take ${lenient.length} alternatives, over the cap of ${MAX_ALTERNATIVES}, so they are not generated: normalise the inputs (e.g. an ingest pipeline) or add the few alternatives your data needs`,
      });
    } else {
      alternatives = lenient;
      coversJoda = !impossible;
    }
  }

  const severity = findings.reduce<Severity>((s, f) => worst(s, f.severity), 'exact');
  const converted = alternatives.join('||');
  return {
    input: part,
    output: severity === 'unsupported' ? null : converted,
    bestEffortOutput: converted,
    severity,
    lenient: coversJoda && severity !== 'unsupported',
    changes,
    findings,
    suggestions: severity === 'unsupported' ? [] : builtInSuggestions(part),
  };
}

/** Every combination, the first token varying slowest (so the first alternative is the printer). */
function product(lists: string[][]): string[] {
  let out = [''];
  for (const list of lists) out = out.flatMap((prefix) => list.map((item) => prefix + item));
  return out;
}

function unchanged(part: string, extra: Partial<PartConversion> = {}): PartConversion {
  return { input: part, output: part, bestEffortOutput: part, severity: 'exact', lenient: true, changes: [], findings: [], suggestions: [], ...extra };
}

function convertPart(part: string, options: ConvertOptions, java: boolean): PartConversion {
  if (part.trim() === '') throw new DateFormatError('empty date format part (two || in a row, or || at an end)');
  if (BUILT_IN.has(part)) return unchanged(part);
  const snake = CAMEL_CASE_FORMATS.get(part);
  if (snake) {
    return unchanged(part, {
      output: snake,
      bestEffortOutput: snake,
      changes: [
        {
          letter: part,
          from: part,
          to: snake,
          why: 'camelCase built-in names are deprecated in 7.x and rejected by 8.x; the snake_case name is the same format',
        },
      ],
    });
  }
  if (java) return unchanged(part);
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
    parts[0]!.changes.unshift({
      letter: '8',
      from: '8',
      to: '',
      why: 'the 8 prefix marked a java.time format in 6.8; the format is already java.time, so it is kept and the prefix dropped (7.x ignores it, 8.x no longer needs it)',
    });
  }
  const usable = parts.every((p) => p.severity !== 'unsupported');
  const bestEffortOutput = parts.map((p) => p.bestEffortOutput).join('||');
  return {
    input: format,
    output: usable ? bestEffortOutput : null,
    bestEffortOutput,
    exact: parts.every((p) => p.severity === 'exact'),
    lenient: parts.every((p) => p.lenient),
    usable,
    parts,
  };
}

/** The converted format for a one-line listing (scan, migration): the format, or an unmistakable "no equivalent". */
export function convertedForListing(conversion: Conversion): string {
  return conversion.output ?? `NO EQUIVALENT (best effort, not equivalent: ${conversion.bestEffortOutput})`;
}

/**
 * The command line's text form. The first line is the converted format only when it may be used: when a part is
 * unsupported it says so instead, and the best-effort format comes later, marked as not equivalent.
 */
export function describeConversion(conversion: Conversion): string {
  const unsupported = conversion.parts.filter((p) => p.severity === 'unsupported').length;
  const lines =
    conversion.output !== null
      ? [conversion.output]
      : [
          `NO EQUIVALENT java.time FORMAT: ${unsupported} of ${conversion.parts.length} part(s) unsupported; read the findings below (nothing here may be used as is)`,
        ];
  const many = conversion.parts.length > 1;
  conversion.parts.forEach((part, i) => {
    const where = many ? `part ${i + 1} (${part.input}) ` : '';
    for (const c of part.changes) lines.push(`  ${where}change ${c.from || c.letter} -> ${c.to || '(removed)'}: ${c.why}`);
    for (const f of part.findings) lines.push(`  ${where}${f.severity}: ${f.message}`);
    for (const s of part.suggestions) lines.push(`  ${where}suggestion: ${s.message}`);
  });
  if (conversion.output === null)
    lines.push(`  best effort, NOT equivalent (do not use as is: see the unsupported findings above): ${conversion.bestEffortOutput}`);
  lines.push(`  ${conversion.exact ? 'exact' : 'not exact'}, ${conversion.lenient ? 'lenient' : 'not lenient'}${conversion.usable ? '' : ', unsupported'}`);
  return lines.join('\n');
}
