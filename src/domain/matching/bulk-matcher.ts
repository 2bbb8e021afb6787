import { IdSet, TwoGenerationCache, UnboundedMap } from '../id-caches.js';
import { HEAD_IDS, MAX_KEYS, pickCandidates } from './blocking.js';
import { CompactArena } from './compact-arena.js';
import { BLOOM, KEEPER } from './compact-profile.js';
import { GroupTally } from './group.js';
import { mayBeExactAt } from './prefilter.js';
import { decodeProfile } from './profile-codec.js';
import { compareProfiles } from './score.js';
import type { MatchProfile } from './types.js';

/**
 * Listings to match, as a profile worker packs them (store/sqlite/pending-profiles.ts): arrays and
 * two strings, so a batch crosses threads as a few copies (or moves) and makes no object per
 * listing on the other side.
 */
export interface MatchBatch {
  ids: Int32Array;
  /** Where each listing's compact form starts in `compact`. */
  at: Int32Array;
  /** The compact forms (writeCompact), one after another; kept as they are, never written but for KEEPER. */
  compact: Int32Array;
  /** encodeProfile(profile) of each, as stored, one after another; `textEnds[k]` is where listing k's ends. */
  texts: string;
  textEnds: Int32Array;
  /** The numbers (KeyNumbers) of each listing's blocking keys, one after another; `keyEnds[k]` is where listing k's end. */
  keyNumbers: Int32Array;
  keyEnds: Int32Array;
}

/**
 * Numbers the distinct blocking keys of one bulk load in the order they are first met, where the
 * profiles are built: the matcher keeps each key's posting head in arrays at its number and never
 * hashes a key's text. One numbering serves one BulkMatcher.
 */
export class KeyNumbers {
  private readonly numbers = new UnboundedMap<string, number>();
  private next = 0;

  of(key: string): number {
    let n = this.numbers.get(key);
    if (n === undefined) {
      n = this.next++;
      this.numbers.set(key, n);
    }
    return n;
  }
}

const DECODED_CACHE = 2_000;
const NO_IDS: Int32Array = new Int32Array(0);

/**
 * The matching of a bulk load: every listing against the listings before it (ascending ids),
 * exactly as row-by-row ingest matches (pickCandidates, then chooseGroup's rule in GroupTally),
 * with all it keeps in arrays rather than an object per listing or candidate:
 *
 * - each distinct blocking key gets a number, and its head (its oldest HEAD_IDS ids) lies in one
 *   Int32Array at that number; a head only grows at its end, since ids ascend;
 * - of the listings a head holds (the only ones ever candidates) the compact form stays where its
 *   batch brought it (CompactArena), with the listing's group in its KEEPER slot, and where its
 *   stored profile text lies in its batch's string, decoded for the few comparisons the forms
 *   cannot rule out.
 *
 * It reads no store: a worker thread runs it beside the thread that writes (match-worker.ts).
 */
export class BulkMatcher {
  private readonly forms = new CompactArena();
  /** Each batch's texts; by id, its batch's and where its text lies there (3 values). */
  private readonly batchTexts: string[] = [];
  private textAt = new Int32Array(3 * 1024);
  private heads = new Int32Array(HEAD_IDS * 4096);
  private counts = new Uint8Array(4096);
  private readonly decoded = new TwoGenerationCache<number, MatchProfile>(DECODED_CACHE);
  private readonly seen = new IdSet(4 * MAX_KEYS * HEAD_IDS);
  private readonly tally = new GroupTally();
  /** The candidates `choose` found, `found` of them. */
  private readonly ids = new Int32Array(MAX_KEYS * HEAD_IDS);
  private found = 0;
  /** Where `choose` leaves what it read ahead, so the reads are not optimized away. */
  touched = 0;
  private last = 0;
  private readonly headOf = (key: number) => this.head(key);
  private readonly take = (id: number) => {
    if (!this.seen.add(id) || !this.forms.has(id)) return false;
    this.ids[this.found++] = id;
    return true;
  };

  /** The group each listing of the batch joins (its own id for a new group), in order; the batch's arrays are kept. */
  match(batch: MatchBatch): Int32Array {
    const { ids, at, compact, texts, textEnds, keyNumbers, keyEnds } = batch;
    const groups = new Int32Array(ids.length);
    const array = this.forms.adopt(compact);
    const textBatch = this.batchTexts.push(texts) - 1;
    for (let k = 0, key = 0, text = 0; k < ids.length; key = keyEnds[k], text = textEnds[k], k++) {
      const id = ids[k];
      if (id <= this.last) throw new Error(`BulkMatcher: listing ${id} after ${this.last}; ids must ascend`);
      this.last = id;
      const numbers = keyNumbers.subarray(key, keyEnds[k]);
      const groupId = this.choose(id, numbers, compact, at[k], texts, text, textEnds[k]);
      groups[k] = groupId;
      let held = false;
      for (let i = 0; i < numbers.length; i++) if (this.post(numbers[i], id)) held = true;
      if (!held) continue;
      this.forms.set(id, array, at[k], groupId);
      if (3 * id + 2 >= this.textAt.length) this.growTexts(id);
      this.textAt[3 * id] = textBatch;
      this.textAt[3 * id + 1] = text;
      this.textAt[3 * id + 2] = textEnds[k];
    }
    return groups;
  }

  /** `texts.slice(from, to)` is the listing's profile text. */
  private choose(self: number, keys: Int32Array, h: Int32Array, base: number, texts: string, from: number, to: number): number {
    const forms = this.forms;
    this.seen.clear();
    this.found = 0;
    pickCandidates(keys, self, this.headOf, this.take);
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
      const form = forms.array(ids[i]);
      const at = forms.offset(ids[i]);
      touched |= form[at] | form[at + BLOOM];
    }
    this.touched = touched;
    const tally = this.tally;
    tally.reset();
    let own: MatchProfile | null = null;
    for (let i = 0; i < this.found; i++) {
      const id = ids[i];
      const form = forms.array(id);
      const at = forms.offset(id);
      let score: number | null = null;
      if (mayBeExactAt(h, base, form, at)) {
        const r = compareProfiles((own ??= decodeProfile(texts.slice(from, to))), this.profile(id));
        if (r.matchClass === 'exact') score = r.score;
      }
      tally.add(form[at + KEEPER], score);
    }
    const slot = tally.chosen();
    return slot < 0 ? self : tally.groupAt(slot);
  }

  private head(key: number): Int32Array {
    return key < this.counts.length ? this.heads.subarray(key * HEAD_IDS, key * HEAD_IDS + this.counts[key]) : NO_IDS;
  }

  /** Appends `id` to key `key`'s head unless it is full: whether the head holds it. */
  private post(key: number, id: number): boolean {
    if (key >= this.counts.length) this.growHeads(key);
    const n = this.counts[key];
    if (n >= HEAD_IDS) return false;
    this.heads[key * HEAD_IDS + n] = id;
    this.counts[key] = n + 1;
    return true;
  }

  private profile(id: number): MatchProfile {
    let p = this.decoded.get(id);
    if (!p) {
      const t = this.textAt;
      p = decodeProfile(this.batchTexts[t[3 * id]].slice(t[3 * id + 1], t[3 * id + 2]));
      this.decoded.set(id, p);
    }
    return p;
  }

  private growTexts(id: number): void {
    let n = this.textAt.length;
    while (n <= 3 * id + 2) n *= 2;
    const next = new Int32Array(n);
    next.set(this.textAt);
    this.textAt = next;
  }

  private growHeads(key: number): void {
    let n = this.counts.length;
    while (n <= key) n *= 2;
    const counts = new Uint8Array(n);
    counts.set(this.counts);
    const heads = new Int32Array(n * HEAD_IDS);
    heads.set(this.heads);
    this.counts = counts;
    this.heads = heads;
  }
}
