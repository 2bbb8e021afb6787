import { searchWords } from './search-text.js';

/** Words of a title as search compares them (folded, lower case), without one-letter noise. */
export function titleWords(title: string): Set<string> {
  return new Set(searchWords(title).filter((w) => w.length > 1));
}

/**
 * Share of words two titles have in common (Jaccard), from how many distinct words each has and
 * how many they share: 1 for the same words, 0 for none or when either has none.
 */
export function wordShare(shared: number, a: number, b: number): number {
  return a && b ? shared / (a + b - shared) : 0;
}
