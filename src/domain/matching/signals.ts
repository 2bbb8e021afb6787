// Pairwise signals read off two profiles. Each returns a small value the score formula weighs
// and the evidence reports, so what decided a comparison can always be named.

import { codesMatch, isStrongCode } from './model-codes.js';
import type { MatchEvidence, MatchProfile } from './types.js';

export function gtinSignal(a: MatchProfile, b: MatchProfile): MatchEvidence['gtin'] {
  if (a.gtin === null || b.gtin === null) return 'absent';
  return a.gtin === b.gtin ? 'equal' : 'different';
}

/** Brand equal when both name it alike, or when one's brand is a word of the other's title. */
export function brandSignal(a: MatchProfile, b: MatchProfile): MatchEvidence['brand'] {
  if (a.brand !== null && b.brand !== null) {
    if (a.brand === b.brand || a.tokens.includes(b.brand) || b.tokens.includes(a.brand)) return 'equal';
    return 'different';
  }
  if (a.brand !== null && b.tokens.includes(a.brand)) return 'equal';
  if (b.brand !== null && a.tokens.includes(b.brand)) return 'equal';
  return 'absent';
}

export interface CodeSignal {
  /** A code both listings name (the longer spelling), or null. */
  shared: string | null;
  sharedStrong: boolean;
  /** Both name long codes and none agree: almost surely different models. */
  strongConflict: boolean;
  /** Both name codes (any length, e.g. "a55" vs "a35") and none agree. */
  weakConflict: boolean;
}

export function codeSignal(a: MatchProfile, b: MatchProfile): CodeSignal {
  let shared: string | null = null;
  for (const ca of a.codes) {
    for (const cb of b.codes) {
      if (!codesMatch(ca, cb)) continue;
      const pick = ca.length >= cb.length ? ca : cb;
      if (shared === null || pick.length > shared.length) shared = pick;
    }
  }
  const strongA = a.codes.some(isStrongCode);
  const strongB = b.codes.some(isStrongCode);
  return {
    shared,
    sharedStrong: shared !== null && isStrongCode(shared),
    strongConflict: shared === null && strongA && strongB,
    weakConflict: shared === null && a.codes.length > 0 && b.codes.length > 0,
  };
}

/** 'disjoint' when both name values and none agree, 'partial' when one side has extra ones. */
export function setAgreement(a: readonly string[], b: readonly string[]): 'agree' | 'partial' | 'disjoint' | 'absent' {
  if (a.length === 0 && b.length === 0) return 'absent';
  if (a.length === 0 || b.length === 0) return 'partial';
  const shared = a.filter((x) => b.includes(x)).length;
  if (shared === 0) return 'disjoint';
  return shared === a.length && shared === b.length ? 'agree' : 'partial';
}

/**
 * Prices of one product across shops rarely differ by more than 2.5x; a larger gap hints at an
 * accessory, a bundle, a multi-pack or a different edition. Compared as a ratio of floats on
 * purpose: this is a heuristic, not money arithmetic.
 */
export function priceSignal(a: MatchProfile, b: MatchProfile): MatchEvidence['price_sanity'] {
  const pa = a.priceUsd === null ? NaN : Number(a.priceUsd);
  const pb = b.priceUsd === null ? NaN : Number(b.priceUsd);
  if (!(pa > 0) || !(pb > 0)) return 'absent';
  return Math.max(pa, pb) / Math.min(pa, pb) <= 2.5 ? 'ok' : 'suspicious';
}

/** How much of what an accessory fits ("iphone 15") the other listing names. */
export function fitsOverlap(accessory: MatchProfile, other: MatchProfile): number {
  if (accessory.fitsTokens.length === 0) return 0;
  const hits = accessory.fitsTokens.filter((t) => other.tokens.includes(t)).length;
  return hits / accessory.fitsTokens.length;
}
