import type { Statement } from 'better-sqlite3';
import { profileOfListing } from '../../domain/listing-profile.js';
import { blockingKeys, compactProfile, encodeProfile, type CompactProfile, type MatchProfile } from '../../domain/matching/index.js';

/** Listings matched per transaction (and per batch a profile worker sends) when a bulk load matches what it stored. */
export const PENDING_CHUNK = 2000;

/** The next pending listings (stored by a bulk load, not yet matched) after an id, with what their profiles are built from. */
export const PENDING_SQL = `SELECT id, title, description, brand, gtin, mpn, category, specs, price_usd FROM listings
  WHERE id > ? AND match_profile IS NULL ORDER BY id LIMIT ${PENDING_CHUNK}`;

interface PendingRow {
  id: number; title: string; description: string | null; brand: string | null; gtin: string | null; mpn: string | null;
  category: string | null; specs: string | null; price_usd: string | null;
}

/** A pending listing with everything its matching needs, built from its row alone (on any thread). */
export interface PendingProfile {
  id: number;
  profile: MatchProfile;
  /** blockingKeys(profile) */
  keys: string[];
  /** encodeProfile(profile), as stored */
  profileText: string;
  /** compactProfile(profile) */
  compact: CompactProfile;
}

/** The pending listings after `after` (read through PENDING_SQL), their profiles built. */
export function readPending(pending: Statement, after: number): PendingProfile[] {
  return (pending.all(after) as PendingRow[]).map((row) => {
    const profile = profileOfListing({
      title: row.title, description: row.description, brand: row.brand, gtin: row.gtin, mpn: row.mpn,
      category: row.category, specs: row.specs == null ? null : JSON.parse(row.specs), priceUsd: row.price_usd,
    });
    return { id: row.id, profile, keys: blockingKeys(profile), profileText: encodeProfile(profile), compact: compactProfile(profile) };
  });
}
