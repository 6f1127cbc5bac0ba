import { describe, expect, it } from 'vitest';
import xxhash from 'xxhash-wasm';
import { personHash, ReachSketch, SPARSE_LIMIT } from '../../src/insights/sketch.ts';

/**
 * The reach sketch against exact distinct counts: exact in its sparse form, within 2% once dense (the issue's
 * bound; the standard error is 0.81%), through merges (reach is people, not a sum) and serialization.
 */

const people = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => personHash(`person-${from + i}`));

function sketchOf(hashes: number[]): ReachSketch {
  const sketch = new ReachSketch();
  for (const hash of hashes) sketch.add(hash);
  return sketch;
}

const relativeError = (estimate: number, exact: number) => Math.abs(estimate - exact) / exact;

describe('reach sketch', () => {
  it('hashes a person as xxhash-wasm does (XXH32), ASCII keys in JavaScript and the others through the library', async () => {
    const { h32 } = await xxhash();
    const alphabet = 'azAZ09-_:@./ ~\u007f\u0000';
    const keys = ['', 'p', 'person-1', '0123456789abcdef', '0123456789abcdefg', 'é', '日本語', 'p\u{1f600}', 'café-42'.repeat(9)];
    // Every length up to 80 (both sides of each 4- and 16-byte step), then longer ones.
    let seed = 7;
    const next = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0);
    for (let length = 0; length < 300; length += length < 80 ? 1 : 37) {
      for (let n = 0; n < 20; n++) keys.push(Array.from({ length }, () => alphabet[next() % alphabet.length]).join(''));
    }
    for (const key of keys) expect(personHash(key), JSON.stringify(key)).toBe(h32(key, 0x5eed_ad9a) >>> 0);
  });

  it('is empty, and exact in its sparse form (up to SPARSE_LIMIT people), duplicates counted once', () => {
    expect(new ReachSketch().estimate()).toBe(0);
    expect(new ReachSketch().isEmpty()).toBe(true);
    for (const size of [1, 2, 17, 1000, SPARSE_LIMIT]) {
      const hashes = people(0, size);
      const sketch = sketchOf([...hashes, ...hashes.slice(0, size >> 1)]);
      expect(sketch.estimate(), `${size} people`).toBe(size);
    }
  });

  it.each([SPARSE_LIMIT + 1, 5_000, 20_000, 100_000, 400_000])('estimates %i people within 2%% once dense', (size) => {
    const sketch = sketchOf(people(0, size));
    expect(relativeError(sketch.estimate(), size)).toBeLessThan(0.02);
  });

  it('merges: the union of overlapping audiences, not the sum of their sizes', () => {
    // Three audiences of 30,000 overlapping by 10,000 in turn: 70,000 people, not 90,000.
    const parts = [people(0, 30_000), people(20_000, 50_000), people(40_000, 70_000)];
    const merged = new ReachSketch();
    for (const part of parts) merged.merge(sketchOf(part));
    expect(relativeError(merged.estimate(), 70_000)).toBeLessThan(0.02);

    // Sparse into sparse stays exact; sparse into dense and dense into sparse both count everyone once.
    const small = sketchOf(people(0, 100));
    small.merge(sketchOf(people(50, 150)));
    expect(small.estimate()).toBe(150);
    const dense = sketchOf(people(0, 10_000));
    dense.merge(sketchOf(people(9_900, 10_100)));
    expect(relativeError(dense.estimate(), 10_100)).toBeLessThan(0.02);
    const sparse = sketchOf(people(0, 200));
    sparse.merge(sketchOf(people(100, 10_000)));
    expect(relativeError(sparse.estimate(), 10_000)).toBeLessThan(0.02);
  });

  it('survives serialization in both forms, byte for byte, and unions serialized sketches', () => {
    for (const size of [0, 10, SPARSE_LIMIT, 50_000]) {
      const sketch = sketchOf(people(0, size));
      const bytes = sketch.serialize();
      const back = ReachSketch.deserialize(bytes);
      expect(back.estimate(), `${size} people`).toBe(sketch.estimate());
      expect(back.serialize().equals(bytes)).toBe(true);
    }
    // The same people in another order serialize to the same bytes (facts compare equal whatever the file order).
    expect(
      sketchOf(people(0, 500).reverse())
        .serialize()
        .equals(sketchOf(people(0, 500)).serialize()),
    ).toBe(true);

    const union = ReachSketch.union([sketchOf(people(0, 8_000)).serialize(), null, sketchOf(people(4_000, 12_000)).serialize(), undefined]);
    expect(relativeError(union.estimate(), 12_000)).toBeLessThan(0.02);
    expect(() => ReachSketch.deserialize(Buffer.from([9, 1, 2]))).toThrow(/not a reach sketch/);
  });

  it('gives the same bytes however its table grew: by adds, by merges of sketches, by merges of their bytes', () => {
    // Both sides of each table size (16, 64, 256, 1,024 and 4,096 slots, grown at three quarters full) and of
    // the turn to the dense form; half of the people overlap between the two halves merged.
    for (const size of [12, 13, 48, 49, 192, 193, 768, 769, SPARSE_LIMIT - 1, SPARSE_LIMIT, SPARSE_LIMIT + 1]) {
      const whole = sketchOf(people(0, size)).serialize();
      const half = Math.ceil(size / 2);
      const merged = sketchOf(people(0, half));
      merged.merge(sketchOf(people(half >> 1, size)));
      const fromBytes = sketchOf(people(size - half, size));
      fromBytes.mergeSerialized(sketchOf(people(0, size - (half >> 1))).serialize());
      expect(merged.serialize().equals(whole), `${size} people, merged`).toBe(true);
      expect(fromBytes.serialize().equals(whole), `${size} people, merged from bytes`).toBe(true);
      // Sparse (a hash each) up to the limit, exact; dense past it.
      expect(whole.length, `${size} people`).toBe(size > SPARSE_LIMIT ? 1 + 16_384 : 1 + 4 * size);
      if (size <= SPARSE_LIMIT) expect(ReachSketch.deserialize(whole).estimate(), `${size} people`).toBe(size);
    }
  });

  it('merges serialized sketches into empty, sparse and dense totals alike, never writing into the bytes it read', () => {
    const dense = sketchOf(people(0, 20_000)).serialize();
    const before = Buffer.from(dense);
    const sparse = people(15_000, 15_500);
    // People 0-20,000 merged in, 30,000-60,000 added after: 50,000, or 60,000 with 20,000-30,000 there before.
    for (const [total, exact] of [
      [new ReachSketch(), 50_000],
      [sketchOf(sparse), 50_000],
      [sketchOf(people(15_000, 30_000)), 60_000],
    ] as const) {
      total.mergeSerialized(dense);
      // More people after the merge: had the total kept the stored registers themselves, they would change.
      for (const hash of people(30_000, 60_000)) total.add(hash);
      expect(relativeError(total.estimate(), exact)).toBeLessThan(0.02);
      expect(Buffer.compare(dense, before)).toBe(0);
    }
    const sparseFirst = sketchOf(sparse);
    sparseFirst.mergeSerialized(dense);
    expect(sparseFirst.serialize()).toEqual(ReachSketch.union([sketchOf(sparse).serialize(), dense]).serialize());
  });

  it('hashes a person the same way every time, and different people differently', () => {
    expect(personHash('alice')).toBe(personHash('alice'));
    expect(personHash('alice')).not.toBe(personHash('bob'));
    expect(personHash('alice')).toBeGreaterThanOrEqual(0);
    expect(new Set(people(0, 10_000)).size).toBeGreaterThan(9_990);
  });
});
