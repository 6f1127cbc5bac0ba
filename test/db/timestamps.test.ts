// Same on every database: a pure function over PostgreSQL's text form of a timestamptz, compared with pg's own parser.
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { parseTimestamptz } from '../../src/db/index.ts';

// What pg itself parses a timestamptz with (pg-types' postgres-date), which src/db/index.ts replaces for UTC text.
const postgresDate = createRequire(import.meta.url)('postgres-date') as (text: string) => Date | number | null;
const same = (text: string) => {
  const ours = parseTimestamptz(text);
  const theirs = postgresDate(text);
  return ours instanceof Date && theirs instanceof Date ? [ours.getTime(), text] : [ours, text];
};
const expected = (text: string) => {
  const theirs = postgresDate(text);
  return theirs instanceof Date ? [theirs.getTime(), text] : [theirs, text];
};

describe('timestamptz text to Date (PostgreSQL)', () => {
  it('reads UTC timestamps with every length of fraction as pg does', () => {
    const texts = [
      '2026-11-27 12:36:56+00',
      '2026-11-27 12:36:56.9+00',
      '2026-11-27 12:36:56.91+00',
      '2026-11-27 12:36:56.913+00',
      '2026-11-27 12:36:56.9135+00',
      '2026-11-27 12:36:56.999999+00',
      '2026-01-01 00:00:00.001+00',
      '1970-01-01 00:00:00+00',
      '1969-12-31 23:59:59.5+00',
      '0100-02-28 23:59:59+00',
      '9999-12-31 23:59:59.999999+00',
      '2024-02-29 12:00:00.047+00',
    ];
    for (const text of texts) expect(same(text)).toEqual(expected(text));
    expect((parseTimestamptz('2026-11-27 12:36:56.913+00') as Date).toISOString()).toBe('2026-11-27T12:36:56.913Z');
  });

  it('agrees with pg on ten thousand random instants, to the microsecond', () => {
    let seed = 27;
    const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    for (let i = 0; i < 10_000; i++) {
      const iso = new Date(Math.floor(random() * 8e12) - 1e12).toISOString();
      const micros = String(Math.floor(random() * 1e6))
        .padStart(6, '0')
        .replace(/0+$/, '');
      const text = `${iso.slice(0, 10)} ${iso.slice(11, 19)}${micros ? `.${micros}` : ''}+00`;
      expect(same(text)).toEqual(expected(text));
    }
  });

  it('leaves other offsets, BC, infinity and years before 100 to pg', () => {
    for (const text of [
      '2026-11-27 13:36:56.913+01',
      '2026-11-27 18:06:56+05:30',
      '2026-11-27 12:36:56-07',
      '0044-03-15 12:00:00+00 BC',
      '0099-01-01 00:00:00+00',
      'infinity',
      '-infinity',
    ]) {
      expect(same(text)).toEqual(expected(text));
    }
  });
});
