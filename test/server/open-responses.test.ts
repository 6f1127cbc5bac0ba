import type { ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { OpenResponses } from '../../src/server/open-responses.ts';
import { promotedBytes, ROUNDS } from '../helpers/young-garbage.ts';

/** Stands in for a response: an object of about 10 KB, as a request's graph is (its headers, body, context). */
const response = (): ServerResponse => ({ graph: Array.from({ length: 400 }, (_, i) => ({ i })) }) as unknown as ServerResponse;
const IN_FLIGHT = 10;

describe('the open responses a stop waits for (src/server/open-responses.ts)', () => {
  it('holds each response from add to delete, and visits the open ones', () => {
    const open = new OpenResponses();
    const [a, b, c] = [response(), response(), response()];
    const entries = [open.add(a), open.add(b), open.add(c)];
    expect(open.size).toBe(3);
    open.delete(entries[1]!);
    open.delete(entries[1]!); // a second close of the same response changes nothing
    const visited: ServerResponse[] = [];
    open.forEach((each) => visited.push(each));
    expect(new Set(visited)).toEqual(new Set([a, c]));
    expect(open.size).toBe(2);
    open.delete(entries[0]!);
    open.delete(entries[2]!);
    expect(open.size).toBe(0);
    open.forEach(() => expect.fail('nothing is open'));
    // An entry let go of keeps nothing: not its response, nor its neighbours.
    expect(entries.every((entry) => entry.response === null && entry.previous === null && entry.next === null)).toBe(true);
  });

  /** Ten requests at a time join and leave `join`'s structure; what the scavenges kept of them. */
  const churned = (join: (each: ServerResponse) => () => void) =>
    promotedBytes(() => {
      const leave = Array.from({ length: IN_FLIGHT }, () => join(response()));
      for (const done of leave) done();
    });

  it("keeps nothing of a closed response for the young generation's collections, where a Set kept every one", () => {
    const set = new Set<ServerResponse>();
    const bySet = churned((each) => (set.add(each), () => set.delete(each)));
    const open = new OpenResponses();
    const byList = churned((each) => {
      const entry = open.add(each);
      return () => open.delete(entry);
    });
    const passedThrough = ROUNDS * IN_FLIGHT * 10_000;
    // The measure sees what the server's Set did: its replaced tables kept (nearly) every response that passed.
    expect(bySet, `promoted by the Set, of about ${passedThrough} bytes passed through`).toBeGreaterThan(passedThrough / 2);
    expect(byList, 'promoted by OpenResponses').toBeLessThan(bySet / 20);
  });
});
