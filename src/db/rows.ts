/**
 * Row mapping shared by every store. The two databases disagree on how values come back (SQLite returns
 * 0/1 for booleans, milliseconds for dates it was given, text for JSON; PostgreSQL returns strings for
 * BIGINT and parsed objects for JSONB), so each table declares its columns once and gets a pair of
 * functions that turn a raw row into a typed camelCase record and back.
 */
export type ColumnKind = 'string' | 'id' | 'int' | 'bigint' | 'bool' | 'date' | 'json';

export type ColumnSpec = Record<string, ColumnKind>;

export interface TableMapping<T> {
  table: string;
  columns: ColumnSpec;
  fromRow(row: Record<string, unknown>): T;
  toRow(record: Partial<T>): Record<string, unknown>;
  /**
   * The mapping of a read that needs only `needed` (column names; undefined: every column): it selects those,
   * the row's id, organization and references (columns of kind `id`, which keys, authorization and the objects a
   * record refers to read), and builds records holding only them. Only a surface that knows every field its
   * caller reads asks for one (src/graphql/projection.ts, src/graph-api/projection.ts); the records it makes
   * never reach a loader's cache of whole rows. The same object for the same columns.
   */
  narrowed(needed: Iterable<string> | undefined): TableMapping<T>;
  /** Whether this mapping reads every column (not narrowed). */
  readonly whole: boolean;
  /** The columns it reads, as text (`*` for all): the same for the same columns. */
  readonly key: string;
  /** fromRow for rows that name its columns `<prefix><column>` (a joined table's, ./references.ts): made once per prefix. */
  fromPrefixedRow(prefix: string): (row: Record<string, unknown>) => T;
}

/** Columns every narrowed read keeps: the id, the organization (authorization) and references to other objects. */
const alwaysRead = (column: string, kind: ColumnKind) => column === 'id' || column === 'organization_id' || kind === 'id';

export const camel = (snake: string) => snake.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

export function toDate(value: unknown): Date | null {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return value;
  if (typeof value === 'number') return new Date(value);
  if (typeof value === 'string') {
    // SQLite keeps what it was given; numbers written as text still mean milliseconds.
    return /^\d+$/.test(value) ? new Date(Number(value)) : new Date(value.includes('T') || value.endsWith('Z') ? value : `${value.replace(' ', 'T')}Z`);
  }
  throw new TypeError(`not a date: ${String(value)}`);
}

function read(kind: ColumnKind, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  switch (kind) {
    case 'id':
    case 'bigint':
      return String(value);
    case 'int':
      return Number(value);
    case 'bool':
      return value === true || value === 1 || value === '1' || value === 't';
    case 'date':
      return toDate(value);
    case 'json':
      return typeof value === 'string' ? JSON.parse(value) : value;
    default:
      return value;
  }
}

function write(kind: ColumnKind, value: unknown): unknown {
  if (value === undefined) return undefined;
  if (value === null) return null;
  switch (kind) {
    case 'json':
      // Always text on the way in: the pg driver would turn a JS array into a PostgreSQL array otherwise.
      return JSON.stringify(value);
    case 'bool':
      return Boolean(value);
    case 'date':
      return value instanceof Date ? value : new Date(value as string);
    default:
      return value;
  }
}

/**
 * A table's row-to-record function, compiled once: an object literal with a key per column. Records built a key at
 * a time become hash tables in V8 past a few dozen keys (an ad set has 71), slower to build and to read; literals
 * keep a fixed shape. Keys and column names are the table's own, written as JSON string literals.
 */
function compileFromRow(entries: Array<{ column: string; kind: ColumnKind; key: string }>, prefix = ''): (row: Record<string, unknown>) => unknown {
  const fields = entries.map(({ column, kind, key }) => `${JSON.stringify(key)}: read(${JSON.stringify(kind)}, row[${JSON.stringify(prefix + column)}])`);
  return new Function('read', `return (row) => ({ ${fields.join(', ')} });`)(read);
}

/** Narrowed mappings kept per table; past this many different column sets a read takes the whole row (bounded memory). */
const MAX_NARROWINGS = 256;

export function defineTable<T>(table: string, columns: ColumnSpec): TableMapping<T> {
  const narrowings = new Map<string, TableMapping<T>>();
  const narrowed = (needed: Iterable<string> | undefined): TableMapping<T> => {
    if (needed === undefined) return whole;
    const wanted = [...new Set(needed)].sort();
    const key = wanted.join(',');
    let found = narrowings.get(key);
    if (!found) {
      if (narrowings.size >= MAX_NARROWINGS) return whole;
      const kept = Object.fromEntries(Object.entries(columns).filter(([column, kind]) => wanted.includes(column) || alwaysRead(column, kind)));
      found = Object.keys(kept).length === Object.keys(columns).length ? whole : mappingOf<T>(table, kept, false, narrowed);
      narrowings.set(key, found);
    }
    return found;
  };
  const whole = mappingOf<T>(table, columns, true, narrowed);
  return whole;
}

function mappingOf<T>(table: string, columns: ColumnSpec, whole: boolean, narrowed: TableMapping<T>['narrowed']): TableMapping<T> {
  const entries = Object.entries(columns).map(([column, kind]) => ({ column, kind, key: camel(column) }));
  const fromRow = compileFromRow(entries);
  const prefixed = new Map<string, (row: Record<string, unknown>) => T>();
  return {
    table,
    columns,
    whole,
    key: whole ? '*' : Object.keys(columns).join(','),
    narrowed,
    fromRow: (row) => fromRow(row) as T,
    fromPrefixedRow(prefix) {
      let read = prefixed.get(prefix);
      if (!read) prefixed.set(prefix, (read = compileFromRow(entries, prefix) as (row: Record<string, unknown>) => T));
      return read;
    },
    toRow(record) {
      const row: Record<string, unknown> = {};
      const source = record as Record<string, unknown>;
      for (const { column, kind, key } of entries) {
        const value = write(kind, source[key]);
        if (value !== undefined) row[column] = value;
      }
      return row;
    },
  };
}
