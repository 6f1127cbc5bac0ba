/** GraphQL enums are UPPER_CASE; the stores keep lower_case values. This maps one onto the other. */
export function lowercaseEnum<const T extends string>(values: readonly T[]): { [V in T as Uppercase<V>]: V } {
  return Object.fromEntries(values.map((value) => [value.toUpperCase(), value])) as { [V in T as Uppercase<V>]: V };
}

/** Tags a record with its GraphQL type, for interfaces and unions (Node, Actor). */
export function typed<T extends object>(typename: string, record: T | null): (T & { __typename: string }) | null {
  return record ? { ...record, __typename: typename } : null;
}

/** A parent's child that must exist (foreign keys guarantee it): the children of a readable object share its organization. */
export const must = <T>(record: T | null): T => record!;

/**
 * GraphQL input (camelCase) to the raw parameters of the Graph-style API (snake_case) that the write services
 * take: a null field counts as not given, date-times become ISO 8601 strings, big integers decimal strings.
 * Only top-level names change; JSON values (creative, rule, lookalike_spec) pass as they are.
 */
export function graphParams(input: object, renames: Record<string, string> = {}): Record<string, unknown> {
  const params: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(input)) {
    if (value === undefined || value === null) continue;
    const name = renames[key] ?? key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
    params[name] = value instanceof Date ? value.toISOString() : typeof value === 'bigint' ? value.toString() : value;
  }
  return params;
}
