import type { ServerResponse } from 'node:http';

/** A response's place in OpenResponses, for taking it out. */
export interface OpenResponse {
  response: ServerResponse | null;
  previous: OpenResponse | null;
  next: OpenResponse | null;
}

/**
 * The responses a server has not closed yet, for its stop (./shutdown.ts): a list each response leaves when it
 * closes, its entry emptied as it goes.
 *
 * Not a Set. Every request joined and left the server's one Set, which lives as long as the server, and V8 gives a
 * Set a new table every few additions once deletions fill the old one, the old table keeping what it held and a
 * link to the new. Once one such table had been promoted to the old generation, the young-generation collections
 * (which take every old object for live) kept each later table and every response those named: each request's
 * objects survived two of them and were promoted, to be freed only by the next full collection. Under load that was
 * 31 KB of every nested read and 6 KB of every `{ __typename }`, scavenges of 10 to 15 ms, and a quarter of the
 * server's CPU per nested read (docs/decisions.md, "Operating the server"). Here nothing that stays points at a
 * closed response.
 */
export class OpenResponses {
  #first: OpenResponse | null = null;
  #size = 0;

  add(response: ServerResponse): OpenResponse {
    const entry: OpenResponse = { response, previous: null, next: this.#first };
    if (this.#first) this.#first.previous = entry;
    this.#first = entry;
    this.#size++;
    return entry;
  }

  /** Takes `entry` out (once; again is a no-op) and empties it. */
  delete(entry: OpenResponse): void {
    if (entry.response === null) return;
    if (entry.previous) entry.previous.next = entry.next;
    else this.#first = entry.next;
    if (entry.next) entry.next.previous = entry.previous;
    entry.response = entry.previous = entry.next = null;
    this.#size--;
  }

  forEach(visit: (response: ServerResponse) => void): void {
    for (let entry = this.#first; entry; entry = entry.next) if (entry.response) visit(entry.response);
  }

  get size(): number {
    return this.#size;
  }
}
