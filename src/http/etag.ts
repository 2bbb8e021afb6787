import { digest } from '../domain/digest.js';

/** The members surface B adds to report its own timing: they differ on every answer, the data does not. */
const TIMING_MEMBERS = /"response_time_ms":\d+|"cached":(?:true|false)/g;
const TIMING_MARK = Buffer.from('"response_time_ms":');

/**
 * The entity tag of an answer's bytes: strong (any byte differs, the tag differs). An answer that
 * reports its own timing (surface B) is the same data with another `response_time_ms` each time:
 * its tag is weak, over the body without those members, so a poller still gets its 304.
 */
export function entityTag(body: Buffer): string {
  if (!body.includes(TIMING_MARK)) return `"${digest('sha1', body, 'base64url')}"`;
  return `W/"${digest('sha1', body.toString().replace(TIMING_MEMBERS, ''), 'base64url')}"`;
}

/**
 * Whether `If-None-Match` (RFC 9110 13.1.2) matches the tag: `*`, or any listed tag by weak
 * comparison (the opaque parts equal, W/ ignored on either side).
 */
export function noneMatchHits(header: string | string[] | undefined, tag: string): boolean {
  if (header === undefined) return false;
  const text = Array.isArray(header) ? header.join(',') : header;
  if (text.trim() === '*') return true;
  const opaque = tag.startsWith('W/') ? tag.slice(2) : tag;
  for (const m of text.matchAll(/(?:W\/)?"[^"]*"/g)) {
    const candidate = m[0].startsWith('W/') ? m[0].slice(2) : m[0];
    if (candidate === opaque) return true;
  }
  return false;
}
