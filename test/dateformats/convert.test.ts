import { describe, expect, it } from 'vitest';
import {
  BUILT_IN_FORMATS,
  CAMEL_CASE_FORMATS,
  convertFormat,
  DateFormatError,
  describeConversion,
  MAX_ALTERNATIVES,
  type Severity,
} from '../../src/dateformats/convert.ts';
import { tokenizeJoda } from '../../src/dateformats/tokenizer.ts';

/** One row per rule: the legacy format, the java.time output, and what the converter says about it. */
interface Row {
  rule: string;
  input: string;
  lenient?: boolean;
  /** The whole output, or (for long ones) the first alternative and the number of alternatives. */
  output?: string;
  first?: string;
  count?: number;
  /** Per part. */
  severity: Severity[];
  exact: boolean;
  lenientOut: boolean;
  /** Changes as "from -> to". */
  changes?: string[];
  findings?: RegExp[];
}

const P = "uuuu-MM-dd'T'HH:mm:ss";
const zz = (p: string) => ['xxx', 'XXX', 'X', 'XXXX', 'XXXXX'].map((x) => p + x).join('||');
const z1 = (p: string) => ['xx', 'X', 'XXX', 'XXXX', 'XXXXX'].map((x) => p + x).join('||');

const ROWS: Row[] = [
  // The guide's rules.
  {
    rule: 'y -> u, d gets a single-digit alternative',
    input: 'yyyy-MM-dd',
    output: 'uuuu-MM-dd||uuuu-MM-d',
    severity: ['exact'],
    exact: true,
    lenientOut: false,
    changes: ['yyyy -> uuuu', 'dd -> d'],
    findings: [/years of fewer digits in Joda `yyyy` \(194\), fewer digits in Joda `MM`.*--lenient or lenient: true, adds them: 3 alternatives/],
  },
  {
    rule: 'Y -> y',
    input: 'YYYY-MM-dd',
    output: 'yyyy-MM-dd||yyyy-MM-d',
    severity: ['exact'],
    exact: true,
    lenientOut: false,
    changes: ['YYYY -> yyyy', 'dd -> d'],
  },
  {
    rule: 'x -> Y, e -> c',
    input: "xxxx-'W'ww-e",
    output: "YYYY-'W'ww-c",
    severity: ['exact'],
    exact: true,
    lenientOut: false,
    changes: ['xxxx -> YYYY', 'e -> c'],
  },
  { rule: 'e, --lenient', input: "xxxx-'W'ww-e", lenient: true, output: "YYYY-'W'ww-c||Y-'W'w-c", severity: ['exact'], exact: true, lenientOut: true },
  {
    rule: 'ee -> ee (java cc does not exist)',
    input: 'yyyy-MM-dd ee',
    output: 'uuuu-MM-dd ee||uuuu-MM-d ee',
    severity: ['exact'],
    exact: true,
    lenientOut: false,
    changes: ['yyyy -> uuuu', 'dd -> d', 'ee -> ee'],
  },
  // A day of week alone gives no date: Elasticsearch rejects it (Joda used the week of 1970-01-01); checked with the oracle.
  {
    rule: 'eee -> zero literal + c',
    input: 'eee',
    output: "'00'c",
    severity: ['unsupported'],
    exact: false,
    lenientOut: false,
    findings: [/not lenient/, /day of week.*without a complete date/],
  },
  {
    rule: 'C unsupported: pre-process',
    input: 'CCyy-MM-dd',
    output: 'CCuu-MM-dd||CCuu-MM-d',
    severity: ['unsupported'],
    exact: false,
    lenientOut: false,
    findings: [/Joda `CC` \(century of era\).*pre-process the input/],
  },
  {
    rule: 'ZZ -> xxx||XXX||X||XXXX||XXXXX',
    input: "yyyy-MM-dd'T'HH:mm:ssZZ",
    output: `${zz(P)}||${zz("uuuu-MM-d'T'HH:mm:ss")}`,
    severity: ['exact'],
    exact: true,
    lenientOut: false,
    changes: ['yyyy -> uuuu', 'dd -> d', 'ZZ -> xxx, XXX, X, XXXX, XXXXX'],
  },
  {
    rule: 'Z -> xx||X||XXX||XXXX||XXXXX',
    input: 'HH:mm:ssZ',
    output: z1('HH:mm:ss'),
    severity: ['exact'],
    exact: true,
    lenientOut: false,
    changes: ['Z -> xx, X, XXX, XXXX, XXXXX'],
  },
  {
    rule: 'ZZZ -> VV (prints Z for UTC)',
    input: "yyyy-MM-dd'T'HH:mm:ss ZZZ",
    first: `${P} VV`,
    count: 2,
    severity: ['review'],
    exact: false,
    lenientOut: false,
    changes: ['yyyy -> uuuu', 'dd -> d', 'ZZZ -> VV'],
    findings: [/prints Z for UTC/],
  },
  {
    rule: 'z prints Z for UTC',
    input: 'HH:mm z',
    output: 'HH:mm z',
    severity: ['review'],
    exact: false,
    lenientOut: false,
    findings: [/java.time `z` prints Z for UTC where Joda printed UTC/],
  },
  // A zone alone gives no instant in java (oracle: JODA_STRING_JAVA_PARSE_FAIL for z and ZZZ), hence unsupported.
  {
    rule: 'zzzzz -> zzzz',
    input: 'zzzzz',
    output: 'zzzz',
    severity: ['unsupported'],
    exact: false,
    lenientOut: false,
    changes: ['zzzzz -> zzzz'],
    findings: [/time zone \(Joda `z`, Joda `Z`\) without a date or a time of day/],
  },
  { rule: 'd alternative with other separators', input: 'dd.MM.yyyy', output: 'dd.MM.uuuu||d.MM.uuuu', severity: ['exact'], exact: true, lenientOut: false },
  {
    rule: 'd alone needs nothing (the year still does)',
    input: 'd/M/yyyy',
    output: 'd/M/uuuu',
    severity: ['exact'],
    exact: true,
    lenientOut: false,
    findings: [/years of fewer digits in Joda `yyyy` \(194\)/],
  },
  {
    rule: '--lenient: the year takes any number of digits, as Joda read 5.1.194',
    input: 'd/M/yyyy',
    lenient: true,
    output: 'd/M/uuuu||d/M/u',
    severity: ['exact'],
    exact: true,
    lenientOut: true,
  },
  // Beyond the guide.
  {
    rule: '--lenient: one alternative of single letters (any number of digits) after the printing ones',
    input: 'yyyy-MM-dd',
    lenient: true,
    output: 'uuuu-MM-dd||uuuu-MM-d||u-M-d',
    severity: ['exact'],
    exact: true,
    lenientOut: true,
  },
  { rule: '--lenient: HH, mm', input: 'HH:mm', lenient: true, output: 'HH:mm||H:m', severity: ['exact'], exact: true, lenientOut: true },
  {
    rule: 'without --lenient: HH, mm as is',
    input: 'HH:mm',
    output: 'HH:mm',
    severity: ['exact'],
    exact: true,
    lenientOut: false,
    findings: [/fewer digits in Joda `HH`, fewer digits in Joda `mm`.*2 alternatives/],
  },
  {
    rule: '--lenient: SSS accepts 1-3 digits (one alternative per width)',
    input: 'HH:mm:ss.SSS',
    lenient: true,
    output: 'HH:mm:ss.SSS||H:m:s.SSS||H:m:s.SS||H:m:s.S',
    severity: ['exact'],
    exact: true,
    lenientOut: true,
  },
  {
    rule: 'without --lenient: the fraction widths named',
    input: 'HH:mm:ss.SSS',
    output: 'HH:mm:ss.SSS',
    severity: ['exact'],
    exact: true,
    lenientOut: false,
    findings: [/1 to 2 fraction digits in Joda `SSS` \(.5 = 500 ms\)/],
  },
  { rule: '--lenient: DDD', input: 'yyyy-DDD', lenient: true, output: 'uuuu-DDD||u-D', severity: ['exact'], exact: true, lenientOut: true },
  {
    rule: `--lenient over the cap of ${MAX_ALTERNATIVES}: a finding instead`,
    input: "yyyy-MM-dd'T'HH:mm:ss.SSSSSSSSSZZ",
    lenient: true,
    first: `${P}.SSSSSSSSSxxx`,
    count: 10,
    severity: ['exact'],
    exact: true,
    lenientOut: false,
    findings: [/55 alternatives, over the cap of 32/],
  },
  {
    rule: '--lenient with zone offsets: the offset forms times the lenient alternative',
    input: "yyyy-MM-dd'T'HH:mm:ssZZ",
    lenient: true,
    count: 15,
    first: `${P}xxx`,
    severity: ['exact'],
    exact: true,
    lenientOut: true,
  },
  {
    rule: 'adjacent numeric fields: no useless alternatives',
    input: 'yyyyMMdd',
    lenient: true,
    output: 'uuuuMMdd',
    severity: ['exact'],
    exact: true,
    lenientOut: false,
    findings: [/Joda `dd` ends a run of adjacent numeric fields that starts with a field java.time reads with a variable width/],
  },
  {
    rule: 'adjacent fields after fixed-width ones: the last one takes any number of digits',
    input: 'ddMMyyyy',
    lenient: true,
    output: 'ddMMuuuu||ddMMu',
    severity: ['exact'],
    exact: true,
    lenientOut: true,
  },
  { rule: 'adjacent date and time', input: "yyyyMMdd'T'HHmmss", output: "uuuuMMdd'T'HHmmss", severity: ['exact'], exact: true, lenientOut: false },
  {
    rule: 'more digits than java allows: zero literal',
    input: 'ddd/MM/yyyy',
    output: "'0'dd/MM/uuuu",
    severity: ['exact'],
    exact: true,
    lenientOut: false,
    changes: ["ddd -> '0'dd", 'yyyy -> uuuu'],
  },
  {
    rule: 'hh without a: time dropped',
    input: 'yyyy-MM-dd hh:mm',
    first: 'uuuu-MM-dd hh:mm',
    count: 2,
    severity: ['unsupported'],
    exact: false,
    lenientOut: false,
    findings: [/Joda `hh` \(clock hour 1-12 of am\/pm\) without Joda `a`: Joda assumed AM.*drops the time of day/],
  },
  {
    rule: 'KK without a',
    input: 'KK:mm',
    output: 'KK:mm',
    severity: ['unsupported'],
    exact: false,
    lenientOut: false,
    findings: [/Joda `KK` \(hour 0-11 of am\/pm\) without Joda `a`/],
  },
  {
    rule: 'hh with a: text review only',
    input: 'hh:mm aa',
    output: 'hh:mm a',
    severity: ['review'],
    exact: false,
    lenientOut: false,
    changes: ['aa -> a'],
    findings: [/AM\/PM.*any letter case/],
  },
  {
    rule: 'yy pivot: no java pattern',
    input: 'yy-MM-dd',
    output: 'uu-MM-dd||uu-MM-d',
    severity: ['unsupported'],
    exact: false,
    lenientOut: false,
    findings: [/Joda pivots on the current year \(now 1946-2045.*always means 2000-2099.*every value is in 2000-2045/],
  },
  {
    rule: 'YY pivot',
    input: 'dd/MM/YY',
    first: 'dd/MM/yy',
    count: 2,
    severity: ['unsupported'],
    exact: false,
    lenientOut: false,
    findings: [/java.time `yy` always means 2000-2099/],
  },
  {
    rule: 'text fields: case, full names, weekday conflicts',
    input: 'EEE, dd MMM yyyy',
    first: 'EEE, dd MMM uuuu',
    count: 2,
    severity: ['review'],
    exact: false,
    lenientOut: false,
    findings: [
      /Joda `EEE` is text.*any letter case.*`script` processor in the ingest pipeline/,
      /full day names under Joda `EEE` \(Wednesday\), full month names under Joda `MMM` \(January\)/,
      /Joda `MMM` is text/,
      /contradicts the date.*not lenient/,
    ],
  },
  {
    rule: '--lenient: full names as alternatives (still not lenient: weekday conflicts)',
    input: 'EEE, dd MMM yyyy',
    lenient: true,
    output: 'EEE, dd MMM uuuu||EEE, d MMM uuuu||EEE, d MMM u||EEE, d MMMM u||EEEE, d MMM u||EEEE, d MMMM u',
    severity: ['review'],
    exact: false,
    lenientOut: false,
  },
  {
    rule: '--lenient: short names under full ones',
    input: 'dd MMMM yyyy',
    lenient: true,
    output: 'dd MMMM uuuu||d MMMM uuuu||d MMMM u||d MMM u',
    severity: ['review'],
    exact: false,
    lenientOut: true,
  },
  {
    rule: 'full names',
    input: 'EEEE dd MMMM yyyy',
    first: 'EEEE dd MMMM uuuu',
    count: 2,
    severity: ['review'],
    exact: false,
    lenientOut: false,
    findings: [/short day names under Joda `EEEE` \(Wed\), short month names under Joda `MMMM` \(Jan\)/],
  },
  // Day of week with a month but no day: java ignores the day of week (oracle: JODA_STRING_VALUE_DIFF), hence unsupported.
  {
    rule: 'EEEEE -> EEEE, MMMMM -> MMMM',
    input: 'EEEEE MMMMM',
    output: 'EEEE MMMM',
    severity: ['unsupported'],
    exact: false,
    lenientOut: false,
    changes: ['EEEEE -> EEEE', 'MMMMM -> MMMM'],
  },
  { rule: 'era', input: 'G yyyy', output: 'G uuuu', severity: ['review'], exact: false, lenientOut: false },
  {
    rule: 'w without x',
    input: 'yyyy-ww',
    first: 'uuuu-ww',
    severity: ['unsupported'],
    exact: false,
    lenientOut: false,
    findings: [
      /Joda `ww` \(week of weekyear\) without Joda `xxxx` \(weekyear\).*write the year as Joda `xxxx` in the legacy format \(it converts to java.time `YYYY`\)/,
    ],
  },
  {
    rule: 'more than 9 fraction digits',
    input: 'ss.SSSSSSSSSS',
    output: 'ss.SSSSSSSSSS',
    severity: ['unsupported'],
    exact: false,
    lenientOut: false,
    findings: [/at most 9 digits/],
  },
  {
    rule: 'more than 19 year letters: java.time refuses the pattern',
    input: `${'y'.repeat(20)}-MM`,
    output: `${'u'.repeat(20)}-MM`,
    severity: ['unsupported'],
    exact: false,
    lenientOut: false,
    findings: [/at most 19 letters \(20 here\)/],
  },
  { rule: 'k (1-24) kept', input: 'kk:mm', output: 'kk:mm', severity: ['exact'], exact: true, lenientOut: false },
  // Literals.
  {
    rule: "quoted 'Z' is never converted",
    input: "yyyy-MM-dd'T'HH:mm:ss'Z'",
    output: `${P}'Z'||uuuu-MM-d'T'HH:mm:ss'Z'`,
    severity: ['exact'],
    exact: true,
    lenientOut: false,
  },
  {
    rule: "quoted letters and '' inside quotes",
    input: "'yyyy' yyyy 'o''clock'",
    output: "'yyyy' uuuu 'o''clock'",
    severity: ['exact'],
    exact: true,
    lenientOut: false,
  },
  { rule: "'' outside quotes", input: "HH''mm", output: "HH''mm", severity: ['exact'], exact: true, lenientOut: false },
  {
    rule: 'unterminated quote is closed',
    input: "yyyy 'at",
    output: "uuuu 'at'",
    severity: ['exact'],
    exact: true,
    lenientOut: false,
    changes: ['yyyy -> uuuu', "'at -> 'at'"],
  },
  {
    rule: 'java section characters are quoted',
    input: '[yyyy]#',
    output: "'['uuuu']''#'",
    severity: ['exact'],
    exact: true,
    lenientOut: false,
    changes: ["[ -> '['", 'yyyy -> uuuu', "] -> ']'", "# -> '#'"],
  },
  // Several parts, built-in names, 8 prefix.
  {
    rule: 'multiple parts',
    input: 'yyyy-MM-dd||yyyy/MM/dd HH:mm||epoch_millis',
    output: 'uuuu-MM-dd||uuuu-MM-d||uuuu/MM/dd HH:mm||uuuu/MM/d HH:mm||epoch_millis',
    severity: ['exact', 'exact', 'exact'],
    exact: true,
    lenientOut: false,
  },
  {
    rule: 'one inexact part makes the format inexact',
    input: 'yyyy-MM-dd||yyMMdd',
    first: 'uuuu-MM-dd',
    count: 3,
    severity: ['exact', 'unsupported'],
    exact: false,
    lenientOut: false,
  },
  {
    rule: 'built-in names kept',
    input: 'strict_date_optional_time||epoch_second||basic_t_time_no_millis',
    output: 'strict_date_optional_time||epoch_second||basic_t_time_no_millis',
    severity: ['exact', 'exact', 'exact'],
    exact: true,
    lenientOut: true,
    changes: [],
  },
  {
    rule: 'camelCase names renamed',
    input: 'dateOptionalTime||strictDateOptionalTime||basicTTime||yyyy',
    output: 'date_optional_time||strict_date_optional_time||basic_t_time||uuuu',
    severity: ['exact', 'exact', 'exact', 'exact'],
    exact: true,
    lenientOut: false,
    changes: ['dateOptionalTime -> date_optional_time', 'strictDateOptionalTime -> strict_date_optional_time', 'basicTTime -> basic_t_time', 'yyyy -> uuuu'],
  },
  {
    rule: '8 prefix: already java.time, prefix dropped',
    input: '8uuuu-MM-dd||yyyy',
    output: 'uuuu-MM-dd||yyyy',
    severity: ['exact', 'exact'],
    exact: true,
    lenientOut: true,
    changes: ['8 -> '],
  },
];

describe('convertFormat: one row per rule', () => {
  it.each(ROWS)('$rule: $input', (row) => {
    const c = convertFormat(row.input, { lenient: row.lenient, currentYear: 2026 });
    // Rows give the converted format whether or not it is usable: an unsupported one is only a best effort.
    const alternatives = c.bestEffortOutput.split('||');
    if (row.output !== undefined) expect(c.bestEffortOutput).toBe(row.output);
    if (row.first !== undefined) expect(alternatives[0]).toBe(row.first);
    if (row.count !== undefined) expect(alternatives).toHaveLength(row.count);
    expect(c.input).toBe(row.input);
    expect(c.parts.map((p) => p.severity)).toEqual(row.severity);
    expect(c.exact).toBe(row.exact);
    expect(c.lenient).toBe(row.lenientOut);
    expect(c.output).toBe(row.severity.includes('unsupported') ? null : c.bestEffortOutput);
    expect(c.usable).toBe(!row.severity.includes('unsupported'));
    expect(c.bestEffortOutput).toBe(c.parts.map((p) => p.bestEffortOutput).join('||'));
    const changes = c.parts.flatMap((p) => p.changes.map((ch) => `${ch.from} -> ${ch.to}`));
    if (row.changes) expect(changes).toEqual(row.changes);
    const findings = c.parts.flatMap((p) => p.findings.map((f) => f.message));
    for (const pattern of row.findings ?? [])
      expect(
        findings.some((f) => pattern.test(f)),
        `${pattern} in\n${findings.join('\n')}`,
      ).toBe(true);
    // Every change says why; every part's severity is its worst finding.
    for (const p of c.parts) {
      for (const ch of p.changes) expect(ch.why.length).toBeGreaterThan(5);
      const worst = p.findings.some((f) => f.severity === 'unsupported') ? 'unsupported' : p.findings.some((f) => f.severity === 'review') ? 'review' : 'exact';
      expect(p.severity).toBe(worst);
    }
  });

  it('has the lenient alternatives in order, printer first', () => {
    const c = convertFormat('HH:mm:ss.SSS', { lenient: true });
    expect(c.output?.split('||')).toEqual(['HH:mm:ss.SSS', 'H:m:s.SSS', 'H:m:s.SS', 'H:m:s.S']);
  });

  it('knows every built-in name and its camelCase form', () => {
    expect(BUILT_IN_FORMATS.length).toBeGreaterThanOrEqual(80);
    for (const name of BUILT_IN_FORMATS) expect(convertFormat(name).output).toBe(name);
    expect(CAMEL_CASE_FORMATS.get('strictWeekyearWeekDay')).toBe('strict_weekyear_week_day');
    expect(CAMEL_CASE_FORMATS.has('epochMillis')).toBe(false);
  });

  it.each([
    ['', /empty date format/],
    ['yyyy||', /empty date format part/],
    ['yyyy||||epoch_millis', /empty date format part/],
    ['yyyy-qq', /Illegal pattern component: qq/],
    ['uuuu-MM-dd', /Illegal pattern component: uuuu/],
  ])('rejects %j', (input, message) => {
    expect(() => convertFormat(input)).toThrow(DateFormatError);
    expect(() => convertFormat(input)).toThrow(message);
  });

  it('describes a conversion as the format then one line per change, finding and suggestion', () => {
    const text = describeConversion(convertFormat("yyyy-MM-dd'T'HH:mm:ss.SSSZZ", { currentYear: 2026 })).split('\n');
    expect(text[0]).toBe(`${zz(`${P}.SSS`)}||${zz("uuuu-MM-d'T'HH:mm:ss.SSS")}`);
    expect(text).toContainEqual(expect.stringMatching(/^ {2}change yyyy -> uuuu: /));
    expect(text).toContainEqual(
      expect.stringMatching(
        /^ {2}suggestion: Joda `yyyy-MM-dd'T'HH:mm:ss.SSSZZ` is what the built-in `strict_date_time` was in 6.x.*\(or `date_time`.*prints UTC as `Z`/,
      ),
    );
    expect(text.at(-1)).toBe('  exact, not lenient');
  });

  it('an unsupported conversion has no output and its text form starts with no pattern', () => {
    const conversion = convertFormat('yyyy-MM-dd hh:mm', { currentYear: 2026 });
    expect(conversion).toMatchObject({ output: null, usable: false, bestEffortOutput: 'uuuu-MM-dd hh:mm||uuuu-MM-d hh:mm' });
    expect(conversion.parts[0]).toMatchObject({ output: null, suggestions: [] });
    const text = describeConversion(conversion).split('\n');
    expect(text[0]).toBe('NO EQUIVALENT java.time FORMAT: 1 of 1 part(s) unsupported; read the findings below (nothing here may be used as is)');
    expect(text[0]).not.toMatch(/uuuu|hh:mm/);
    expect(text).toContainEqual(expect.stringMatching(/^ {2}unsupported: Joda `hh` /));
    expect(text).toContainEqual('  best effort, NOT equivalent (do not use as is: see the unsupported findings above): uuuu-MM-dd hh:mm||uuuu-MM-d hh:mm');
    expect(text.at(-1)).toBe('  not exact, not lenient, unsupported');
    // One unsupported part is enough: the usable parts keep their output, the whole format has none.
    const mixed = convertFormat('yyyy-MM-dd||yyyy-ww');
    expect(mixed.output).toBeNull();
    expect(mixed.parts.map((p) => p.output)).toEqual(['uuuu-MM-dd||uuuu-MM-d', null]);
  });

  it('suggests the built-in format a pattern spells out, never for other patterns', () => {
    const suggestion = (format: string) => convertFormat(format).parts.flatMap((p) => p.suggestions.map((s) => s.builtIn));
    expect(suggestion('yyyy-MM-dd')).toEqual(['strict_date']);
    expect(suggestion("yyyy-MM-dd'T'HH:mm:ssZZ")).toEqual(['strict_date_time_no_millis']);
    expect(suggestion("yyyyMMdd'T'HHmmss.SSSZ")).toEqual(['basic_date_time']);
    expect(suggestion("xxxx-'W'ww-e||epoch_millis")).toEqual(['strict_week_date']);
    expect(suggestion('dd/MM/yyyy')).toEqual([]);
    expect(suggestion("yyyy-MM-dd'T'HH:mm:ss.SSSZ")).toEqual([]); // Z, not ZZ: not the built-in's offset
    // Only as a suggestion: the output stays the converted pattern.
    expect(convertFormat('yyyy-MM-dd').output).toBe('uuuu-MM-dd||uuuu-MM-d');
  });

  it('names letters with their library where the same letter means different fields', () => {
    const conversion = convertFormat("YYYY-ww||xxxx-'W'ww-e||hh:mm||yy-MM-dd", { currentYear: 2026 });
    const texts = conversion.parts.flatMap((p) => [...p.findings.map((f) => f.message), ...p.changes.map((c) => c.why)]).join('\n');
    expect(texts).not.toMatch(/\(java YYYY\)|use xxxx/);
    expect(texts).toMatch(/write the year as Joda `xxxx` in the legacy format \(it converts to java.time `YYYY`\)/);
    expect(texts).toMatch(/java.time `x` is a zone offset; java.time `Y` is the week-based year, like Joda `x`/);
    expect(texts).toMatch(/java.time `Y` is the week-based year \(off by one near New Year\); java.time `y` is year-of-era, like Joda `Y`/);
    expect(texts).toMatch(/use java.time `HH` if the values are really 0-23 hours/);
    expect(texts).toMatch(/two-digit year Joda `yy`.*java.time `uu` always means 2000-2099.*use java.time `uuuu`/);
  });
});

describe('tokenizeJoda', () => {
  it('splits letters with counts, quoted literals with escapes, and other characters', () => {
    expect(tokenizeJoda("yyyy-MM'T'''x''").map((t) => (t.kind === 'letter' ? `${t.letter}${t.count}` : `${t.kind}:${t.raw}`))).toEqual([
      'y4',
      'other:-',
      'M2',
      "quoted:'T'''",
      'x1',
      "quoted:''",
    ]);
    const [, quoted] = tokenizeJoda("H'o''clock'");
    expect(quoted).toMatchObject({ kind: 'quoted', value: "o'clock", terminated: true });
    expect(tokenizeJoda("''")).toEqual([{ kind: 'quoted', raw: "''", value: "'", terminated: true, index: 0 }]);
    expect(tokenizeJoda("'abc")[0]).toMatchObject({ kind: 'quoted', value: 'abc', terminated: false });
  });
});
