import { pickCandidates } from './blocking.js';
import type { GroupCandidate } from './group.js';

/**
 * The ingest rule for candidates (pickCandidates) over an in-memory blocking index (key ->
 * listing ids, oldest first). The store writers apply the same rule to their tables; evaluations
 * and tests use this one.
 */
export class MemoryBlocks<C extends GroupCandidate = GroupCandidate> {
  private readonly index = new Map<string, number[]>();
  readonly listings: C[] = [];

  candidates(keys: readonly string[]): C[] {
    const seen = new Set<number>();
    const out: C[] = [];
    const none: number[] = [];
    // The listing asking is not in the index yet: no id is its own.
    pickCandidates(keys, -1, (key) => this.index.get(key) ?? none, (id) => {
      if (seen.has(id)) return false;
      seen.add(id);
      out.push(this.listings[id]);
      return true;
    });
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
