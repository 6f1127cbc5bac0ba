import pg from 'pg';
import { dialect, type Db } from './index.ts';
import type { TableMapping } from './rows.ts';
import { toSlice, type PageRequest, type Slice } from './pagination.ts';
import type { Filters } from './batch.ts';
import type { ReadPlan } from './references.ts';

/**
 * A page of each listed item's own children, read in the statement that lists the items: an ad set's first five
 * ads with the page of ad sets, instead of a statement of their own. On PostgreSQL, where each statement is a
 * round trip (and its writes wake the database, about a tenth of a nested read's CPU each on this machine), each
 * parent row carries its children's page as one JSON column: the same keyset subquery the children's own read
 * would run, per parent, an array of rows in page order. Its values are each column's text as PostgreSQL writes it
 * (`::text`), read by the parser node-postgres would have used for that column's type, so a record read this way
 * is the record read by itself. The parents' rows are not repeated (a join of the children repeated every parent
 * column per child, and cost as much as it saved: docs/benchmarks.md).
 *
 * SQLite reads in-process, with no round trip to save: its children are read by their own statement, as before.
 *
 * Who may read the children is decided where it always is, by their edge (src/authz/edges.ts): the edge says
 * whether its pages may be read with their parents, and each parent's list still checks its caller before it
 * takes the page kept beside the parent (`keptChildPage`).
 */
export interface ChildPages {
  /** The children's list (the PagedChildren of their table and parent column). */
  list: ChildList;
  request: PageRequest;
  filters: Filters;
  /** Narrowed columns only: a page of whole rows, or with references of its own, is read by itself. */
  plan: ReadPlan;
}

/** What a statement listing parents needs of their children's list to read their pages with them. */
export interface ChildList {
  readonly mapping: TableMapping<unknown>;
  readonly parentColumn: string;
  /** The mapping a page of `plan` reads (its columns and the parent column). */
  readOf(plan: ReadPlan): TableMapping<unknown>;
  /** The key a page is kept under beside its parent: the list, the page, its filters and what it reads. */
  keyOf(request: PageRequest, filters: Filters, plan: ReadPlan): string;
}

/** Whether `db` reads children's pages with their parents (PostgreSQL: see above). */
export const readsChildPagesWithParents = (db: Db) => dialect(db) === 'postgres';

/** The alias of the column holding a parent's child page. */
export const CHILD_PAGE_COLUMN = 'child$page';

type Parser = (text: string) => unknown;

/** Per database, per table: the parser of each column, by node-postgres' parser for its type. */
const parsersByDb = new WeakMap<Db, Map<string, ReadonlyMap<string, Parser>>>();

/** The column types of the tables `db` reads (its schema: the search path's first), or of the one `table`. */
const COLUMN_TYPES_SQL = (oneTable: boolean) => `select c.relname as "table", a.attname as "column", a.atttypid as "type"
  from pg_attribute a join pg_class c on c.oid = a.attrelid
  where a.attnum > 0 and not a.attisdropped and c.relkind in ('r', 'p', 'v') and ${oneTable ? 'c.oid = to_regclass(?)' : 'c.relnamespace = current_schema()::regnamespace'}`;

function keepParsers(db: Db, rows: Array<{ table: string; column: string; type: number }>): Map<string, ReadonlyMap<string, Parser>> {
  let byTable = parsersByDb.get(db);
  if (!byTable) parsersByDb.set(db, (byTable = new Map()));
  const found = new Map<string, Map<string, Parser>>();
  for (const { table, column, type } of rows) {
    let parsers = found.get(table);
    if (!parsers) found.set(table, (parsers = new Map()));
    parsers.set(column, pg.types.getTypeParser(Number(type), 'text') as Parser);
  }
  for (const [table, parsers] of found) byTable.set(table, parsers);
  return byTable;
}

/**
 * Learns the column types of every table of `db`'s schema in one statement (a serving instance does at start,
 * src/server/index.ts, so no request pays for it); a table it did not know of then is learned on first use.
 */
export async function learnColumnParsers(db: Db): Promise<void> {
  if (!readsChildPagesWithParents(db)) return;
  keepParsers(db, (await db.raw(COLUMN_TYPES_SQL(false))).rows);
}

/**
 * The parsers of `columns` of `table`, as node-postgres parses them in a row (its text parser of the column's
 * type): learned again when one of them is not known (a column a migration added since).
 */
export async function columnParsers(db: Db, table: string, columns: readonly string[]): Promise<ReadonlyMap<string, Parser>> {
  const known = parsersByDb.get(db)?.get(table);
  if (known && columns.every((column) => known.has(column))) return known;
  const parsers = keepParsers(db, (await db.raw(COLUMN_TYPES_SQL(true), [table])).rows).get(table);
  if (!parsers) throw new Error(`no columns found for table ${table}`);
  return parsers;
}

/** How one child page's rows become records: each row's values (text, or null) in the read's column order. */
export interface ChildRowReader<T> {
  record(values: ReadonlyArray<string | null>): T;
}

/**
 * The reader of `read`'s rows, its columns parsed by `parsers` (columnParsers): compiled once per mapping, a row
 * built as an object literal (a fixed shape) from the values, then the mapping's record from it.
 */
export function childRowReader<T>(read: TableMapping<T>, parsers: ReadonlyMap<string, Parser>): ChildRowReader<T> {
  let byParsers = readers.get(read);
  if (!byParsers) readers.set(read, (byParsers = new WeakMap()));
  let reader = byParsers.get(parsers) as ChildRowReader<T> | undefined;
  if (!reader) byParsers.set(parsers, (reader = compileRowReader(read, parsers)));
  return reader;
}

/** Readers by mapping and by the parsers they were compiled with (a table's parsers change only when learned again). */
const readers = new WeakMap<TableMapping<unknown>, WeakMap<ReadonlyMap<string, Parser>, ChildRowReader<unknown>>>();

function compileRowReader<T>(read: TableMapping<T>, parsers: ReadonlyMap<string, Parser>): ChildRowReader<T> {
  const columns = Object.keys(read.columns);
  const parse = columns.map((column) => parsers.get(column)!);
  const fields = columns.map((column, i) => `${JSON.stringify(column)}: values[${i}] == null ? null : parse[${i}](values[${i}])`);
  const row = new Function('parse', `return (values) => ({ ${fields.join(', ')} });`)(parse) as (
    values: ReadonlyArray<string | null>,
  ) => Record<string, unknown>;
  return { record: (values) => read.fromRow(row(values)) };
}

/** The records of one parent's child page: `json` is its column's value (node-postgres parsed the JSON), an array of rows. */
export function childRecords<T>(reader: ChildRowReader<T>, json: unknown): T[] {
  return (json as Array<Array<string | null>>).map(reader.record);
}

/**
 * The child pages read with a record, by their key, on a slot of the record itself (non-enumerable, as joined
 * references are: copies, JSON and equality checks never see it). Records are fresh objects of one read.
 */
const KEPT_PAGES = Symbol('child pages read with the record');
type WithPages = { [KEPT_PAGES]?: Map<string, Slice<unknown>> };

/** Keeps beside `record` its children's page read with it (`rows` in the order read). */
export function keepChildPage(record: object, key: string, rows: unknown[], request: PageRequest): void {
  const holder = record as WithPages;
  let kept = holder[KEPT_PAGES];
  if (!kept) Object.defineProperty(record, KEPT_PAGES, { value: (kept = new Map()) });
  kept.set(key, toSlice(rows, request));
}

/** The page of `record`'s children kept under `key`, when the statement that read the record read it too. */
export function keptChildPage<T>(record: object, key: string): Slice<T> | undefined {
  return (record as WithPages)[KEPT_PAGES]?.get(key) as Slice<T> | undefined;
}
