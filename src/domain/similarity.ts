import { searchWords } from './search-text.js';

/** Words of a title as search compares them (folded, lower case), without one-letter noise. */
export function titleWords(title: string): Set<string> {
  return new Set(searchWords(title).filter((w) => w.length > 1));
}

/** Share of words two titles have in common (Jaccard): 1 for the same words, 0 for none. */
export function titleSimilarity(a: Set<string>, b: Set<string>): number {
  if (!a.size || !b.size) return 0;
  let shared = 0;
  for (const w of a) if (b.has(w)) shared++;
  return shared / (a.size + b.size - shared);
}
