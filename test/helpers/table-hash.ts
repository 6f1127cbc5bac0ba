import { createHash } from 'node:crypto';
import { expect } from 'vitest';
import { dialect, type Db } from '../../src/db/index.ts';

/**
 * A digest of every row of every table, to prove a request changed nothing. Per table, so a failure names the
 * table that changed.
 */
export interface DatabaseDigest {
  tables: Record<string, string>;
  rowCounts: Record<string, number>;
}

/**
 * Columns written on purpose by requests that may still be refused: a session's last use is touched (at most
 * once a minute) by any authenticated request, whatever it then answers; and columns the server's background work
 * writes while a request runs. Leaving them out keeps the digest about the data a caller could change.
 */
const BOOKKEEPING_COLUMNS: Record<string, readonly string[]> = {
  sessions: ['last_used_at'],
  // The relay marks events published (their place in the order) whenever it runs, beside the request: an earlier
  // write's event may be published while a refused request is checked. A new event is still a change.
  events: ['seq', 'published_time'],
  // The webhook workers' lease and cursor move as they deliver, beside the request, in the same way.
  webhook_subscriptions: [
    'claimed_by',
    'lease_expires_at',
    'cursor_seq',
    'updated_time',
    'last_delivery_time',
    'attempts',
    'failing_since',
    'next_attempt_at',
    'last_error',
  ],
};

export async function tableNames(db: Db): Promise<string[]> {
  if (dialect(db) === 'sqlite') {
    const rows: Array<{ name: string }> = await db.raw("select name from sqlite_master where type = 'table' and name not like 'sqlite_%' order by name");
    return rows.map((row) => row.name);
  }
  const result = await db.raw(
    "select table_name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE' order by table_name",
  );
  return (result.rows as Array<{ table_name: string }>).map((row) => row.table_name);
}

function canonical(value: unknown): unknown {
  if (value instanceof Date) return `date:${value.getTime()}`;
  if (Buffer.isBuffer(value)) return `bytes:${value.toString('hex')}`;
  if (typeof value === 'bigint') return `bigint:${value}`;
  if (Array.isArray(value)) return value.map(canonical);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [key, canonical((value as Record<string, unknown>)[key])]),
    );
  }
  return value;
}

/** Table names per database handle: the schema does not change while a test runs, and digests are taken often. */
const namesOf = new WeakMap<Db, Promise<string[]>>();

export async function databaseDigest(db: Db): Promise<DatabaseDigest> {
  if (!namesOf.has(db)) namesOf.set(db, tableNames(db));
  const names = await namesOf.get(db)!;
  if (dialect(db) === 'postgres') return postgresDigest(db, names);
  const tables: Record<string, string> = {};
  const rowCounts: Record<string, number> = {};
  await Promise.all(
    names.map(async (name) => {
      const rows: Array<Record<string, unknown>> = await db(name).select('*');
      const skipped = BOOKKEEPING_COLUMNS[name] ?? [];
      const lines = rows
        .map((row) => {
          const kept = Object.fromEntries(Object.entries(row).filter(([column]) => !skipped.includes(column)));
          return JSON.stringify(canonical(kept));
        })
        .sort();
      tables[name] = createHash('sha256').update(lines.join('\n')).digest('hex');
      rowCounts[name] = rows.length;
    }),
  );
  return { tables, rowCounts };
}

/** PostgreSQL digests every table in one statement (one round trip instead of one per table): rows as JSON, sorted. */
async function postgresDigest(db: Db, names: string[]): Promise<DatabaseDigest> {
  const parts = names.map((name) => {
    const skipped = BOOKKEEPING_COLUMNS[name] ?? [];
    const row = skipped.length > 0 ? `(to_jsonb(t) - array[${skipped.map(() => '?').join(', ')}]::text[])::text` : 'to_jsonb(t)::text';
    return {
      sql: `select ? as name, count(*)::int as n, md5(coalesce(string_agg(${row}, E'\\n' order by ${row}), '')) as digest from ?? t`,
      bindings: [name, ...skipped, ...skipped, name],
    };
  });
  const result = await db.raw(
    parts.map((part) => part.sql).join(' union all '),
    parts.flatMap((part) => part.bindings),
  );
  const tables: Record<string, string> = {};
  const rowCounts: Record<string, number> = {};
  for (const row of result.rows as Array<{ name: string; n: number; digest: string }>) {
    tables[row.name] = row.digest;
    rowCounts[row.name] = row.n;
  }
  return { tables, rowCounts };
}

/** The tables whose rows differ between two digests (with their row counts), empty when nothing changed. */
export function changedTables(before: DatabaseDigest, after: DatabaseDigest): string[] {
  const names = [...new Set([...Object.keys(before.tables), ...Object.keys(after.tables)])].sort();
  return names
    .filter((name) => before.tables[name] !== after.tables[name])
    .map((name) => `${name} (${before.rowCounts[name] ?? 'absent'} → ${after.rowCounts[name] ?? 'absent'} rows)`);
}

/** Fails the test when any table differs from `before`; `what` says which request was expected to change nothing. */
export async function expectUnchanged(db: Db, before: DatabaseDigest, what: string): Promise<DatabaseDigest> {
  const after = await databaseDigest(db);
  expect(changedTables(before, after), `${what} changed the database`).toEqual([]);
  return after;
}
