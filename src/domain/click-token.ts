import { createHmac, createSecretKey, timingSafeEqual, type KeyObject } from 'node:crypto';

/**
 * Tracked outbound links (spec 2.3 `click_url`). A token names a listing and the key whose search
 * showed it, and is signed with the server's click secret: the redirect target is read from the
 * store by the listing it names, so a token can be neither forged nor pointed anywhere else.
 *
 * Format: `<listing id base36>.<key id base36>.<MAC>`, the MAC the first 16 bytes of
 * HMAC-SHA256(secret, "click1|<listing id>|<key id>|<job id or empty>") in base64url. The job id
 * travels beside the token (`?job_id=`) and is covered by the MAC: changed, added or dropped, the
 * token no longer opens. The ids are not secret, only unforgeable.
 */

/** A shopping job id worth recording: URL-safe, 1 to 128 characters (spec 4.3); anything else is ignored. */
const JOB_ID = /^[A-Za-z0-9_-]{1,128}$/;

export function jobIdOf(raw: string | null | undefined): string | null {
  return raw != null && JOB_ID.test(raw) ? raw : null;
}

export interface ClickClaim {
  listingId: number;
  keyId: number;
  jobId: string | null;
}

const MAC_BYTES = 16;
const TOKEN = /^([0-9a-z]{1,11})\.([0-9a-z]{1,11})\.([A-Za-z0-9_-]{22})$/;

/** The HMAC key of a secret, set up once and reused for every token. */
export function clickKey(secret: string): KeyObject {
  return createSecretKey(Buffer.from(secret, 'utf8'));
}

function mac(key: KeyObject, c: ClickClaim): Buffer {
  return createHmac('sha256', key).update(`click1|${c.listingId}|${c.keyId}|${c.jobId ?? ''}`).digest().subarray(0, MAC_BYTES);
}

export function signClick(key: KeyObject, c: ClickClaim): string {
  return `${c.listingId.toString(36)}.${c.keyId.toString(36)}.${mac(key, c).toString('base64url')}`;
}

/** The claim of a token signed with `key` for this job id (null: none); null when malformed, forged or for another job. */
export function openClick(key: KeyObject, token: string, jobId: string | null): ClickClaim | null {
  const m = TOKEN.exec(token);
  if (!m) return null;
  const claim = { listingId: parseInt(m[1], 36), keyId: parseInt(m[2], 36), jobId };
  // One spelling per claim: no leading zeros, no unused bits set in the MAC's last character.
  if (claim.listingId.toString(36) !== m[1] || claim.keyId.toString(36) !== m[2]) return null;
  const given = Buffer.from(m[3], 'base64url');
  if (given.length !== MAC_BYTES || given.toString('base64url') !== m[3]) return null;
  return timingSafeEqual(given, mac(key, claim)) ? claim : null;
}
