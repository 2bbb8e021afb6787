// The pairwise feature vector behind a score. Every feature is symmetric in (a, b), so the score
// is too. Binary features are 0/1; the title features are in [0, 1]; unmatchedMin and
// priceLogRatio are capped so one long title or one odd price cannot dominate.

import {
  brandSignal, codeSignal, gtinSignal, priceSignal, setAgreement, type CodeSignal,
} from './signals.js';
import { titleOverlap, type TitleOverlap } from './similarity.js';
import type { MatchEvidence, MatchProfile } from './types.js';
import { WEAK_WORDS } from './vocabulary.js';

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
  brandEqual: number;
  brandDifferent: number;
  numbersDisjoint: number;
  numbersPartial: number;
  numbersOneSided: number;
  editionsDisjoint: number;
  editionsOneSided: number;
  offerKindsDiffer: number;
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
  const pa = a.priceUsd === null ? NaN : Number(a.priceUsd);
  const pb = b.priceUsd === null ? NaN : Number(b.priceUsd);
  if (!(pa > 0) || !(pb > 0)) return 0;
  return Math.min(3, Math.abs(Math.log(pa / pb)));
}

/**
 * Whether the first naming word of `p` (skipping brands, filler, numbers and codes) occurs in
 * `other`. Titles lead with the product name ("dreamweaver cs3 ..."), so a lead word missing on
 * the other side usually means a different product of the same brand and version.
 */
function leadFound(p: MatchProfile, other: MatchProfile): boolean {
  const lead = p.tokens.find(
    (t) => t !== p.brand && t !== other.brand && t.length > 2 && !WEAK_WORDS.has(t) && !/\d/.test(t) && !other.brand?.startsWith(t),
  );
  if (lead === undefined) return true;
  return other.tokens.includes(lead) || other.tokens.some((t) => t.length > lead.length && t.startsWith(lead));
}

export function pairSignals(a: MatchProfile, b: MatchProfile): PairSignals {
  const overlap = titleOverlap(a, b);
  const gtin = gtinSignal(a, b);
  const brand = brandSignal(a, b);
  const code = codeSignal(a, b);
  const price = priceSignal(a, b);
  const numbers = setAgreement(a.numbers, b.numbers);
  const bothNumbers = a.numbers.length > 0 && b.numbers.length > 0;
  const editions = setAgreement(a.editions, b.editions);
  const kindsDiffer =
    a.offerKinds.filter((k) => !b.offerKinds.includes(k)).length + b.offerKinds.filter((k) => !a.offerKinds.includes(k)).length;
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
    brandEqual: bit(brand === 'equal'),
    brandDifferent: bit(brand === 'different'),
    numbersDisjoint: bit(numbers === 'disjoint'),
    numbersPartial: bit(numbers === 'partial' && bothNumbers),
    numbersOneSided: bit(numbers === 'partial' && !bothNumbers),
    editionsDisjoint: bit(editions === 'disjoint'),
    editionsOneSided: bit(editions === 'partial'),
    offerKindsDiffer: Math.min(2, kindsDiffer),
    priceOk: bit(price === 'ok'),
    priceSuspicious: bit(price === 'suspicious'),
    priceLogRatio: priceLogRatio(a, b),
  };
  return { features, overlap, gtin, brand, price, code };
}
