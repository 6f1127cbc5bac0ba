import { describe, expect, it } from 'vitest';
import { convertFormat } from '../../src/dateformats/convert.ts';
import { createOracle, oracleMissing } from '../helpers/dates-oracle.ts';
import { ROWS } from './formats-table.ts';

describe('legacy formats table', () => {
  it('has at least 100 distinct formats', () => {
    expect(ROWS.length).toBeGreaterThanOrEqual(100);
    expect(new Set(ROWS.map((r) => r.input)).size).toBe(ROWS.length);
  });

  it.each(ROWS)('$input -> $output ($severity)', (row) => {
    const c = convertFormat(row.input, { currentYear: 2026 });
    const severities = Array.isArray(row.severity) ? row.severity : [row.severity];
    expect(c.bestEffortOutput).toBe(row.output);
    expect(c.output).toBe(severities.includes('unsupported') ? null : row.output);
    expect(c.parts.map((p) => p.severity)).toEqual(severities);
    expect(c.exact).toBe(severities.every((s) => s === 'exact'));
    expect(c.lenient).toBe(!!row.lenient);
    // The oracle's verdict and the converter's must agree: an exact row is never one the oracle finds different.
    if (row.oracle === 'differs' || row.oracle === 'invalid') expect(c.exact).toBe(false);
    if (row.oracle === 'parse') expect(severities).not.toContain('exact');
    // With --lenient: lenient unless something cannot be covered, and then a finding says what Joda accepted that is lost.
    const lenient = convertFormat(row.input, { lenient: true, currentYear: 2026 });
    expect(lenient.lenient, lenient.bestEffortOutput).toBe(row.lenientOption ?? !severities.includes('unsupported'));
    expect(lenient.bestEffortOutput.split('||')[0]).toBe(c.bestEffortOutput.split('||')[0]);
    if (!lenient.lenient && !severities.includes('unsupported')) {
      const findings = lenient.parts.flatMap((p) => p.findings.map((f) => f.message)).join('\n');
      expect(findings).toMatch(/not lenient|over the cap/);
    }
  });
});

const missing = oracleMissing();
const skipOracle = missing !== undefined && process.env.CI !== 'true';
if (skipOracle) console.warn(`formats table oracle checks skipped: missing ${missing}`);

describe.skipIf(skipOracle)('legacy formats table against the oracle (real Joda-Time vs java.time)', () => {
  const oracle = createOracle();
  const checked = ROWS.filter((r) => r.oracle !== undefined);

  it.concurrent.each(checked)(
    '$input: $oracle',
    async (row) => {
      if (missing) throw new Error(`CI needs ${missing} for the dates oracle tests`);
      oracle.build();
      const extra = [...(/[xX]/.test(row.output.replace(/'[^']*'/g, '')) ? ['--zone', 'Asia/Kolkata'] : []), ...(row.years ? ['--years', row.years] : [])];
      const strict = await oracle.run(row.input, row.output, ['--fail-on-print-diff', ...extra]);
      const why = `${row.input} -> ${row.output}\n${strict.output}`;
      switch (row.oracle) {
        case 'same':
          expect(strict.code, why).toBe(0);
          break;
        case 'differs':
          expect(strict.code, why).toBe(1);
          expect(strict.output, why).toMatch(/JODA_STRING_(JAVA_PARSE_FAIL|VALUE_DIFF)/);
          break;
        case 'invalid':
          expect(strict.code, why).toBe(3);
          break;
        case 'parse': {
          expect(strict.code, why).toBe(1);
          expect(strict.output, why).toMatch(/PRINT_DIFF/);
          const parse = await oracle.run(row.input, row.output, extra);
          expect(parse.code, `${row.input} -> ${row.output}\n${parse.output}`).toBe(0);
          break;
        }
      }
    },
    120_000,
  );
});
