/**
 * The limits every JSON value a caller sends is held to before anything walks it: a GraphQL variable or the
 * extensions, a /v24.0 parameter (in a JSON body, or JSON text in a form field, the query string or a batch
 * item), a field of an /api/v2 body. JSON.parse copes with any depth, but JSON.stringify, graphql-js's coercion
 * and the services recurse, and overflow the stack somewhere between 3,000 and 5,000 levels.
 *
 * Far beyond any real value: a targeting spec nests about 6 levels, the largest accepted body (1 MB) holds at
 * most about 500,000 values.
 */
export const MAX_JSON_DEPTH = 64;
export const MAX_JSON_VALUES = 100_000;

/**
 * What is wrong with a value: nested deeper than MAX_JSON_DEPTH, more than MAX_JSON_VALUES values (objects,
 * arrays and scalars), or a string or key with a lone UTF-16 surrogate (a `\ud800` escape): no database stores
 * one, so it would be changed into U+FFFD rather than kept as sent.
 */
export type JsonFault = { measure: 'depth' | 'values'; limit: number } | { measure: 'unicode' };

// With the u flag a surrogate pair is one code point: only a lone surrogate is of category Cs.
const LONE_SURROGATE = /\p{Cs}/u;

/**
 * The first fault of a parsed JSON value, or null. An explicit stack, not recursion: the walk must not overflow
 * on the very input it is there to refuse. The root container is level 1, so `[]` is 1 deep and a scalar 0.
 */
export function jsonFault(value: unknown, limits: { depth: number; values: number } = { depth: MAX_JSON_DEPTH, values: MAX_JSON_VALUES }): JsonFault | null {
  const stack: Array<[unknown, number]> = [[value, 1]];
  let values = 1;
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (typeof node === 'string') {
      if (LONE_SURROGATE.test(node)) return { measure: 'unicode' };
      continue;
    }
    if (typeof node !== 'object' || node === null) continue;
    if (depth > limits.depth) return { measure: 'depth', limit: limits.depth };
    const children = Array.isArray(node) ? node : Object.values(node as Record<string, unknown>);
    values += children.length;
    if (values > limits.values) return { measure: 'values', limit: limits.values };
    if (!Array.isArray(node) && Object.keys(node).some((key) => LONE_SURROGATE.test(key))) return { measure: 'unicode' };
    for (const child of children) stack.push([child, depth + 1]);
  }
  return null;
}

/** The first of several named values (a body's members, a request's variables) beyond the limits, with its name. */
export function firstJsonFault(values: Iterable<[string, unknown]>): { name: string; fault: JsonFault } | undefined {
  for (const [name, value] of values) {
    const fault = jsonFault(value);
    if (fault) return { name, fault };
  }
  return undefined;
}

/** The fault as the end of a sentence about `subject` (`Param targeting`, `Variable "$input"`), without a full stop. */
export function describeJsonFault(subject: string, fault: JsonFault): string {
  switch (fault.measure) {
    case 'depth':
      return `${subject} is nested more than ${fault.limit} levels deep`;
    case 'values':
      return `${subject} holds more than ${fault.limit.toLocaleString('en-US')} values`;
    case 'unicode':
      return `${subject} holds a lone UTF-16 surrogate (an unpaired \\ud800-\\udfff escape), which is not text`;
  }
}
