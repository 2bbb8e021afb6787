import type { Database, Statement } from 'better-sqlite3';
import { profileOfListing } from '../../domain/listing-profile.js';
import {
  compactProfile, decodeProfile, encodeProfile, MAX_KEYS, MAX_PER_KEY, pickCandidates, PROFILE_VERSION, type CompactProfile, type GroupCandidate, type MatchProfile,
} from '../../domain/matching/index.js';
import { DenseTable, TwoGenerationCache, UnboundedMap, type IdCache, type KeyCache } from '../../domain/id-caches.js';
import { toListing, type ListingRow } from '../sql/listing-row.js';

/** Ids kept per blocking key: the first MAX_PER_KEY other than the listing asking, whoever asks. */
const KEEP = MAX_PER_KEY + 1;
// Entries per cache generation (each cache holds up to two).
const POSTINGS_CACHE = 120_000;
const PROFILE_CACHE = 100_000;
const DECODED_CACHE = 10_000;
const NONE: readonly number[] = [];

/**
 * A remembered candidate: its group and the compact form chooseGroup rules most candidates out
 * with; the full profile is decoded from its stored text only for the few it cannot (and the
 * recent ones are kept: one product's listings meet again and again).
 */
class Candidate implements GroupCandidate {
  constructor(
    readonly id: number, readonly groupId: number, public compact: CompactProfile, private readonly text: string,
    private readonly decoded: TwoGenerationCache<number, MatchProfile>,
  ) {}

  get profile(): MatchProfile {
    let p = this.decoded.get(this.id);
    if (!p) {
      p = decodeProfile(this.text);
      this.decoded.set(this.id, p);
    }
    return p;
  }
}

/** A set of listing ids for one lookup: open addressing over typed arrays, cleared by a generation stamp. */
class IdSet {
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

/**
 * Match candidates of the SQLite writer, read as the blocking index defines them
 * (pickCandidates; a listing without a profile is not taken). What the writer reads again and
 * again is kept in memory, mirrored on every write it makes: the head of each key's posting list
 * (only its first KEEP ids, which later inserts with higher ids never change) and candidates with
 * their group. Another writer's batch (seen by the writer through the event log) drops both.
 *
 * In a bulk load into an empty store every key and listing came through this writer, so the
 * caches are made complete (unbounded): a miss is then an answer and costs no read.
 */
export class MatchCandidates {
  private postings: KeyCache<string, number[]> = new TwoGenerationCache<string, number[]>(POSTINGS_CACHE);
  private profiles: IdCache<Candidate> = new TwoGenerationCache<number, Candidate>(PROFILE_CACHE);
  private complete = false;
  private readonly decoded = new TwoGenerationCache<number, MatchProfile>(DECODED_CACHE);
  private readonly seen = new IdSet(4 * MAX_KEYS * KEEP);
  private readonly s: Record<'ids' | 'keysOf' | 'row' | 'listing' | 'setProfile', Statement>;

  constructor(db: Database) {
    this.s = {
      ids: db.prepare(`SELECT listing_id FROM block_keys WHERE key = ? ORDER BY listing_id LIMIT ${KEEP}`).pluck(),
      keysOf: db.prepare('SELECT key FROM block_keys WHERE listing_id = ?').pluck(),
      row: db.prepare('SELECT group_id, match_profile FROM listings WHERE id = ?').raw(),
      listing: db.prepare('SELECT * FROM listings WHERE id = ?'),
      setProfile: db.prepare('UPDATE listings SET match_profile = ? WHERE id = ?'),
    };
  }

  clear(): void {
    this.postings.clear();
    this.profiles.clear();
    this.decoded.clear();
  }

  /** Complete caches (the writer has seen every key and listing of the store) or bounded ones; starts empty either way. */
  setComplete(on: boolean): void {
    this.complete = on;
    this.postings = on ? new UnboundedMap() : new TwoGenerationCache(POSTINGS_CACHE);
    this.profiles = on ? new DenseTable() : new TwoGenerationCache(PROFILE_CACHE);
    this.decoded.clear();
  }

  /** The listings `keys` find for listing `self`, in ascending id order (as chooseGroup is given them). */
  find(self: number, keys: readonly string[]): GroupCandidate[] {
    this.seen.clear();
    const out: GroupCandidate[] = [];
    pickCandidates(keys, self, (key) => this.head(key), (cid) => {
      if (!this.seen.add(cid)) return false;
      const c = this.candidate(cid);
      if (c) out.push(c);
      return c !== null;
    });
    return out.sort((a, b) => a.id - b.id);
  }

  /** After `INSERT OR IGNORE INTO block_keys (key, id)`. */
  added(key: string, id: number): void {
    const list = this.postings.get(key);
    if (!list) {
      if (this.complete) this.postings.set(key, [id]);
      return;
    }
    let at = list.length;
    while (at > 0 && list[at - 1] > id) at--;
    if (at > 0 && list[at - 1] === id) return;
    if (list.length < KEEP) list.splice(at, 0, id);
    else if (at < KEEP) {
      list.splice(at, 0, id);
      list.pop();
    }
  }

  /** Before deleting a listing's keys: its id leaves the cached heads (a full head is read again). */
  removing(id: number): void {
    for (const key of this.s.keysOf.all(id) as string[]) {
      const list = this.postings.get(key);
      if (!list) continue;
      const at = list.indexOf(id);
      if (at < 0) continue;
      if (list.length >= KEEP) this.postings.delete(key);
      else list.splice(at, 1);
    }
  }

  /** `text` is encodeProfile(profile), as stored. */
  remember(id: number, groupId: number, profile: MatchProfile, text: string): GroupCandidate {
    this.decoded.delete(id);
    const entry = new Candidate(id, groupId, compactProfile(profile), text, this.decoded);
    this.profiles.set(id, entry);
    return entry;
  }

  private head(key: string): readonly number[] {
    let list = this.postings.get(key);
    if (!list) {
      if (this.complete) return NONE;
      list = this.s.ids.all(key) as number[];
      this.postings.set(key, list);
    }
    return list;
  }

  private candidate(id: number): GroupCandidate | null {
    const hit = this.profiles.get(id);
    if (hit || this.complete) return hit ?? null;
    const row = this.s.row.get(id) as [number, string | null] | undefined;
    if (!row?.[1]) return null;
    let text = row[1];
    let profile = decodeProfile(text);
    if (profile.v !== PROFILE_VERSION) {
      // Stored by an older matcher: rebuild from the listing and store it again.
      profile = profileOfListing(toListing(this.s.listing.get(id) as ListingRow));
      text = encodeProfile(profile);
      this.s.setProfile.run(text, id);
    }
    return this.remember(id, row[0], profile, text);
  }
}
