import { execFile } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { promisify } from 'node:util';
import pg from 'pg';
import { isBackgroundWork } from '../../src/telemetry/request-scope.ts';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { createDatabase, type Db } from '../../src/db/index.ts';
import { migrateToLatest } from '../../src/db/migrate.ts';

export const TEST_DB = process.env.TEST_DB === 'postgres' ? 'postgres' : 'sqlite';
export const POSTGRES_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export interface TestDatabase {
  db: Db;
  /** DATABASE_URL that reaches the same database (for the CLI in a child process). */
  url: string;
  /** PostgreSQL schema holding this test's tables; the CLI gets it as PGOPTIONS. */
  schema?: string;
  dispose(): Promise<void>;
}

/**
 * A fresh, migrated database for one test file: a new SQLite file, or a new PostgreSQL schema that is
 * dropped afterwards, so test files never see each other's rows.
 */
export async function createTestDatabase(options: { migrate?: boolean } = {}): Promise<TestDatabase> {
  let result: TestDatabase;
  if (TEST_DB === 'postgres') {
    const schema = `test_${randomBytes(6).toString('hex')}`;
    const template = options.migrate === false ? undefined : await migratedPostgresTemplate();
    if (template) await runSql(template.replaceAll(TEMPLATE_SCHEMA, schema));
    else await runSql(`create schema "${schema}"`);
    const db = refuseOverlappingStatements(createDatabase(POSTGRES_URL, { schema }));
    result = {
      db,
      url: POSTGRES_URL,
      schema,
      async dispose() {
        await db.destroy();
        await runSql(`drop schema if exists "${schema}" cascade`);
      },
    };
  } else {
    const dir = mkdtempSync(join(tmpdir(), 'adgraph-test-'));
    const file = join(dir, 'adgraph.sqlite');
    const url = `sqlite:${file}`;
    // A copy of this worker's migrated file: the same schema as migrating, in a millisecond instead of a tenth of a second.
    if (options.migrate !== false) copyFileSync(await migratedSqliteTemplate(), file);
    const db = createDatabase(url);
    result = {
      db,
      url,
      async dispose() {
        await db.destroy();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  if (options.migrate !== false && TEST_DB === 'postgres' && !(await migratedPostgresTemplate())) await migrateToLatest(result.db);
  return result;
}

const RUNNING = Symbol('statement running');
type KnexPgClient = { _query(connection: object, query: { sql: string }): Promise<unknown> };
const guarded = new WeakSet<object>();

/**
 * Fails a statement sent on a PostgreSQL connection while another runs on it: `Promise.all` over queries of one
 * transaction, say. pg 8 queues it with a deprecation warning printed once per process (which hid where it came
 * from); pg 9 refuses it. Here the second statement fails, naming both, so the test that sent it fails. Knex's
 * transactions run on a client made from the dialect's prototype, so the guard sits there (in test workers only).
 */
function refuseOverlappingStatements(db: Db): Db {
  const dialect = Object.getPrototypeOf(db.client) as KnexPgClient;
  if (guarded.has(dialect)) return db;
  guarded.add(dialect);
  const send = dialect._query;
  dialect._query = async function (this: KnexPgClient, connection, query) {
    const tracked = connection as { [RUNNING]?: string };
    if (tracked[RUNNING] !== undefined) {
      throw new Error(`a statement sent while another runs on the same connection: "${query.sql}" while "${tracked[RUNNING]}"`);
    }
    tracked[RUNNING] = query.sql;
    try {
      return await send.call(this, connection, query);
    } finally {
      tracked[RUNNING] = undefined;
    }
  };
  return db;
}

let sqliteTemplate: Promise<string> | undefined;

/**
 * A SQLite file migrated to the latest schema, made once per test worker (in the system's temporary folder, removed
 * when the worker exits) and copied for each test database. Closed before it is copied, so that it is whole in
 * its one file (closing the last connection checkpoints the write-ahead log into it).
 */
function migratedSqliteTemplate(): Promise<string> {
  return (sqliteTemplate ??= (async () => {
    const dir = mkdtempSync(join(tmpdir(), 'adgraph-template-'));
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
    const file = join(dir, 'migrated.sqlite');
    const db = createDatabase(`sqlite:${file}`);
    try {
      await migrateToLatest(db);
    } finally {
      await db.destroy();
    }
    return file;
  })());
}

/** SQL run as one simple query (so several statements in one implicit transaction), outside Knex. */
async function runSql(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: POSTGRES_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** Where the name of a test's schema goes in the template's SQL. */
const TEMPLATE_SCHEMA = '__adgraph_test_schema__';
let postgresTemplate: Promise<string | undefined> | undefined;

/**
 * A migrated PostgreSQL schema as SQL, made once per test worker: a schema migrated to the latest version, dumped
 * by pg_dump (tables, indexes, constraints, functions, triggers, and the rows the migrations wrote, such as
 * knex_migrations'), then dropped. Replayed as one query it makes a test's schema for about 0.3 s of PostgreSQL's
 * CPU where migrating took 0.8 s of PostgreSQL's and Node's, over the 150 schemas of a run. Undefined when pg_dump
 * is missing or refuses (a major version older than the server's): each schema is migrated then, as before.
 */
function migratedPostgresTemplate(): Promise<string | undefined> {
  return (postgresTemplate ??= (async () => {
    const schema = `template_${randomBytes(6).toString('hex')}`;
    await runSql(`create schema "${schema}"`);
    try {
      const db = createDatabase(POSTGRES_URL, { schema });
      try {
        await migrateToLatest(db);
      } finally {
        await db.destroy();
      }
      const env = { ...process.env };
      delete env.PGOPTIONS;
      const { stdout } = await promisify(execFile)('pg_dump', ['--dbname', POSTGRES_URL, '--schema', schema, '--no-owner', '--no-privileges', '--inserts'], {
        env,
        maxBuffer: 64 * 1024 * 1024,
      });
      return (
        stdout
          .split('\n')
          // The dump's session settings (an empty search_path among them) and psql's meta-commands stay out: the
          // statements name their schema themselves.
          .filter((line) => !/^(--|\\|SET |SELECT pg_catalog\.set_config\()/.test(line))
          .join('\n')
          .replaceAll(schema, TEMPLATE_SCHEMA)
      );
    } catch (error) {
      console.warn(`test databases: no pg_dump of a migrated schema (${(error as Error).message.split('\n')[0]}); each test schema is migrated instead`);
      return undefined;
    } finally {
      await runSql(`drop schema if exists "${schema}" cascade`);
    }
  })());
}

/**
 * Counts the SQL statements a piece of work sends, to prove batching holds. The server's background work (the job
 * runner, the event relay publishing what the work committed) runs beside it and is not the work's.
 */
export async function countStatements<T>(db: Db, work: () => Promise<T>): Promise<{ result: T; statements: string[] }> {
  const statements: string[] = [];
  const listener = (query: { sql: string }) => {
    if (!isBackgroundWork()) statements.push(query.sql);
  };
  db.on('query', listener);
  try {
    return { result: await work(), statements };
  } finally {
    db.off('query', listener);
  }
}
