import { MAX_CANDIDATES, MAX_PER_KEY } from './blocking.js';
import type { GroupCandidate } from './group.js';

/**
 * The ingest rule for candidates over an in-memory blocking index (key -> listing ids, oldest
 * first): keys in the order blockingKeys returns them, at most MAX_PER_KEY ids from a key (a
 * listing met under an earlier key counts), each listing once, at most MAX_CANDIDATES.
 * The store writers apply the same rule to their tables; evaluations and tests use this one.
 */
export class MemoryBlocks<C extends GroupCandidate = GroupCandidate> {
  private readonly index = new Map<string, number[]>();
  readonly listings: C[] = [];

  candidates(keys: readonly string[]): C[] {
    const seen = new Set<number>();
    const out: C[] = [];
    for (const key of keys) {
      let taken = 0;
      for (const id of this.index.get(key) ?? []) {
        if (out.length >= MAX_CANDIDATES) return out;
        if (taken++ >= MAX_PER_KEY) break;
        if (seen.has(id)) continue;
        seen.add(id);
        out.push(this.listings[id]);
      }
    }
    return out;
  }

  /** Adds the next listing (its id must be `listings.length`) under its keys. */
  add(listing: C, keys: readonly string[]): void {
    this.listings.push(listing);
    for (const key of keys) {
      const ids = this.index.get(key);
      if (ids) ids.push(listing.id);
      else this.index.set(key, [listing.id]);
    }
  }

  /** The longest key list: how skewed blocking is. */
  maxPostings(): number {
    let max = 0;
    for (const ids of this.index.values()) max = Math.max(max, ids.length);
    return max;
  }
}
