import type { Statement } from 'better-sqlite3';
import { profileOfListing } from '../../domain/listing-profile.js';
import { blockingKeys, CompactWriter, encodeProfile, writeCompact } from '../../domain/matching/index.js';
import { UnboundedMap } from '../../domain/id-caches.js';

/** Listings matched per transaction (and per batch a profile worker sends) when a bulk load matches what it stored. */
export const PENDING_CHUNK = 2000;

/** The next pending listings (stored by a bulk load, not yet matched) after an id, with what their profiles are built from. */
export const PENDING_SQL = `SELECT id, title, description, brand, gtin, mpn, category, specs, price_usd FROM listings
  WHERE id > ? AND match_profile IS NULL ORDER BY id LIMIT ${PENDING_CHUNK}`;

interface PendingRow {
  id: number; title: string; description: string | null; brand: string | null; gtin: string | null; mpn: string | null;
  category: string | null; specs: string | null; price_usd: string | null;
}

/**
 * Numbers the distinct blocking keys of one bulk load's matching in the order they are first met,
 * on the thread that builds the profiles: the matcher keeps each key's posting head in arrays at
 * its number and never hashes a key's text. `space` tells one numbering from another.
 */
export class KeyNumbers {
  private readonly numbers = new UnboundedMap<string, number>();
  private next = 0;
  readonly space = Math.floor(Math.random() * 2 ** 31);

  of(key: string): number {
    let n = this.numbers.get(key);
    if (n === undefined) {
      n = this.next++;
      this.numbers.set(key, n);
    }
    return n;
  }
}

/**
 * Pending listings with everything their matching needs, built from their rows alone (on any
 * thread), packed as a few arrays: a worker posts them with their buffers moved, not copied, and
 * the matcher keeps what it keeps in arenas, so neither side makes an object per listing.
 */
export interface PendingBatch {
  ids: Int32Array;
  /** Where each listing's compact form starts in `compact`. */
  at: Int32Array;
  /** The compact forms (compactProfile), one after another. */
  compact: Int32Array;
  /** encodeProfile(profile) of each, as stored. */
  texts: string[];
  /** blockingKeys(profile) of each. */
  keys: string[][];
  /** The keys' numbers (KeyNumbers), all listings' one after another. */
  keyNumbers: Int32Array;
  /** Which numbering they are of. */
  space: number;
}

/** The buffers a batch can move to another thread. */
export const batchBuffers = (b: PendingBatch): ArrayBuffer[] => [b.ids.buffer, b.at.buffer, b.compact.buffer, b.keyNumbers.buffer] as ArrayBuffer[];

const forms = new CompactWriter(1 << 18);

/** The pending listings after `after` (read through PENDING_SQL), their profiles built; empty (no ids) at the end. */
export function readPending(pending: Statement, after: number, numbering: KeyNumbers): PendingBatch {
  const rows = pending.all(after) as PendingRow[];
  const ids = new Int32Array(rows.length);
  const at = new Int32Array(rows.length);
  const texts: string[] = [];
  const keys: string[][] = [];
  const numbers: number[] = [];
  forms.reset();
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i];
    const profile = profileOfListing({
      title: row.title, description: row.description, brand: row.brand, gtin: row.gtin, mpn: row.mpn,
      category: row.category, specs: row.specs == null ? null : JSON.parse(row.specs), priceUsd: row.price_usd,
    });
    ids[i] = row.id;
    at[i] = writeCompact(profile, forms);
    texts.push(encodeProfile(profile));
    const own = blockingKeys(profile);
    keys.push(own);
    for (const key of own) numbers.push(numbering.of(key));
  }
  return { ids, at, compact: forms.h.slice(0, forms.length), texts, keys, keyNumbers: Int32Array.from(numbers), space: numbering.space };
}
