import { parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import { buildSchema } from '../../src/graphql/schema.ts';
import { complexityRefusal, estimateComplexity, MAX_NESTING, nestingDepth, nestingRefusal, QueryLimitError } from '../../src/graphql/limits.ts';

const schema = buildSchema();
const estimate = (query: string, variables: Record<string, unknown> = {}, operationName?: string) =>
  estimateComplexity(schema, parse(query), operationName, variables);
const ids = (count: number) => Array.from({ length: count }, (_, i) => String(100000000000001 + i));

describe('the complexity estimate', () => {
  it.each([
    // query, variables, objects, fields
    ['one object', '{ me { id name } }', {}, 1, 3],
    ['nodes(ids:): one object per id', `{ nodes(ids: ${JSON.stringify(ids(3))}) { id } }`, {}, 3, 3 * (1 + 1)],
    ['ids as a variable', 'query ($ids: [ID!]!) { nodes(ids: $ids) { id } }', { ids: ids(40) }, 40, 80],
    ['a connection without first/last: a page of 25', '{ adAccounts { nodes { id } } }', {}, 1 + 25, 1 + 25 * (1 + 1), ['adAccounts']],
    ['first', '{ adAccounts(first: 3) { nodes { id name } } }', {}, 1 + 3, 1 + 3 * (1 + 2)],
    ['first as a variable', 'query ($n: Int) { adAccounts(first: $n) { nodes { id } } }', { n: 7 }, 1 + 7, 1 + 7 * 2],
    ['last', '{ adAccounts(last: 4) { edges { cursor node { id } } } }', {}, 1 + 4 * 2, 1 + 4 * (1 + 1 + 1 + 1)],
    [
      'nested pages multiply',
      '{ adAccounts(first: 2) { nodes { campaigns(first: 3) { nodes { id } } } } }',
      {},
      1 + 2 * (1 + (1 + 3)),
      1 + 2 * (1 + (1 + 3 * 2)),
    ],
    ['a count alone', '{ adAccounts(first: 10) { totalCount } }', {}, 1, 1 + 10],
    ['a list bounded by the data counts once', '{ me { memberships { role organization { name } } } }', {}, 3, 5],
    ['a field left out by @include', '{ me { id memberships @include(if: false) { role } } }', {}, 1, 2],
    ['a field kept by @skip(if: $no)', 'query ($no: Boolean!) { me { id memberships @skip(if: $no) { role } } }', { no: false }, 2, 4],
    ['a named fragment', 'query { adAccounts(first: 2) { nodes { ...A } } } fragment A on AdAccount { id name }', {}, 1 + 2, 1 + 2 * 3],
    [
      'the costlier of the types an interface may be',
      `{ nodes(ids: ${JSON.stringify(ids(2))}) { ... on Ad { adSet { campaign { id } } } ... on User { id } } }`,
      {},
      2 * 3,
      2 * (1 + 1 + 1 + 1),
    ],
  ])('%s', (_name, query, variables, objects, fields, unsized?: string[]) => {
    expect(estimate(query, variables)).toEqual({ objects, fields, ...(unsized ? { unsized } : {}) });
  });

  it('counts only the operation asked for', () => {
    const document = 'query Small { me { id } } query Big { adAccounts(first: 100) { nodes { id } } }';
    expect(estimate(document, {}, 'Small')).toEqual({ objects: 1, fields: 2 });
    expect(estimate(document, {}, 'Big')).toEqual({ objects: 101, fields: 201 });
  });

  it('leaves variables that do not fit the operation to execution (null)', () => {
    expect(estimate('query ($ids: [ID!]!) { nodes(ids: $ids) { id } }', { ids: 'not a list of ids' })).toEqual({ objects: 1, fields: 2 });
    expect(estimate('query ($n: Int) { adAccounts(first: $n) { nodes { id } } }', { n: 'ten' })).toBeNull();
    expect(estimate('query ($ids: [ID!]!) { nodes(ids: $ids) { id } }', {})).toBeNull();
  });

  it('refuses fragments that expand beyond counting, as too complex', () => {
    // Each fragment spreads the next one twice: 2^20 selections from a document of a few hundred characters.
    const fragments = Array.from({ length: 20 }, (_, i) => `fragment F${i} on User { id ...F${i + 1} ...F${i + 1} }`).join(' ');
    const document = `{ me { ...F0 } } ${fragments} fragment F20 on User { id }`;
    let thrown: unknown;
    try {
      estimate(document);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(QueryLimitError);
    expect((thrown as QueryLimitError).details).toEqual({ code: 'QUERY_TOO_COMPLEX', measure: 'selections', limit: 10000 });
  });
});

describe('the complexity limits', () => {
  const limits = { maxObjects: 100, maxFields: 500 };
  it.each([
    [{ objects: 100, fields: 500 }, null],
    [
      { objects: 101, fields: 500 },
      { code: 'QUERY_TOO_COMPLEX', measure: 'objects', limit: 100, found: 101 },
    ],
    [
      { objects: 100, fields: 501 },
      { code: 'QUERY_TOO_COMPLEX', measure: 'fields', limit: 500, found: 501 },
    ],
    // Objects are named first: the likelier cause, and the one the message's advice (fewer ids, smaller pages) fixes.
    [
      { objects: 101, fields: 501 },
      { code: 'QUERY_TOO_COMPLEX', measure: 'objects', limit: 100, found: 101 },
    ],
  ])('%j -> %j', (complexity, expected) => {
    expect(complexityRefusal(complexity, limits)?.details ?? null).toEqual(expected);
  });

  it('names the connections counted at the default page, the usual cause and its fix', () => {
    const complexity = estimate('{ adAccounts { nodes { campaigns { nodes { adSets(first: 2) { nodes { id } } } } } } }')!;
    expect(complexity.unsized).toEqual(['adAccounts', 'campaigns']);
    expect(complexityRefusal(complexity, limits)?.message).toBe(
      `Query is too complex: it may return ${complexity.objects.toLocaleString('en-US')} objects, more than the limit of 100. ` +
        'Ask for fewer ids or smaller pages (first/last; 25 when not given, as for adAccounts, campaigns).',
    );
  });
});

describe('nestingDepth (measured before parsing)', () => {
  it('counts braces, brackets and parentheses outside strings and comments', () => {
    expect(nestingDepth('{ me { id } }')).toBe(2);
    expect(nestingDepth('query ($ids: [ID!]!) { nodes(ids: $ids) { id } }')).toBe(2);
    expect(nestingDepth('{ a(x: [[[1]]]) { b } }')).toBe(5);
    expect(nestingDepth('{ a(s: "{{{{[[[(((") { b } } # {{{{{{')).toBe(2);
    expect(nestingDepth('{ a(s: "escaped \\" {{{{") }')).toBe(2);
    expect(nestingDepth('{ a(s: """ block {{{{ \\""" still {{{{ """) }')).toBe(2);
    expect(nestingDepth('')).toBe(0);
  });

  it('refuses a document nested past the limit as QUERY_TOO_DEEP, and nothing else', () => {
    const deep = `${'{ a '.repeat(3000)}${'}'.repeat(3000)}`;
    expect(nestingRefusal(deep)?.details).toEqual({ code: 'QUERY_TOO_DEEP', limit: MAX_NESTING, found: 3000 });
    expect(nestingRefusal(`{ a(x: ${'['.repeat(MAX_NESTING)}1${']'.repeat(MAX_NESTING)}) }`)?.details).toMatchObject({ found: MAX_NESTING + 2 });
    expect(nestingRefusal('{ me { id } }')).toBeNull();
    expect(nestingRefusal(undefined)).toBeNull();
  });
});
