/**
 * Values by key, at most `capacity` of them, the least recently used leaving first: the statements a database
 * connection keeps (./statement-cache.ts for SQLite, ./postgres-client.ts for PostgreSQL). A Map iterates in
 * insertion order, so taking an entry out and putting it back marks it most recently used.
 */
export class RecentlyUsed<K, V> {
  readonly #entries = new Map<K, V>();

  constructor(private readonly capacity: number) {}

  /**
   * The value kept for `key`, now the most recently used, or the one `make` makes and keeps; and the value that
   * left to make room, if one did. Nothing changes when `make` throws.
   */
  use(key: K, make: () => V): { value: V; evicted?: V } {
    let value = this.#entries.get(key);
    let evicted: V | undefined;
    if (value !== undefined) {
      this.#entries.delete(key);
    } else {
      value = make();
      if (this.#entries.size >= this.capacity) {
        const [oldest, leaving] = this.#entries.entries().next().value!;
        this.#entries.delete(oldest);
        evicted = leaving;
      }
    }
    this.#entries.set(key, value);
    return { value, evicted };
  }

  /** Stops keeping `key`; what was kept for it. */
  delete(key: K): V | undefined {
    const value = this.#entries.get(key);
    this.#entries.delete(key);
    return value;
  }

  /** What is kept, least recently used first (for tests). */
  get view(): ReadonlyMap<K, V> {
    return this.#entries;
  }
}
