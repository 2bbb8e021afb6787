import type { Database, Statement } from 'better-sqlite3';
import { profileOfListing } from '../../domain/listing-profile.js';
import {
  BLOOM, CompactArena, compactProfile, compareProfiles, KEEPER, decodeProfile, encodeProfile, GroupTally, MAX_KEYS, MAX_PER_KEY, mayBeExactAt, pickCandidates,
  PROFILE_VERSION, type CompactProfile, type GroupCandidate, type MatchProfile,
} from '../../domain/matching/index.js';
import { TwoGenerationCache, UnboundedMap, type IdCache, type KeyCache } from '../../domain/id-caches.js';
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

/**
 * What a bulk load keeps, all in arrays: the posting head of each blocking key by the key's number
 * (KeyNumbers), and of the listings a head holds (the only ones that are ever candidates) the
 * compact form where its batch brought it, the group, and the stored profile text, decoded for the
 * few comparisons the forms cannot rule out. A bulk load matches in ascending id order, so a head
 * only ever grows at its end.
 */
class Kept {
  readonly forms = new CompactArena();
  /** The KeyNumbers space the heads are numbered in (-1 until the first batch). */
  space = -1;
  private readonly texts: string[] = [];
  private heads = new Int32Array(KEEP * 4096);
  private counts = new Uint8Array(4096);

  constructor(private readonly decoded: TwoGenerationCache<number, MatchProfile>) {}

  head(key: number): Int32Array {
    return key < this.counts.length ? this.heads.subarray(key * KEEP, key * KEEP + this.counts[key]) : NO_IDS;
  }

  /** Appends `id` to key `key`'s head unless it is full: whether the head holds it. */
  post(key: number, id: number): boolean {
    if (key >= this.counts.length) this.growHeads(key);
    const n = this.counts[key];
    if (n >= KEEP) return false;
    this.heads[key * KEEP + n] = id;
    this.counts[key] = n + 1;
    return true;
  }

  /** Its group goes in its form's KEEPER slot: read beside the form's first values. */
  add(id: number, groupId: number, array: number, offset: number, text: string): void {
    this.forms.set(id, array, offset, groupId);
    this.texts[id] = text;
  }

  profile(id: number): MatchProfile {
    let p = this.decoded.get(id);
    if (!p) {
      p = decodeProfile(this.texts[id]);
      this.decoded.set(id, p);
    }
    return p;
  }

  private growHeads(key: number): void {
    let n = this.counts.length;
    while (n <= key) n *= 2;
    const counts = new Uint8Array(n);
    counts.set(this.counts);
    const heads = new Int32Array(n * KEEP);
    heads.set(this.heads);
    this.counts = counts;
    this.heads = heads;
  }
}

const NO_IDS: Int32Array = new Int32Array(0);

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
 * caches are made complete (unbounded): a miss is then an answer and costs no read. Its
 * candidates are then kept as arrays (Kept) and chosen among by `chooseKept`, with no object
 * per listing or candidate.
 */
export class MatchCandidates {
  private postings: KeyCache<string, number[]> = new TwoGenerationCache<string, number[]>(POSTINGS_CACHE);
  private profiles: IdCache<Candidate> = new TwoGenerationCache<number, Candidate>(PROFILE_CACHE);
  private complete = false;
  private kept: Kept | null = null;
  private readonly decoded = new TwoGenerationCache<number, MatchProfile>(DECODED_CACHE);
  private readonly seen = new IdSet(4 * MAX_KEYS * KEEP);
  private readonly tally = new GroupTally();
  /** The candidates chooseKept found, `found` of them. */
  private readonly ids = new Int32Array(MAX_KEYS * KEEP);
  private found = 0;
  /** Where chooseKept leaves what it read ahead, so the reads are not optimized away. */
  touched = 0;
  private readonly keptHead = (key: number) => this.kept!.head(key);
  private readonly takeKept = (id: number) => {
    if (!this.seen.add(id) || !this.kept!.forms.has(id)) return false;
    this.ids[this.found++] = id;
    return true;
  };
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
    if (this.kept) this.kept = new Kept(this.decoded);
  }

  /** Complete caches (the writer has seen every key and listing of the store) or bounded ones; starts empty either way. */
  setComplete(on: boolean): void {
    this.complete = on;
    this.postings = on ? new UnboundedMap() : new TwoGenerationCache(POSTINGS_CACHE);
    this.profiles.clear();
    this.decoded.clear();
    this.kept = on ? new Kept(this.decoded) : null;
  }

  /**
   * Starts or goes on with a bulk load's batches numbered in `space` (KeyNumbers): false for
   * batches of another numbering, whose key numbers mean other keys here.
   */
  keptSpace(space: number): boolean {
    const kept = this.kept!;
    if (kept.space === -1) kept.space = space;
    return kept.space === space;
  }

  /** Keeps a batch's array of compact forms (see `keep`): its number. */
  adoptForms(h: Int32Array): number {
    return this.kept!.forms.adopt(h);
  }

  /**
   * With complete caches: the group listing `self` joins (its own id for a new one), by
   * chooseGroup's rule over the candidates its keys (by number) find, ruled out on their kept forms
   * (the listing's own form at `base` of `h`). `profile` gives the listing's profile; it is asked
   * only for a candidate the forms cannot rule out.
   */
  chooseKept(self: number, keys: Int32Array, h: Int32Array, base: number, profile: () => MatchProfile): number {
    const kept = this.kept!;
    this.seen.clear();
    this.found = 0;
    pickCandidates(keys, self, this.keptHead, this.takeKept);
    // In ascending id order, as chooseGroup is given them (insertion sort: a listing has at most 40).
    const ids = this.ids;
    for (let i = 1; i < this.found; i++) {
      const x = ids[i];
      let j = i - 1;
      for (; j >= 0 && ids[j] > x; j--) ids[j + 1] = ids[j];
      ids[j + 1] = x;
    }
    // Each candidate's first two cache lines, read before any is compared: these reads do not
    // depend on each other, so the CPU waits for their misses together, not one after another.
    let touched = 0;
    for (let i = 0; i < this.found; i++) {
      const form = kept.forms.array(ids[i]);
      const at = kept.forms.offset(ids[i]);
      touched |= form[at] | form[at + BLOOM];
    }
    this.touched = touched;
    const tally = this.tally;
    tally.reset();
    let own: MatchProfile | null = null;
    for (let i = 0; i < this.found; i++) {
      const id = ids[i];
      const form = kept.forms.array(id);
      const at = kept.forms.offset(id);
      let score: number | null = null;
      if (mayBeExactAt(h, base, form, at)) {
        const r = compareProfiles((own ??= profile()), kept.profile(id));
        if (r.matchClass === 'exact') score = r.score;
      }
      tally.add(form[at + KEEPER], score);
    }
    const slot = tally.chosen();
    return slot < 0 ? self : tally.groupAt(slot);
  }

  /**
   * With complete caches, in ascending id order: listing `id` was stored in `groupId` under `keys`
   * (by number); its form (at `offset` of adopted array `array`) is kept when a key's head holds it.
   */
  keep(id: number, groupId: number, keys: Int32Array, array: number, offset: number, text: string): void {
    const kept = this.kept!;
    let held = false;
    for (let k = 0; k < keys.length; k++) if (kept.post(keys[k], id)) held = true;
    if (held) kept.add(id, groupId, array, offset, text);
  }

  /** The listings `keys` find for listing `self`, in ascending id order (as chooseGroup is given them); not in a bulk load (chooseKept). */
  find(self: number, keys: readonly string[]): GroupCandidate[] {
    if (this.kept) throw new Error('MatchCandidates.find during a bulk load: use chooseKept');
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

  /** After `INSERT OR IGNORE INTO block_keys (key, id)`: whether the key's cached head holds the id. */
  added(key: string, id: number): boolean {
    const list = this.postings.get(key);
    if (!list) {
      if (this.complete) this.postings.set(key, [id]);
      return this.complete;
    }
    let at = list.length;
    while (at > 0 && list[at - 1] > id) at--;
    if (at > 0 && list[at - 1] === id) return true;
    if (list.length < KEEP) list.splice(at, 0, id);
    else if (at < KEEP) {
      list.splice(at, 0, id);
      list.pop();
    } else return false;
    return true;
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
