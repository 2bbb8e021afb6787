import type { Database, Statement } from 'better-sqlite3';
import { profileOfListing } from '../../domain/listing-profile.js';
import {
  compactProfile, decodeProfile, encodeProfile, HEAD_IDS, MAX_KEYS, pickCandidates, PROFILE_VERSION, type CompactProfile, type GroupCandidate, type MatchProfile,
} from '../../domain/matching/index.js';
import { IdSet, TwoGenerationCache } from '../../domain/id-caches.js';
import { toListing, type ListingRow } from '../sql/listing-row.js';

// Entries per cache generation (each cache holds up to two).
const POSTINGS_CACHE = 120_000;
const PROFILE_CACHE = 100_000;
const DECODED_CACHE = 10_000;

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

/**
 * Match candidates of the SQLite writer, read as the blocking index defines them
 * (pickCandidates; a listing without a profile is not taken). What the writer reads again and
 * again is kept in memory, mirrored on every write it makes: the head of each key's posting list
 * (only its first HEAD_IDS ids, which later inserts with higher ids never change) and candidates with
 * their group. Another writer's batch (seen by the writer through the event log) drops both.
 * (A bulk load's matching keeps its own, whole, in arrays: BulkMatcher.)
 */
export class MatchCandidates {
  private readonly postings = new TwoGenerationCache<string, number[]>(POSTINGS_CACHE);
  private readonly profiles = new TwoGenerationCache<number, Candidate>(PROFILE_CACHE);
  private readonly decoded = new TwoGenerationCache<number, MatchProfile>(DECODED_CACHE);
  private readonly seen = new IdSet(4 * MAX_KEYS * HEAD_IDS);
  private readonly s: Record<'ids' | 'keysOf' | 'row' | 'listing' | 'setProfile', Statement>;

  constructor(db: Database) {
    this.s = {
      ids: db.prepare(`SELECT listing_id FROM block_keys WHERE key = ? ORDER BY listing_id LIMIT ${HEAD_IDS}`).pluck(),
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
    if (!list) return;
    let at = list.length;
    while (at > 0 && list[at - 1] > id) at--;
    if (at > 0 && list[at - 1] === id) return;
    if (list.length < HEAD_IDS) list.splice(at, 0, id);
    else if (at < HEAD_IDS) {
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
      if (list.length >= HEAD_IDS) this.postings.delete(key);
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
      list = this.s.ids.all(key) as number[];
      this.postings.set(key, list);
    }
    return list;
  }

  private candidate(id: number): GroupCandidate | null {
    const hit = this.profiles.get(id);
    if (hit) return hit;
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
