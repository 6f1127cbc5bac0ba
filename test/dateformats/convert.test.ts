import { describe, expect, it } from 'vitest';
import {
  BUILT_IN_FORMATS, CAMEL_CASE_FORMATS, convertFormat, DateFormatError, describeConversion, MAX_ALTERNATIVES, type Severity,
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
  { rule: 'y -> u, d gets a single-digit alternative', input: 'yyyy-MM-dd', output: 'uuuu-MM-dd||uuuu-MM-d', severity: ['exact'], exact: true, lenientOut: false,
    changes: ['yyyy -> uuuu', 'dd -> d'], findings: [/fewer digits in MM.*--lenient/] },
  { rule: 'Y -> y', input: 'YYYY-MM-dd', output: 'yyyy-MM-dd||yyyy-MM-d', severity: ['exact'], exact: true, lenientOut: false, changes: ['YYYY -> yyyy', 'dd -> d'] },
  { rule: 'x -> Y, e -> c', input: "xxxx-'W'ww-e", output: "YYYY-'W'ww-c", severity: ['exact'], exact: true, lenientOut: false, changes: ['xxxx -> YYYY', 'e -> c'] },
  { rule: 'e, --lenient', input: "xxxx-'W'ww-e", lenient: true, output: "YYYY-'W'ww-c||YYYY-'W'w-c", severity: ['exact'], exact: true, lenientOut: true },
  { rule: 'ee -> ee (java cc does not exist)', input: 'yyyy-MM-dd ee', output: 'uuuu-MM-dd ee||uuuu-MM-d ee', severity: ['exact'], exact: true, lenientOut: false, changes: ['yyyy -> uuuu', 'dd -> d', 'ee -> ee'] },
  // A day of week alone gives no date: Elasticsearch rejects it (Joda used the week of 1970-01-01); checked with the oracle.
  { rule: 'eee -> zero literal + c', input: 'eee', output: "'00'c", severity: ['unsupported'], exact: false, lenientOut: false, findings: [/not lenient/, /day of week.*without a complete date/] },
  { rule: 'C unsupported: pre-process', input: 'CCyy-MM-dd', output: 'CCuu-MM-dd||CCuu-MM-d', severity: ['unsupported'], exact: false, lenientOut: false,
    findings: [/CC \(century of era\).*pre-process the input/] },
  { rule: 'ZZ -> xxx||XXX||X||XXXX||XXXXX', input: "yyyy-MM-dd'T'HH:mm:ssZZ", output: `${zz(P)}||${zz("uuuu-MM-d'T'HH:mm:ss")}`, severity: ['exact'], exact: true, lenientOut: false,
    changes: ['yyyy -> uuuu', 'dd -> d', 'ZZ -> xxx, XXX, X, XXXX, XXXXX'] },
  { rule: 'Z -> xx||X||XXX||XXXX||XXXXX', input: 'HH:mm:ssZ', output: z1('HH:mm:ss'), severity: ['exact'], exact: true, lenientOut: false, changes: ['Z -> xx, X, XXX, XXXX, XXXXX'] },
  { rule: 'ZZZ -> VV (prints Z for UTC)', input: "yyyy-MM-dd'T'HH:mm:ss ZZZ", first: `${P} VV`, count: 2, severity: ['review'], exact: false, lenientOut: false,
    changes: ['yyyy -> uuuu', 'dd -> d', 'ZZZ -> VV'], findings: [/prints Z for UTC/] },
  { rule: 'z prints Z for UTC', input: 'HH:mm z', output: 'HH:mm z', severity: ['review'], exact: false, lenientOut: false, findings: [/java prints Z for UTC where Joda printed UTC/] },
  // A zone alone gives no instant in java (oracle: JODA_STRING_JAVA_PARSE_FAIL for z and ZZZ), hence unsupported.
  { rule: 'zzzzz -> zzzz', input: 'zzzzz', output: 'zzzz', severity: ['unsupported'], exact: false, lenientOut: false, changes: ['zzzzz -> zzzz'], findings: [/time zone \(z, Z\) without a date or a time of day/] },
  { rule: 'd alternative with other separators', input: 'dd.MM.yyyy', output: 'dd.MM.uuuu||d.MM.uuuu', severity: ['exact'], exact: true, lenientOut: false },
  { rule: 'd alone needs nothing', input: 'd/M/yyyy', output: 'd/M/uuuu', severity: ['exact'], exact: true, lenientOut: true },
  // Beyond the guide.
  { rule: '--lenient: MM and dd alternatives', input: 'yyyy-MM-dd', lenient: true, output: 'uuuu-MM-dd||uuuu-MM-d||uuuu-M-dd||uuuu-M-d', severity: ['exact'], exact: true, lenientOut: true },
  { rule: '--lenient: HH, mm', input: 'HH:mm', lenient: true, output: 'HH:mm||HH:m||H:mm||H:m', severity: ['exact'], exact: true, lenientOut: true },
  { rule: 'without --lenient: HH, mm as is', input: 'HH:mm', output: 'HH:mm', severity: ['exact'], exact: true, lenientOut: false, findings: [/fewer digits in HH, mm.*4 alternatives/] },
  { rule: '--lenient: SSS accepts 1-3 digits', input: 'HH:mm:ss.SSS', lenient: true, first: 'HH:mm:ss.SSS', count: 24, severity: ['exact'], exact: true, lenientOut: true,
    findings: [/SSS also accepted 1 to 2 fraction digits/] },
  { rule: '--lenient: DDD', input: 'yyyy-DDD', lenient: true, output: 'uuuu-DDD||uuuu-D', severity: ['exact'], exact: true, lenientOut: true },
  { rule: `--lenient over the cap of ${MAX_ALTERNATIVES}: a finding instead`, input: 'yyyy-MM-dd HH:mm:ss.SSS', lenient: true, output: 'uuuu-MM-dd HH:mm:ss.SSS||uuuu-MM-d HH:mm:ss.SSS',
    severity: ['exact'], exact: true, lenientOut: false, findings: [/96 alternatives, over the cap of 32/] },
  { rule: '--lenient with zone offsets over the cap', input: "yyyy-MM-dd'T'HH:mm:ssZZ", lenient: true, count: 10, first: `${P}xxx`, severity: ['exact'], exact: true, lenientOut: false,
    findings: [/160 alternatives, over the cap/] },
  { rule: 'adjacent numeric fields: no useless alternatives', input: 'yyyyMMdd', lenient: true, output: 'uuuuMMdd', severity: ['exact'], exact: true, lenientOut: false,
    findings: [/dd ends a run of adjacent numeric fields/] },
  { rule: 'adjacent date and time', input: "yyyyMMdd'T'HHmmss", output: "uuuuMMdd'T'HHmmss", severity: ['exact'], exact: true, lenientOut: false },
  { rule: 'more digits than java allows: zero literal', input: 'ddd/MM/yyyy', output: "'0'dd/MM/uuuu", severity: ['exact'], exact: true, lenientOut: false, changes: ["ddd -> '0'dd", 'yyyy -> uuuu'] },
  { rule: 'hh without a: time dropped', input: 'yyyy-MM-dd hh:mm', first: 'uuuu-MM-dd hh:mm', count: 2, severity: ['unsupported'], exact: false, lenientOut: false,
    findings: [/hh \(clock hour 1-12 of am\/pm\) without a: Joda assumed AM.*drops the time of day/] },
  { rule: 'KK without a', input: 'KK:mm', output: 'KK:mm', severity: ['unsupported'], exact: false, lenientOut: false, findings: [/KK \(hour 0-11 of am\/pm\) without a/] },
  { rule: 'hh with a: text review only', input: 'hh:mm aa', output: 'hh:mm a', severity: ['review'], exact: false, lenientOut: false, changes: ['aa -> a'], findings: [/AM\/PM.*case-insensitively/] },
  { rule: 'yy pivot: no java pattern', input: 'yy-MM-dd', output: 'uu-MM-dd||uu-MM-d', severity: ['unsupported'], exact: false, lenientOut: false,
    findings: [/Joda pivots on the current year \(now 1946-2045.*always means 2000-2099.*every value is in 2000-2045/] },
  { rule: 'YY pivot', input: 'dd/MM/YY', first: 'dd/MM/yy', count: 2, severity: ['unsupported'], exact: false, lenientOut: false, findings: [/java yy always means 2000-2099/] },
  { rule: 'text fields: case, full names', input: 'EEE, dd MMM yyyy', first: 'EEE, dd MMM uuuu', count: 2, severity: ['review'], exact: false, lenientOut: true,
    findings: [/EEE is text.*case-insensitively/, /full day names/, /MMM is text/, /full month names/] },
  { rule: 'full names', input: 'EEEE dd MMMM yyyy', first: 'EEEE dd MMMM uuuu', count: 2, severity: ['review'], exact: false, lenientOut: true },
  // Day of week with a month but no day: java ignores the day of week (oracle: JODA_STRING_VALUE_DIFF), hence unsupported.
  { rule: 'EEEEE -> EEEE, MMMMM -> MMMM', input: 'EEEEE MMMMM', output: 'EEEE MMMM', severity: ['unsupported'], exact: false, lenientOut: false, changes: ['EEEEE -> EEEE', 'MMMMM -> MMMM'] },
  { rule: 'era', input: 'G yyyy', output: 'G uuuu', severity: ['review'], exact: false, lenientOut: true },
  { rule: 'w without x', input: 'yyyy-ww', first: 'uuuu-ww', severity: ['unsupported'], exact: false, lenientOut: false, findings: [/without x \(weekyear\)/] },
  { rule: 'more than 9 fraction digits', input: 'ss.SSSSSSSSSS', output: 'ss.SSSSSSSSSS', severity: ['unsupported'], exact: false, lenientOut: false, findings: [/at most 9 digits/] },
  { rule: 'k (1-24) kept', input: 'kk:mm', output: 'kk:mm', severity: ['exact'], exact: true, lenientOut: false },
  // Literals.
  { rule: "quoted 'Z' is never converted", input: "yyyy-MM-dd'T'HH:mm:ss'Z'", output: `${P}'Z'||uuuu-MM-d'T'HH:mm:ss'Z'`, severity: ['exact'], exact: true, lenientOut: false },
  { rule: "quoted letters and '' inside quotes", input: "'yyyy' yyyy 'o''clock'", output: "'yyyy' uuuu 'o''clock'", severity: ['exact'], exact: true, lenientOut: true },
  { rule: "'' outside quotes", input: "HH''mm", output: "HH''mm", severity: ['exact'], exact: true, lenientOut: false },
  { rule: 'unterminated quote is closed', input: "yyyy 'at", output: "uuuu 'at'", severity: ['exact'], exact: true, lenientOut: true, changes: ['yyyy -> uuuu', "'at -> 'at'"] },
  { rule: 'java section characters are quoted', input: '[yyyy]#', output: "'['uuuu']''#'", severity: ['exact'], exact: true, lenientOut: true, changes: ["[ -> '['", 'yyyy -> uuuu', "] -> ']'", "# -> '#'"] },
  // Several parts, built-in names, 8 prefix.
  { rule: 'multiple parts', input: 'yyyy-MM-dd||yyyy/MM/dd HH:mm||epoch_millis', output: 'uuuu-MM-dd||uuuu-MM-d||uuuu/MM/dd HH:mm||uuuu/MM/d HH:mm||epoch_millis',
    severity: ['exact', 'exact', 'exact'], exact: true, lenientOut: false },
  { rule: 'one inexact part makes the format inexact', input: 'yyyy-MM-dd||yyMMdd', first: 'uuuu-MM-dd', count: 3, severity: ['exact', 'unsupported'], exact: false, lenientOut: false },
  { rule: 'built-in names kept', input: 'strict_date_optional_time||epoch_second||basic_t_time_no_millis', output: 'strict_date_optional_time||epoch_second||basic_t_time_no_millis',
    severity: ['exact', 'exact', 'exact'], exact: true, lenientOut: true, changes: [] },
  { rule: 'camelCase names renamed', input: 'dateOptionalTime||strictDateOptionalTime||basicTTime||yyyy', output: 'date_optional_time||strict_date_optional_time||basic_t_time||uuuu',
    severity: ['exact', 'exact', 'exact', 'exact'], exact: true, lenientOut: true,
    changes: ['dateOptionalTime -> date_optional_time', 'strictDateOptionalTime -> strict_date_optional_time', 'basicTTime -> basic_t_time', 'yyyy -> uuuu'] },
  { rule: '8 prefix: already java.time, prefix dropped', input: '8uuuu-MM-dd||yyyy', output: 'uuuu-MM-dd||yyyy', severity: ['exact', 'exact'], exact: true, lenientOut: true, changes: ['8 -> '] },
];

describe('convertFormat: one row per rule', () => {
  it.each(ROWS)('$rule: $input', (row) => {
    const c = convertFormat(row.input, { lenient: row.lenient, currentYear: 2026 });
    const alternatives = c.output.split('||');
    if (row.output !== undefined) expect(c.output).toBe(row.output);
    if (row.first !== undefined) expect(alternatives[0]).toBe(row.first);
    if (row.count !== undefined) expect(alternatives).toHaveLength(row.count);
    expect(c.input).toBe(row.input);
    expect(c.parts.map((p) => p.severity)).toEqual(row.severity);
    expect(c.exact).toBe(row.exact);
    expect(c.lenient).toBe(row.lenientOut);
    expect(c.output).toBe(c.parts.map((p) => p.output).join('||'));
    const changes = c.parts.flatMap((p) => p.changes.map((ch) => `${ch.from} -> ${ch.to}`));
    if (row.changes) expect(changes).toEqual(row.changes);
    const findings = c.parts.flatMap((p) => p.findings.map((f) => f.message));
    for (const pattern of row.findings ?? []) expect(findings.some((f) => pattern.test(f)), `${pattern} in\n${findings.join('\n')}`).toBe(true);
    // Every change says why; every part's severity is its worst finding.
    for (const p of c.parts) {
      for (const ch of p.changes) expect(ch.why.length).toBeGreaterThan(5);
      const worst = p.findings.some((f) => f.severity === 'unsupported') ? 'unsupported' : p.findings.some((f) => f.severity === 'review') ? 'review' : 'exact';
      expect(p.severity).toBe(worst);
    }
  });

  it('has the lenient alternatives in order, printer first', () => {
    const c = convertFormat('HH:mm:ss.SSS', { lenient: true });
    expect(c.output.split('||').slice(0, 4)).toEqual(['HH:mm:ss.SSS', 'HH:mm:ss.SS', 'HH:mm:ss.S', 'HH:mm:s.SSS']);
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

  it('describes a conversion as the format then one line per change and finding', () => {
    const text = describeConversion(convertFormat('yyyy-MM-dd hh:mm', { currentYear: 2026 })).split('\n');
    expect(text[0]).toBe('uuuu-MM-dd hh:mm||uuuu-MM-d hh:mm');
    expect(text.some((l) => /^ {2}change yyyy -> uuuu: /.test(l))).toBe(true);
    expect(text.some((l) => /^ {2}unsupported: hh /.test(l))).toBe(true);
    expect(text.at(-1)).toBe('  not exact, not lenient');
  });
});

describe('tokenizeJoda', () => {
  it('splits letters with counts, quoted literals with escapes, and other characters', () => {
    expect(tokenizeJoda("yyyy-MM'T'''x''").map((t) => (t.kind === 'letter' ? `${t.letter}${t.count}` : `${t.kind}:${t.raw}`))).toEqual([
      'y4', 'other:-', 'M2', "quoted:'T'''", 'x1', "quoted:''",
    ]);
    const [, quoted] = tokenizeJoda("H'o''clock'");
    expect(quoted).toMatchObject({ kind: 'quoted', value: "o'clock", terminated: true });
    expect(tokenizeJoda("''")).toEqual([{ kind: 'quoted', raw: "''", value: "'", terminated: true, index: 0 }]);
    expect(tokenizeJoda("'abc")[0]).toMatchObject({ kind: 'quoted', value: 'abc', terminated: false });
  });
});
