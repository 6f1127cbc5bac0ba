import { describe, expect, it } from 'vitest';
import { collectParams, decodeJsonText, jsonObject, text } from '../../src/graph-api/params.ts';
import { graphTime, parsedFields, parseFields } from '../../src/graph-api/fields.ts';
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

describe('collectParams and decodeJsonText', () => {
  it('leaves every value as it came: JSON is decoded by the reader that expects it', () => {
    const raw = {
      targeting: '{"geo_locations":{"countries":["US"]}}',
      special_ad_categories: '[]',
      is_dynamic: 'true',
      daily_budget: '2500',
      name: '[Q3] Spring sale',
    };
    expect(collectParams(raw)).toEqual(raw);
  });

  it('decodes a string that opens like JSON, and leaves any other value as it is', () => {
    expect(decodeJsonText('{"geo_locations":{"countries":["US"]}}', 'targeting')).toEqual({ geo_locations: { countries: ['US'] } });
    expect(decodeJsonText('  ["A"]', 'x')).toEqual(['A']);
    expect(decodeJsonText('true', 'x')).toBe('true');
    expect(decodeJsonText({ a: 1 }, 'x')).toEqual({ a: 1 });
    // Readers of text never call it: a name that opens with a bracket stays a name.
    expect(text({ max: 400 })('[Q3] Spring sale', 'name')).toBe('[Q3] Spring sale');
    expect(jsonObject('{"a":1}', 'creative')).toEqual({ a: 1 });
  });

  it('answers broken JSON with error 100 naming the parameter', () => {
    const error = graphErrorOf(() => jsonObject('{"geo_locations":', 'targeting'));
    expect(error.graph?.code).toBe(100);
    expect(error.field).toBe('targeting');
    expect(error.message).toBe('Param targeting must be JSON-encoded: {"geo_locations":');
  });

  it('answers a repeated query or form parameter with error 100 naming it (a JSON body may hold lists)', () => {
    const error = graphErrorOf(() => collectParams({ limit: ['1', '2'] }));
    expect(error.graph?.code).toBe(100);
    expect(error.field).toBe('limit');
    expect(error.message).toMatch(/limit/);
    expect(collectParams({ special_ad_categories: ['HOUSING'] }, 'json')).toEqual({ special_ad_categories: ['HOUSING'] });
  });

  it('cuts a long broken value short in the message', () => {
    const error = graphErrorOf(() => decodeJsonText(`{${'x'.repeat(500)}`, 'creative'));
    expect(error.message.length).toBeLessThan(200);
  });
});

describe('parsedFields', () => {
  it('parses a text once: the same frozen selections for the same text, parseFields answers for a new one', () => {
    const text = 'name,ads.limit(2).effective_status(["ACTIVE"]){name,creative{id}}';
    const once = parsedFields(text);
    expect(once).toEqual(parseFields(text));
    expect(parsedFields(text)).toBe(once);
    expect([once, once[1], once[1]!.modifiers, once[1]!.children, once[1]!.children![1]].every((part) => Object.isFrozen(part))).toBe(true);
    expect(parsedFields(`${text},status`)).not.toBe(once);
  });

  it('refuses a text that does not parse every time it is asked', () => {
    for (let call = 0; call < 2; call++) expect(graphErrorOf(() => parsedFields('name,{')).graph?.code).toBe(2500);
  });
});

describe('parseFields', () => {
  it('parses a comma list', () => {
    expect(parseFields('id,name,status')).toEqual([
      { name: 'id', modifiers: {} },
      { name: 'name', modifiers: {} },
      { name: 'status', modifiers: {} },
    ]);
  });

  it('parses nested selections and modifiers', () => {
    expect(parseFields('name,campaign{name,status},ads.limit(3).after(abc){name,adset{id}}')).toEqual([
      { name: 'name', modifiers: {} },
      {
        name: 'campaign',
        modifiers: {},
        children: [
          { name: 'name', modifiers: {} },
          { name: 'status', modifiers: {} },
        ],
      },
      {
        name: 'ads',
        modifiers: { limit: '3', after: 'abc' },
        children: [
          { name: 'name', modifiers: {} },
          { name: 'adset', modifiers: {}, children: [{ name: 'id', modifiers: {} }] },
        ],
      },
    ]);
  });

  it('allows spaces around names and punctuation', () => {
    expect(parseFields(' name , campaign { name } ')).toEqual([
      { name: 'name', modifiers: {} },
      { name: 'campaign', modifiers: {}, children: [{ name: 'name', modifiers: {} }] },
    ]);
  });

  it.each([
    '',
    'name,',
    ',name',
    'name,,status',
    'name{',
    'name}',
    'name{}',
    'a.limit',
    'a.limit(3',
    'a.(3)',
    'name status',
    '9name',
    'na-me',
    'a{b{c{d{e{f{g}}}}}}',
    'x'.repeat(5000),
  ])('answers %j with a Graph error, not an exception of another kind', (input) => {
    const error = graphErrorOf(() => parseFields(input));
    expect(error.code).toBe('BAD_USER_INPUT');
    expect(error.graph?.code).toEqual(expect.any(Number));
    expect(error.message.length).toBeLessThan(400);
  });
});

describe('graphTime', () => {
  it('writes ISO 8601 with +0000, or Unix seconds', () => {
    const date = new Date('2026-01-05T10:00:00.789Z');
    expect(graphTime(date, 'iso')).toBe('2026-01-05T10:00:00+0000');
    expect(graphTime(date, 'unix')).toBe(1767607200);
  });
});
