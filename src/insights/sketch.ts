import { endianness } from 'node:os';
import xxhash from 'xxhash-wasm';

/**
 * Reach is people, not a sum: a week's reach is not seven daily reaches added up, nor an ad set's the sum of its
 * ads'. Each fact row keeps a distinct-count sketch of the people it reached, merged when a report spans rows.
 *
 * The sketch is a HyperLogLog (precision 14: 16,384 registers, standard error 0.81%) with an exact sparse form:
 * up to SPARSE_LIMIT people it keeps their 32-bit hashes themselves, so small counts (most ad-days) are exact
 * but for hash collisions, and it turns dense past that. The dense estimate is Ertl's improved estimator
 * ("New cardinality estimation algorithms for HyperLogLog sketches", 2017), which needs no bias tables and is
 * unbiased from a handful of people to billions. No npm HyperLogLog package is maintained (the ones on the
 * registry are years old and JS-number-unsafe), and PostgreSQL's hll extension is absent on SQLite, so this
 * small module is the project's own; its accuracy is tested against exact counts (test/insights/sketch.test.ts).
 *
 * A person is hashed once, with xxHash32 (xxhash-wasm). The top 14 bits of the hash pick the register and the
 * remaining 18 give the rank, so ranks saturate at 19: estimates stay accurate to about 100 million people per
 * sketch, far beyond one account's daily reach.
 */

const PRECISION = 14;
const REGISTERS = 1 << PRECISION;
const RANK_BITS = 32 - PRECISION;
const MAX_RANK = RANK_BITS + 1;
/** Past this many distinct hashes the sparse form (4 bytes each) is no smaller than the dense one's share. */
export const SPARSE_LIMIT = 3072;
/**
 * The most slots a sparse table takes: SPARSE_LIMIT hashes at three quarters full (16 KB, what the dense form
 * weighs). A table grows fourfold up to it (16, 64, 256, 1,024, 4,096 slots): each grow rehashes every hash,
 * and doubling (eight grows on the way to the limit) was an eighth of an import's time.
 */
const SPARSE_SLOTS = (SPARSE_LIMIT * 4) / 3;

const LITTLE_ENDIAN = endianness() === 'LE';
const SPARSE = 1;
const DENSE = 2;

const { h32 } = await xxhash();
const SEED = 0x5eed_ad9a;

/** The 32-bit hash a person key is counted by (the same for every sketch, so sketches merge). */
export function personHash(personKey: string): number {
  return asciiXxh32(personKey, SEED) ?? h32(personKey, SEED) >>> 0;
}

const PRIME1 = 0x9e3779b1;
const PRIME2 = 0x85ebca77;
const PRIME3 = 0xc2b2ae3d;
const PRIME4 = 0x27d4eb2f;
const PRIME5 = 0x165667b1;
const rotl = (x: number, r: number) => (x << r) | (x >>> (32 - r));
/** Four code units as the little-endian 32-bit word their bytes make. */
const word = (text: string, i: number) => text.charCodeAt(i) | (text.charCodeAt(i + 1) << 8) | (text.charCodeAt(i + 2) << 16) | (text.charCodeAt(i + 3) << 24);
const round = (acc: number, lane: number) => Math.imul(rotl((acc + Math.imul(lane, PRIME2)) | 0, 13), PRIME1);

/**
 * xxHash32 of an ASCII string (its UTF-8 bytes are its code units), computed on the code units; undefined for
 * any other string, which goes to xxhash-wasm. The import hashes a person per event: copying each short key into
 * the WebAssembly memory first cost four times the hash itself. The same function as xxhash-wasm's h32 (the
 * reference, XXH32 of the xxHash specification), checked against it in test/insights/sketch.test.ts.
 */
function asciiXxh32(text: string, seed: number): number | undefined {
  const length = text.length;
  for (let i = 0; i < length; i++) if (text.charCodeAt(i) > 0x7f) return undefined;
  let i = 0;
  let h: number;
  if (length >= 16) {
    let v1 = (seed + PRIME1 + PRIME2) | 0;
    let v2 = (seed + PRIME2) | 0;
    let v3 = seed | 0;
    let v4 = (seed - PRIME1) | 0;
    for (; i + 16 <= length; i += 16) {
      v1 = round(v1, word(text, i));
      v2 = round(v2, word(text, i + 4));
      v3 = round(v3, word(text, i + 8));
      v4 = round(v4, word(text, i + 12));
    }
    h = (rotl(v1, 1) + rotl(v2, 7) + rotl(v3, 12) + rotl(v4, 18)) | 0;
  } else {
    h = (seed + PRIME5) | 0;
  }
  h = (h + length) | 0;
  for (; i + 4 <= length; i += 4) h = Math.imul(rotl((h + Math.imul(word(text, i), PRIME3)) | 0, 17), PRIME4);
  for (; i < length; i++) h = Math.imul(rotl((h + Math.imul(text.charCodeAt(i), PRIME5)) | 0, 11), PRIME1);
  h = Math.imul(h ^ (h >>> 15), PRIME2);
  h = Math.imul(h ^ (h >>> 13), PRIME3);
  return (h ^ (h >>> 16)) >>> 0;
}

function registerOf(hash: number): number {
  return hash >>> RANK_BITS;
}

function rankOf(hash: number): number {
  const rest = hash & ((1 << RANK_BITS) - 1);
  // Leading zeros of the 18-bit remainder, plus one.
  return rest === 0 ? MAX_RANK : Math.clz32(rest) - PRECISION + 1;
}

/**
 * The sparse form: a set of 32-bit hashes in one open-addressing table with linear probing. 0 marks an empty
 * slot, so the hash 0 itself is kept aside as a flag. A typed array holds its numbers unboxed, in one allocation,
 * and copies with one memcpy: several times faster than a Set of numbers for the import, which adds every person
 * reached to four of these per event.
 *
 * A hash's home slot is its top bits (xxHash spreads them evenly), so the table holds its hashes almost in
 * ascending order: serializing (which writes them sorted, so the same people give the same bytes) only fixes
 * the few a collision pushed past a larger one, instead of sorting them all (a twentieth of an import's time).
 */
class HashSet {
  slots: Int32Array;
  /** 32 less the table's size in bits: `hash >>> shift` is the home slot. */
  shift: number;
  size = 0;
  hasZero = false;

  constructor(capacityBits = 4) {
    this.slots = new Int32Array(1 << capacityBits);
    this.shift = 32 - capacityBits;
  }

  /** Adds a hash (as a signed 32-bit integer); answers the new size. */
  add(hash: number): number {
    if (hash === 0) {
      if (!this.hasZero) {
        this.hasZero = true;
        this.size++;
      }
      return this.size;
    }
    let slots = this.slots;
    let mask = slots.length - 1;
    let i = hash >>> this.shift;
    for (;;) {
      const slot = slots[i]!;
      if (slot === hash) return this.size;
      if (slot === 0) break;
      i = (i + 1) & mask;
    }
    // Grown at three quarters full (probes stay short), but for the largest table: the sketch turns dense
    // before that one is full.
    if ((this.size + 1) * 4 > slots.length * 3 && slots.length < SPARSE_SLOTS) {
      this.grow(this.size + 1);
      slots = this.slots;
      mask = slots.length - 1;
      i = hash >>> this.shift;
      while (slots[i] !== 0) i = (i + 1) & mask;
    }
    slots[i] = hash;
    return ++this.size;
  }

  /** Makes room for `count` hashes in all (up to the largest table) at once, rather than growing on the way. */
  reserve(count: number): void {
    if (count * 4 > this.slots.length * 3 && this.slots.length < SPARSE_SLOTS) this.grow(count);
  }

  /** Calls `each` with every hash held (signed), in no particular order. */
  forEach(each: (hash: number) => void): void {
    if (this.hasZero) each(0);
    const slots = this.slots;
    for (let i = 0; i < slots.length; i++) if (slots[i] !== 0) each(slots[i]!);
  }

  /** The hashes held, unsigned, in ascending order. */
  sorted(): Uint32Array {
    const out = new Uint32Array(this.size);
    let n = 0;
    if (this.hasZero) out[n++] = 0;
    const slots = this.slots;
    for (let i = 0; i < slots.length; i++) if (slots[i] !== 0) out[n++] = slots[i]!;
    // Slot order is home order but for runs a collision reordered and the few hashes that wrapped past the
    // table's end to its start: an insertion sort moves only those, a step each per hash they pass.
    for (let i = 1; i < n; i++) {
      const hash = out[i]!;
      let j = i - 1;
      if (out[j]! <= hash) continue;
      while (j >= 0 && out[j]! > hash) {
        out[j + 1] = out[j]!;
        j--;
      }
      out[j + 1] = hash;
    }
    return out;
  }

  copy(): HashSet {
    const copy = new HashSet(0);
    copy.slots = this.slots.slice();
    copy.shift = this.shift;
    copy.size = this.size;
    copy.hasZero = this.hasZero;
    return copy;
  }

  /** Rehashes into the table of the next size (fourfold, up to the largest) that holds `count` hashes. */
  private grow(count: number): void {
    const old = this.slots;
    let bits = 32 - this.shift;
    do bits += 2;
    while (1 << bits < SPARSE_SLOTS && count * 4 > (1 << bits) * 3);
    const slots = new Int32Array(Math.min(1 << bits, SPARSE_SLOTS));
    const mask = slots.length - 1;
    const shift = 32 - Math.log2(slots.length);
    for (let j = 0; j < old.length; j++) {
      const hash = old[j]!;
      if (hash === 0) continue;
      let i = hash >>> shift;
      while (slots[i] !== 0) i = (i + 1) & mask;
      slots[i] = hash;
    }
    this.slots = slots;
    this.shift = shift;
  }
}

export class ReachSketch {
  /** The sparse form's hashes (as signed 32-bit integers; serialized, and in the dense form, the same 32 bits). */
  private sparse: HashSet | null = new HashSet();
  private dense: Uint8Array | null = null;

  /** Adds one person by their hash (personHash). */
  add(hash: number): void {
    if (this.sparse) {
      if (this.sparse.add(hash | 0) > SPARSE_LIMIT) this.densify();
      return;
    }
    this.addDense(hash);
  }

  /** Adds everyone another sketch counted. */
  merge(other: ReachSketch): void {
    if (other.sparse) {
      if (this.sparse) {
        this.sparse.reserve(this.sparse.size + other.sparse.size);
        other.sparse.forEach((hash) => this.add(hash));
      } else other.sparse.forEach((hash) => this.addDense(hash));
      return;
    }
    this.mergeRegisters(other.dense as Uint8Array);
  }

  /**
   * Takes the larger of each register. Reports merge a dense sketch per row (an account's day), often into an
   * empty total: that is a copy of the registers, not a densify and a pass of comparisons.
   */
  private mergeRegisters(theirs: Uint8Array): void {
    if (this.sparse) {
      const hashes = this.sparse;
      this.sparse = null;
      this.dense = new Uint8Array(theirs); // a copy: theirs may be a view of stored bytes (Buffer#slice would not copy)
      hashes.forEach((hash) => this.addDense(hash));
      return;
    }
    const mine = this.dense as Uint8Array;
    for (let i = 0; i < REGISTERS; i++) if (theirs[i]! > mine[i]!) mine[i] = theirs[i]!;
  }

  /** A sketch of the same people, independent of this one (cheaper than merging into an empty one). */
  copy(): ReachSketch {
    const copy = new ReachSketch();
    copy.sparse = this.sparse && this.sparse.copy();
    copy.dense = this.dense && this.dense.slice();
    return copy;
  }

  /**
   * Adds everyone a serialized sketch counted, without building it first (the import merges what it adds into
   * the stored facts' sketches this way).
   */
  mergeSerialized(bytes: Uint8Array): void {
    const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    if (view[0] === SPARSE && (view.length - 1) % 4 === 0) {
      this.sparse?.reserve(this.sparse.size + (view.length - 1) / 4);
      for (let offset = 1; offset < view.length; offset += 4) this.add(view.readUInt32LE(offset));
      return;
    }
    if (view[0] === DENSE && view.length === 1 + REGISTERS) {
      this.mergeRegisters(view.subarray(1));
      return;
    }
    throw new Error('not a reach sketch');
  }

  /** The estimated number of distinct people (exact in the sparse form, but for hash collisions). */
  estimate(): number {
    if (this.sparse) return this.sparse.size;
    return Math.round(ertlEstimate(this.dense as Uint8Array));
  }

  isEmpty(): boolean {
    return this.sparse !== null && this.sparse.size === 0;
  }

  serialize(): Buffer {
    if (this.sparse) {
      const hashes = this.sparse.sorted();
      const out = Buffer.allocUnsafe(1 + hashes.length * 4);
      out[0] = SPARSE;
      // The import serializes millions of hashes: on a little-endian machine (all of today's) one copy does.
      if (LITTLE_ENDIAN) out.set(new Uint8Array(hashes.buffer), 1);
      else for (let j = 0; j < hashes.length; j++) out.writeUInt32LE(hashes[j]!, 1 + j * 4);
      return out;
    }
    const out = Buffer.allocUnsafe(1 + REGISTERS);
    out[0] = DENSE;
    out.set(this.dense as Uint8Array, 1);
    return out;
  }

  static deserialize(bytes: Uint8Array): ReachSketch {
    const sketch = new ReachSketch();
    const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    if (view[0] === SPARSE && (view.length - 1) % 4 === 0) {
      sketch.mergeSerialized(view);
      return sketch;
    }
    if (view[0] === DENSE && view.length === 1 + REGISTERS) {
      sketch.sparse = null;
      sketch.dense = new Uint8Array(view.subarray(1)); // a copy (one memcpy): the bytes may be a reused buffer
      return sketch;
    }
    throw new Error('not a reach sketch');
  }

  /** The union of several serialized sketches (null ones skipped). */
  static union(serialized: Iterable<Uint8Array | null | undefined>): ReachSketch {
    const result = new ReachSketch();
    for (const bytes of serialized) if (bytes && bytes.length > 0) result.mergeSerialized(bytes);
    return result;
  }

  private densify(): void {
    const registers = new Uint8Array(REGISTERS);
    this.dense = registers;
    const hashes = this.sparse as HashSet;
    this.sparse = null;
    hashes.forEach((hash) => this.addDense(hash));
  }

  private addDense(hash: number): void {
    const registers = this.dense as Uint8Array;
    const index = registerOf(hash);
    const rank = rankOf(hash);
    if (rank > registers[index]!) registers[index] = rank;
  }
}

function sigma(x: number): number {
  if (x === 1) return Infinity;
  let y = 1;
  let z = x;
  for (;;) {
    x *= x;
    const before = z;
    z += x * y;
    y += y;
    if (z === before) return z;
  }
}

function tau(x: number): number {
  if (x === 0 || x === 1) return 0;
  let y = 1;
  let z = 1 - x;
  for (;;) {
    x = Math.sqrt(x);
    const before = z;
    y *= 0.5;
    z -= (1 - x) ** 2 * y;
    if (z === before) return z / 3;
  }
}

function ertlEstimate(registers: Uint8Array): number {
  const counts = new Float64Array(MAX_RANK + 1);
  for (let i = 0; i < registers.length; i++) counts[registers[i]!]! += 1;
  const m = REGISTERS;
  let z = m * tau(1 - counts[MAX_RANK]! / m);
  for (let k = MAX_RANK - 1; k >= 1; k--) z = 0.5 * (z + counts[k]!);
  z += m * sigma(counts[0]! / m);
  return (m * m) / (2 * Math.LN2) / z;
}
