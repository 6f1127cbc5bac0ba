import { describe, expect, it } from 'vitest';
import { DomainError } from '../../src/errors/index.ts';
import { parseFormBytes, parseFormEncoded } from '../../src/text/form-encoding.ts';

const refusal = (work: () => unknown) => {
  try {
    work();
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    const { code, field, message, graph } = error as DomainError;
    return { code, field, message, graphCode: graph?.code };
  }
  throw new Error('expected a refusal');
};

describe('parseFormEncoded', () => {
  it.each([
    ['plain pairs', 'name=Spring&status=PAUSED', { name: 'Spring', status: 'PAUSED' }],
    ['%-escapes and + in values', 'name=Caf%C3%A9+%F0%9F%91%8D&x=a%2Bb', { name: 'Café 👍', x: 'a+b' }],
    ['names are decoded as values are', '%61ccess_token=t&n%61me=x&a+b=1', { access_token: 't', name: 'x', 'a b': '1' }],
    ['a % that is no escape stays as it is', 'name=100%25+sure&x=50%&y=%ZZ&z=%4', { name: '100% sure', x: '50%', y: '%ZZ', z: '%4' }],
    ['a name without a value, and empty pieces', 'a&&b=&=c', { a: '', b: '', '': 'c' }],
    ['a value holding =', 'filter=a=b', { filter: 'a=b' }],
    ['a repeated name is a list', 'x=1&x=2&x=3', { x: ['1', '2', '3'] }],
    ['nothing', '', {}],
  ])('%s', (_case, text, fields) => {
    expect({ ...parseFormEncoded(text) }).toEqual(fields);
  });

  it('keeps __proto__ and constructor as parameters, not as the object prototype', () => {
    const fields = parseFormEncoded('__proto__=x&constructor=y');
    expect(Object.getPrototypeOf(fields)).toBeNull();
    expect(Object.keys(fields)).toEqual(['__proto__', 'constructor']);
    expect(fields.__proto__).toBe('x');
  });

  it.each([
    ['a value whose escapes are not UTF-8', 'access_token=t&name=Bad%FF%FEname', { field: 'name', message: 'Param name is not valid UTF-8' }],
    ['a truncated sequence', 'name=Caf%C3', { field: 'name', message: 'Param name is not valid UTF-8' }],
    ['an encoded surrogate', 'name=%ED%A0%80', { field: 'name', message: 'Param name is not valid UTF-8' }],
    ['an overlong encoding of /', 'name=%C0%AF', { field: 'name', message: 'Param name is not valid UTF-8' }],
    ['a name whose escapes are not UTF-8', 'n%FFme=x', { field: 'n%FFme', message: 'A parameter name is not valid UTF-8: n%FFme' }],
  ])('refuses %s, naming the parameter', (_case, text, expected) => {
    expect(refusal(() => parseFormEncoded(text))).toEqual({ code: 'BAD_USER_INPUT', graphCode: 100, ...expected });
  });

  it('refuses more parameters than the limit', () => {
    expect(parseFormEncoded('a=1&b=2', { maxParameters: 2 })).toBeDefined();
    expect(refusal(() => parseFormEncoded('a=1&b=2&c=3', { maxParameters: 2 }))).toMatchObject({ message: 'Too many parameters: the limit is 2' });
  });
});

describe('parseFormBytes', () => {
  const bytes = (...parts: Array<string | number[]>) => Buffer.concat(parts.map((part) => (typeof part === 'string' ? Buffer.from(part) : Buffer.from(part))));

  it('reads raw UTF-8 and %-escapes alike', () => {
    expect({ ...parseFormBytes(bytes('name=Caf', [0xc3, 0xa9], '+%C3%A9')) }).toEqual({ name: 'Café é' });
  });

  it.each([
    ['raw bytes that are not UTF-8 in a value', bytes('a=1&name=Bad', [0xff, 0xfe], 'name&b=2'), { field: 'name', message: 'Param name is not valid UTF-8' }],
    ['a raw Latin-1 é', bytes('name=Caf', [0xe9]), { field: 'name', message: 'Param name is not valid UTF-8' }],
    ['raw bytes that are not UTF-8 in a name', bytes('n', [0xe9], 'me=x'), { field: 'n%E9me', message: 'A parameter name is not valid UTF-8: n%E9me' }],
  ])('refuses %s, naming the parameter', (_case, body, expected) => {
    expect(refusal(() => parseFormBytes(body))).toEqual({ code: 'BAD_USER_INPUT', graphCode: 100, ...expected });
  });
});
