import { MAX_PER_KEY, type GroupCandidate, type MatchProfile } from '../../domain/matching/index.js';

/** Posting-list entries read per key: the per-key cap, the listing itself, and room for removals before a re-read. */
export const POSTINGS_READ = MAX_PER_KEY + 8;
const POSTINGS_CACHE = 400_000;
/** Profiles kept, each with its compact form: a miss costs a read, a decode and a compact form. */
const PROFILE_CACHE = 200_000;
/** Ids above this are not cached (the arrays below are indexed by id). */
const META_MAX_ID = 1 << 26;

const UNKNOWN = 0;
const HAS_PROFILE = 1;
/** No profile stored, or no such listing: skipped as a candidate, as both writers do. */
const NO_PROFILE = 2;

/**
 * The lowest listing ids under one blocking key. When `complete` is false the list is exact only
 * up to its last id: higher ids exist in the table but were not read.
 */
export interface Postings {
  ids: number[];
  complete: boolean;
}

/** Index of the first id >= `id`. */
function lowerBound(ids: number[], id: number): number {
  let lo = 0;
  let hi = ids.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (ids[mid] < id) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * What the ingest writer knows of the table between its batches: posting lists of blocking keys,
 * each listing's group and whether it has a profile, and parsed profiles. It is exact only while
 * this writer is the only one writing: the writer clears it when another one has written since
 * its last batch (writers take turns on one counter row, so it can tell), and whenever a batch
 * fails. Within a batch it is updated as records are planned, ahead of the batch's writes.
 */
export class MatchCache {
  private readonly postings = new Map<string, Postings>();
  private groups = new Float64Array(0);
  private states = new Uint8Array(0);
  /** Listings with ids past the arrays' reach. */
  private readonly far = new Map<number, { group: number; state: number }>();
  /**
   * Listings with a parsed profile, as chooseGroup takes them (it keeps each profile's compact form
   * on the object, so it is built once per listing, not once per comparison), with the batch that
   * last used each: trimming keeps what was used last.
   */
  private readonly profiles = new Map<number, GroupCandidate & { used: number }>();
  private batch = 0;

  clear(): void {
    this.postings.clear();
    this.groups = new Float64Array(0);
    this.states = new Uint8Array(0);
    this.far.clear();
    this.profiles.clear();
  }

  /** Drops the oldest entries past the caps; called between batches, never inside one. */
  trim(): void {
    for (const [map, cap] of [[this.postings, POSTINGS_CACHE], [this.far, POSTINGS_CACHE]] as const) {
      let excess = map.size - cap;
      for (const k of map.keys()) {
        if (excess-- <= 0) break;
        (map as Map<unknown, unknown>).delete(k);
      }
    }
    if (this.profiles.size > PROFILE_CACHE) {
      // Oldest first; one used in the batch just written gets a second chance at the end.
      let excess = this.profiles.size - PROFILE_CACHE * 0.9;
      for (const [id, entry] of [...this.profiles]) {
        if (excess <= 0) break;
        this.profiles.delete(id);
        if (entry.used === this.batch) this.profiles.set(id, entry);
        else excess--;
      }
    }
    this.batch++;
  }

  postingsOf(key: string): Postings | undefined {
    return this.postings.get(key);
  }

  setPostings(key: string, ids: number[], complete: boolean): void {
    this.postings.set(key, { ids, complete });
  }

  /** A listing now carries `key`. Beyond the known prefix of a partial list there is nothing to record. */
  addPosting(key: string, id: number): void {
    const p = this.postings.get(key);
    if (!p) return;
    const { ids } = p;
    if (!p.complete && (!ids.length || id > ids[ids.length - 1])) return;
    const at = lowerBound(ids, id);
    if (ids[at] === id) return;
    ids.splice(at, 0, id);
    if (ids.length > POSTINGS_READ) {
      ids.length = POSTINGS_READ;
      p.complete = false;
    }
  }

  removePosting(key: string, id: number): void {
    const p = this.postings.get(key);
    if (!p) return;
    const at = lowerBound(p.ids, id);
    if (p.ids[at] === id) p.ids.splice(at, 1);
  }

  private grow(id: number): boolean {
    if (id >= META_MAX_ID) return false;
    if (id >= this.states.length) {
      const size = Math.min(META_MAX_ID, Math.max(1024, id * 2));
      const groups = new Float64Array(size);
      groups.set(this.groups);
      const states = new Uint8Array(size);
      states.set(this.states);
      this.groups = groups;
      this.states = states;
    }
    return true;
  }

  private stateOf(id: number): number {
    return id < this.states.length ? this.states[id] : (this.far.get(id)?.state ?? UNKNOWN);
  }

  /** Whether the listing's group and profile presence are known here. */
  known(id: number): boolean {
    return this.stateOf(id) !== UNKNOWN;
  }

  /** A candidate only when it has a profile; `known(id)` must hold. */
  hasProfile(id: number): boolean {
    return this.stateOf(id) === HAS_PROFILE;
  }

  groupOf(id: number): number {
    return id < this.groups.length ? this.groups[id] : (this.far.get(id)?.group ?? 0);
  }

  setMeta(id: number, groupId: number, hasProfile: boolean): void {
    const state = hasProfile ? HAS_PROFILE : NO_PROFILE;
    if (this.grow(id)) {
      this.groups[id] = groupId;
      this.states[id] = state;
    } else {
      this.far.set(id, { group: groupId, state });
    }
  }

  /** The listing as a candidate, with its current group; undefined when its profile is not here. */
  candidate(id: number): GroupCandidate | undefined {
    const entry = this.profiles.get(id);
    if (!entry) return undefined;
    entry.used = this.batch;
    entry.groupId = this.groupOf(id);
    return entry;
  }

  hasProfileCached(id: number): boolean {
    return this.profiles.has(id);
  }

  setProfile(id: number, profile: MatchProfile): void {
    const entry = this.profiles.get(id);
    if (entry?.profile === profile) entry.used = this.batch;
    else this.profiles.set(id, { id, groupId: this.groupOf(id), profile, used: this.batch });
  }
}
