// Pairwise signals read off two profiles. Each returns a small value the score formula weighs
// and the evidence reports, so what decided a comparison can always be named.

import { codePrefixMatch, codeStem, isStrongCode } from './model-codes.js';
import type { MatchEvidence, MatchProfile } from './types.js';
import { FITTED_NOUNS, VARIANT_WORDS } from './vocabulary.js';

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
  // Neither feed names a brand (Abt/Buy-style titles lead with it): the same leading word counts
  // as the same brand. A differing leading word is not evidence of a different brand.
  if (a.brand === null && b.brand === null && a.tokens.length > 0 && b.tokens.length > 0) {
    const lead = a.tokens[0];
    if (lead === b.tokens[0] && lead.length >= 2 && a.tokenStems[0] === '' && !/\d/.test(lead)) return 'equal';
  }
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

function stemsAgree(sa: string, sb: string): boolean {
  return sa === sb && sa.length >= 4;
}

/**
 * Of two shared codes, the one a comparison names: the longer, and of two as long the first in
 * code order, so that comparing a with b names the same code as b with a (the accessory rule
 * reads it: "Case for X" is identified by a code other than X's).
 */
function preferred(x: string | null, y: string | null): string | null {
  if (x === null || y === null) return x ?? y;
  if (x.length !== y.length) return x.length > y.length ? x : y;
  return x < y ? x : y;
}

export function codeSignal(a: MatchProfile, b: MatchProfile): CodeSignal {
  let shared: string | null = null;
  let strongA = false;
  let strongB = false;
  for (let i = 0; i < a.codes.length; i += 1) {
    const ca = a.codes[i];
    if (isStrongCode(ca)) strongA = true;
    for (let j = 0; j < b.codes.length; j += 1) {
      const cb = b.codes[j];
      if (ca !== cb && !stemsAgree(a.codeStems[i], b.codeStems[j]) && !codePrefixMatch(ca, cb)) continue;
      shared = preferred(shared, preferred(ca, cb));
    }
  }
  for (const cb of b.codes) if (isStrongCode(cb)) strongB = true;
  // "coolpixs550p" vs "coolpix s550": a strong code of one side spelled across two words of the other.
  if (shared === null || !isStrongCode(shared)) shared = preferred(codeInJoins(a, b), codeInJoins(b, a)) ?? shared;
  return {
    shared,
    sharedStrong: shared !== null && isStrongCode(shared),
    strongConflict: shared === null && strongA && strongB,
    weakConflict: shared === null && a.codes.length > 0 && b.codes.length > 0,
  };
}

function codeInJoins(p: MatchProfile, other: MatchProfile): string | null {
  for (let i = 0; i < p.codes.length; i += 1) {
    const c = p.codes[i];
    if (!isStrongCode(c)) continue;
    for (const j of other.joins) {
      if (j === c || codePrefixMatch(c, j) || stemsAgree(p.codeStems[i], j)) return c;
    }
  }
  return null;
}

/** True when one side's description names a (strong) model code the other side's title names. */
export function descriptionCodeShared(a: MatchProfile, b: MatchProfile): boolean {
  return descHits(a, b) || descHits(b, a);
}

function descHits(p: MatchProfile, other: MatchProfile): boolean {
  for (const d of p.descCodes) {
    const stem = codeStem(d);
    for (let j = 0; j < other.codes.length; j += 1) {
      if (other.codes[j] === d || (isStrongCode(other.codes[j]) && stemsAgree(stem, other.codeStems[j]))) return true;
    }
  }
  return false;
}

/** 'disjoint' when both name values and none agree, 'partial' when one side has extra ones. */
export function setAgreement(a: readonly string[], b: readonly string[]): 'agree' | 'partial' | 'disjoint' | 'absent' {
  if (a.length === 0 && b.length === 0) return 'absent';
  if (a.length === 0 || b.length === 0) return 'partial';
  let shared = 0;
  for (const x of a) if (b.includes(x)) shared += 1;
  if (shared === 0) return 'disjoint';
  return shared === a.length && shared === b.length ? 'agree' : 'partial';
}

/** Version numbers agree when equal or when one refines the other ("10.4" ~ "10.4.6"). */
function versionsAgree(x: string, y: string): boolean {
  if (x === y) return true;
  return x.length > y.length ? x.startsWith(y) && x.charCodeAt(y.length) === 46 : y.startsWith(x) && y.charCodeAt(x.length) === 46;
}

/** setAgreement for version numbers, with refinements counted as agreeing. */
export function numberAgreement(a: readonly string[], b: readonly string[]): 'agree' | 'partial' | 'disjoint' | 'absent' {
  if (a.length === 0 && b.length === 0) return 'absent';
  if (a.length === 0 || b.length === 0) return 'partial';
  let sharedA = 0;
  for (const x of a) if (b.some((y) => versionsAgree(x, y))) sharedA += 1;
  if (sharedA === 0) return 'disjoint';
  let sharedB = 0;
  for (const y of b) if (a.some((x) => versionsAgree(x, y))) sharedB += 1;
  return sharedA === a.length && sharedB === b.length ? 'agree' : 'partial';
}

/**
 * Prices of one product across shops rarely differ by more than 2.5x; a larger gap hints at an
 * accessory, a bundle, a multi-pack or a different edition. Compared on integer cents
 * (2 * max <= 5 * min), so no float arithmetic touches a price.
 */
export function priceSignal(a: MatchProfile, b: MatchProfile): MatchEvidence['price_sanity'] {
  const pa = a.priceCents;
  const pb = b.priceCents;
  if (pa === null || pb === null) return 'absent';
  return 2 * Math.max(pa, pb) <= 5 * Math.min(pa, pb) ? 'ok' : 'suspicious';
}

/** How much of what an accessory fits ("iphone 15") the other listing names. */
export function fitsOverlap(accessory: MatchProfile, other: MatchProfile): number {
  if (accessory.fitsTokens.length === 0) return 0;
  const hits = accessory.fitsTokens.filter((t) => other.tokens.includes(t)).length;
  return hits / accessory.fitsTokens.length;
}

/**
 * The variant words a title names: "Galaxy S7 edge", "iPhone 15 Pro Max", "iPad mini 6". Read off
 * the tokens when compared, so stored profiles need no rebuild.
 */
function namedVariants(p: MatchProfile): string[] {
  const out: string[] = [];
  for (const t of p.tokens) if (VARIANT_WORDS.has(t)) out.push(t);
  return out;
}

/**
 * Whether one title names a variant word the other does not admit: then they are different models
 * of one line, whatever else they share. "professional" admits "pro" (the same edition spelled
 * out) but names none itself: software titles use it as a selling word ("professional editing").
 */
export function variantWordsDiffer(a: MatchProfile, b: MatchProfile): boolean {
  const va = namedVariants(a);
  const vb = namedVariants(b);
  if (va.length === 0 && vb.length === 0) return false;
  const admits = (p: MatchProfile, named: string[], w: string) => named.includes(w) || (w === 'pro' && p.tokens.includes('professional'));
  return va.some((w) => !admits(b, vb, w)) || vb.some((w) => !admits(a, va, w));
}

/**
 * Whether the model code two listings share is, on the accessory's side, only the code of what it
 * fits: a case-like noun in its title and the code among the words after "for".
 */
export function codeNamesWhatItFits(accessory: MatchProfile, shared: string | null): boolean {
  if (shared === null || accessory.fitsTokens.length === 0) return false;
  if (!accessory.tokens.some((t) => FITTED_NOUNS.has(t))) return false;
  return accessory.fitsTokens.join('').includes(shared);
}
