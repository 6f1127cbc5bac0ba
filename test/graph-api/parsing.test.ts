import { describe, expect, it } from 'vitest';
import { decodeParams } from '../../src/graph-api/params.ts';
import { graphTime, parseFields } from '../../src/graph-api/fields.ts';
import { DomainError } from '../../src/errors/index.ts';

/** The pieces of the /v24.0 layer that need no server: parameter decoding, the fields parser, Graph times. */

function graphErrorOf(work: () => unknown): DomainError {
  try {
    work();
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    return error as DomainError;
  }
  throw new Error('expected an error');
}

describe('decodeParams', () => {
  it('decodes JSON-encoded objects and lists, and leaves everything else as it came', () => {
    expect(decodeParams({
      targeting: '{"geo_locations":{"countries":["US"]}}',
      special_ad_categories: '[]',
      spaced: '  ["A"]',
      is_dynamic: 'true',
      daily_budget: '2500',
      name: 'Spring [sale]',
    })).toEqual({
      targeting: { geo_locations: { countries: ['US'] } },
      special_ad_categories: [],
      spaced: ['A'],
      is_dynamic: 'true',
      daily_budget: '2500',
      name: 'Spring [sale]',
    });
  });

  it('answers broken JSON with error 100 naming the parameter', () => {
    const error = graphErrorOf(() => decodeParams({ name: 'x', targeting: '{"geo_locations":' }));
    expect(error.graph?.code).toBe(100);
    expect(error.field).toBe('targeting');
    expect(error.message).toMatch(/targeting/);
  });

  it('answers a repeated query or form parameter with error 100 naming it', () => {
    const error = graphErrorOf(() => decodeParams({ limit: ['1', '2'] }));
    expect(error.graph?.code).toBe(100);
    expect(error.field).toBe('limit');
    expect(error.message).toMatch(/limit/);
  });

  it('cuts a long broken value short in the message', () => {
    const error = graphErrorOf(() => decodeParams({ creative: `{${'x'.repeat(500)}` }));
    expect(error.message.length).toBeLessThan(200);
  });
});

describe('parseFields', () => {
  it('parses a comma list', () => {
    expect(parseFields('id,name,status')).toEqual([
      { name: 'id', modifiers: {} }, { name: 'name', modifiers: {} }, { name: 'status', modifiers: {} },
    ]);
  });

  it('parses nested selections and modifiers', () => {
    expect(parseFields('name,campaign{name,status},ads.limit(3).after(abc){name,adset{id}}')).toEqual([
      { name: 'name', modifiers: {} },
      { name: 'campaign', modifiers: {}, children: [{ name: 'name', modifiers: {} }, { name: 'status', modifiers: {} }] },
      {
        name: 'ads', modifiers: { limit: '3', after: 'abc' },
        children: [{ name: 'name', modifiers: {} }, { name: 'adset', modifiers: {}, children: [{ name: 'id', modifiers: {} }] }],
      },
    ]);
  });

  it('allows spaces around names and punctuation', () => {
    expect(parseFields(' name , campaign { name } ')).toEqual([
      { name: 'name', modifiers: {} }, { name: 'campaign', modifiers: {}, children: [{ name: 'name', modifiers: {} }] },
    ]);
  });

  it.each(['', 'name,', ',name', 'name,,status', 'name{', 'name}', 'name{}', 'a.limit', 'a.limit(3', 'a.(3)', 'name status', '9name', 'na-me', 'a{b{c{d{e{f{g}}}}}}', 'x'.repeat(5000)])(
    'answers %j with a Graph error, not an exception of another kind',
    (input) => {
      const error = graphErrorOf(() => parseFields(input));
      expect(error.code).toBe('BAD_USER_INPUT');
      expect(error.graph?.code).toEqual(expect.any(Number));
      expect(error.message.length).toBeLessThan(400);
    },
  );
});

describe('graphTime', () => {
  it('writes ISO 8601 with +0000, or Unix seconds', () => {
    const date = new Date('2026-01-05T10:00:00.789Z');
    expect(graphTime(date, 'iso')).toBe('2026-01-05T10:00:00+0000');
    expect(graphTime(date, 'unix')).toBe(1767607200);
  });
});
