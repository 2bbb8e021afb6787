// Blocking keys: the only way ingest finds candidates, so they must be (1) shared by two listings
// of one product under different wording and (2) rare enough that a key's posting list stays
// short in a 1,000,000-listing catalogue. Brand alone ("samsung": ~30k listings) is never a key.
//
//   g:<gtin14>                 exact identifier
//   m:<code stem>              long model code, brand-free (codes are near-unique across brands)
//   w:<brand|prev word>|<code> short code ("a55", "cs3") scoped by brand or the word before it
//   t:<word>|<word>            nearby title words (sorted pair), the title fallback

import { codeStem, isStrongCode } from './model-codes.js';
import { parseUnitToken } from './text.js';
import type { MatchProfile } from './types.js';
import { COLOUR_WORDS, WEAK_WORDS } from './vocabulary.js';

const MAX_CODE_KEYS = 3;
const MAX_TITLE_WORDS = 6;

/** Words that can form title keys: not filler, colour, unit or fragment, not the brand itself. */
function isBlockingWord(t: string, brand: string | null): boolean {
  return t.length >= 2 && t !== brand && t !== 'for' && t !== 'with' && !COLOUR_WORDS.has(t) && parseUnitToken(t) === null;
}

export function blockingKeys(p: MatchProfile): string[] {
  const keys: string[] = [];
  const push = (k: string): void => {
    if (!keys.includes(k)) keys.push(k);
  };
  if (p.gtin !== null) push(`g:${p.gtin}`);

  let codeKeys = 0;
  for (const code of p.codes) {
    if (codeKeys >= MAX_CODE_KEYS) break;
    if (isStrongCode(code)) {
      push(`m:${codeStem(code)}`);
      codeKeys += 1;
      continue;
    }
    const i = p.tokens.indexOf(code);
    const prev = i > 0 ? p.tokens[i - 1] : null;
    if (p.brand !== null) push(`w:${p.brand}|${code}`);
    if (prev !== null && prev !== p.brand) push(`w:${prev}|${code}`);
    codeKeys += 1;
  }

  // Title word pairs: each content word with the next two (sorted, so word order does not
  // matter: "quicken 2007 deluxe" and "quicken deluxe 2007" meet). Numbers take part because
  // they are what tells product lines apart ("office|2007"). Pairs of two weak words are skipped.
  const words = p.tokens.filter((t) => isBlockingWord(t, p.brand)).slice(0, MAX_TITLE_WORDS);
  for (let i = 0; i < words.length; i += 1) {
    for (let j = i + 1; j <= i + 2 && j < words.length; j += 1) {
      if (WEAK_WORDS.has(words[i]) && WEAK_WORDS.has(words[j])) continue;
      const [x, y] = words[i] < words[j] ? [words[i], words[j]] : [words[j], words[i]];
      push(`t:${x}|${y}`);
    }
  }
  // A one-word title ("spelling") still needs a key or it could never be matched.
  if (words.length === 1) push(`t:${words[0]}`);
  return keys;
}
