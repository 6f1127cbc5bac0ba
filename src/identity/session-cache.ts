import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import type { Knex } from 'knex';
import { dialect, type Db } from '../db/index.ts';
import { identityGenerationReads } from '../telemetry/metrics.ts';

/**
 * The live sessions this instance resolved lately, by the hash of their token: resolving a session was most of
 * an authenticated small request (`{ me { id } }` cost 2.8 times `{ __typename }`).
 *
 * What is kept is used only while nothing has changed who a token stands for: the database's identity
 * generation (migration 20261127000300: triggers move it with any change to users, sessions' revocation or
 * expiry, and memberships, whoever writes) must be the one the entry was read under. The generation is read for
 * every request that uses the cache, after the request arrived, so a change committed before (on any instance,
 * by the command line or by hand) is never answered from the cache: on SQLite by a connection of the cache's own
 * (a few microseconds), on PostgreSQL by one statement on a connection of its own that the requests waiting at
 * the same time share (one round trip for all of them, started after each arrived). An entry read while the
 * generation moved is not kept. Entries also lapse after `ttlMs`, and the oldest go past `maxEntries`.
 *
 * Only live sessions are kept (an unknown token costs a lookup each time, and fills nothing); a session's expiry
 * is checked on every use.
 */
export interface SessionCacheOptions {
  /** Entries kept at most; 0 turns the cache off. */
  maxEntries: number;
  /** How long an entry may be used at most, however quiet the generation. */
  ttlMs: number;
}

/** Where the identity generation is read: null when it cannot be (the cache is then bypassed). */
export interface GenerationSource {
  read(): Promise<string | null>;
  close(): Promise<void>;
}

interface Entry<T> {
  value: T;
  generation: string;
  keptAt: number;
}

export class SessionCache<T> {
  private readonly entries = new Map<string, Entry<T>>();
  /** The generation last read: when it moves, every entry is stale. */
  private generation: string | null = null;

  constructor(
    private readonly source: GenerationSource,
    private readonly options: SessionCacheOptions,
    private readonly clock: () => number = Date.now,
  ) {}

  /**
   * The value kept for `key` when the generation is still the one it was read under, else what `load` answers
   * (kept when it is not null and the generation did not move meanwhile).
   */
  async get(key: string, load: () => Promise<T | null>): Promise<T | null> {
    if (this.options.maxEntries <= 0) return load();
    const generation = await this.source.read();
    if (generation !== this.generation) {
      this.entries.clear();
      this.generation = generation;
    }
    if (generation === null) return load();
    const kept = this.entries.get(key);
    if (kept && kept.generation === generation && this.clock() - kept.keptAt < this.options.ttlMs) {
      // Last in the Map's order, which is the order of use: the least recently used goes first.
      this.entries.delete(key);
      this.entries.set(key, kept);
      return kept.value;
    }
    if (kept) this.entries.delete(key);
    const value = await load();
    if (value !== null && (await this.source.read()) === generation) this.keep(key, value, generation);
    return value;
  }

  /** Forgets `key` (a session this instance ended). */
  forget(key: string): void {
    this.entries.delete(key);
  }

  get size(): number {
    return this.entries.size;
  }

  close(): Promise<void> {
    this.entries.clear();
    return this.source.close();
  }

  private keep(key: string, value: T, generation: string): void {
    this.entries.delete(key);
    this.entries.set(key, { value, generation, keptAt: this.clock() });
    if (this.entries.size > this.options.maxEntries) this.entries.delete(this.entries.keys().next().value!);
  }
}

const GENERATION_SQL = 'select value from identity_generation where id = 1';

/** The identity generation of the database `db` reaches, read on a connection of its own. */
export function generationSource(db: Db): GenerationSource {
  return dialect(db) === 'sqlite' ? sqliteGeneration(db) : postgresGeneration(db);
}

/** SQLite: a read-only connection to the same file; the read is synchronous. An in-memory database has no other connection: off. */
function sqliteGeneration(db: Db): GenerationSource {
  const filename = (db.client.config as { connection: { filename: string } }).connection.filename;
  let statement: BetterSqlite3.Statement | undefined;
  let connection: BetterSqlite3.Database | undefined;
  return {
    async read() {
      if (filename === ':memory:') return null;
      try {
        connection ??= new BetterSqlite3(filename, { readonly: true, fileMustExist: true, timeout: 5000 });
        statement ??= connection.prepare(GENERATION_SQL).pluck();
        identityGenerationReads.inc();
        const value = statement.get() as number | bigint | undefined;
        return value === undefined ? null : String(value);
      } catch {
        // Not migrated yet, or the file is gone: no cache until it can be read.
        statement = undefined;
        connection?.close();
        connection = undefined;
        return null;
      }
    },
    async close() {
      connection?.close();
      connection = undefined;
    },
  };
}

/**
 * PostgreSQL: one connection of its own (the shared pool's settings, its schema included). A read starts at the end
 * of the event loop's turn in which its first request arrived, and answers every request that arrived by then;
 * requests that arrive while it is out wait for the next one, which starts when it returns (at the end of that
 * turn): every request's read starts after it arrived, and a busy instance sends one statement per round trip, not
 * one per request.
 */
function postgresGeneration(db: Db): GenerationSource {
  const config = db.client.config as Knex.Config & { connection: { connectionString: string }; searchPath?: string[] };
  let client: pg.Client | undefined;
  let connecting: Promise<pg.Client> | undefined;
  /** The requests waiting for the next read, and whether a read is out: one statement at a time on the connection. */
  let waiting: Array<(generation: string | null) => void> = [];
  let reading = false;

  const connected = () =>
    (connecting ??= (async () => {
      const fresh = new pg.Client({
        connectionString: config.connection.connectionString,
        connectionTimeoutMillis: 5_000,
        // A database that stops answering: the cache is bypassed (the request's own lookup then says why).
        query_timeout: 5_000,
        ...(config.searchPath?.length ? { options: `-c search_path=${config.searchPath.join(',')}` } : {}),
      });
      // A lost connection is noticed by the next read, which starts another.
      fresh.on('error', () => discard(fresh));
      try {
        await fresh.connect();
      } catch (error) {
        connecting = undefined;
        throw error;
      }
      client = fresh;
      return fresh;
    })());
  const discard = (which: pg.Client) => {
    if (client !== which) return;
    client = undefined;
    connecting = undefined;
    void which.end().catch(() => undefined);
  };
  const readOnce = async (): Promise<string | null> => {
    let used: pg.Client | undefined;
    try {
      used = await connected();
      identityGenerationReads.inc();
      const result = await used.query<[string]>({ name: 'adgraph_identity_generation', text: GENERATION_SQL, rowMode: 'array' });
      return result.rows[0]?.[0] ?? null;
    } catch {
      if (used) discard(used);
      return null;
    }
  };
  // Each read answers the requests that were waiting when it started; those that arrive meanwhile wait for the next.
  const pump = async () => {
    reading = true;
    while (waiting.length > 0) {
      // The requests that arrive in this turn of the event loop join the read: started after each of them arrived,
      // it answers them all (a third fewer reads than reading at the first arrival, under load).
      await new Promise(setImmediate);
      const answered = waiting;
      waiting = [];
      const generation = await readOnce();
      for (const answer of answered) answer(generation);
    }
    reading = false;
  };
  const read = (): Promise<string | null> =>
    new Promise((resolve) => {
      waiting.push(resolve);
      if (!reading) void pump();
    });
  return {
    read,
    async close() {
      const open = client;
      client = undefined;
      connecting = undefined;
      await open?.end().catch(() => undefined);
    },
  };
}
