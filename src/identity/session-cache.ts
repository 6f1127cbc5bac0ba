import { KeptEntries, type GenerationSource, type Generations } from '../db/generations.ts';

/**
 * The live sessions this instance resolved lately, by the hash of their token: resolving a session was most of
 * an authenticated small request (`{ me { id } }` cost 2.8 times `{ __typename }`).
 *
 * What is kept is used only while nothing has changed who a token stands for: the database's identity
 * generation (migration 20261127000300: triggers move it with any change to users, sessions' revocation or
 * expiry, and memberships, whoever writes) must be the one the entry was read under. The generation is read for
 * every request that uses the cache, after the request arrived (src/db/generations.ts), so a change committed
 * before (on any instance, by the command line or by hand) is never answered from the cache. An entry read while
 * the generation moved is not kept. Entries also lapse after `ttlMs`, and the oldest go past `maxEntries`. The
 * generations a request's lookup read are handed back with its answer: the request's other caches use the same
 * read (src/context/index.ts).
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

/** A lookup's answer, and the generations read for it (null: not read, or unreadable). */
export interface SessionLookup<T> {
  value: T | null;
  generations: Generations | null;
}

export class SessionCache<T> {
  private readonly kept: KeptEntries<T>;

  constructor(
    private readonly source: GenerationSource,
    private readonly options: SessionCacheOptions,
    clock: () => number = Date.now,
  ) {
    this.kept = new KeptEntries<T>(options, clock);
  }

  /**
   * The value kept for `key` when the identity generation is still the one it was read under, else what `load`
   * answers (kept when it is not null and the generation did not move meanwhile); with the generations read.
   */
  async get(key: string, load: () => Promise<T | null>): Promise<SessionLookup<T>> {
    if (this.options.maxEntries <= 0) return { value: await load(), generations: null };
    const generations = await this.source.read();
    if (generations === null) {
      // Unreadable (the database down, or being replaced): what was kept may no longer hold.
      this.kept.clear();
      return { value: await load(), generations };
    }
    const generation = generations.identity;
    const kept = this.kept.find(key, generation);
    if (kept !== undefined) return { value: kept, generations };
    const value = await load();
    if (value !== null && (await this.source.read())?.identity === generation) this.kept.keep(key, value, generation);
    return { value, generations };
  }

  /** Forgets `key` (a session this instance ended). */
  forget(key: string): void {
    this.kept.forget(key);
  }

  get size(): number {
    return this.kept.size;
  }

  /** Forgets everything (the generations' source is the process's, closed with it). */
  close(): void {
    this.kept.clear();
  }
}
