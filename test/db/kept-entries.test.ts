import { describe, expect, it } from 'vitest';
import { KeptEntries } from '../../src/db/generations.ts';
import { promotedBytes } from '../helpers/young-garbage.ts';

/** What the caches keep across requests (src/db/generations.ts KeptEntries), as pure rules of generations and time. */
describe('entries kept under a generation', () => {
  it('answers a value only to a reader of the generation it was read under', () => {
    const kept = new KeptEntries<string>({ maxEntries: 10, ttlMs: 60_000 });
    kept.keep('a', 'read at 5', '5');
    expect(kept.find('a', '5')).toBe('read at 5');
    expect(kept.find('a', '6')).toBeUndefined();
    // A later generation was seen: what was kept went with it, for readers of the earlier one too.
    expect(kept.find('a', '5')).toBeUndefined();
    expect(kept.size).toBe(0);
  });

  it('does not keep a value read under an earlier generation than the latest seen', () => {
    const kept = new KeptEntries<string>({ maxEntries: 10, ttlMs: 60_000 });
    kept.keep('a', 'read at 7', '7');
    // A request that read its generation (6) before another's (7) loads after it: its value may predate 7's.
    kept.keep('b', 'read at 6', '6');
    expect(kept.find('b', '7')).toBeUndefined();
    expect(kept.find('b', '6')).toBeUndefined();
    expect(kept.find('a', '7')).toBe('read at 7');
    // Numbers, not text: 10 is later than 9.
    kept.keep('c', 'read at 9', '9');
    kept.keep('d', 'read at 10', '10');
    expect([kept.find('c', '9'), kept.find('d', '10')]).toEqual([undefined, 'read at 10']);
  });

  it('forgets everything, the latest generation too, when cleared (a counter that could not be read)', () => {
    const kept = new KeptEntries<string>({ maxEntries: 10, ttlMs: 60_000 });
    kept.keep('a', 'read at 9', '9');
    kept.clear();
    // A database put back with an earlier counter is taken as it is.
    kept.keep('a', 'read at 3', '3');
    expect(kept.find('a', '3')).toBe('read at 3');
  });

  it('keeps at most maxEntries, the least recently used going first, each for ttlMs at most; 0 keeps nothing', () => {
    let now = 0;
    const kept = new KeptEntries<string>({ maxEntries: 2, ttlMs: 1_000 }, () => now);
    kept.keep('a', 'a', '1');
    kept.keep('b', 'b', '1');
    expect(kept.find('a', '1')).toBe('a');
    kept.keep('c', 'c', '1');
    expect([kept.find('a', '1'), kept.find('b', '1'), kept.find('c', '1')]).toEqual(['a', undefined, 'c']);
    now = 1_000;
    expect(kept.find('a', '1')).toBeUndefined();
    const none = new KeptEntries<string>({ maxEntries: 0, ttlMs: 1_000 });
    none.keep('a', 'a', '1');
    expect([none.find('a', '1'), none.size]).toEqual([undefined, 0]);
  });

  it("keeps none of its readers' keys for the young generation's collections (a hit marks the use in lru-cache, not by a Map's delete and set)", () => {
    const kept = new KeptEntries<string>({ maxEntries: 10, ttlMs: 60_000 });
    const key = (i: number) => `${'a session token hash '.repeat(100)}${i % 3}`;
    for (let i = 0; i < 3; i++) kept.keep(key(i), 'session', '1');
    const promoted = promotedBytes((n) => {
      // Ten requests a round, each with the hash of its own token, found under the same generation.
      for (let i = 0; i < 10; i++) expect(kept.find(key(n * 10 + i), '1')).toBe('session');
    });
    // 400 keys of 2 KB went by; the Map this was kept all of them (875 KB promoted; test/db/recently-used.test.ts measures one).
    expect(promoted).toBeLessThan(40_000);
  });
});
