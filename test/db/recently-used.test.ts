import { describe, expect, it } from 'vitest';
import { RecentlyUsed } from '../../src/db/recently-used.ts';
import { promotedBytes } from '../helpers/young-garbage.ts';

describe('values kept by recent use (src/db/recently-used.ts)', () => {
  it('makes a value once, marks each use, and hands back the least recently used when it makes room', () => {
    const kept = new RecentlyUsed<string, string>(2);
    let made = 0;
    const make = (value: string) => () => (made++, value);
    expect(kept.use('a', make('A'))).toEqual({ value: 'A', evicted: undefined });
    expect(kept.use('b', make('B')).value).toBe('B');
    expect(kept.use('a', make('not made')).value).toBe('A');
    expect(made).toBe(2);
    // 'b' was used least recently: it leaves for 'c'.
    expect(kept.use('c', make('C'))).toEqual({ value: 'C', evicted: 'B' });
    expect([...kept.view.keys()]).toEqual(['a', 'c']);
    expect(kept.delete('a')).toBe('A');
    expect([...kept.view.entries()]).toEqual([['c', 'C']]);
  });

  it('leaves nothing unchanged when make throws', () => {
    const kept = new RecentlyUsed<string, string>(1);
    kept.use('a', () => 'A');
    expect(() =>
      kept.use('b', () => {
        throw new Error('cannot prepare');
      }),
    ).toThrow('cannot prepare');
    expect([...kept.view.entries()]).toEqual([['a', 'A']]);
  });

  /** Ten uses a round of three keys, each key a string made for the use (as a request builds its statement's shape key). */
  const used = (use: (key: string) => void) =>
    promotedBytes((n) => {
      for (let i = 0; i < 10; i++) use(`${'a statement shape '.repeat(100)}${(n * 10 + i) % 3}`);
    });

  it("keeps none of its callers' keys for the young generation's collections, where a Map marking each use did", () => {
    // What this was: each use took the entry out of a Map and put it back, which made V8 replace the Map's table.
    const map = new Map<string, number>();
    const byMap = used((key) => {
      const value = map.get(key) ?? 1;
      map.delete(key);
      map.set(key, value);
    });
    const kept = new RecentlyUsed<string, number>(10);
    const byRecentlyUsed = used((key) => kept.use(key, () => 1));
    expect(byMap, 'promoted by a Map taken out and put back').toBeGreaterThan(100_000);
    expect(byRecentlyUsed, 'promoted by RecentlyUsed').toBeLessThan(byMap / 10);
  });
});
