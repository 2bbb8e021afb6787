import type { Statement } from 'better-sqlite3';
import { profileOfListing } from '../../domain/listing-profile.js';
import { blockingKeys, CompactWriter, encodeProfile, writeCompact, type KeyNumbers, type MatchBatch } from '../../domain/matching/index.js';

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
 * Pending listings with everything their matching needs, built from their rows alone (on any
 * thread), packed as a few arrays and strings (MatchBatch): a worker posts them with their
 * buffers moved, not copied, and the matcher keeps the forms where they arrived. `keys` has the
 * blocking keys' texts, for the writer to store: each listing's, in `keyNumbers`' order, each
 * followed by a newline (no key holds one).
 */
export type PendingBatch = MatchBatch & { keys: string };

/** The buffers a batch can move to another thread. */
export const batchBuffers = (b: PendingBatch): ArrayBuffer[] =>
  [b.ids.buffer, b.at.buffer, b.compact.buffer, b.textEnds.buffer, b.keyNumbers.buffer, b.keyEnds.buffer] as ArrayBuffer[];

const forms = new CompactWriter(1 << 18);

/** The pending listings after `after` (read through PENDING_SQL), their profiles built, keys numbered by `numbering`; empty (no ids) at the end. */
export function readPending(pending: Statement, after: number, numbering: KeyNumbers): PendingBatch {
  const rows = pending.all(after) as PendingRow[];
  const n = rows.length;
  const ids = new Int32Array(n);
  const at = new Int32Array(n);
  const textEnds = new Int32Array(n);
  const keyEnds = new Int32Array(n);
  const numbers: number[] = [];
  // Joined once at the end: a string grown by += is a tree of pieces, flattened again by each reader.
  const texts: string[] = [];
  const keys: string[] = [];
  let textLength = 0;
  forms.reset();
  for (let i = 0; i < n; i++) {
    const row = rows[i];
    const profile = profileOfListing({
      title: row.title, description: row.description, brand: row.brand, gtin: row.gtin, mpn: row.mpn,
      category: row.category, specs: row.specs == null ? null : JSON.parse(row.specs), priceUsd: row.price_usd,
    });
    ids[i] = row.id;
    at[i] = writeCompact(profile, forms);
    const text = encodeProfile(profile);
    texts.push(text);
    textLength += text.length;
    textEnds[i] = textLength;
    for (const key of blockingKeys(profile)) {
      numbers.push(numbering.of(key));
      keys.push(key, '\n');
    }
    keyEnds[i] = numbers.length;
  }
  return {
    ids, at, compact: forms.h.slice(0, forms.length), texts: texts.join(''), textEnds, keyNumbers: Int32Array.from(numbers), keyEnds, keys: keys.join(''),
  };
}

/**
 * A batch matched: each listing's group (null when it is to be matched against the store, by the
 * writer), its profile text and blocking keys as in PendingBatch.
 */
export interface MatchedBatch {
  ids: Int32Array;
  groups: Int32Array | null;
  texts: string;
  textEnds: Int32Array;
  keys: string;
  keyEnds: Int32Array;
}

/** A matched batch's texts and keys, listing by listing. */
export function eachMatched(b: MatchedBatch, visit: (k: number, text: string, keys: string[]) => void): void {
  const keys = b.keys === '' ? [] : b.keys.split('\n');
  for (let k = 0, text = 0, key = 0; k < b.ids.length; text = b.textEnds[k], key = b.keyEnds[k], k++) {
    visit(k, b.texts.slice(text, b.textEnds[k]), keys.slice(key, b.keyEnds[k]));
  }
}
