// Blocking keys: the only way ingest finds candidates, so they must be (1) shared by two listings
// of one product under different wording and (2) rare enough that a key's posting list stays
// short in a 1,000,000-listing catalogue. Brand alone ("samsung": ~30k listings) is never a key.
//
//   g:<gtin14>                 exact identifier
//   m:<code stem>              long model code, brand-free (codes are near-unique across brands)
//   w:<brand|prev word>|<code> short code ("a55", "cs3") scoped by brand or the word before it
//   t:<word>|<word>            adjacent content words, the title fallback

import { codeStem, isStrongCode } from './model-codes.js';
import { parseUnitToken } from './text.js';
import type { MatchProfile } from './types.js';
import { COLOUR_WORDS, WEAK_WORDS } from './vocabulary.js';

const MAX_CODE_KEYS = 3;
const MAX_TITLE_KEYS = 4;

/** Words that identify a product line: not filler, colour, unit, number or single letter. */
function isContentWord(t: string, brand: string | null): boolean {
  return t.length >= 2 && t !== brand && !WEAK_WORDS.has(t) && !COLOUR_WORDS.has(t) && parseUnitToken(t) === null;
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

  // Title bigrams over content words; numbers ride along with the word before them
  // ("iphone|15", "office|2007") because the number is what tells product lines apart.
  const words = p.tokens.filter((t) => isContentWord(t, p.brand));
  let titleKeys = 0;
  for (let i = 0; i + 1 < words.length && titleKeys < MAX_TITLE_KEYS; i += 1) {
    push(`t:${words[i]}|${words[i + 1]}`);
    titleKeys += 1;
  }
  // A one-word title ("spelling") still needs a key or it could never be matched.
  if (words.length === 1) push(`t:${words[0]}`);
  return keys;
}
