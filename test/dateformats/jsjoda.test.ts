import {
  ChronoField,
  DateTimeFormatter,
  Instant,
  LocalDate,
  LocalDateTime,
  LocalTime,
  ResolverStyle,
  TemporalQueries,
  ZoneOffset,
  type TemporalAccessor,
} from '@js-joda/core';
import { describe, expect, it } from 'vitest';
import { BUILT_IN_FORMATS, convertFormat, type Conversion } from '../../src/dateformats/convert.ts';
import { jodaPrint, type JodaFields } from '../helpers/joda-print.ts';

/** The converted format of a conversion these tests expect to be usable (no unsupported part). */
function usableOutput(conversion: Conversion): string {
  if (conversion.output === null) throw new Error(`${conversion.input} has no usable conversion`);
  return conversion.output;
}

/**
 * Equivalence with a real java.time implementation in JavaScript (@js-joda/core, a port of java.time): for each
 * legacy pattern the converter calls exact and many instants, the string the legacy (Joda) pattern printed must parse,
 * with the converted pattern configured like Elasticsearch 7.x/8.x, to the same instant.
 *
 * - Joda's printing: the converted format's first alternative (the printer) printed with js-joda, and, for the numeric
 *   letters, an independent tiny Joda printer (test/helpers/joda-print.ts); where both exist they must agree.
 * - Elasticsearch's parsing: `DateTimeFormatter.ofPattern(p).withResolverStyle(STRICT)` per `||` alternative, tried
 *   in order, the first that consumes the whole input wins (JavaDateFormatter.doParse); the result becomes an instant
 *   like DateFormatters.from: zone UTC unless parsed, date without time = start of day, time without date = 1970-01-01,
 *   year (and month) alone = first day, and year-of-era (y) accepted without an era.
 * - Joda's fewer-digit inputs (2010-1-5, 13:5:7, .5), for conversions the converter marks lenient with --lenient.
 *
 * js-joda gaps (rows left out, never weakened): week-based fields (java Y, w, c, e: the converted forms of Joda x, w,
 * e) throw "Pattern using (localized) text not implemented" without @js-joda/locale, so xxxx-'W'ww-e and friends are
 * checked only by the oracle (oracle.test.ts, formats-table.test.ts); text fields (E, MMM, a, z, G) are out of scope
 * here (Locale-dependent); built-in names (epoch_millis, ...) are Elasticsearch's, not patterns.
 */

interface Case {
  legacy: string;
  /** Check Joda's fewer-digit inputs with the --lenient conversion (the converter must call it lenient). */
  lenient?: boolean;
}

const CASES: Case[] = [
  { legacy: 'yyyy-MM-dd', lenient: true },
  { legacy: 'YYYY-MM-dd', lenient: true },
  { legacy: 'yyyy-MM-dd HH:mm:ss', lenient: true },
  { legacy: 'dd/MM/yyyy', lenient: true },
  { legacy: 'MM/dd/yyyy HH:mm', lenient: true },
  { legacy: "yyyyMMdd'T'HHmmssZ" },
  { legacy: "yyyy-MM-dd'T'HH:mm:ss.SSSZZ" },
  { legacy: 'dd.MM.yyyy', lenient: true },
  { legacy: 'yyyy/MM/dd HH:mm:ss||yyyy/MM/dd', lenient: true },
  { legacy: 'HH:mm:ss', lenient: true },
  { legacy: "yyyy-MM-dd'T'HH:mm:ss'Z'" },
  { legacy: "yyyy-MM-dd'T'HH:mm:ss.SSS'Z'" },
  { legacy: "HH 'o''clock'", lenient: true },
  { legacy: "yyyy''MM''dd", lenient: true },
  { legacy: "'Date: 'yyyy-MM-dd", lenient: true },
  { legacy: "yyyy-MM-dd'T'HH:mm:ss" },
  { legacy: "yyyy-MM-dd'T'HH:mm:ss.SSS" },
  { legacy: "yyyy-MM-dd'T'HH:mm:ssZ" },
  { legacy: "yyyy-MM-dd'T'HH:mm:ssZZ" },
  { legacy: "yyyy-MM-dd'T'HH:mm:ss.SSSZ" },
  { legacy: 'yyyy-MM-dd HH:mm:ss.SSS' },
  { legacy: 'yyyy-MM-dd HH:mm:ss,SSS' },
  { legacy: 'HH:mm:ss,SSS', lenient: true },
  { legacy: 'yyyy-MM-dd HH:mm:ss Z' },
  { legacy: 'yyyy-MM-dd HH:mm:ssZZ' },
  { legacy: 'dd-MM-yyyy', lenient: true },
  { legacy: 'MM/dd/yyyy', lenient: true },
  { legacy: 'M/d/yyyy', lenient: true },
  { legacy: 'yyyyMMdd' },
  { legacy: 'yyyyMMddHHmmss' },
  // js-joda gap: yyyyMMddHHmmssSSS (java uuuuMMddHHmmssSSS) is left out: js-joda's adjacent value parsing reads the
  // 17-digit run as one JavaScript number and throws "number text exceeds length" (java uses a long; the oracle finds
  // the conversion exact: formats-table.test.ts).
  { legacy: 'HHmmss' },
  { legacy: 'HH:mm', lenient: true },
  { legacy: 'HH:mm:ss.SSS', lenient: true },
  { legacy: 'yyyy-MM', lenient: true },
  { legacy: 'yyyy', lenient: true },
  { legacy: 'yyyy-DDD', lenient: true },
  { legacy: "yyyy-MM-dd'T'HH:mm:ss.SSSSSS" },
  { legacy: "yyyy-MM-dd'T'HH:mm:ss.SSSSSSSSSZZ" },
  { legacy: 'kk:mm:ss', lenient: true },
  { legacy: 'YYYYMMdd' },
  { legacy: 'yyyy-MM-ddddd' },
  { legacy: '[yyyy-MM-dd]', lenient: true },
  { legacy: 'HH:mm:ss.SSSZ' },
  { legacy: 'HHmmssZ' },
  { legacy: "yyyy-MM-dd'T'HH:mmZZ" },
  { legacy: 'yyyy-M-d H:m:s', lenient: true },
  { legacy: 'yyyyy-MM-dd', lenient: true },
  { legacy: 'y-MM-dd', lenient: true },
  { legacy: "yyyy-MM-dd'T'HH:mm:ss.S", lenient: true },
  { legacy: 'yyyy-MM-dd HH:mm', lenient: true },
  { legacy: 'yyyy.MM.dd HH:mm:ss', lenient: true },
];

// ---- instants --------------------------------------------------------------------------------------------------

const ms = (iso: string) => Instant.parse(iso).toEpochMilli();

/** Year boundaries and leap days from 1969 to 2051, then a seeded set (a small LCG: deterministic, no dependency). */
function instants(): number[] {
  const out: number[] = [];
  for (let y = 1969; y <= 2051; y++) {
    out.push(ms(`${y}-01-01T00:00:00Z`), ms(`${y}-12-31T23:59:59.999Z`), ms(`${y}-03-01T00:00:00.001Z`), ms(`${y}-02-28T12:34:56.789Z`));
    if (LocalDate.of(y, 1, 1).isLeapYear()) out.push(ms(`${y}-02-29T00:00:00Z`), ms(`${y}-02-29T23:59:59.999Z`));
  }
  let seed = 0x2f6b3a1;
  const next = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0);
  const from = ms('1970-01-01T00:00:00Z');
  const to = ms('2050-12-31T23:59:59.999Z');
  for (let i = 0; i < 300; i++) out.push(from + Math.floor(((next() * 2 ** 32 + next()) / 2 ** 64) * (to - from)));
  return out;
}
const INSTANTS = instants();

/** Offsets patterns with Z/ZZ are printed in, in turn (UTC prints +0000 / +00:00 in Joda, Z in java X). */
const OFFSETS = [0, 330, -480, 60, -210, 345].map((m) => ZoneOffset.ofTotalSeconds(m * 60));

// ---- Elasticsearch-like parsing with js-joda -------------------------------------------------------------------

const formatterCache = new Map<string, DateTimeFormatter>();
function formatter(pattern: string): DateTimeFormatter {
  let f = formatterCache.get(pattern);
  if (!f) formatterCache.set(pattern, (f = DateTimeFormatter.ofPattern(pattern).withResolverStyle(ResolverStyle.STRICT)));
  return f;
}

/** Like Elasticsearch's DateFormatters.from (the cases these patterns reach). */
function toInstant(t: TemporalAccessor): Instant {
  const zone = t.query(TemporalQueries.zone()) ?? ZoneOffset.UTC;
  const has = (f: ChronoField) => t.isSupported(f);
  let date = t.query(TemporalQueries.localDate());
  const time = t.query(TemporalQueries.localTime());
  // ES's own date query also takes a year-of-era (java y) without an era, which STRICT leaves unresolved.
  const year = has(ChronoField.YEAR) ? t.get(ChronoField.YEAR) : has(ChronoField.YEAR_OF_ERA) ? t.get(ChronoField.YEAR_OF_ERA) : undefined;
  if (!date && year !== undefined) {
    if (has(ChronoField.MONTH_OF_YEAR))
      date = LocalDate.of(year, t.get(ChronoField.MONTH_OF_YEAR), has(ChronoField.DAY_OF_MONTH) ? t.get(ChronoField.DAY_OF_MONTH) : 1);
    else date = has(ChronoField.DAY_OF_YEAR) ? LocalDate.ofYearDay(year, t.get(ChronoField.DAY_OF_YEAR)) : LocalDate.of(year, 1, 1);
  }
  if (!date && !time) throw new Error(`cannot be converted to an instant: ${t}`);
  return LocalDateTime.of(date ?? LocalDate.of(1970, 1, 1), time ?? LocalTime.MIDNIGHT)
    .atZone(zone)
    .toInstant();
}

/** Alternatives in order, the first that parses the whole input wins; built-in names are not patterns. */
function esParse(format: string, text: string): Instant {
  const errors: string[] = [];
  for (const alternative of format.split('||')) {
    if (BUILT_IN_FORMATS.includes(alternative)) throw new Error(`built-in ${alternative} in ${format}`);
    let parsed: TemporalAccessor;
    try {
      parsed = formatter(alternative).parse(text);
    } catch (e) {
      errors.push(`${alternative}: ${(e as Error).message}`);
      continue;
    }
    return toInstant(parsed);
  }
  throw new Error(`"${text}" not parsed by ${format}:\n${errors.join('\n')}`);
}

// ---- what Joda printed and what the value was -------------------------------------------------------------------

const hasLetter = (pattern: string, letters: string) => [...pattern.replace(/'([^']|'')*'/g, '')].some((c) => letters.includes(c));

function fields(local: LocalDateTime, offset: ZoneOffset): JodaFields {
  return {
    year: local.year(),
    month: local.monthValue(),
    day: local.dayOfMonth(),
    hour: local.hour(),
    minute: local.minute(),
    second: local.second(),
    millis: Math.floor(local.nano() / 1e6),
    offsetMinutes: offset.totalSeconds() / 60,
  };
}

/** The instant Joda's parser gave the printed string: the fields the pattern has, the rest from 1970-01-01T00:00. */
function expected(pattern: string, local: LocalDateTime, offset: ZoneOffset): Instant {
  const date = hasLetter(pattern, 'yYMdD');
  let v = date ? local : LocalDateTime.of(LocalDate.of(1970, 1, 1), local.toLocalTime());
  if (!hasLetter(pattern, 'd')) v = hasLetter(pattern, 'D') ? v : hasLetter(pattern, 'M') ? v.withDayOfMonth(1) : date ? v.withDayOfYear(1) : v;
  if (!hasLetter(pattern, 'Hk')) v = v.withHour(0);
  if (!hasLetter(pattern, 'm')) v = v.withMinute(0);
  if (!hasLetter(pattern, 's')) v = v.withSecond(0);
  const s = /S+/.exec(pattern.replace(/'([^']|'')*'/g, ''))?.[0].length ?? 0;
  const unit = s >= 3 ? 1 : s === 2 ? 10 : s === 1 ? 100 : 1000;
  v = v.withNano(Math.floor(v.nano() / 1e6 / unit) * unit * 1e6);
  return v.atOffset(offset).toInstant();
}

// ---- the tests -------------------------------------------------------------------------------------------------

describe('@js-joda/core: strings the legacy pattern printed parse to the same instant', () => {
  it('has at least 30 patterns and several hundred instants', () => {
    expect(CASES.length).toBeGreaterThanOrEqual(30);
    expect(new Set(CASES.map((c) => c.legacy)).size).toBe(CASES.length);
    expect(INSTANTS.length).toBeGreaterThanOrEqual(600);
  });

  it.each(CASES)('$legacy', ({ legacy }) => {
    const conversion = convertFormat(legacy, { currentYear: 2026 });
    expect(conversion.exact, JSON.stringify(conversion.parts, null, 2)).toBe(true);
    // Joda printed with the first legacy part; java prints with the first alternative of the converted format.
    const jodaPattern = legacy.split('||')[0]!;
    const printer = usableOutput(conversion).split('||')[0]!;
    const zoned = hasLetter(jodaPattern, 'Z');
    let independent = 0;
    INSTANTS.forEach((millis, i) => {
      const offset = zoned ? OFFSETS[i % OFFSETS.length]! : ZoneOffset.UTC;
      const local = LocalDateTime.ofInstant(Instant.ofEpochMilli(millis), offset);
      const printed = formatter(printer).format(local.atOffset(offset));
      const joda = jodaPrint(jodaPattern, fields(local, offset));
      if (joda !== undefined) {
        independent++;
        expect(printed, `printer ${printer} vs Joda ${jodaPattern} at ${local}${offset}`).toBe(joda);
      }
      const want = expected(jodaPattern, local, offset);
      const got = esParse(usableOutput(conversion), joda ?? printed);
      expect(got.toString(), `"${joda ?? printed}" with ${usableOutput(conversion)}`).toBe(want.toString());
    });
    // Every pattern the tiny printer knows is checked independently (D and k are not among its letters).
    if (!hasLetter(jodaPattern, 'Dk')) expect(independent).toBe(INSTANTS.length);
  });

  const lenientCases = CASES.filter((c) => c.lenient);
  it.each(lenientCases)("$legacy with --lenient: Joda's fewer-digit inputs too", ({ legacy }) => {
    const conversion = convertFormat(legacy, { lenient: true, currentYear: 2026 });
    expect(conversion.exact).toBe(true);
    expect(conversion.lenient, usableOutput(conversion)).toBe(true);
    const jodaPattern = legacy.split('||')[0]!;
    const zoned = hasLetter(jodaPattern, 'Z');
    // Each padded letter alone, then all together; S also without trailing zeros.
    const letters = ['y', 'Y', 'M', 'd', 'H', 'm', 's', 'S'].filter((l) => hasLetter(jodaPattern, l));
    const variants = [...letters.map((l) => new Set([l])), new Set(letters)];
    let checked = 0;
    INSTANTS.forEach((millis, i) => {
      const offset = zoned ? OFFSETS[i % OFFSETS.length]! : ZoneOffset.UTC;
      const local = LocalDateTime.ofInstant(Instant.ofEpochMilli(millis), offset);
      const full = jodaPrint(jodaPattern, fields(local, offset));
      if (full === undefined) return; // letters the tiny printer does not know (D, k): no variants to make
      const want = expected(jodaPattern, local, offset);
      for (const fewerDigits of variants) {
        const text = jodaPrint(jodaPattern, fields(local, offset), { fewerDigits })!;
        if (text === full) continue;
        checked++;
        expect(esParse(usableOutput(conversion), text).toString(), `"${text}" with ${usableOutput(conversion)}`).toBe(want.toString());
      }
    });
    // Patterns with a zero-padded letter (MM, dd, HH, mm, ss, SS.., yyyyy) must have produced variants.
    if (!hasLetter(jodaPattern, 'Dk') && /M{2}|d{2}|H{2}|m{2}|s{2}|S{2}|y{5}/.test(jodaPattern.replace(/'([^']|'')*'/g, '')))
      expect(checked).toBeGreaterThan(0);
  });

  it('the explicit examples: 2010-1-5 and 13:5:7', () => {
    expect(esParse(usableOutput(convertFormat('yyyy-MM-dd', { lenient: true })), '2010-1-5').toString()).toBe('2010-01-05T00:00:00Z');
    expect(esParse(usableOutput(convertFormat('HH:mm:ss', { lenient: true })), '13:5:7').toString()).toBe('1970-01-01T13:05:07Z');
    expect(esParse(usableOutput(convertFormat('HH:mm:ss.SSS', { lenient: true })), '13:05:07.5').toString()).toBe('1970-01-01T13:05:07.500Z');
    // Without --lenient only the guide's single-digit day is accepted.
    expect(() => esParse(usableOutput(convertFormat('yyyy-MM-dd')), '2010-1-5')).toThrow(/not parsed/);
    expect(esParse(usableOutput(convertFormat('yyyy-MM-dd')), '2010-01-5').toString()).toBe('2010-01-05T00:00:00Z');
  });

  it('Joda Z and ZZ inputs: every offset form Joda parsed', () => {
    const zz = usableOutput(convertFormat("yyyy-MM-dd'T'HH:mm:ssZZ"));
    const z1 = usableOutput(convertFormat("yyyy-MM-dd'T'HH:mm:ssZ"));
    const cases: [string, string][] = [
      ['Z', '2010-01-01T01:02:03Z'],
      ['+01', '2010-01-01T00:02:03Z'],
      ['+01:02', '2010-01-01T00:00:03Z'],
      ['+0102', '2010-01-01T00:00:03Z'],
      ['+01:02:03', '2010-01-01T00:00:00Z'],
      ['+010203', '2010-01-01T00:00:00Z'],
      ['+00:00', '2010-01-01T01:02:03Z'],
      ['-05:30', '2010-01-01T06:32:03Z'],
    ];
    for (const format of [zz, z1]) {
      for (const [offset, instant] of cases) expect(esParse(format, `2010-01-01T01:02:03${offset}`).toString(), `${offset} with ${format}`).toBe(instant);
    }
  });
});
