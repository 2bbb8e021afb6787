// Blocking keys: the only way ingest finds candidates, so they must be (1) shared by two listings
// of one product under different wording and (2) rare enough that a key's posting list stays
// short in a 1,000,000-listing catalogue. Brand alone ("samsung": ~30k listings) is never a key.
//
//   g:<gtin14>                 exact identifier
//   m:<code stem>              long model code, brand-free (codes are near-unique across brands)
//   w:<brand|prev word>|<code> short code ("a55", "cs3") scoped by brand or the word before it
//   t:<word>|<word>            nearby title words (sorted pair), the title fallback
//
// Keys come back ordered from most to least selective and at most MAX_KEYS of them; the caller
// reads candidates key by key in that order, at most MAX_PER_KEY from a key, and stops at
// MAX_CANDIDATES (pickCandidates).

import { codeStem, isModelCode, isStrongCode } from './model-codes.js';
import { parseUnitToken } from './text.js';
import type { MatchProfile } from './types.js';
import { BRAND_NOISE, COLOUR_WORDS, WEAK_WORDS } from './vocabulary.js';

/** Most keys one listing gets. */
export const MAX_KEYS = 6;
/** Candidates the caller should read (over all keys, in key order) before it stops. */
export const MAX_CANDIDATES = 40;
/**
 * Listing ids one key gives (its lowest, the listing itself not counted). A common key's oldest
 * listings are mostly other products; uncapped they filled the 40 before the keys after it were
 * read, and a product's later listings met only through those (bench/RESULTS.md, "Candidates a key").
 */
export const MAX_PER_KEY = 15;
/**
 * Ids a reader keeps of a key's postings (its head): the first MAX_PER_KEY other than the listing
 * asking, whoever asks, which later listings (higher ids) never change.
 */
export const HEAD_IDS = MAX_PER_KEY + 1;

/**
 * The candidate rule, the same for every reader of a blocking index (in memory, the SQLite
 * writer's posting heads, the PostgreSQL batch writer): keys in the order given, from each at most
 * MAX_PER_KEY ids other than `self` (oldest first; one met under an earlier key, or one `take`
 * refuses, counts against the key's share), until `take` has accepted MAX_CANDIDATES.
 * `postings(key)` gives the key's ids in ascending order, at least its first HEAD_IDS;
 * `take(id)` keeps the listing and says whether it did (false for one already kept or without a
 * profile). A key is whatever the reader finds postings by: its text, or a number for it.
 */
export function pickCandidates<K>(keys: ArrayLike<K>, self: number, postings: (key: K) => ArrayLike<number>, take: (id: number) => boolean): void {
  let kept = 0;
  for (let k = 0; k < keys.length; k++) {
    const ids = postings(keys[k]);
    let taken = 0;
    for (let i = 0; i < ids.length; i++) {
      const id = ids[i];
      if (id === self) continue;
      if (taken++ >= MAX_PER_KEY) break;
      if (take(id) && ++kept >= MAX_CANDIDATES) return;
    }
  }
}

const MAX_CODE_KEYS = 2;
const SINGLE_WORD_KEYS = 2;
const MAX_TITLE_WORDS = 6;
const HAS_DIGIT = /\d/;

/** Words that can form title keys: not filler, colour, unit or fragment, not the brand itself. */
function isBlockingWord(t: string, brand: string | null): boolean {
  return t.length >= 2 && t !== brand && t !== 'for' && t !== 'with' && !COLOUR_WORDS.has(t) && !BRAND_NOISE.has(t)
    && parseUnitToken(t) === null && !(isStrongCode(t) && isModelCode(t));
}

/** Rough selectivity of a title word: numbers and codes split product lines, weak words do not. */
function wordRank(t: string): number {
  if (WEAK_WORDS.has(t)) return 0;
  if (HAS_DIGIT.test(t)) return 3;
  return t.length >= 6 ? 2 : 1;
}

function pushKey(keys: string[], k: string): void {
  if (keys.length < MAX_KEYS && !keys.includes(k)) keys.push(k);
}

export function blockingKeys(p: MatchProfile): string[] {
  const keys: string[] = [];
  if (p.gtin !== null) pushKey(keys, `g:${p.gtin}`);

  // Long codes first (near-unique), then short codes scoped by brand or previous word.
  let codeKeys = 0;
  for (let i = 0; i < p.codes.length && codeKeys < MAX_CODE_KEYS; i += 1) {
    if (!isStrongCode(p.codes[i])) continue;
    pushKey(keys, `m:${p.codeStems[i] || codeStem(p.codes[i])}`);
    codeKeys += 1;
  }
  for (let i = 0; i < p.codes.length && codeKeys < MAX_CODE_KEYS; i += 1) {
    const code = p.codes[i];
    if (isStrongCode(code)) continue;
    const at = p.tokens.indexOf(code);
    const prev = at > 0 ? p.tokens[at - 1] : null;
    if (p.brand !== null) pushKey(keys, `w:${p.brand}|${code}`);
    else if (prev !== null) pushKey(keys, `w:${prev}|${code}`);
    codeKeys += 1;
  }

  // Title word pairs: each content word with the next two (sorted, so word order does not
  // matter: "quicken 2007 deluxe" and "quicken deluxe 2007" meet), most selective pairs first.
  // Numbers take part because they are what tells product lines apart ("office|2007").
  const words: string[] = [];
  for (const t of p.tokens) {
    if (words.length >= MAX_TITLE_WORDS) break;
    if (isBlockingWord(t, p.brand)) words.push(t);
  }
  const pairs: Array<{ key: string; rank: number; at: number }> = [];
  for (let i = 0; i < words.length; i += 1) {
    for (let j = i + 1; j <= i + 2 && j < words.length; j += 1) {
      const ri = wordRank(words[i]);
      const rj = wordRank(words[j]);
      if (ri === 0 && rj === 0) continue; // two weak words
      const key = words[i] < words[j] ? `t:${words[i]}|${words[j]}` : `t:${words[j]}|${words[i]}`;
      pairs.push({ key, rank: ri + rj - (j - i - 1), at: pairs.length });
    }
  }
  pairs.sort((x, y) => y.rank - x.rank || x.at - y.at);
  // The last SINGLE_WORD_KEYS slots go to single naming words ("captivate", "mozy"): a terse title
  // ("adobe captivate 2.0") shares no word pair with a verbose one, but it shares its name.
  const singles: string[] = [];
  for (const w of words) {
    if (singles.length >= SINGLE_WORD_KEYS) break;
    if (!WEAK_WORDS.has(w) && w.length >= 3 && !HAS_DIGIT.test(w)) singles.push(`t:${w}`);
  }
  if (singles.length === 0 && words.length === 1) singles.push(`t:${words[0]}`);
  const pairRoom = MAX_KEYS - keys.length - singles.length;
  for (let i = 0; i < pairs.length && i < pairRoom; i += 1) pushKey(keys, pairs[i].key);
  for (const k of singles) pushKey(keys, k);
  for (const pair of pairs) pushKey(keys, pair.key); // any room singles left unused
  return keys;
}
