import crypto from 'node:crypto';

/**
 * The rules that make a record from a line, by version: a line hashed under other rules is never
 * taken for one stored under these. Change it whenever normalizeRecord or storedColumns would
 * store the same line differently.
 */
const RULES = 'rules 1\n';
const KEY = '"observed_at"';
// One-shot crypto.hash (Node 20.12+) costs two thirds of a Hash object's, and every line is hashed.
const sha1: (s: string) => string = typeof crypto.hash === 'function'
  ? (s) => crypto.hash('sha1', s, 'base64')
  : (s) => crypto.createHash('sha1').update(s).digest('base64');

/**
 * What an ingest line says apart from when it was observed: a hash of its text with the value of
 * its top-level `observed_at` left out. The store keeps it beside the listing the line was stored
 * as, so the same line in a later feed is known without normalizing it (docs/ingest.md, "Into a
 * store that holds listings"). Null when that value cannot be told apart in the text alone
 * (written escaped, or the key found more than once): such a line is always normalized.
 */
export function lineHash(text: string, raw: Record<string, unknown>): string | null {
  const observed = raw.observed_at;
  const at = text.indexOf(KEY);
  let kept = text;
  if (observed !== undefined) {
    if (at < 0 || text.indexOf(KEY, at + KEY.length) >= 0) return null;
    const value = JSON.stringify(observed);
    let from = at + KEY.length;
    while (text.charCodeAt(from) === 32 || text.charCodeAt(from) === 9) from++;
    if (text[from] !== ':') return null;
    from++;
    while (text.charCodeAt(from) === 32 || text.charCodeAt(from) === 9) from++;
    if (!text.startsWith(value, from)) return null;
    kept = text.slice(0, from) + text.slice(from + value.length);
  }
  return sha1(RULES + kept);
}
