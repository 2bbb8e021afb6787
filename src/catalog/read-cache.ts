import { TwoGenerationCache } from '../domain/id-caches.js';

/** Entries kept per generation (a cache holds up to two): bounds the memory decoded listings take. */
const GENERATION = 10_000;
/**
 * The longest anything is served from here. A re-import that changes nothing moves only
 * last_checked_at and writes no event, so nothing else would clear it (the spec lets a V2 search
 * answer be as old).
 */
export const READ_CACHE_MS = 60_000;

/**
 * What search and listing pages read per result, by id (listings, group sizes), kept so the first
 * page of a popular query is not read and decoded again on every request: reading a row's
 * columns into strings, parsing its JSON and counting its group are most of what a search costs.
 * Any catalog change clears it (the event tail, and this process's own writes at once); a read
 * that began before a clear does not fill it afterwards; unchanged entries are read again after
 * READ_CACHE_MS.
 */
export class ReadCache<V> {
  private entries = new TwoGenerationCache<number, V>(GENERATION);
  private generation = 0;
  private clearedAt: number;

  constructor(private readonly now: () => Date) {
    this.clearedAt = now().getTime();
  }

  clear(): void {
    this.generation++;
    this.entries.clear();
    this.clearedAt = this.now().getTime();
  }

  /** The entries of `ids` (those `load` does not find left out); only the misses are loaded. */
  async getMany(ids: readonly number[], load: (ids: number[]) => Promise<Map<number, V>>): Promise<Map<number, V>> {
    if (this.now().getTime() - this.clearedAt >= READ_CACHE_MS) this.clear();
    const out = new Map<number, V>();
    const missing: number[] = [];
    for (const id of ids) {
      const hit = this.entries.get(id);
      if (hit === undefined) missing.push(id);
      else out.set(id, hit);
    }
    if (!missing.length) return out;
    const generation = this.generation;
    const loaded = await load(missing);
    for (const [id, v] of loaded) {
      out.set(id, v);
      if (generation === this.generation) this.entries.set(id, v);
    }
    return out;
  }
}
