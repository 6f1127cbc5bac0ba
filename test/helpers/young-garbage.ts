import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * What a long-lived structure makes the young-generation collections keep of what passed through it (issue 27:
 * docs/benchmarks.md, "Garbage that outlived its request"). The structure is made old first, as a server's is;
 * then each round passes fresh objects through it and ends with a young-generation collection (a scavenge). What
 * the scavenges kept and promoted shows as growth of the old generation, which no full collection empties in
 * between. Without V8's allocation-site pretenuring, which after one structure that keeps would start allocating
 * the rounds' objects in the old generation directly and blur the next measure.
 */
setFlagsFromString('--expose-gc');
setFlagsFromString('--no-allocation-site-pretenuring');
const gc = runInNewContext('gc') as (options?: { type: 'minor' | 'major' }) => void;

const oldGeneration = () => getHeapSpaceStatistics().find((space) => space.space_name === 'old_space')!.space_used_size;

export const ROUNDS = 40;

/** Bytes the old generation grew by over ROUNDS rounds of `round` (given the round's number), each followed by a scavenge. */
export function promotedBytes(round: (n: number) => void): number {
  gc();
  gc();
  const before = oldGeneration();
  for (let n = 0; n < ROUNDS; n++) {
    round(n);
    gc({ type: 'minor' });
  }
  return oldGeneration() - before;
}
