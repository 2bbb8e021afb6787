// The pairwise feature vector behind a score. Every feature is symmetric in (a, b), so the score
// is too. Binary features are 0/1; the title features are in [0, 1]; unmatchedMin and
// priceLogRatio are capped so one long title or one odd price cannot dominate.

import {
  brandSignal, codeSignal, descriptionCodeShared, gtinSignal, numberAgreement, priceSignal, setAgreement, type CodeSignal,
} from './signals.js';
import { titleOverlap, type TitleOverlap } from './similarity.js';
import type { MatchEvidence, MatchProfile } from './types.js';

export interface PairFeatures {
  containment: number;
  dice: number;
  unmatchedMin: number;
  leadShared: number;
  gtinEqual: number;
  gtinDifferent: number;
  codeSharedStrong: number;
  codeSharedWeak: number;
  codeStrongConflict: number;
  codeWeakConflict: number;
  /** No title code agrees, but one side's description names the other's model code. */
  codeSharedDescription: number;
  brandEqual: number;
  brandDifferent: number;
  numbersDisjoint: number;
  numbersPartial: number;
  numbersOneSided: number;
  editionsDisjoint: number;
  editionsOneSided: number;
  offerKindsDiffer: number;
  /** Both name platforms and none agree ("mac" vs "win"). */
  platformsDisjoint: number;
  priceOk: number;
  priceSuspicious: number;
  priceLogRatio: number;
}

export interface PairSignals {
  features: PairFeatures;
  overlap: TitleOverlap;
  gtin: MatchEvidence['gtin'];
  brand: MatchEvidence['brand'];
  price: MatchEvidence['price_sanity'];
  code: CodeSignal;
}

const bit = (x: boolean): number => (x ? 1 : 0);

function priceLogRatio(a: MatchProfile, b: MatchProfile): number {
  if (a.priceCents === null || b.priceCents === null) return 0;
  // A ratio of integer cents: the log is a heuristic score term, not money arithmetic.
  return Math.min(3, Math.abs(Math.log(a.priceCents / b.priceCents)));
}

/**
 * Whether the first naming word of `p` (skipping brands, filler, numbers and codes) occurs in
 * `other`. Titles lead with the product name ("dreamweaver cs3 ..."), so a lead word missing on
 * the other side usually means a different product of the same brand and version.
 */
function leadFound(p: MatchProfile, other: MatchProfile): boolean {
  const ob = other.brand;
  let lead: string | undefined;
  for (const t of p.leads) {
    if (ob !== null && ob.startsWith(t)) continue;
    lead = t;
    break;
  }
  if (lead === undefined) return true;
  for (const t of other.tokens) if (t === lead || (t.length > lead.length && t.startsWith(lead))) return true;
  return false;
}

function kindsDiffer(a: readonly string[], b: readonly string[]): number {
  let n = 0;
  for (const k of a) if (!b.includes(k)) n += 1;
  for (const k of b) if (!a.includes(k)) n += 1;
  return n;
}

export function pairSignals(a: MatchProfile, b: MatchProfile): PairSignals {
  const overlap = titleOverlap(a, b);
  const gtin = gtinSignal(a, b);
  const brand = brandSignal(a, b);
  const code = codeSignal(a, b);
  const price = priceSignal(a, b);
  const numbers = numberAgreement(a.numbers, b.numbers);
  const bothNumbers = a.numbers.length > 0 && b.numbers.length > 0;
  const editions = setAgreement(a.editions, b.editions);
  const features: PairFeatures = {
    containment: overlap.containment,
    dice: overlap.dice,
    unmatchedMin: Math.min(4, overlap.unmatchedMin),
    leadShared: bit(leadFound(a, b)) + bit(leadFound(b, a)),
    gtinEqual: bit(gtin === 'equal'),
    gtinDifferent: bit(gtin === 'different'),
    codeSharedStrong: bit(code.sharedStrong),
    codeSharedWeak: bit(code.shared !== null && !code.sharedStrong),
    codeStrongConflict: bit(code.strongConflict),
    codeWeakConflict: bit(code.weakConflict && !code.strongConflict),
    codeSharedDescription: bit(code.shared === null && descriptionCodeShared(a, b)),
    brandEqual: bit(brand === 'equal'),
    brandDifferent: bit(brand === 'different'),
    numbersDisjoint: bit(numbers === 'disjoint'),
    numbersPartial: bit(numbers === 'partial' && bothNumbers),
    numbersOneSided: bit(numbers === 'partial' && !bothNumbers),
    editionsDisjoint: bit(editions === 'disjoint'),
    editionsOneSided: bit(editions === 'partial'),
    offerKindsDiffer: Math.min(2, kindsDiffer(a.offerKinds, b.offerKinds)),
    platformsDisjoint: bit(setAgreement(a.platforms, b.platforms) === 'disjoint'),
    priceOk: bit(price === 'ok'),
    priceSuspicious: bit(price === 'suspicious'),
    priceLogRatio: priceLogRatio(a, b),
  };
  return { features, overlap, gtin, brand, price, code };
}
