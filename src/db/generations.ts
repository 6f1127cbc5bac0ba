import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import type { Knex } from 'knex';
import { LRUCache } from 'lru-cache';
import { dialect, type Db } from './index.ts';
import { generationReads } from '../telemetry/metrics.ts';

/**
 * Counters that triggers move with every change to what this process's caches keep, in the change's own
 * transaction, whoever writes (another instance, the command line, psql): the identity generation (who a session
 * token stands for: migration 20261127000300, src/identity/session-cache.ts) and the ad account generation (any
 * change to an ad account: 20261201000100, src/ads/account-cache.ts). A cache keeps what it read with the counter
 * read before it, and answers from it only a request whose own read of the counter, made after the request
 * arrived, finds the same value: a change committed before a request arrived, on any instance, is never answered
 * from a cache.
 *
 * Both are read in one statement, on a connection of their own: on SQLite a read-only connection to the same file
 * (a few microseconds); on PostgreSQL one statement that answers every request that arrived in the same turn of
 * the event loop (one round trip for all of them, started after each arrived). Null when they cannot be read:
 * the caches are bypassed then.
 */
export interface Generations {
  identity: string;
  adAccounts: string;
}

export interface GenerationSource {
  /** The counters now, read after this call: null when they cannot be read. */
  read(): Promise<Generations | null>;
  close(): Promise<void>;
}

/** Both counters in one statement, as text (BIGINT). */
const GENERATIONS_SQL =
  'select (select value from identity_generation where id = 1) as identity, (select value from ad_account_generation where id = 1) as ad_accounts';

/** The counters as read: both, or none (a table missing: a database not migrated yet). */
function generationsOf(identity: unknown, adAccounts: unknown): Generations | null {
  if (identity === null || identity === undefined || adAccounts === null || adAccounts === undefined) return null;
  return { identity: String(identity), adAccounts: String(adAccounts) };
}

/** The generations of the database `db` reaches, read on a connection of their own. */
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
        statement ??= connection.prepare(GENERATIONS_SQL).raw();
        generationReads.inc();
        const [identity, adAccounts] = (statement.get() as [unknown, unknown] | undefined) ?? [];
        return generationsOf(identity, adAccounts);
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
  let waiting: Array<(generations: Generations | null) => void> = [];
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
  const readOnce = async (): Promise<Generations | null> => {
    let used: pg.Client | undefined;
    try {
      used = await connected();
      generationReads.inc();
      const result = await used.query<[string, string]>({ name: 'adgraph_generations', text: GENERATIONS_SQL, rowMode: 'array' });
      const [identity, adAccounts] = result.rows[0] ?? [];
      return generationsOf(identity, adAccounts);
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
      const generations = await readOnce();
      for (const answer of answered) answer(generations);
    }
    reading = false;
  };
  const read = (): Promise<Generations | null> =>
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

export interface KeptEntriesOptions {
  /** Entries kept at most (the least recently used goes first); 0 keeps none. */
  maxEntries: number;
  /** How long an entry may be used at most, however still its generation. */
  ttlMs: number;
}

/**
 * Values kept by key, each under the generation it was read under: a value is found only by a reader of that very
 * generation, within `ttlMs`. Generations only grow, so once a later one is seen every entry is stale (all go),
 * and a value read under an earlier one than the latest seen is not kept (a request that read its generation
 * before another's may load after it). The least recently used entry goes first past `maxEntries`.
 */
export class KeptEntries<T> {
  /** In lru-cache, which marks a use without rebuilding a Map's table (./recently-used.ts says why that matters). */
  private readonly entries: LRUCache<string, { value: T; generation: string; keptAt: number }>;
  /** The latest generation seen. */
  private latest: bigint | undefined;

  constructor(
    private readonly options: KeptEntriesOptions,
    private readonly clock: () => number = Date.now,
  ) {
    this.entries = new LRUCache({ max: Math.max(1, options.maxEntries) });
  }

  /** The value kept for `key` under `generation`, unless it lapsed; now the most recently used. */
  find(key: string, generation: string): T | undefined {
    if (!this.current(generation)) return undefined;
    const kept = this.entries.get(key);
    if (!kept) return undefined;
    if (kept.generation !== generation || this.clock() - kept.keptAt >= this.options.ttlMs) {
      this.entries.delete(key);
      return undefined;
    }
    return kept.value;
  }

  /** Keeps `value` for `key`, read under `generation` (read before the value was). */
  keep(key: string, value: T, generation: string): void {
    if (this.options.maxEntries <= 0 || !this.current(generation)) return;
    this.entries.set(key, { value, generation, keptAt: this.clock() });
  }

  forget(key: string): void {
    this.entries.delete(key);
  }

  /** Forgets every entry and the latest generation seen (as after its counter could not be read: it may be another's). */
  clear(): void {
    this.forgetEntries();
    this.latest = undefined;
  }

  get size(): number {
    return this.entries.size;
  }

  /** Whether `generation` is the latest seen (a later one empties what was kept). */
  private current(generation: string): boolean {
    const value = BigInt(generation);
    if (this.latest === undefined || value > this.latest) {
      this.forgetEntries();
      this.latest = value;
    }
    return value === this.latest;
  }

  /** lru-cache's clear() empties all `maxEntries` slots, in use or not: only when something is kept. */
  private forgetEntries(): void {
    if (this.entries.size > 0) this.entries.clear();
  }
}
