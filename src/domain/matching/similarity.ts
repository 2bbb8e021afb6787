// Title similarity on profile tokens: a weighted overlap where long model codes and numbers weigh
// more than words, and colours, platforms and marketing filler weigh little. It reports
// containment (a terse title fully inside a verbose one), Dice (penalises extra content) and the
// unmatched weight of the *less* unmatched side: when both titles name something the other lacks
// ("dreamweaver cs3" vs "illustrator cs3"), they are usually different products.

import { codesMatch, isModelCode, isStrongCode } from './model-codes.js';
import type { MatchProfile } from './types.js';
import { COLOUR_WORDS, WEAK_WORDS } from './vocabulary.js';

export function tokenWeight(token: string, brands: ReadonlyArray<string | null>): number {
  if (brands.includes(token)) return 0.5;
  if (COLOUR_WORDS.has(token)) return 0.1;
  if (WEAK_WORDS.has(token)) return 0.3;
  if (isModelCode(token)) return isStrongCode(token) ? 2.5 : 1.5;
  if (/^\d/.test(token)) return 1.5;
  // Single letters and two-letter fragments ("b", "ae") are mostly noise from split codes.
  return token.length <= 2 ? 0.5 : 1;
}

/** Concatenations of adjacent tokens, so "print shop" meets "printshop". */
function adjacentJoins(tokens: readonly string[]): Set<string> {
  const out = new Set<string>();
  for (let i = 0; i + 1 < tokens.length; i += 1) out.add(tokens[i] + tokens[i + 1]);
  return out;
}

function matchedIn(token: string, other: MatchProfile, otherSet: ReadonlySet<string>, otherJoins: ReadonlySet<string>): boolean {
  if (otherSet.has(token) || otherJoins.has(token)) return true;
  return isModelCode(token) && other.codes.some((c) => codesMatch(token, c));
}

export interface TitleOverlap {
  /** Shared weight over the smaller side's weight, in [0, 1]. */
  containment: number;
  /** Shared weight over both sides' weight, in [0, 1]. */
  dice: number;
  /** Unmatched weight of the side with less unmatched weight (0 when one title contains the other). */
  unmatchedMin: number;
  /** The blend reported as `title_similarity`. */
  similarity: number;
}

function side(p: MatchProfile, other: MatchProfile, brands: ReadonlyArray<string | null>): { total: number; shared: number } {
  const otherSet = new Set(other.tokens);
  const otherJoins = adjacentJoins(other.tokens);
  let total = 0;
  let shared = 0;
  for (const t of p.tokens) {
    const w = tokenWeight(t, brands);
    total += w;
    if (matchedIn(t, other, otherSet, otherJoins)) shared += w;
  }
  return { total, shared };
}

/** Weighted overlap of two profiles' titles. Symmetric by construction (each side is measured against the other). */
export function titleOverlap(a: MatchProfile, b: MatchProfile): TitleOverlap {
  const brands = [a.brand, b.brand];
  const sa = side(a, b, brands);
  const sb = side(b, a, brands);
  if (sa.total === 0 || sb.total === 0) return { containment: 0, dice: 0, unmatchedMin: 0, similarity: 0 };
  const containment = Math.min(1, Math.max(sa.shared / sa.total, sb.shared / sb.total));
  const dice = Math.min(1, (sa.shared + sb.shared) / (sa.total + sb.total));
  const unmatchedMin = Math.min(sa.total - sa.shared, sb.total - sb.shared);
  return { containment, dice, unmatchedMin, similarity: 0.5 * containment + 0.5 * dice };
}

export function titleSimilarity(a: MatchProfile, b: MatchProfile): number {
  return titleOverlap(a, b).similarity;
}
