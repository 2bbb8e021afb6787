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

/** The operations MatchCandidates uses on its listing cache; TwoGenerationCache and DenseTable have them. */
export interface IdCache<V> {
  get(id: number): V | undefined;
  set(id: number, value: V): void;
  delete(id: number): void;
  clear(): void;
}

/**
 * Every entry, in an array indexed by id: for a bulk load, which keeps every listing of the
 * store (ids are dense), and where a lookup in a Map of a million entries missed the CPU cache
 * about as often as the array read it replaces hits it.
 */
export class DenseTable<V> implements IdCache<V> {
  private items: Array<V | undefined> = [];

  get(id: number): V | undefined {
    return this.items[id];
  }

  set(id: number, value: V): void {
    this.items[id] = value;
  }

  delete(id: number): void {
    if (id < this.items.length) this.items[id] = undefined;
  }

  clear(): void {
    this.items = [];
  }
}
