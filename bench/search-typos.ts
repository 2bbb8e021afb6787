/**
 * The misspelled query set of `npm run eval:search` (the rule is documented there and in
 * docs/search.md), shared with bench/search-index.ts.
 */
import type { Listing } from '../src/domain/listing.js';
import { isModelNumber, queryTokens } from '../src/domain/search-text.js';

const LEADING_TAG = /^\s*(?:\[[^\]]*\]|【[^】]*】|\([^)]*\))\s*/u;

export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface EvalQuery { listingId: number; groupId: number; clean: string; misspelled: string }

/** One edit to `word` (5+ letters): deletion, adjacent transposition of different letters, or substitution. */
export function misspell(word: string, rand: () => number): string {
  const ch = [...word];
  let kind = Math.floor(rand() * 3);
  if (kind === 0 && ch.length < 6) kind = 2;
  if (kind === 1) {
    const spots = ch.slice(0, -1).map((_, i) => i).filter((i) => ch[i] !== ch[i + 1]);
    if (spots.length) {
      const i = spots[Math.floor(rand() * spots.length)];
      [ch[i], ch[i + 1]] = [ch[i + 1], ch[i]];
      return ch.join('');
    }
  }
  const at = Math.floor(rand() * ch.length);
  if (kind === 2) {
    const letters = 'abcdefghijklmnopqrstuvwxyz'.replace(ch[at], '');
    ch[at] = letters[Math.floor(rand() * letters.length)];
  } else ch.splice(at, 1);
  return ch.join('');
}

/** The query set of the rule above, from listings in id order. */
export function misspelledQueries(listings: Listing[], count: number, seed: number): EvalQuery[] {
  const rand = mulberry32(seed);
  const out: EvalQuery[] = [];
  for (let tries = 0; out.length < count && tries < count * 20; tries++) {
    const l = listings[Math.floor(rand() * listings.length)];
    const words = queryTokens(l.title.replace(LEADING_TAG, '')).filter((w) => !isModelNumber(w) && [...w].length >= 3);
    if (words.length < 2) continue;
    const window = words.slice(0, 3);
    const long = window.map((w, i) => i).filter((i) => [...window[i]].length >= 5);
    if (!long.length) continue;
    const target = long[Math.floor(rand() * long.length)];
    const typo = window.map((w, i) => (i === target ? misspell(w, rand) : w));
    out.push({ listingId: l.id, groupId: l.groupId, clean: window.join(' '), misspelled: typo.join(' ') });
  }
  return out;
}
