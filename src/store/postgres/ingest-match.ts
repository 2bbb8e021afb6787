import { profileOfListing } from '../../domain/listing-profile.js';
import { chooseGroup, decodeProfile, encodeProfile, MAX_PER_KEY, pickCandidates, PROFILE_VERSION, type GroupCandidate, type MatchProfile } from '../../domain/matching/index.js';
import { toListing, type ListingRow } from '../sql/listing-row.js';
import { LISTING_COLUMNS } from './columns.js';
import { MatchCache, POSTINGS_READ, type Postings } from './match-cache.js';
import { rows, type Db } from './sql.js';

/** One listing whose group is chosen (again), in record order. */
export interface RegroupOp {
  id: number;
  /** Not in the table before this batch: it has no stored keys. */
  isNew: boolean;
  profile: MatchProfile;
  /** Blocking keys, most selective first. */
  keys: string[];
  /** Set by `GroupAssigner.assign`: the candidates compared, by id, and the group chosen. */
  candidates?: number[];
  groupId?: number;
}

/** Block keys to delete and insert so the table holds each regrouped listing's last keys. */
export interface KeyChanges {
  removed: Array<[key: string, id: number]>;
  added: Array<[key: string, id: number]>;
}

const POSTINGS = `SELECT k.n, b.listing_id FROM unnest(?::text[]) WITH ORDINALITY AS k(key, n)
  CROSS JOIN LATERAL (SELECT listing_id FROM block_keys b WHERE b.key = k.key ORDER BY b.listing_id LIMIT ?) b`;
const META = 'SELECT id, group_id, match_profile IS NOT NULL AS has_profile FROM listings WHERE id = ANY(?::bigint[])';
const PROFILES = 'SELECT id, match_profile FROM listings WHERE id = ANY(?::bigint[]) AND match_profile IS NOT NULL';
const STORED_KEYS = 'SELECT listing_id, key FROM block_keys WHERE listing_id = ANY(?::bigint[])';

/** The list gives MAX_PER_KEY ids besides `self`, or all there are. */
function enough(p: Postings, self: number): boolean {
  return p.complete || p.ids.length > MAX_PER_KEY || (p.ids.length === MAX_PER_KEY && !p.ids.includes(self));
}

/** Which ids the current op has looked at: a stamp per id, so the next op starts with one increment, not a fresh set. */
class Seen {
  private stamps = new Uint32Array(1024);
  private stamp = 0;
  private readonly far = new Set<number>();

  next(): void {
    this.stamp++;
    this.far.clear();
  }

  /** Marks `id`; true when it was marked already for this op. */
  check(id: number): boolean {
    if (id >= 1 << 26) return this.far.has(id) || (this.far.add(id), false);
    if (id >= this.stamps.length) {
      const grown = new Uint32Array(Math.min(1 << 26, Math.max(id + 1, this.stamps.length * 2)));
      grown.set(this.stamps);
      this.stamps = grown;
    }
    if (this.stamps[id] === this.stamp) return true;
    this.stamps[id] = this.stamp;
    return false;
  }
}

/**
 * Chooses the group of every op as the SQLite writer does record by record: candidates by the
 * blocking rule (pickCandidates; listings with a profile), as the table stands after the ops
 * before. The table is read a whole batch at once (posting lists, groups, profiles), then the
 * batch's own key changes are replayed in memory, so each op sees what the one before it wrote.
 */
export class GroupAssigner {
  constructor(private readonly cache: MatchCache) {}

  /**
   * Reads what the ops need and picks each op's candidates (`op.candidates`), applying the key
   * changes of the ops before it; returns the block-key changes to write. `choose` then decides.
   */
  async select(db: Db, ops: RegroupOp[]): Promise<KeyChanges> {
    const { cache } = this;
    const stored = await this.storedKeys(db, ops);
    const current = new Map<number, Set<string>>(stored);
    const needed = new Set<string>();
    for (const op of ops) for (const k of op.keys) needed.add(k);
    await this.readPostings(db, [...needed].filter((k) => !cache.postingsOf(k)), POSTINGS_READ);
    await this.readMeta(db, [...needed]);

    // Pass 1: each op's candidates, applying the key changes of the ops before it.
    const log = new Map<string, Array<[add: boolean, id: number]>>();
    const regrouped = new Set<number>();
    const fromTable = new Set<number>();
    const seen = new Seen();
    for (const op of ops) {
      const picked: number[] = [];
      seen.next();
      // The rule reads postings synchronously: a list shortened below the share is read first.
      const lists = new Map<string, readonly number[]>();
      for (const key of op.keys) {
        const p = cache.postingsOf(key)!;
        lists.set(key, (enough(p, op.id) ? p : await this.reread(db, key, op.id, log)).ids);
      }
      pickCandidates(op.keys, op.id, (key) => lists.get(key)!, (cid) => {
        if (seen.check(cid) || !cache.hasProfile(cid)) return false;
        picked.push(cid);
        if (!regrouped.has(cid) && !cache.hasProfileCached(cid)) fromTable.add(cid);
        return true;
      });
      op.candidates = picked.sort((a, b) => a - b);
      const before = current.get(op.id) ?? new Set<string>();
      const after = new Set(op.keys);
      for (const k of before) if (!after.has(k)) this.change(log, k, false, op.id);
      for (const k of after) if (!before.has(k)) this.change(log, k, true, op.id);
      current.set(op.id, after);
      regrouped.add(op.id);
      cache.setMeta(op.id, cache.known(op.id) ? cache.groupOf(op.id) : op.id, true);
    }
    await this.readProfiles(db, [...fromTable]);

    const changes: KeyChanges = { removed: [], added: [] };
    for (const [id, after] of current) {
      const before = stored.get(id) ?? new Set<string>();
      for (const k of before) if (!after.has(k)) changes.removed.push([k, id]);
      for (const k of after) if (!before.has(k)) changes.added.push([k, id]);
    }
    return changes;
  }

  /** The groups of ops[from..to), after those before: an op's group and profile are what later ops see. No I/O. */
  choose(ops: RegroupOp[], from = 0, to = ops.length): void {
    const { cache } = this;
    for (const op of ops.slice(from, to)) {
      const candidates: GroupCandidate[] = [];
      for (const id of op.candidates!) {
        const c = cache.candidate(id);
        if (c) candidates.push(c);
      }
      op.groupId = chooseGroup(op.profile, candidates)?.groupId ?? op.id;
      cache.setMeta(op.id, op.groupId, true);
      cache.setProfile(op.id, op.profile);
    }
  }

  private change(log: Map<string, Array<[boolean, number]>>, key: string, add: boolean, id: number): void {
    let entries = log.get(key);
    if (!entries) log.set(key, (entries = []));
    entries.push([add, id]);
    if (add) this.cache.addPosting(key, id);
    else this.cache.removePosting(key, id);
  }

  /** Keys the batch's existing listings carry in the table now. */
  private async storedKeys(db: Db, ops: RegroupOp[]): Promise<Map<number, Set<string>>> {
    const ids = [...new Set(ops.filter((o) => !o.isNew).map((o) => o.id))];
    const out = new Map<number, Set<string>>(ids.map((id) => [id, new Set<string>()]));
    if (!ids.length) return out;
    for (const r of await rows<{ listing_id: number; key: string }>(db, STORED_KEYS, [ids], true)) out.get(r.listing_id)!.add(r.key);
    return out;
  }

  private async readPostings(db: Db, keys: string[], limit: number): Promise<void> {
    if (!keys.length) return;
    const lists = keys.map((): number[] => []);
    for (const r of await rows<{ n: number; listing_id: number }>(db, POSTINGS, [keys, limit], true)) lists[r.n - 1].push(r.listing_id);
    keys.forEach((k, i) => this.cache.setPostings(k, lists[i].sort((a, b) => a - b), lists[i].length < limit));
  }

  /** Groups and profile presence of every listing the keys' lists name that the cache does not know. */
  private async readMeta(db: Db, keys: string[]): Promise<void> {
    const unknown = new Set<number>();
    for (const k of keys) for (const id of this.cache.postingsOf(k)?.ids ?? []) if (!this.cache.known(id)) unknown.add(id);
    if (!unknown.size) return;
    const ids = [...unknown];
    const found = await rows<{ id: number; group_id: number; has_profile: boolean }>(db, META, [ids], true);
    for (const r of found) {
      this.cache.setMeta(r.id, r.group_id, r.has_profile);
      unknown.delete(r.id);
    }
    for (const id of unknown) this.cache.setMeta(id, 0, false);
  }

  /**
   * Removals can shorten a partial list below MAX_PER_KEY ids besides the listing itself: the
   * key is read again (the table still holds the batch's starting state), longer, and the batch's
   * changes so far are replayed on it.
   */
  private async reread(db: Db, key: string, self: number, log: Map<string, Array<[boolean, number]>>): Promise<Postings> {
    for (let limit = POSTINGS_READ * 2; ; limit *= 2) {
      await this.readPostings(db, [key], limit);
      for (const [add, id] of log.get(key) ?? []) {
        if (add) this.cache.addPosting(key, id);
        else this.cache.removePosting(key, id);
      }
      await this.readMeta(db, [key]);
      const p = this.cache.postingsOf(key)!;
      if (enough(p, self)) return p;
    }
  }

  private async readProfiles(db: Db, ids: number[]): Promise<void> {
    if (!ids.length) return;
    for (const r of await rows<{ id: number; match_profile: string }>(db, PROFILES, [ids], true)) {
      let profile = decodeProfile(r.match_profile);
      if (profile.v !== PROFILE_VERSION) {
        // Stored by an older matcher: rebuild from the listing and store it again (as the SQLite writer does).
        const [row] = await rows<ListingRow>(db, `SELECT ${LISTING_COLUMNS} FROM listings l WHERE id = ?`, [r.id]);
        profile = profileOfListing(toListing(row));
        await db.query('UPDATE listings SET match_profile = $1 WHERE id = $2', [encodeProfile(profile), r.id]);
      }
      this.cache.setProfile(r.id, profile);
    }
  }
}
