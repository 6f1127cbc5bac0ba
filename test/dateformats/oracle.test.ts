import { beforeAll, describe, expect, it } from 'vitest';
import { convertFormat } from '../../src/dateformats/convert.ts';
import { tokenizeJoda } from '../../src/dateformats/tokenizer.ts';
import { createOracle, oracleMissing } from '../helpers/dates-oracle.ts';
import { ROWS } from './formats-table.ts';

/**
 * Differential checks against the shared oracle (../shared/tools/dates-oracle): real Joda-Time 2.10 (what
 * Elasticsearch 6.x ran) against real java.time configured like Elasticsearch 7.x/8.x. Exit code 0 = equivalent,
 * 1 = mismatch. The oracle's sources are compiled here into .tmp/ (the shared folder may be read-only).
 * Needs the oracle's sources, a JDK and Debian's libjoda-time-java: without any of them the suite fails in CI
 * (CI=true) and is skipped elsewhere, with a warning.
 */
const absent = oracleMissing();
const skip = absent !== undefined && process.env.CI !== 'true';
if (skip) console.warn(`dates oracle tests skipped: missing ${absent}`);

/** The oracle for the describe block this is called in, built before its tests. */
function oracleForBlock(sample: { years: string; random: number }) {
  const { build, run } = createOracle(sample);
  beforeAll(() => {
    if (absent) throw new Error(`CI needs ${absent} for the dates oracle tests`);
    build();
  }, 120_000);
  return run;
}

const inputs = (...values: string[]) => values.flatMap((v) => ['--input', v]);
/** The converted format of a conversion the test expects to be usable. */
function usable(legacy: string, lenient = false): string {
  const { output } = convertFormat(legacy, { lenient });
  if (output === null) throw new Error(`${legacy} has no usable conversion`);
  return output;
}
/** Every offset form Joda Z and ZZ parsed. */
const OFFSETS = ['Z', '+01', '+01:02', '+0102', '+01:02:03', '+010203', '+00:00', '-05:30', '+0000'];
const withOffsets = (prefix: string) => inputs(...OFFSETS.map((o) => `${prefix}${o}`));

interface ExactCase {
  legacy: string;
  lenient?: boolean;
  /** Extra oracle options: explicit inputs Joda accepted, a printing zone, stricter checks. */
  extra?: string[];
}

// Conversions the converter calls exact: the oracle must find them equivalent, printing included
// (--fail-on-print-diff), and with --lenient also for Joda's fewer-digit variants (--lenient-variants).
const EXACT: ExactCase[] = [
  { legacy: 'yyyy-MM-dd', lenient: true },
  { legacy: 'YYYY-MM-dd' },
  { legacy: 'dd/MM/yyyy HH:mm', lenient: true },
  { legacy: 'HH:mm:ss.SSS', lenient: true },
  { legacy: 'yyyyMMdd' },
  { legacy: "yyyyMMdd'T'HHmmss" },
  { legacy: "yyyy-MM-dd'T'HH:mm:ssZZ", extra: ['--zone', 'Asia/Kolkata', ...withOffsets('2010-01-01T01:02:03')] },
  { legacy: "yyyy-MM-dd'T'HH:mm:ss.SSSZ", extra: ['--zone', 'Asia/Kolkata', ...withOffsets('2010-01-01T01:02:03.456')] },
  { legacy: "yyyy.MM.dd 'at' HH 'o''clock'", extra: inputs("2010.01.05 at 13 o'clock") },
  { legacy: "xxxx-'W'ww-e" },
  { legacy: 'yyyy-DDD', lenient: true },
  { legacy: 'yyyy-MM-dd||epoch_millis', extra: inputs('1262304000000') },
];

describe.skipIf(skip)('dates oracle (real Joda-Time vs java.time)', () => {
  const oracle = oracleForBlock({ years: '1990-2030', random: 100 });

  it.each(EXACT)(
    '$legacy (lenient: $lenient): equivalent as the converter says',
    async ({ legacy, lenient, extra = [] }) => {
      const conversion = convertFormat(legacy, { lenient });
      expect(conversion.exact, JSON.stringify(conversion.parts, null, 2)).toBe(true);
      expect(conversion.lenient).toBe(!!lenient);
      const flags = ['--fail-on-print-diff', ...(lenient ? ['--lenient-variants'] : []), ...extra];
      const run = await oracle(legacy, usable(legacy, lenient), flags);
      expect(run.code, `${legacy} -> ${conversion.output}\n${run.output}`).toBe(0);
    },
    120_000,
  );

  it("the guide's naive rules miss what the converter's alternatives add", async () => {
    // ZZ -> X||XXX||XXXXX (the guide) rejects +0102 and +010203 that Joda parsed, and prints Z for UTC.
    const legacy = "yyyy-MM-dd'T'HH:mm:ssZZ";
    const p = "uuuu-MM-dd'T'HH:mm:ss";
    const guide = await oracle(legacy, `${p}X||${p}XXX||${p}XXXXX`, withOffsets('2010-01-01T01:02:03'));
    expect(guide.code, guide.output).toBe(1);
    expect(guide.output).toMatch(/INPUT_JODA_ONLY/);
    const guidePrint = await oracle(legacy, `${p}XXX`, ['--fail-on-print-diff']);
    expect(guidePrint.code, guidePrint.output).toBe(1);
    expect(guidePrint.output).toMatch(/PRINT_DIFF/);
    const ours = await oracle(legacy, usable(legacy), ['--fail-on-print-diff', ...withOffsets('2010-01-01T01:02:03')]);
    expect(ours.code, ours.output).toBe(0);

    // dd -> dd||d (the guide) still rejects 2010-1-05, which --lenient accepts.
    const naiveDay = await oracle('yyyy-MM-dd', 'uuuu-MM-dd||uuuu-MM-d', ['--lenient-variants']);
    expect(naiveDay.code, naiveDay.output).toBe(1);
    expect(naiveDay.output).toMatch(/LENIENT_JODA_ONLY/);
  }, 120_000);

  it('what the converter calls not exact really differs', async () => {
    for (const legacy of ['yyyy-MM-dd hh:mm:ss', 'yyMMdd', 'yyyy-ww']) {
      const conversion = convertFormat(legacy);
      expect(conversion.parts[0]!.severity, legacy).toBe('unsupported');
      expect(conversion.output, legacy).toBeNull();
      const run = await oracle(legacy, conversion.bestEffortOutput);
      expect(run.code, `${legacy} -> ${conversion.bestEffortOutput}\n${run.output}`).toBe(1);
    }
    // z and ZZZ: parsing is equivalent, printing is not (review).
    for (const legacy of ['yyyy-MM-dd HH:mm:ss z', "yyyy-MM-dd'T'HH:mm:ssZZZ"]) {
      const conversion = convertFormat(legacy);
      expect(conversion.parts[0]!.severity, legacy).toBe('review');
      expect((await oracle(legacy, usable(legacy))).code, legacy).toBe(0);
      expect((await oracle(legacy, usable(legacy), ['--fail-on-print-diff'])).code, legacy).toBe(1);
    }
  }, 300_000);
});

/**
 * The Joda pattern with every month and day name of the other length (MMM <-> MMMM, EEE <-> EEEE): Joda's parser
 * accepted both lengths under either, so what it prints is data the legacy index may hold.
 */
function otherNameLengths(pattern: string): string | undefined {
  let changed = false;
  const out = tokenizeJoda(pattern)
    .map((t) => {
      if (t.kind !== 'letter' || !((t.letter === 'M' && t.count >= 3) || t.letter === 'E')) return t.raw;
      changed = true;
      return t.letter.repeat(t.count >= 4 ? 3 : 4);
    })
    .join('');
  return changed ? out : undefined;
}

/** Rows the oracle can check (not built-in names or java formats, which it does not emulate, nor patterns java refuses). */
const CHECKABLE = ROWS.filter((row) => row.oracle !== undefined && row.oracle !== 'invalid' && !row.input.startsWith('8'));

describe.skipIf(skip)('every row of the formats table called lenient accepts what Joda accepted (--lenient-variants)', () => {
  const run = oracleForBlock({ years: '1990-2030', random: 60 });

  const lenientRows = CHECKABLE.filter((row) => convertFormat(row.input, { lenient: true, currentYear: 2026 }).lenient);

  it('covers most of the table', () => {
    expect(lenientRows.length).toBeGreaterThanOrEqual(90);
  });

  it.concurrent.each(lenientRows)(
    '$input',
    async (row) => {
      const conversion = convertFormat(row.input, { lenient: true, currentYear: 2026 });
      const output = conversion.output!;
      const extra = [...(/[xX]/.test(output.replace(/'[^']*'/g, '')) ? ['--zone', 'Asia/Kolkata'] : []), ...(row.years ? ['--years', row.years] : [])];
      // Not --fail-on-print-diff: it would also count other letter cases, which no java.time pattern accepts (a review
      // finding says so). Printing stays as the formats table checks it: the lenient alternatives come after the printer.
      const variants = await run(row.input, output, ['--lenient-variants', ...extra]);
      expect(variants.code, `${row.input} -> ${output}\n${variants.output}`).toBe(0);
      const names = otherNameLengths(row.input);
      if (names) {
        // What Joda printed with names of the other length parses to the same instant (printing differs by design).
        const other = await run(names, output, extra);
        expect(other.code, `${names} (data for ${row.input}) -> ${output}\n${other.output}`).toBe(0);
      }
    },
    120_000,
  );
});

describe.skipIf(skip)('names of either length (Joda MMM and EEE accepted full names, MMMM and EEEE short ones)', () => {
  const run = oracleForBlock({ years: '2009-2011', random: 5 });

  const CASES = [
    { legacy: 'dd MMM yyyy', inputs: ['05 January 2010', '5 Jan 2010', '05 September 2010'] },
    { legacy: 'd MMMM yyyy', inputs: ['5 Jan 2010', '5 January 2010', '15 Sep 2010'] },
    { legacy: 'EEE, dd MMM yyyy HH:mm:ss Z', inputs: ['Tuesday, 05 January 2010 13:05:07 +0100', 'Tue, 5 Jan 2010 13:05:07 +01:00'] },
    { legacy: 'EEEE dd.MM.yyyy', inputs: ['Tue 05.01.2010', 'Tuesday 5.1.2010'] },
  ];

  it.each(CASES)(
    '$legacy: both parse each input to the same instant with --lenient, not without',
    async ({ legacy, inputs: values }) => {
      const lenient = await run(legacy, usable(legacy, true), inputs(...values));
      expect(lenient.code, lenient.output).toBe(0);
      // Every explicit input parsed on both sides to the same instant (not merely refused by both).
      for (const value of values) expect(lenient.output, value).toContain(`OK         "${value}"`);
      const plain = await run(legacy, usable(legacy), inputs(...values));
      expect(plain.code, plain.output).toBe(1);
      expect(plain.output).toMatch(/INPUT_JODA_ONLY/);
    },
    120_000,
  );

  it('letter case stays a review finding that says what an operator can do', () => {
    const conversion = convertFormat('dd MMM yyyy', { lenient: true });
    const findings = conversion.parts[0]!.findings.filter((f) => f.severity === 'review')
      .map((f) => f.message)
      .join('\n');
    expect(findings).toMatch(/Joda `MMM` is text \(month name\): Joda parsed it in any letter case/);
    expect(findings).toMatch(/`script` processor in the ingest pipeline/);
  });
});

describe.skipIf(skip)('formats without a year', () => {
  const run = oracleForBlock({ years: '1969-1971', random: 20 });

  it('Feb 29 is refused by Joda and by java.time alike (both read 1970), and the finding says so', async () => {
    for (const legacy of ['MM-dd', 'MMM dd HH:mm:ss', 'dd/MM']) {
      const conversion = convertFormat(legacy, { lenient: true });
      expect(conversion.lenient, legacy).toBe(true);
      expect(conversion.parts[0]!.findings.map((f) => f.message).join('\n')).toMatch(
        /no year: Joda and java.time both read these dates in 1970, so Feb 29 is refused by both/,
      );
    }
    const result = await run('MM-dd', usable('MM-dd', true), inputs('02-29', '2-29', '02-28'));
    expect(result.code, result.output).toBe(0);
    expect(result.output).toContain('BOTH_FAIL  "02-29"');
    expect(result.output).toContain('BOTH_FAIL  "2-29"');
    expect(result.output).toContain('OK         "02-28"');
  }, 120_000);
});

describe.skipIf(skip)('runs in the shared JVMs', () => {
  const oracle = createOracle({ years: '1999-2001', random: 20 });
  beforeAll(() => {
    if (absent) throw new Error(`CI needs ${absent} for the dates oracle tests`);
    oracle.build();
  }, 120_000);

  // Each outcome: equivalent (0), a mismatch (1), a pattern Joda refuses (3), bad usage (2), and a run after a
  // mismatch, which would inherit its options if runs shared the oracle's static fields.
  it.each([
    ['yyyy-MM-dd', 'uuuu-MM-dd', []],
    ['YYYY-MM-dd', 'yyyy-MM-dd', ['--input', '2010-01-1']],
    ['yyyy-MM-dd Q', 'uuuu-MM-dd', []],
    ['yyyy-MM-dd', 'uuuu-MM-dd', ['--no-such-option']],
    ['dd/MM/yyyy HH:mm', 'dd/MM/uuuu HH:mm', ['--fail-on-print-diff']],
  ])('%s against %s %j: the same code and bytes as a JVM of its own', async (joda, java, extra) => {
    const shared = await oracle.run(joda, java, extra);
    expect(shared).toEqual(await oracle.runAlone(joda, java, extra));
  });

  it('answer each outcome as it should (the cases above are not all alike)', async () => {
    const codes = await Promise.all([
      oracle.run('yyyy-MM-dd', 'uuuu-MM-dd'),
      oracle.run('YYYY-MM-dd', 'yyyy-MM-dd', ['--input', '2010-01-1']),
      oracle.run('yyyy-MM-dd Q', 'uuuu-MM-dd'),
    ]);
    expect(codes.map((run) => run.code)).toEqual([0, 1, 3]);
  });
});
