import { describe, expect, it } from 'vitest';
import { describeJsonFault, jsonFault, MAX_JSON_DEPTH, MAX_JSON_VALUES } from '../../src/text/json-limits.ts';

/** Arrays nested `depth` levels (`[[...]]`), the innermost holding `leaf` when given. */
const nestedArrays = (depth: number, leaf?: unknown): unknown => {
  let value: unknown = leaf === undefined ? [] : [leaf];
  for (let level = 1; level < depth; level++) value = [value];
  return value;
};
/** Objects nested `depth` levels (`{"a":{"a":...}}`). */
const nestedObjects = (depth: number): unknown => JSON.parse(`${'{"a":'.repeat(depth - 1)}{}${'}'.repeat(depth - 1)}`);

describe('JSON as V8 reads and writes it', () => {
  // Why the limits exist, checked rather than assumed: parsing is iterative, writing recursive.
  it('JSON.parse reads 100,000 levels; JSON.stringify overflows the stack on 10,000', () => {
    const deep = JSON.parse(`${'['.repeat(100_000)}${']'.repeat(100_000)}`) as unknown;
    expect(Array.isArray(deep)).toBe(true);
    expect(() => JSON.stringify(nestedArrays(10_000))).toThrow(RangeError);
  });
});

describe('jsonFault', () => {
  it.each([
    ['a scalar', 'text', null],
    ['null', null, null],
    ['an empty array (1 level)', [], null],
    ['a targeting spec', { geo_locations: { countries: ['US'], regions: [{ key: '3847' }] }, age_min: 18 }, null],
    [`arrays ${MAX_JSON_DEPTH} levels deep`, nestedArrays(MAX_JSON_DEPTH, 1), null],
    [`objects ${MAX_JSON_DEPTH} levels deep`, nestedObjects(MAX_JSON_DEPTH), null],
    [`arrays ${MAX_JSON_DEPTH + 1} levels deep`, nestedArrays(MAX_JSON_DEPTH + 1), { measure: 'depth', limit: MAX_JSON_DEPTH }],
    [`objects ${MAX_JSON_DEPTH + 1} levels deep`, nestedObjects(MAX_JSON_DEPTH + 1), { measure: 'depth', limit: MAX_JSON_DEPTH }],
    ['arrays 100,000 levels deep (no recursion to overflow)', nestedArrays(100_000), { measure: 'depth', limit: MAX_JSON_DEPTH }],
    ['a deep value beside a shallow one', { shallow: 1, deep: nestedObjects(5_000) }, { measure: 'depth', limit: MAX_JSON_DEPTH }],
    [`${MAX_JSON_VALUES} values`, Array.from({ length: MAX_JSON_VALUES - 1 }, () => 0), null],
    [`${MAX_JSON_VALUES + 1} values`, Array.from({ length: MAX_JSON_VALUES }, () => 0), { measure: 'values', limit: MAX_JSON_VALUES }],
    ['values spread over many objects', Array.from({ length: 50_001 }, () => ({ a: 1 })), { measure: 'values', limit: MAX_JSON_VALUES }],
    ['a lone high surrogate in a string', { name: 'a\ud800b' }, { measure: 'unicode' }],
    ['a lone low surrogate deep in a list', [[['\udc00']]], { measure: 'unicode' }],
    ['a lone surrogate in a key', { 'k\ud83d': 1 }, { measure: 'unicode' }],
    ['a surrogate pair (an emoji) and U+FFFD itself', { '👍🏽': 'é𝒜\ufffd' }, null],
  ])('%s', (_case, value, fault) => {
    expect(jsonFault(value)).toEqual(fault);
  });

  it('takes other limits', () => {
    expect(jsonFault(nestedArrays(3), { depth: 2, values: 10 })).toEqual({ measure: 'depth', limit: 2 });
    expect(jsonFault([1, 2, 3], { depth: 2, values: 3 })).toEqual({ measure: 'values', limit: 3 });
  });

  it('words each fault about its subject', () => {
    expect(describeJsonFault('Param targeting', { measure: 'depth', limit: 64 })).toBe('Param targeting is nested more than 64 levels deep');
    expect(describeJsonFault('Variable "$input"', { measure: 'values', limit: 100_000 })).toBe('Variable "$input" holds more than 100,000 values');
    expect(describeJsonFault('"checks"', { measure: 'unicode' })).toMatch(/^"checks" holds a lone UTF-16 surrogate/);
  });
});
