import { setTimeout as sleep } from 'node:timers/promises';
import Database from 'better-sqlite3';
import { dialect, type Db } from './index.ts';
import { migrationSource } from '../../db/migrations/index.ts';

/** How long a process waits for another one's migrations (and demo seed) before giving up. */
const STARTUP_LOCK_WAIT_MS = 120_000;

/** Thrown when another process held the start-up lock for longer than STARTUP_LOCK_WAIT_MS. */
export class StartupLockTimeout extends Error {
  override name = 'StartupLockTimeout';
}

/**
 * Applies pending migrations. Safe when several processes do it at once (instances starting together, a
 * rolling restart, the CLI beside a server): they take turns, and the later ones find nothing to apply.
 */
export async function migrateToLatest(db: Db): Promise<string[]> {
  return withStartupLock(db, () => applyPendingMigrations(db));
}

/** Knex's own lock covers applying migrations but not creating its bookkeeping tables: callers hold the start-up lock. */
async function applyPendingMigrations(db: Db): Promise<string[]> {
  const [, applied] = (await db.migrate.latest({ migrationSource })) as [number, string[]];
  return applied;
}

/**
 * Migrates, then runs `next` (the server's demo seed of an empty database) before any other process may
 * migrate or seed: an instance starting at the same moment sees the database only once both are done.
 */
export async function migrateThen<T>(db: Db, next: () => Promise<T>): Promise<{ applied: string[]; result: T }> {
  return withStartupLock(db, async () => {
    const applied = await applyPendingMigrations(db);
    return { applied, result: await next() };
  });
}

/**
 * Runs `work` while this process holds the database's start-up lock. PostgreSQL: a transaction-scoped advisory
 * lock, one per schema, held on its own connection while `work` uses the pool's others (released when that
 * connection ends, even if the process dies). SQLite: an exclusive lock on a sibling file, `<database>.startup-lock`
 * (the database file itself cannot serve: its write lock would block the migrations too); the operating system
 * releases it when the process dies.
 */
async function withStartupLock<T>(db: Db, work: () => Promise<T>): Promise<T> {
  if (dialect(db) === 'postgres') {
    return db.transaction(async (trx) => {
      await trx.raw(`set local lock_timeout = ${STARTUP_LOCK_WAIT_MS}`);
      try {
        await trx.raw("select pg_advisory_xact_lock(hashtext('adgraph.startup'), hashtext(current_schema()))");
      } catch (error) {
        if ((error as { code?: string }).code === '55P03') throw lockTimeout('another process');
        throw error;
      }
      return work();
    });
  }
  const filename = (db.client.config.connection as { filename: string }).filename;
  if (filename === ':memory:') return work(); // nobody else can open it
  const lock = await lockSqliteSibling(`${filename}.startup-lock`);
  try {
    return await work();
  } finally {
    lock.close(); // ends the transaction, releasing the lock
  }
}

/** Takes an exclusive SQLite lock on `path`, polling so the event loop stays free while another process holds it. */
async function lockSqliteSibling(path: string): Promise<Database.Database> {
  const lock = new Database(path);
  lock.pragma('busy_timeout = 0');
  const deadline = Date.now() + STARTUP_LOCK_WAIT_MS;
  for (;;) {
    try {
      lock.exec('BEGIN EXCLUSIVE');
      return lock;
    } catch (error) {
      if ((error as { code?: string }).code !== 'SQLITE_BUSY') {
        lock.close();
        throw error;
      }
      if (Date.now() > deadline) {
        lock.close();
        throw lockTimeout(`the process holding ${path}`);
      }
      await sleep(50);
    }
  }
}

const lockTimeout = (holder: string) =>
  new StartupLockTimeout(`${holder} has been migrating the database for over ${STARTUP_LOCK_WAIT_MS / 1000} s; is it stuck?`);

/** Names of migrations not yet applied; empty when the schema is current. */
export async function pendingMigrations(db: Db): Promise<string[]> {
  return (await migrationStatus(db)).pending;
}

/** Migrations this database has (in the order applied) and those it lacks (in the order they would run). */
export async function migrationStatus(db: Db): Promise<{ applied: string[]; pending: string[] }> {
  // Knex would create its bookkeeping tables to answer: a database never migrated is read as it is.
  if (!(await db.schema.hasTable('knex_migrations'))) return { applied: [], pending: await migrationSource.getMigrations([]) };
  const [completed, pending] = (await db.migrate.list({ migrationSource })) as [Array<{ name: string } | string>, Array<{ file?: string } | string>];
  return {
    applied: completed.map((entry) => (typeof entry === 'string' ? entry : entry.name)),
    pending: pending.map((entry) => (typeof entry === 'string' ? entry : (entry.file ?? String(entry)))),
  };
}
