import DataLoader from 'dataloader';
import type { Knex } from 'knex';
import { dialect, type Db } from './index.ts';
import type { TableMapping } from './rows.ts';
import { readsAscending, toSlice, type Slice, type PageRequest } from './pagination.ts';
import { isNumericId, isUuid } from './ids.ts';
import { badInput } from '../errors/index.ts';
import type { RawCondition } from './conditions.ts';
import { dataLoaderBatchSize } from '../telemetry/metrics.ts';
import { joinReferences, recordsWithReferences, referencesKey, type JoinedReference, type ReadPlan } from './references.ts';
import { shapedQuery } from './statement-shapes.ts';
import type { KeptEntries } from './generations.ts';
import {
  CHILD_PAGE_COLUMN,
  childRecords,
  childRowReader,
  columnParsers,
  keepChildPage,
  keptChildPage,
  readsChildPagesWithParents,
  type ChildList,
  type ChildPages,
  type ChildRowReader,
} from './child-pages.ts';

/**
 * Generic batched reads. Stores build their DataLoaders from these, so a GraphQL query resolving many
 * objects issues one statement per kind of read, however many objects it returns.
 */
/** Column filters (equal, in a list, null), or raw conditions (derived rules such as effective status) under any name. */
export type Filters = Record<string, string | readonly string[] | null | RawCondition>;

const isRaw = (value: unknown): value is RawCondition => typeof value === 'object' && value !== null && 'sql' in value;

/** Raw conditions as text, each object once: their SQL is long, and loaders are keyed by their filters. */
const conditionTexts = new WeakMap<RawCondition, string>();

/** Keys of frozen filters (an edge's status filters are made once, src/ads/edges.ts): each is worked out once. */
const frozenFiltersKeys = new WeakMap<Filters, string>();

/** The same text for the same filters (a raw condition by its SQL and bindings, whichever object holds them). */
function filtersKey(filters: Filters): string {
  const known = frozenFiltersKeys.get(filters);
  if (known !== undefined) return known;
  let key = '';
  for (const [column, value] of Object.entries(filters)) {
    let text: string;
    if (isRaw(value)) {
      text = conditionTexts.get(value) ?? JSON.stringify(value);
      conditionTexts.set(value, text);
    } else {
      text = JSON.stringify(value);
    }
    key += `${JSON.stringify(column)}:${text};`;
  }
  if (Object.isFrozen(filters)) frozenFiltersKeys.set(filters, key);
  return key;
}

/** `table`: the table to name the filtered columns by, where other tables are joined (raw conditions name theirs). */
function applyFilters(query: Knex.QueryBuilder, filters: Filters, table?: string): void {
  for (const [name, value] of Object.entries(filters)) {
    const column = table ? `${table}.${name}` : name;
    if (value === null) query.whereNull(column);
    else if (typeof value === 'string') query.where(column, value);
    else if (isRaw(value)) query.whereRaw(`(${value.sql})`, value.bindings);
    else query.whereIn(column, value as string[]);
  }
}

/** What decides the SQL of `filters` (./statement-shapes.ts), and the values they bind, in applyFilters' order. */
interface FiltersShape {
  shape: string;
  bindings: readonly unknown[];
}

/** Shapes of frozen filters (an edge's status filters), each worked out once. */
const frozenFiltersShapes = new WeakMap<Filters, FiltersShape | null>();

/**
 * Null for filters whose SQL depends on more than their kinds (a raw condition naming identifiers (`??`) or binding
 * a list), and for those Knex answers in its own way: an empty list, an undefined value. These are built by Knex.
 */
function filtersShape(filters: Filters): FiltersShape | null {
  const known = frozenFiltersShapes.get(filters);
  if (known !== undefined) return known;
  let shape = '';
  const bindings: unknown[] = [];
  let shapeable = true;
  for (const [column, value] of Object.entries(filters)) {
    if (value === null) shape += `${JSON.stringify(column)} null;`;
    else if (typeof value === 'string') {
      shape += `${JSON.stringify(column)} =;`;
      bindings.push(value);
    } else if (isRaw(value)) {
      if (value.sql.includes('??') || value.bindings.some((binding) => typeof binding === 'object' && !(binding instanceof Date))) shapeable = false;
      shape += `${JSON.stringify(column)} raw ${JSON.stringify(value.sql)};`;
      bindings.push(...value.bindings);
    } else if (Array.isArray(value) && value.length > 0) {
      shape += `${JSON.stringify(column)} in ${value.length};`;
      bindings.push(...(value as readonly string[]));
    } else {
      // An empty list (Knex writes its own "never") or a caller's undefined, which Knex reports with the column named.
      shapeable = false;
    }
  }
  const found = shapeable ? { shape, bindings } : null;
  if (Object.isFrozen(filters)) frozenFiltersShapes.set(filters, found);
  return found;
}

/**
 * The shape and values of a page's cursor and limit (applyCursor, then the limit). SQLite's statements carry
 * the limit in their text (./sqlite-client.ts), PostgreSQL's bind it.
 */
function pageShape(db: Db, request: PageRequest): FiltersShape {
  const cursor = request.cursorId !== undefined ? [request.cursorId] : [];
  const limit = request.limit + 1;
  return dialect(db) === 'postgres'
    ? { shape: `cursor ${cursor.length} ${order(request)}`, bindings: [...cursor, limit] }
    : { shape: `cursor ${cursor.length} ${order(request)} limit ${limit}`, bindings: cursor };
}

/**
 * The rows of a page's statement, kept by shape (./statement-shapes.ts): `name` and the values bound before the
 * filters (`leading`), then the filters', then the cursor's and limit's. Filters without a shape are built by Knex.
 */
function pageRows(
  db: Db,
  name: string,
  leading: readonly unknown[],
  filters: Filters,
  request: PageRequest,
  build: () => Knex.QueryBuilder,
): PromiseLike<Array<Record<string, unknown>>> {
  const filtered = filtersShape(filters);
  if (!filtered) return build() as unknown as PromiseLike<Array<Record<string, unknown>>>;
  const paged = pageShape(db, request);
  return shapedQuery(db, `${name} ${filtered.shape} ${paged.shape}`, [...leading, ...filtered.bindings, ...paged.bindings], build);
}

function assertCursorFits(mapping: TableMapping<unknown>, request: PageRequest): void {
  if (request.cursorId === undefined) return;
  const fits = mapping.columns.id === 'id' ? isNumericId(request.cursorId) : isUuid(request.cursorId);
  const field = request.direction === 'forward' ? 'after' : 'before';
  if (!fits) throw badInput(field, `${field} is not a cursor of this list.`);
}

function applyCursor(query: Knex.QueryBuilder, request: PageRequest, column = 'id'): void {
  if (request.cursorId !== undefined) query.where(column, readsAscending(request) ? '>' : '<', request.cursorId);
}

const order = (request: PageRequest) => (readsAscending(request) ? 'asc' : 'desc');

/** A page request as text, for loader keys: each part has a fixed spelling or ends at a separator. */
const pageKey = (request: PageRequest) => `${request.direction}${request.descending === true ? ' descending' : ''} ${request.limit}:${request.cursorId ?? ''}`;

const NO_FILTERS: Filters = Object.freeze({});
const WHOLE_ROWS: ReadPlan = Object.freeze({});

/** Rows grouped by the value of one column, made records by `recordOf` (a mapping's fromRow), in row order. */
function groupBy<T>(rows: Array<Record<string, unknown>>, column: string, recordOf: (row: Record<string, unknown>) => T): Map<string, T[]> {
  const grouped = new Map<string, T[]>();
  for (const row of rows) {
    const key = String(row[column]);
    const list = grouped.get(key);
    if (list) list.push(recordOf(row));
    else grouped.set(key, [recordOf(row)]);
  }
  return grouped;
}

/**
 * When DataLoaders send their batches, and when their answers come back. SQLite answers synchronously, so a
 * large GraphQL answer ran from its first statement to its last in one turn of the event loop, and every other
 * request, /healthz among them, waited behind it (issue 12). Here, as DataLoader does by default, the batches
 * one request's loaders ask for in one tick are sent together once its promise jobs have run, so a whole level
 * of an answer shares one statement per kind of read; and their answers reach their callers together, once all
 * have come back. But when this turn has already worked for TURN_BUDGET_MS, either waits for a later turn, and
 * other requests are served in between. Batches and answers are held back as a whole, never split, so the
 * statements a query sends do not depend on timing (nor, with PostgreSQL, on the order its answers arrive in).
 */
const TURN_BUDGET_MS = 2;
let turnStartedAt: number | undefined;

/** Whether this turn of the event loop has worked long enough (the first look in a turn starts its clock). */
function turnSpent(): boolean {
  if (turnStartedAt === undefined) {
    turnStartedAt = performance.now();
    setImmediate(() => {
      turnStartedAt = undefined;
    });
  }
  return performance.now() - turnStartedAt >= TURN_BUDGET_MS;
}

/** Runs `work` in this turn if it has time left, else in the first later turn that has. */
function whenTurnAllows(work: () => void): void {
  if (turnSpent()) setImmediate(() => whenTurnAllows(work));
  else work();
}

/** The batches sent together: their answers are handed over together, when the last one is in. */
class Cohort {
  private expected = 0;
  private waiting: Array<() => void> = [];

  join(): void {
    this.expected++;
  }

  arrive(): Promise<void> {
    const handedOver = new Promise<void>((resolve) => this.waiting.push(resolve));
    if (this.waiting.length === this.expected) whenTurnAllows(() => this.waiting.forEach((resolve) => resolve()));
    return handedOver;
  }
}

/** One request's loaders. */
class BatchGroup {
  private due: Array<() => void> = [];
  private flushScheduled = false;
  private sending: Cohort | undefined;

  readonly schedule = (dispatch: () => void): void => {
    this.due.push(dispatch);
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    void Promise.resolve().then(() => process.nextTick(() => whenTurnAllows(this.flush)));
  };

  private readonly flush = (): void => {
    const dispatches = this.due;
    this.due = [];
    this.flushScheduled = false;
    // DataLoader calls each batch function synchronously from its dispatch: they join the cohort here.
    this.sending = new Cohort();
    try {
      for (const dispatch of dispatches) dispatch();
    } finally {
      this.sending = undefined;
    }
  };

  /** A batch function whose answer is handed over with the rest of its cohort; its size is observed under `name`. */
  wrap<K, V>(name: string, load: (keys: readonly K[]) => Promise<V[]>): (keys: readonly K[]) => Promise<V[]> {
    return async (keys) => {
      dataLoaderBatchSize.observe({ loader: name }, keys.length);
      const cohort = this.sending;
      cohort?.join();
      try {
        return await load(keys);
      } finally {
        await cohort?.arrive();
      }
    };
  }
}

// Loaders built outside loaderGroup (the command line, the asynchronous runner) share one group.
const sharedGroup = new BatchGroup();
let building: BatchGroup | undefined;

/**
 * One request's group of loaders (see BatchGroup): what it answers builds loaders in the group, at once or
 * later (a request's domains build theirs on first use, src/context/index.ts).
 */
export function loaderGroup(): <T>(build: () => T) => T {
  return builderIn(new BatchGroup());
}

/**
 * Builds in the group of the loaders being built now: for loaders made later, on their first use, in the group
 * of the request that will use them (./lazy-loaders.ts).
 */
export function currentLoaderGroup(): <T>(build: () => T) => T {
  return builderIn(building ?? sharedGroup);
}

function builderIn(group: BatchGroup): <T>(build: () => T) => T {
  return (build) => {
    const outer = building;
    building = group;
    try {
      return build();
    } finally {
      building = outer;
    }
  };
}

/**
 * A maker of DataLoaders in the group of the loaders being built now (inside loaderGroup), for loaders made
 * now or later, on first use. Every DataLoader is made here: `name` (a fixed text such as `ad_sets.byId`, never
 * data) labels its batch sizes in /metrics.
 */
export function loaderMaker() {
  const group = building ?? sharedGroup;
  return <K, V>(name: string, load: (keys: readonly K[]) => Promise<V[]>) => new DataLoader<K, V>(group.wrap(name, load), { batchScheduleFn: group.schedule });
}

/**
 * `column` is one of `values`. On PostgreSQL `= any($1)` with the list as one array parameter: one SQL text
 * whatever the batch's size, so a connection's prepared statement (./postgres-client.ts) serves every batch
 * instead of one statement per list length. SQLite has no array parameter: `in (…)`.
 */
function whereOneOf(db: Db, query: Knex.QueryBuilder, column: string, values: readonly string[]): Knex.QueryBuilder {
  return dialect(db) === 'postgres' ? query.whereRaw('?? = any(?)', [column, values as string[]]) : query.whereIn(column, values as string[]);
}

/** The records of `ids` (those found), by their `column`, in one statement. */
async function recordsById<T>(db: Db, mapping: TableMapping<T>, column: string, ids: readonly string[]): Promise<Map<string, T>> {
  // One array on PostgreSQL; SQLite's `in (…)` is a statement per length.
  const postgres = dialect(db) === 'postgres';
  const shape = `by id ${mapping.table} ${column}${postgres ? '' : ` ${ids.length}`}`;
  const rows = await shapedQuery(db, shape, postgres ? [ids] : ids, () => whereOneOf(db, db(mapping.table), column, ids));
  return new Map(rows.map((row) => [String(row[column]), mapping.fromRow(row)]));
}

/** One object per id (null when absent), in one statement per batch. */
export function loaderById<T>(db: Db, mapping: TableMapping<T>, column = 'id'): DataLoader<string, T | null> {
  return loaderMaker()<string, T | null>(`${mapping.table}.by_${column}`, async (ids) => {
    const byKey = await recordsById(db, mapping, column, ids);
    return ids.map((id) => byKey.get(id) ?? null);
  });
}

/**
 * loaderById, answering from `kept` (records kept across requests: ./generations.ts) what was read under the
 * request's `generation` (null: unreadable, and nothing is answered from it), and keeping what it reads under it.
 * Kept records are frozen: requests share them, so none may change one.
 */
export function keptLoaderById<T extends object>(
  db: Db,
  mapping: TableMapping<T>,
  kept: KeptEntries<T>,
  generation: () => Promise<string | null>,
): DataLoader<string, T | null> {
  return loaderMaker()<string, T | null>(`${mapping.table}.by_id`, async (ids) => {
    const current = await generation();
    const found = ids.map((id) => (current === null ? undefined : kept.find(id, current)));
    const missing = ids.filter((_, i) => found[i] === undefined);
    const read = missing.length > 0 ? await recordsById(db, mapping, 'id', missing) : undefined;
    return ids.map((id, i) => {
      const hit = found[i];
      if (hit !== undefined) return hit;
      const record = read?.get(id);
      if (record === undefined) return null;
      Object.freeze(record);
      if (current !== null) kept.keep(id, record, current);
      return record;
    });
  });
}

/** Every row whose `column` equals the key, for small child lists (a user's memberships, say). */
export function loaderByColumn<T>(db: Db, mapping: TableMapping<T>, column: string, orderBy = 'id'): DataLoader<string, T[]> {
  return loaderMaker()<string, T[]>(`${mapping.table}.all_by_${column}`, async (keys) => {
    const rows = await whereOneOf(db, db(mapping.table), column, keys).orderBy(orderBy);
    const grouped = groupBy(rows as Array<Record<string, unknown>>, column, (row) => mapping.fromRow(row));
    return keys.map((key) => grouped.get(key) ?? []);
  });
}

/** What a read of `mapping` selects, each column under `prefix` (a table or alias) when given: `*` for whole rows. */
function selected(mapping: TableMapping<unknown>, prefix?: string): string | string[] {
  const columns = mapping.whole ? ['*'] : Object.keys(mapping.columns);
  return prefix ? columns.map((column) => `${prefix}.${column}`) : columns;
}

/**
 * One page of a single list (not per parent): top-level lists such as "ad accounts I can see". A narrowed
 * mapping (rows.ts) reads only its columns; `references` are joined (references.ts); `child`, a page of each
 * item's own children, is read in the same statement where the database does that (./child-pages.ts).
 */
export async function fetchSlice<T>(
  db: Db,
  mapping: TableMapping<T>,
  request: PageRequest,
  filters: Filters,
  references: readonly JoinedReference[] = [],
  child?: ChildPages,
): Promise<Slice<T>> {
  assertCursorFits(mapping as TableMapping<unknown>, request);
  const fold = await childPagesToRead(db, child);
  // With joined tables, this table's columns are named by it.
  const own = references.length > 0 ? mapping.table : undefined;
  const build = () => {
    const query = db(mapping.table).select(selected(mapping as TableMapping<unknown>, own));
    if (fold) query.select(childPageSelect(db, fold, `${mapping.table}.id`));
    joinReferences(query, mapping.table, references);
    applyFilters(query, filters, own);
    applyCursor(query, request, own ? `${own}.id` : 'id');
    return query.orderBy(own ? `${own}.id` : 'id', order(request)).limit(request.limit + 1);
  };
  const folded = fold && childShape(db, fold.child);
  const rows =
    fold && !folded
      ? ((await build()) as Array<Record<string, unknown>>)
      : await pageRows(
          db,
          `slice ${mapping.table} (${mapping.key}) ${referencesKey(references)}${folded ? ` ${folded.shape}` : ''}`,
          folded ? folded.bindings : [],
          filters,
          request,
          build,
        );
  return toSlice(rows.map(recordsWithChildPages(recordsWithReferences(mapping, references), fold)), request);
}

/** A child page to read with its parents, with what reading it needs: undefined when it is read by itself. */
interface ChildPagesRead {
  child: ChildPages;
  read: TableMapping<unknown>;
  rows: ChildRowReader<unknown>;
  key: string;
}

/**
 * How `child` is read with its parents on `db`, or undefined when it is read by itself: on SQLite, for whole rows
 * or references of its own, or for a cursor that is not of its list (its own read refuses it, in its place).
 */
async function childPagesToRead(db: Db, child: ChildPages | undefined): Promise<ChildPagesRead | undefined> {
  if (!child || !readsChildPagesWithParents(db) || !child.plan.columns || child.plan.references?.length) return undefined;
  const { list, request, filters, plan } = child;
  try {
    assertCursorFits(list.mapping, request);
  } catch {
    return undefined;
  }
  const read = list.readOf(plan);
  const parsers = await columnParsers(db, read.table, Object.keys(read.columns));
  return { child, read, rows: childRowReader(read, parsers), key: list.keyOf(request, filters, plan) };
}

/**
 * The (PostgreSQL) column of a child page: its keyset subquery for the parent `parentId` names, as JSON rows. Each
 * row is a text array and the page the array of them in the subquery's order (`array(…)` keeps it): a quarter
 * less of PostgreSQL's CPU than aggregating JSON rows in page order, which sorted each parent's page again.
 */
function childPageSelect(db: Db, fold: ChildPagesRead, parentId: string): Knex.Raw {
  const { child, read } = fold;
  const table = read.table;
  const columns = Object.keys(read.columns);
  const page = db(table)
    .select(
      db.raw(
        `array[${columns.map(() => '??::text').join(', ')}]`,
        columns.map((column) => `${table}.${column}`),
      ),
    )
    .where(`${table}.${child.list.parentColumn}`, db.raw('??', [parentId]));
  applyFilters(page, child.filters);
  applyCursor(page, child.request, `${table}.id`);
  page.orderBy(`${table}.id`, order(child.request)).limit(child.request.limit + 1);
  return db.raw('array_to_json(array(?)) as ??', [page, CHILD_PAGE_COLUMN]);
}

/**
 * The shape and values of a child page's subquery (statement-shapes.ts), bound before the parents' own: its
 * filters', its cursor's and its limit's. Null when its filters have no shape (Knex builds the statement).
 */
function childShape(db: Db, child: ChildPages): FiltersShape | null {
  const filtered = filtersShape(child.filters);
  if (!filtered) return null;
  const paged = pageShape(db, child.request);
  return {
    shape: `child ${child.list.mapping.table}.${child.list.parentColumn} (${child.list.readOf(child.plan).key}) ${filtered.shape} ${paged.shape}`,
    bindings: [...filtered.bindings, ...paged.bindings],
  };
}

/** Row to record, keeping beside each record the page of its children read in the same statement (`fold`). */
function recordsWithChildPages<T>(recordOf: (row: Record<string, unknown>) => T, fold: ChildPagesRead | undefined): (row: Record<string, unknown>) => T {
  if (!fold) return recordOf;
  return (row) => {
    const record = recordOf(row);
    keepChildPage(record as object, fold.key, childRecords(fold.rows, row[CHILD_PAGE_COLUMN]), fold.child.request);
    return record;
  };
}

export async function countRows(db: Db, table: string, filters: Filters): Promise<number> {
  const query = db(table).count({ count: '*' });
  applyFilters(query, filters);
  const [row] = await query;
  return Number((row as { count: number | string }).count);
}

/** Narrowed mappings by the column list asked for (the same array object for the same selection, projection.ts). */
const narrowings = new WeakMap<readonly string[], Map<string, TableMapping<unknown>>>();

/** `mapping` narrowed to `columns` and `parentColumn` (rows are grouped by their parent): found once per list. */
function narrowedWith<T>(mapping: TableMapping<T>, columns: readonly string[], parentColumn: string): TableMapping<T> {
  let byTable = narrowings.get(columns);
  if (!byTable) narrowings.set(columns, (byTable = new Map()));
  const key = `${mapping.table}.${parentColumn}`;
  let read = byTable.get(key) as TableMapping<T> | undefined;
  if (!read) {
    read = mapping.narrowed([...columns, parentColumn]);
    byTable.set(key, read as TableMapping<unknown>);
  }
  return read;
}

export interface PagedChildren<T> extends ChildList {
  /**
   * A page of the children of one parent. Requests for many parents with the same page, filters and columns share
   * one statement. With a plan's `columns`, the records hold those (and the ids, rows.ts's `narrowed`) and no
   * others; its references are read in the same statement (references.ts). `parent`: the parent's record, beside
   * which the statement that read it may have kept this very page (./child-pages.ts); `child`: a page of each of
   * these children's own children, to read in the same statement where the database does that.
   */
  page(parentId: string, request: PageRequest, filters?: Filters, plan?: ReadPlan, parent?: object, child?: ChildPages): Promise<Slice<T>>;
  /** How many children a parent has (same filters), batched the same way. */
  count(parentId: string, filters?: Filters): Promise<number>;
}

/**
 * Pages of children for many parents at once, in one statement whose cost is the pages, not the parents' sizes:
 * for each parent, an index range scan of (parent, id) from the cursor that stops after limit + 1 rows. PostgreSQL
 * runs it as a LATERAL join over the parent ids; SQLite, which has no LATERAL, as a correlated `id in (...)`
 * subquery per parent. The parent ids travel as one array (JSON for SQLite), so the statement's text does not
 * depend on how many parents a batch holds, and its prepared form is reused (./statement-cache.ts).
 */
export function pagedChildren<T>(db: Db, mapping: TableMapping<T>, parentColumn: string): PagedChildren<T> {
  const pageLoaders = new Map<string, DataLoader<string, Slice<T>>>();
  const countLoaders = new Map<string, DataLoader<string, number>>();
  // Its loaders are made on first use, in the group of the loaders it was built with.
  const makeLoader = loaderMaker();
  const table = mapping.table;
  // Numeric ids are BIGINT, the others UUID (the convention assertCursorFits relies on too).
  const parentType = mapping.columns[parentColumn] === 'id' ? 'bigint' : 'uuid';

  /** The page of each parent, rows of every parent together in the request's id order; `fold`, a page of their children on each row. */
  function pagesOf(
    parentIds: readonly string[],
    request: PageRequest,
    filters: Filters,
    read: TableMapping<T>,
    references: readonly JoinedReference[],
    fold: ChildPagesRead | undefined,
  ): PromiseLike<Array<Record<string, unknown>>> {
    const parents = dialect(db) === 'postgres' ? parentIds : JSON.stringify(parentIds);
    const build = () => pagesStatement(parentIds, request, filters, read, references, fold);
    const folded = fold && childShape(db, fold.child);
    if (fold && !folded) return build() as unknown as PromiseLike<Array<Record<string, unknown>>>;
    const name = `pages ${table} ${parentColumn} (${read.key}) ${referencesKey(references)}${folded ? ` ${folded.shape}` : ''}`;
    // A child page's values are bound first: its subquery is in the select list.
    return pageRows(db, name, folded ? [...folded.bindings, parents] : [parents], filters, request, build);
  }

  function pagesStatement(
    parentIds: readonly string[],
    request: PageRequest,
    filters: Filters,
    read: TableMapping<T>,
    references: readonly JoinedReference[],
    fold: ChildPagesRead | undefined,
  ): Knex.QueryBuilder {
    const postgres = dialect(db) === 'postgres';
    // The filters' raw SQL names the table itself (`ad_sets.status`): the per-parent page reads it unaliased.
    const perParent = db(table)
      .select(postgres ? selected(read as TableMapping<unknown>, table) : `${table}.id`)
      .where(`${table}.${parentColumn}`, db.raw(postgres ? 'batch_parent.id' : 'batch_parent.value'));
    applyFilters(perParent, filters);
    applyCursor(perParent, request, `${table}.id`);
    perParent.orderBy(`${table}.id`, order(request)).limit(request.limit + 1);
    if (postgres) {
      const pages = db.select('batch_page.*');
      if (fold) pages.select(childPageSelect(db, fold, 'batch_page.id'));
      pages.from(db.raw(`unnest(?::${parentType}[]) as batch_parent(id) cross join lateral ? as batch_page`, [parentIds as string[], perParent]));
      joinReferences(pages, 'batch_page', references);
      return pages.orderBy('batch_page.id', order(request));
    }
    // CROSS JOIN keeps the parents as SQLite's outer loop.
    const pages = db
      .select(selected(read as TableMapping<unknown>, 'batch_page'))
      .from(db.raw('json_each(?) as batch_parent cross join ?? as batch_page', [JSON.stringify(parentIds), table]));
    joinReferences(pages, 'batch_page', references);
    return pages.whereIn('batch_page.id', perParent).orderBy('batch_page.id', order(request));
  }

  /** The mapping a page of `plan` reads. */
  const readOf = (plan: ReadPlan): TableMapping<T> => (plan.columns ? narrowedWith(mapping, plan.columns, parentColumn) : mapping);

  /** The key of a page: its list, request, filters, columns and references (the loaders' key, and a kept page's). */
  const keyOf = (request: PageRequest, filters: Filters, plan: ReadPlan): string =>
    `${table}.${parentColumn};${pageKey(request)};${filtersKey(filters)};${readOf(plan).key};${referencesKey(plan.references ?? [])}`;

  /**
   * The page last asked for, and what with: a list's parents ask one after another with the same (frozen) filters
   * and plan and equal pages, and find its key and loader here without building the key again.
   */
  let last: { page: string; filters: Filters; plan: ReadPlan; key: string; loader: DataLoader<string, Slice<T>> } | undefined;

  return {
    mapping: mapping as TableMapping<unknown>,
    parentColumn,
    readOf: readOf as ChildList['readOf'],
    keyOf,
    page(parentId, request, filters = NO_FILTERS, plan = WHOLE_ROWS, parent, child) {
      assertCursorFits(mapping as TableMapping<unknown>, request);
      const page = pageKey(request);
      let asked = last !== undefined && last.filters === filters && last.plan === plan && last.page === page && !child ? last : undefined;
      if (!asked) {
        const key = keyOf(request, filters, plan);
        // Pages that also read their items' children are another statement: another loader.
        const loaderKey = child ? `${key}|${child.list.keyOf(child.request, child.filters, child.plan)}` : key;
        let loader = pageLoaders.get(loaderKey);
        if (!loader) {
          const read = readOf(plan);
          const references = plan.references ?? [];
          loader = makeLoader<string, Slice<T>>(`${table}.page_by_${parentColumn}`, async (parentIds) => {
            if (parentIds.length === 1) {
              // One parent (a /v24.0 edge, a top-level list): a plain keyset page, whose cost is the page, not the parent's size.
              return [await fetchSlice(db, read, request, { ...filters, [parentColumn]: parentIds[0]! }, references, child)];
            }
            const fold = await childPagesToRead(db, child);
            const rows = await pagesOf(parentIds, request, filters, read, references, fold);
            const grouped = groupBy(rows, parentColumn, recordsWithChildPages(recordsWithReferences(read, references), fold));
            return parentIds.map((id) => toSlice(grouped.get(id) ?? [], request));
          });
          pageLoaders.set(loaderKey, loader);
        }
        asked = { page, filters, plan, key, loader };
        if (!child && Object.isFrozen(filters) && Object.isFrozen(plan)) last = asked;
      }
      // Read with the parent (the statement that listed it): taken, not read again.
      const kept = parent && keptChildPage<T>(parent, asked.key);
      return kept ? Promise.resolve(kept) : asked.loader.load(parentId);
    },
    count(parentId, filters = {}) {
      const key = filtersKey(filters);
      let loader = countLoaders.get(key);
      if (!loader) {
        loader = makeLoader<string, number>(`${table}.count_by_${parentColumn}`, async (parentIds) => {
          const query = whereOneOf(db, db(mapping.table).select(parentColumn).count({ count: '*' }), parentColumn, parentIds).groupBy(parentColumn);
          applyFilters(query, filters);
          const rows = (await query) as Array<Record<string, unknown>>;
          const counts = new Map(rows.map((row) => [String(row[parentColumn]), Number(row.count)]));
          return parentIds.map((id) => counts.get(id) ?? 0);
        });
        countLoaders.set(key, loader);
      }
      return loader.load(parentId);
    },
  };
}
