/**
 * A bounded cache (or memo) in two generations: entries go to the young map; when it is full the
 * old map is dropped and the young one becomes old. A hit in the old map moves the entry back to
 * the young one, so what is used stays (a memo cleared whole at its limit would recompute
 * everything). Every operation is O(1), unlike evicting through a Map's iterator (delete the
 * first key), which walks the holes earlier deletes leave at its front.
 */
export class TwoGenerationCache<K, V> {
  private young = new Map<K, V>();
  private old = new Map<K, V>();

  /** Holds up to twice `generation` entries. */
  constructor(private readonly generation: number) {}

  get(key: K): V | undefined {
    const hit = this.young.get(key);
    if (hit !== undefined) return hit;
    const aged = this.old.get(key);
    if (aged === undefined) return undefined;
    this.old.delete(key);
    this.put(key, aged);
    return aged;
  }

  set(key: K, value: V): void {
    this.old.delete(key);
    this.put(key, value);
  }

  delete(key: K): void {
    this.young.delete(key);
    this.old.delete(key);
  }

  clear(): void {
    this.young.clear();
    this.old.clear();
  }

  private put(key: K, value: V): void {
    if (!this.young.has(key) && this.young.size >= this.generation) {
      this.old = this.young;
      this.young = new Map();
    }
    this.young.set(key, value);
  }
}

/** V8 refuses a Map's 2^24th entry (RangeError: Map maximum size exceeded); a chained map starts a new one before. */
const MAP_ENTRIES = 1 << 23;

/**
 * A Map of any size: full Maps are kept and new keys go to the last one, so a key lives in exactly
 * one of them. A bulk load's key numbers outgrow one Map (about 0.8 distinct blocking keys a listing:
 * the limit falls near 10,000,000 listings); below `perMap` entries it is one Map and one lookup.
 */
export class UnboundedMap<K, V> {
  private maps: Array<Map<K, V>> = [new Map()];

  constructor(private readonly perMap = MAP_ENTRIES) {}

  get size(): number {
    let n = 0;
    for (const m of this.maps) n += m.size;
    return n;
  }

  get(key: K): V | undefined {
    const maps = this.maps;
    let v = maps[0].get(key);
    for (let i = 1; v === undefined && i < maps.length; i++) v = maps[i].get(key);
    return v;
  }

  set(key: K, value: V): void {
    const maps = this.maps;
    for (let i = 0; i < maps.length - 1; i++) {
      if (maps[i].has(key)) {
        maps[i].set(key, value);
        return;
      }
    }
    let last = maps[maps.length - 1];
    if (last.size >= this.perMap && !last.has(key)) maps.push((last = new Map()));
    last.set(key, value);
  }

  delete(key: K): void {
    for (const m of this.maps) if (m.delete(key)) return;
  }

  clear(): void {
    this.maps = [new Map()];
  }
}

/** A set of listing ids for one lookup: open addressing over typed arrays, cleared by a generation stamp. */
export class IdSet {
  private readonly ids: Int32Array;
  private readonly stamps: Int32Array;
  private readonly shift: number;
  private stamp = 1;

  constructor(atLeast: number) {
    let bits = 6;
    while (1 << bits < atLeast) bits++;
    this.ids = new Int32Array(1 << bits);
    this.stamps = new Int32Array(1 << bits);
    this.shift = 32 - bits;
  }

  clear(): void {
    this.stamp = (this.stamp + 1) | 0;
    if (this.stamp === 0) {
      this.stamps.fill(0);
      this.stamp = 1;
    }
  }

  /** False when id was added since the last clear. */
  add(id: number): boolean {
    const mask = this.ids.length - 1;
    for (let at = Math.imul(id, 0x9e3779b1) >>> this.shift; ; at = (at + 1) & mask) {
      if (this.stamps[at] !== this.stamp) {
        this.stamps[at] = this.stamp;
        this.ids[at] = id;
        return true;
      }
      if (this.ids[at] === id) return false;
    }
  }
}
