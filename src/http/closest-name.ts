import { distance } from 'fastest-levenshtein';

/** Words of a name in order-free form: `min_price` and `price_min` read the same. */
const wordsOf = (name: string) => name.toLowerCase().split(/[_\-.\s]+/).filter(Boolean).sort().join('_');

/** The known name closest to `name` (same words in another order first, then fewest edits); null when none is known. */
export function closestName(name: string, known: readonly string[]): string | null {
  let best: string | null = null;
  let bestScore = Infinity;
  const words = wordsOf(name);
  for (const k of known) {
    const score = distance(words, wordsOf(k)) * 100 + distance(name.toLowerCase(), k.toLowerCase());
    if (score < bestScore) {
      best = k;
      bestScore = score;
    }
  }
  return best;
}
