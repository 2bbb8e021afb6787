import { digest } from '../domain/digest.js';

/**
 * The rules that make a record from a line, by version: a line hashed under other rules is never
 * taken for one stored under these. Change it whenever normalizeRecord or storedColumns would
 * store the same line differently.
 */
const RULES = 'rules 1\n';
const KEY = '"observed_at"';
const sha1 = (s: string) => digest('sha1', s, 'base64');

/**
 * What an ingest line says apart from when it was observed: a hash of its text with the value of
 * its top-level `observed_at` left out. The store keeps it beside the listing the line was stored
 * as, so the same line in a later feed is known without normalizing it (docs/ingest.md, "Into a
 * store that holds listings"). Null when that value cannot be told apart in the text alone
 * (written escaped, or the key found more than once): such a line is always normalized.
 */
export function lineHash(text: string, raw: Record<string, unknown>): string | null {
  const observed = raw.observed_at;
  if (observed === undefined) return sha1(RULES + text);
  const from = valueAt(text);
  const value = JSON.stringify(observed);
  if (from < 0 || !text.startsWith(value, from)) return null;
  return sha1(RULES + text.slice(0, from) + text.slice(from + value.length));
}

/**
 * lineHash of a line that was not parsed, and the observed_at it names (undefined when it names
 * none), or null when its observed_at is not a string written plainly. For a line that parses to
 * an object whose observed_at is such a string or absent, this is the hash lineHash gives. The
 * text alone cannot tell a nested key or a malformed line; their hash then equals no stored line's
 * (the text with a value cut out after a colon is not JSON), so a match with a stored hash proves
 * the line is that listing's line, observed again.
 */
export function unparsedLineHash(text: string): { hash: string; observedAt: string | undefined } | null {
  if (text.indexOf(KEY) < 0) return { hash: sha1(RULES + text), observedAt: undefined };
  const from = valueAt(text);
  const end = from < 0 ? -1 : plainStringEnd(text, from);
  if (end < 0) return null;
  return { hash: sha1(RULES + text.slice(0, from) + text.slice(end + 1)), observedAt: text.slice(from + 1, end) };
}

/** Where the value of the one `"observed_at"` member of the text starts, or -1 (none, two, or no colon after it). */
function valueAt(text: string): number {
  const at = text.indexOf(KEY);
  if (at < 0 || text.indexOf(KEY, at + KEY.length) >= 0) return -1;
  return valueStart(text, at + KEY.length);
}

/** Where the value of a member starts, its key's text ending at `from`: after a colon and blanks; -1 without the colon. */
export function valueStart(text: string, from: number): number {
  let i = from;
  while (text.charCodeAt(i) === 32 || text.charCodeAt(i) === 9) i++;
  if (text.charCodeAt(i) !== 58) return -1; // ':'
  i++;
  while (text.charCodeAt(i) === 32 || text.charCodeAt(i) === 9) i++;
  return i;
}

/** The closing quote of a string starting at `from` and written without escapes, or -1. */
export function plainStringEnd(text: string, from: number): number {
  if (text.charCodeAt(from) !== 34) return -1;
  const end = text.indexOf('"', from + 1);
  for (let i = from + 1; i < end; i++) if (text.charCodeAt(i) === 92) return -1;
  return end;
}
