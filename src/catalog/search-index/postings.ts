/**
 * The listings that hold one term. Each entry packs the listing id and the term's weighted
 * frequency in that listing (`id * 256 + f`, f capped at 255) into one unsigned 32-bit word, in
 * id order: intersections walk two lists side by side and a lookup is a binary search.
 */
export const MAX_ID = 0xffffff;
const MAX_F = 255;

/** Lists up to this long live in shared slabs (most terms are held by one to three listings). */
const SLAB_LIST_MAX = 16;
const SLAB_WORDS = 1 << 16;
let slab = new ArrayBuffer(SLAB_WORDS * 4);
let slabUsed = 0;

/**
 * An array of `n` (<= SLAB_LIST_MAX) words, a view into a shared slab: an array of its own costs
 * an ArrayBuffer object and a backing store per list, some 280 bytes of heap for each of a few
 * hundred thousand terms. The words a list leaves behind when it grows are not reused.
 */
function small(n: number): Uint32Array {
  if (slabUsed + n > SLAB_WORDS) {
    slab = new ArrayBuffer(SLAB_WORDS * 4);
    slabUsed = 0;
  }
  const a = new Uint32Array(slab, slabUsed * 4, n);
  slabUsed += n;
  return a;
}

export class Postings {
  data = small(4);
  n = 0;
  /**
   * Ranked view, built the first time a one-word query needs it and kept up to date after:
   * the entries grouped by (f, listing length), each group's ids ascending. Within a group every
   * listing scores the same, so walking the groups by score and each from its highest id gives
   * the bm25-then-id-descending order without scoring a single listing.
   */
  groups: Map<number, Group> | null = null;
  /** One bit per listing id, built for long lists the first time an intersection probes them. */
  bits: Uint32Array | null = null;

  buildBits(): Uint32Array {
    if (this.bits) return this.bits;
    const last = this.n ? this.data[this.n - 1] >>> 8 : 0;
    const bits = new Uint32Array((last >>> 5) + 1);
    for (let i = 0; i < this.n; i++) {
      const id = this.data[i] >>> 8;
      bits[id >>> 5] |= 1 << (id & 31);
    }
    this.bits = bits;
    return bits;
  }

  /** Position of the first entry whose id is >= `id`. */
  lowerBound(id: number, from = 0, to = this.n): number {
    const key = id * 256;
    let lo = from;
    let hi = to;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.data[mid] < key) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Like lowerBound, but gallops from `from` first: cheap when the target is near, as in an intersection. */
  seek(id: number, from: number): number {
    const key = id * 256;
    if (from >= this.n || this.data[from] >= key) return from;
    let lo = from;
    let step = 1;
    let hi = from + 1;
    while (hi < this.n && this.data[hi] < key) {
      lo = hi;
      step *= 2;
      hi = lo + step;
    }
    return this.lowerBound(id, lo + 1, Math.min(hi, this.n));
  }

  add(id: number, f: number, length: number): void {
    const entry = id * 256 + Math.min(f, MAX_F);
    if (this.n === this.data.length) {
      const size = this.data.length * 2;
      const grown = size <= SLAB_LIST_MAX ? small(size) : new Uint32Array(size);
      grown.set(this.data);
      this.data = grown;
    }
    if (this.n === 0 || this.data[this.n - 1] < entry) {
      this.data[this.n++] = entry;
    } else {
      const at = this.lowerBound(id);
      this.data.copyWithin(at + 1, at, this.n);
      this.data[at] = entry;
      this.n++;
    }
    if (this.groups) groupOf(this.groups, entry & MAX_F, length).add(id);
    if (this.bits) {
      if (id >>> 5 >= this.bits.length) {
        const grown = new Uint32Array(Math.max((id >>> 5) + 1, Math.ceil(this.bits.length * 1.5)));
        grown.set(this.bits);
        this.bits = grown;
      }
      this.bits[id >>> 5] |= 1 << (id & 31);
    }
  }

  remove(id: number, length: number): void {
    const at = this.lowerBound(id);
    if (at >= this.n || this.data[at] >>> 8 !== id) return;
    const f = this.data[at] & MAX_F;
    this.data.copyWithin(at, at + 1, this.n);
    this.n--;
    this.groups?.get(groupKey(f, length))?.remove(id);
    if (this.bits) this.bits[id >>> 5] &= ~(1 << (id & 31));
  }

  buildGroups(lengthOf: Uint16Array): Map<number, Group> {
    if (this.groups) return this.groups;
    const groups = new Map<number, Group>();
    for (let i = 0; i < this.n; i++) {
      const e = this.data[i];
      const id = e >>> 8;
      groupOf(groups, e & MAX_F, lengthOf[id]).add(id);
    }
    this.groups = groups;
    return groups;
  }
}

/** Listings sharing one (f, length) pair in one term's list; ids ascending. */
export class Group {
  ids = new Uint32Array(2);
  n = 0;
  constructor(readonly f: number, readonly length: number) {}

  add(id: number): void {
    if (this.n === this.ids.length) {
      const grown = new Uint32Array(this.ids.length * 2);
      grown.set(this.ids);
      this.ids = grown;
    }
    const at = this.n && this.ids[this.n - 1] < id ? this.n : this.position(id);
    if (at < this.n) this.ids.copyWithin(at + 1, at, this.n);
    this.ids[at] = id;
    this.n++;
  }

  remove(id: number): void {
    const at = this.position(id);
    if (at >= this.n || this.ids[at] !== id) return;
    this.ids.copyWithin(at, at + 1, this.n);
    this.n--;
  }

  private position(id: number): number {
    let lo = 0;
    let hi = this.n;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.ids[mid] < id) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}

const groupKey = (f: number, length: number) => f * 65536 + length;

function groupOf(groups: Map<number, Group>, f: number, length: number): Group {
  const key = groupKey(f, length);
  let g = groups.get(key);
  if (!g) {
    g = new Group(f, length);
    groups.set(key, g);
  }
  return g;
}
