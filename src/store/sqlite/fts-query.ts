import { searchWords, type TermGroup } from '../../domain/search-text.js';

/**
 * Turns user text into an FTS5 query: each word quoted (so operators and punctuation in the
 * input can never form FTS syntax) and all words required.
 */
export function ftsQuery(text: string): string | null {
  const words = searchWords(text);
  if (!words.length) return null;
  return words.map((w) => `"${w}"`).join(' ');
}

const phrase = (term: string) => `"${term.replace(/"/g, '""')}"`;

/**
 * A forgiving query (`TermGroup`s) as FTS5 syntax: every token required, each as an OR of its
 * terms in the group's order (exact ones first), so bm25 sums the same phrases the in-memory index
 * scores. `exactOnly` keeps each token's exact terms: the query whose matches rank first.
 */
export function ftsGroups(groups: TermGroup[], exactOnly = false): string {
  return groups.map((g) => {
    const terms = exactOnly ? g.exact : [...g.exact, ...g.near];
    return terms.length === 1 ? phrase(terms[0]) : `(${terms.map(phrase).join(' OR ')})`;
  }).join(' AND ');
}
