import type { Knex } from 'knex';
import type { TableMapping } from './rows.ts';

/**
 * References read in the statement that lists their referrers: an ad set's campaign joined to the page of ad sets,
 * instead of a second statement for the campaigns. A list's read plan names them (the surfaces decide, from what
 * the request shows of the referenced object: src/graphql/projection.ts, src/graph-api/projection.ts); the
 * records read come with their referenced object kept beside them (`joinedReference`), which the field's resolver
 * takes instead of loading it.
 */
export interface JoinedReference {
  /** The referring record's column holding the referenced object's id (`campaign_id`). */
  column: string;
  /** The referenced table, narrowed to the columns shown of it (rows.ts). */
  mapping: TableMapping<unknown>;
}

/** What a list reads: its items' columns (undefined: whole rows) and the references read with them. */
export interface ReadPlan {
  columns?: readonly string[];
  references?: readonly JoinedReference[];
}

/**
 * The referenced objects read with a record, by reference column, on a slot of the record itself: non-enumerable,
 * so copies, JSON and equality checks never see it. (A WeakMap beside the records cost three times as much per
 * record, about 1% of a nested read's time.) Records are fresh objects of one read.
 */
const JOINED = Symbol('joined references');
type WithJoined = { [JOINED]?: Record<string, unknown> };

/** The object `record` refers to by `column`, when it was read in the same statement; undefined otherwise. */
export function joinedReference<T>(record: object, column: string): T | undefined {
  return (record as WithJoined)[JOINED]?.[column] as T | undefined;
}

/** A text naming the references, for keys of loaders that read them. */
export const referencesKey = (references: readonly JoinedReference[]) =>
  references.map((reference) => `${reference.column}>${reference.mapping.table}(${reference.mapping.key})`).join('|');

const aliasOf = (i: number) => `ref${i}`;

/**
 * Joins each reference to `query` (whose rows are `from`'s, a table or an alias), selecting its columns as
 * `ref<i>$<column>`. A left join: a dangling reference reads as not joined, and its field loads it as before.
 */
export function joinReferences(query: Knex.QueryBuilder, from: string, references: readonly JoinedReference[]): void {
  references.forEach((reference, i) => {
    const alias = aliasOf(i);
    query.leftJoin(`${reference.mapping.table} as ${alias}`, `${alias}.id`, `${from}.${reference.column}`);
    query.select(Object.keys(reference.mapping.columns).map((column) => `${alias}.${column} as ${alias}$${column}`));
  });
}

/** Row to record, keeping beside each record the references joined to its row. */
export function recordsWithReferences<T>(mapping: TableMapping<T>, references: readonly JoinedReference[]): (row: Record<string, unknown>) => T {
  if (references.length === 0) return (row) => mapping.fromRow(row);
  const prefixed = references.map((reference, i) => ({
    column: reference.column,
    id: `${aliasOf(i)}$id`,
    fromRow: reference.mapping.fromPrefixedRow(`${aliasOf(i)}$`),
  }));
  return (row) => {
    const record = mapping.fromRow(row);
    let kept: Record<string, unknown> | undefined;
    for (const { column, id, fromRow } of prefixed) {
      if (row[id] === null || row[id] === undefined) continue;
      (kept ??= {})[column] = fromRow(row);
    }
    if (kept) Object.defineProperty(record, JOINED, { value: kept });
    return record;
  };
}
