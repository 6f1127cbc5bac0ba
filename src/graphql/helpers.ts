/** GraphQL enums are UPPER_CASE; the stores keep lower_case values. This maps one onto the other. */
export function lowercaseEnum<const T extends string>(values: readonly T[]): Record<Uppercase<T>, T> {
  return Object.fromEntries(values.map((value) => [value.toUpperCase(), value])) as Record<Uppercase<T>, T>;
}

/** Tags a record with its GraphQL type, for interfaces and unions (Node, Actor). */
export function typed<T extends object>(typename: string, record: T | null): (T & { __typename: string }) | null {
  return record ? { ...record, __typename: typename } : null;
}

/** A parent's child that must exist (foreign keys guarantee it): the children of a readable object share its organization. */
export const must = <T>(record: T | null): T => record!;
