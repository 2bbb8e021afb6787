import { digest } from '../domain/digest.js';

/**
 * The rules that make a record from a line, by version: a line hashed under other rules is never
 * taken for one stored under these. Change it whenever normalizeRecord or storedColumns would
 * store the same line differently.
 */
const RULES = 'rules 1\n';
const KEY = '"observed_at"';
const sha1 = (s: string | Buffer) => digest('sha1', s, 'base64');
const RULES_BYTES = Buffer.from(RULES);
const KEY_BYTES = Buffer.from(KEY);
/** Where a line's hashed bytes are put together: one buffer, grown to the longest line met. */
let joined = Buffer.allocUnsafeSlow(1 << 16);

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
 * lineHash of a line that was not parsed nor decoded (its UTF-8 bytes), and the observed_at it
 * names (undefined when it names none), or null when its observed_at is not a string written
 * plainly. For valid UTF-8 that parses to an object whose observed_at is such a string or absent,
 * this is the hash lineHash gives its text: the cuts fall on ASCII quotes, which UTF-8 never
 * writes inside a character. The bytes alone cannot tell a nested key, a malformed line or bytes
 * that are not UTF-8 (their text holds U+FFFD); their hash then equals no stored line's (the text
 * with a value cut out after a colon is not JSON), so a match with a stored hash proves the line
 * is that listing's line, observed again.
 */
export function unparsedBytesHash(line: Buffer): { hash: string; observedAt: string | undefined } | null {
  const at = line.indexOf(KEY_BYTES);
  if (at < 0) return { hash: sha1(joinedOf(line, line.length, line.length, line.length)), observedAt: undefined };
  if (line.indexOf(KEY_BYTES, at + KEY_BYTES.length) >= 0) return null;
  const from = bytesValueStart(line, at + KEY_BYTES.length);
  const end = from < 0 ? -1 : plainBytesEnd(line, from);
  if (end < 0) return null;
  return { hash: sha1(joinedOf(line, from, end + 1, line.length - (end + 1 - from))), observedAt: line.toString('utf8', from + 1, end) };
}

/** RULES, then the line without its bytes [cutFrom, cutTo), `length` of them: a view of `joined`, valid until the next call. */
function joinedOf(line: Buffer, cutFrom: number, cutTo: number, length: number): Buffer {
  const size = RULES_BYTES.length + length;
  if (joined.length < size) joined = Buffer.allocUnsafeSlow(2 * size);
  RULES_BYTES.copy(joined, 0);
  line.copy(joined, RULES_BYTES.length, 0, cutFrom);
  line.copy(joined, RULES_BYTES.length + cutFrom, cutTo);
  return joined.subarray(0, size);
}

/** valueStart over UTF-8 bytes. */
export function bytesValueStart(b: Buffer, from: number): number {
  let i = from;
  while (b[i] === 32 || b[i] === 9) i++;
  if (b[i] !== 58) return -1; // ':'
  i++;
  while (b[i] === 32 || b[i] === 9) i++;
  return i;
}

/** The closing quote of a string starting at `from` and written without escapes, or -1 (over UTF-8 bytes). */
export function plainBytesEnd(b: Buffer, from: number): number {
  if (b[from] !== 34) return -1;
  const end = b.indexOf(34, from + 1);
  if (end < 0 || b.subarray(from + 1, end).includes(92)) return -1;
  return end;
}

/** Where the value of the one `"observed_at"` member of the text starts, or -1 (none, two, or no colon after it). */
function valueAt(text: string): number {
  const at = text.indexOf(KEY);
  if (at < 0 || text.indexOf(KEY, at + KEY.length) >= 0) return -1;
  return valueStart(text, at + KEY.length);
}

/** Where the value of a member starts, its key's text ending at `from`: after a colon and blanks; -1 without the colon. */
function valueStart(text: string, from: number): number {
  let i = from;
  while (text.charCodeAt(i) === 32 || text.charCodeAt(i) === 9) i++;
  if (text.charCodeAt(i) !== 58) return -1; // ':'
  i++;
  while (text.charCodeAt(i) === 32 || text.charCodeAt(i) === 9) i++;
  return i;
}

