import { searchWords } from '../../domain/search-text.js';

/**
 * Turns user text into an FTS5 query: each word quoted (so operators and punctuation in the
 * input can never form FTS syntax) and all words required.
 */
export function ftsQuery(text: string): string | null {
  const words = searchWords(text);
  if (!words.length) return null;
  return words.map((w) => `"${w}"`).join(' ');
}
