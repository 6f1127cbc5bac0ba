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
}

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
function compileFromRow(entries: Array<{ column: string; kind: ColumnKind; key: string }>): (row: Record<string, unknown>) => unknown {
  const fields = entries.map(({ column, kind, key }) => `${JSON.stringify(key)}: read(${JSON.stringify(kind)}, row[${JSON.stringify(column)}])`);
  return new Function('read', `return (row) => ({ ${fields.join(', ')} });`)(read);
}

export function defineTable<T>(table: string, columns: ColumnSpec): TableMapping<T> {
  const entries = Object.entries(columns).map(([column, kind]) => ({ column, kind, key: camel(column) }));
  const fromRow = compileFromRow(entries);
  return {
    table,
    columns,
    fromRow: (row) => fromRow(row) as T,
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
