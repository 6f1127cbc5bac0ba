import { LRUCache } from 'lru-cache';

/**
 * Values by key, at most `capacity` of them, the least recently used leaving first: the statements a database
 * connection keeps (./statement-cache.ts for SQLite, ./postgres-client.ts for PostgreSQL), the statement shapes
 * (./statement-shapes.ts), the parsed `fields` texts of /v24.0.
 *
 * lru-cache marks a use by relinking indexes in arrays of its own. A Map taken out and put back at every use, as
 * this was, has V8 rebuild its table every few uses, and a replaced table keeps its keys (a request's own strings)
 * and a link to the next: nothing a young-generation collection could free once one of them was old
 * (../server/open-responses.ts tells the same of a Set).
 */
export class RecentlyUsed<K extends NonNullable<unknown>, V extends NonNullable<unknown>> {
  readonly #entries: LRUCache<K, V>;

  constructor(private readonly capacity: number) {
    this.#entries = new LRUCache<K, V>({ max: Math.max(1, capacity) });
  }

  /**
   * The value kept for `key`, now the most recently used, or the one `make` makes and keeps; and the value that
   * left to make room, if one did. Nothing changes when `make` throws.
   */
  use(key: K, make: () => V): { value: V; evicted?: V } {
    const found = this.#entries.get(key);
    if (found !== undefined) return { value: found };
    const value = make();
    const evicted = this.#entries.size >= this.capacity ? this.#entries.pop() : undefined;
    this.#entries.set(key, value);
    return { value, evicted };
  }

  /** Stops keeping `key`; what was kept for it. */
  delete(key: K): V | undefined {
    const value = this.#entries.peek(key);
    this.#entries.delete(key);
    return value;
  }

  /** What is kept, least recently used first, as it is when read (for tests); reading it marks no use. */
  get view(): ReadonlyMap<K, V> {
    const entries = this.#entries;
    const pairs = () => ([...entries.rentries()] as Array<[K, V]>)[Symbol.iterator]();
    return {
      get: (key: K) => entries.peek(key),
      has: (key: K) => entries.has(key),
      get size() {
        return entries.size;
      },
      forEach: (visit: (value: V, key: K, map: ReadonlyMap<K, V>) => void) => new Map(pairs()).forEach(visit),
      entries: pairs,
      keys: () => [...entries.rkeys()][Symbol.iterator](),
      values: () => [...entries.rvalues()][Symbol.iterator](),
      [Symbol.iterator]: pairs,
    } as ReadonlyMap<K, V>;
  }
}
