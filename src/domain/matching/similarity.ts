// Title similarity on profile tokens: a weighted overlap where long model codes and numbers weigh
// more than words, and colours, platforms and marketing filler weigh little. It reports
// containment (a terse title fully inside a verbose one), Dice (penalises extra content) and the
// unmatched weight of the *less* unmatched side: when both titles name something the other lacks
// ("dreamweaver cs3" vs "illustrator cs3"), they are usually different products.
//
// Token weights, stems and adjacent joins are precomputed in the profile, so this is loops over
// two short arrays with no allocation.

import { codePrefixMatch, isStrongCode } from './model-codes.js';
import type { MatchProfile } from './types.js';
import { COLOUR_WORDS, WEAK_WORDS } from './vocabulary.js';

const STARTS_WITH_DIGIT = /^\d/;
const CODE_WITHOUT_COUNTERPART = 1;

/** Weight of a title token that is not a brand; `code` says whether it is a model code. */
export function tokenWeight(token: string, code: boolean): number {
  if (COLOUR_WORDS.has(token)) return 0.1;
  if (WEAK_WORDS.has(token)) return 0.3;
  if (code) return isStrongCode(token) ? 2.5 : 1.5;
  if (STARTS_WITH_DIGIT.test(token)) return 1.5;
  // Single letters and two-letter fragments ("b", "ae") are mostly noise from split codes.
  return token.length <= 2 ? 0.5 : 1;
}

/** Whether token `i` of `p` is found in `other`: as a token, an adjacent join, or an agreeing model code. */
function matchedIn(p: MatchProfile, i: number, other: MatchProfile): boolean {
  const token = p.tokens[i];
  if (other.tokens.includes(token) || other.joins.includes(token)) return true;
  const stem = p.tokenStems[i];
  if (stem === '') return false;
  if (other.codes.includes(token)) return true;
  if (stem.length >= 4 && other.codeStems.includes(stem)) return true;
  if (token.length < 5) return false;
  for (const c of other.codes) if (codePrefixMatch(token, c)) return true;
  return false;
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

let sideTotal = 0;
let sideShared = 0;

/** Sets sideTotal / sideShared for `p` measured against `other` (module scratch, no allocation). */
function side(p: MatchProfile, other: MatchProfile): void {
  let total = 0;
  let shared = 0;
  const otherBrand = other.brand;
  // A model code the other title cannot contradict (it names no code at all) is missing detail,
  // not a difference: it counts like a plain word.
  let otherHasCodes = false;
  for (const c of other.codes) if (isStrongCode(c)) otherHasCodes = true;
  for (let i = 0; i < p.tokens.length; i += 1) {
    let w = p.tokens[i] === otherBrand ? 0.5 : p.weights[i];
    if (!otherHasCodes && p.tokenStems[i] !== '' && w > CODE_WITHOUT_COUNTERPART && isStrongCode(p.tokens[i])) w = CODE_WITHOUT_COUNTERPART;
    total += w;
    if (matchedIn(p, i, other)) shared += w;
  }
  sideTotal = total;
  sideShared = shared;
}

/** Weighted overlap of two profiles' titles. Symmetric by construction (each side is measured against the other). */
export function titleOverlap(a: MatchProfile, b: MatchProfile): TitleOverlap {
  side(a, b);
  const ta = sideTotal;
  const sa = sideShared;
  side(b, a);
  const tb = sideTotal;
  const sb = sideShared;
  if (ta === 0 || tb === 0) return { containment: 0, dice: 0, unmatchedMin: 0, similarity: 0 };
  const containment = Math.min(1, Math.max(sa / ta, sb / tb));
  const dice = Math.min(1, (sa + sb) / (ta + tb));
  const unmatchedMin = Math.min(ta - sa, tb - sb);
  return { containment, dice, unmatchedMin, similarity: 0.5 * containment + 0.5 * dice };
}

export function titleSimilarity(a: MatchProfile, b: MatchProfile): number {
  return titleOverlap(a, b).similarity;
}
