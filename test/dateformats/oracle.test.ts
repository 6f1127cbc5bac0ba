import { beforeAll, describe, expect, it } from 'vitest';
import { convertFormat } from '../../src/dateformats/convert.ts';
import { createOracle, oracleMissing, oracleSourcesPresent } from '../helpers/dates-oracle.ts';

/**
 * Differential checks against the shared oracle (../shared/tools/dates-oracle): real Joda-Time 2.10 (what
 * Elasticsearch 6.x ran) against real java.time configured like Elasticsearch 7.x/8.x. Exit code 0 = equivalent,
 * 1 = mismatch. The oracle's sources are compiled here into .tmp/ (the shared folder may be read-only).
 * Needs a JDK and Debian's libjoda-time-java: without them the suite fails in CI (CI=true) and is skipped elsewhere
 * (with a warning); without the oracle's sources it is skipped everywhere.
 */
const absent = oracleMissing();
const skip = !oracleSourcesPresent() || (absent !== undefined && process.env.CI !== 'true');
if (skip) console.warn(`dates oracle tests skipped: missing ${absent}`);

const { build, run: oracle } = createOracle('dates-oracle', { years: '1990-2030', random: 100 });

const inputs = (...values: string[]) => values.flatMap((v) => ['--input', v]);
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
  beforeAll(() => {
    if (absent) throw new Error(`CI needs ${absent} for the dates oracle tests`);
    build();
  }, 120_000);

  it.each(EXACT)('$legacy (lenient: $lenient): equivalent as the converter says', async ({ legacy, lenient, extra = [] }) => {
    const conversion = convertFormat(legacy, { lenient });
    expect(conversion.exact, JSON.stringify(conversion.parts, null, 2)).toBe(true);
    expect(conversion.lenient).toBe(!!lenient);
    const flags = ['--fail-on-print-diff', ...(lenient ? ['--lenient-variants'] : []), ...extra];
    const run = await oracle(legacy, conversion.output, flags);
    expect(run.code, `${legacy} -> ${conversion.output}\n${run.output}`).toBe(0);
  }, 120_000);

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
    const ours = await oracle(legacy, convertFormat(legacy).output, ['--fail-on-print-diff', ...withOffsets('2010-01-01T01:02:03')]);
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
      const run = await oracle(legacy, conversion.output);
      expect(run.code, `${legacy} -> ${conversion.output}\n${run.output}`).toBe(1);
    }
    // z and ZZZ: parsing is equivalent, printing is not (review).
    for (const legacy of ['yyyy-MM-dd HH:mm:ss z', "yyyy-MM-dd'T'HH:mm:ssZZZ"]) {
      const conversion = convertFormat(legacy);
      expect(conversion.parts[0]!.severity, legacy).toBe('review');
      expect((await oracle(legacy, conversion.output)).code, legacy).toBe(0);
      expect((await oracle(legacy, conversion.output, ['--fail-on-print-diff'])).code, legacy).toBe(1);
    }
  }, 300_000);
});

