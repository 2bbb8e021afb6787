// compareProfiles: a logistic score over named pairwise features, then a class decision.
//   z = bias + sum(weight[f] * feature[f]);  score = 1 / (1 + e^-z)
// The weights live in one table (documented in docs/matching.md) so every result can be explained
// term by term. Accessory, bundle and variant findings cap the score below GROUP_THRESHOLD: they
// say how two listings relate, but a shopper comparing prices must not see them as one product.
// Variants are told apart by capacity, size and the variant words of model names (edge, plus,
// pro, max, mini, lite, ultra); accessories (case, cover, charger, "for ...") by profile.accessory.

import { pairSignals, type PairFeatures } from './features.js';
import { codeNamesWhatItFits, fitsOverlap, setAgreement, variantWordsDiffer } from './signals.js';
import type { MatchClass, MatchProfile, MatchResult } from './types.js';

export const WEIGHTS: Readonly<{ bias: number } & PairFeatures> = {
  bias: -3.4,
  containment: 2.6,
  dice: 1.4,
  unmatchedMin: -0.3,
  leadShared: 0.5,
  gtinEqual: 8,
  gtinDifferent: -1.5,
  codeSharedStrong: 4.5,
  codeSharedWeak: 0,
  codeStrongConflict: -2,
  codeWeakConflict: -0.5,
  codeSharedDescription: 1.5,
  brandEqual: 0.7,
  brandDifferent: -1,
  numbersDisjoint: -1,
  numbersPartial: -0.3,
  numbersOneSided: -0.55,
  editionsDisjoint: -1.9,
  editionsOneSided: -1.05,
  offerKindsDiffer: -3,
  platformsDisjoint: -0.5,
  priceOk: 0.35,
  priceSuspicious: 0,
  priceLogRatio: -2,
};

/** Reason names for binary features, in the order they are reported. */
const REASONS: Array<[keyof PairFeatures, string]> = [
  ['leadShared', 'lead_word_shared'], ['gtinEqual', 'gtin_equal'], ['gtinDifferent', 'gtin_different'],
  ['codeSharedStrong', 'model_number_equal'], ['codeSharedWeak', 'model_code_equal'],
  ['codeStrongConflict', 'model_number_differs'], ['codeWeakConflict', 'model_code_differs'],
  ['codeSharedDescription', 'model_number_in_description'],
  ['brandEqual', 'brand_equal'], ['brandDifferent', 'brand_differs'],
  ['numbersDisjoint', 'version_differs'], ['numbersPartial', 'version_partial'], ['numbersOneSided', 'version_one_sided'],
  ['editionsDisjoint', 'edition_differs'], ['editionsOneSided', 'edition_one_sided'],
  ['offerKindsDiffer', 'offer_kind_differs'], ['platformsDisjoint', 'platform_differs'], ['priceOk', 'price_ok'], ['priceSuspicious', 'price_suspicious'],
];

/** Score at/above which an `exact` comparison puts a listing into the candidate's group. */
export const GROUP_THRESHOLD = 0.6;

/** Upper bounds for non-exact classes, all below GROUP_THRESHOLD. */
const CAP = { accessory: 0.2, bundle: 0.3, variant: 0.45 } as const;

const sigmoid = (z: number): number => 1 / (1 + Math.exp(-z));
const round4 = (x: number): number => Math.round(x * 10000) / 10000;

/** z = bias + sum(weight * feature), written out (a keyed loop costs more than the rest of a compare). */
export function linearScore(f: PairFeatures): number {
  const w = WEIGHTS;
  return w.bias
    + w.containment * f.containment + w.dice * f.dice + w.unmatchedMin * f.unmatchedMin + w.leadShared * f.leadShared
    + w.gtinEqual * f.gtinEqual + w.gtinDifferent * f.gtinDifferent
    + w.codeSharedStrong * f.codeSharedStrong + w.codeSharedWeak * f.codeSharedWeak
    + w.codeStrongConflict * f.codeStrongConflict + w.codeWeakConflict * f.codeWeakConflict
    + w.codeSharedDescription * f.codeSharedDescription
    + w.brandEqual * f.brandEqual + w.brandDifferent * f.brandDifferent
    + w.numbersDisjoint * f.numbersDisjoint + w.numbersPartial * f.numbersPartial + w.numbersOneSided * f.numbersOneSided
    + w.editionsDisjoint * f.editionsDisjoint + w.editionsOneSided * f.editionsOneSided
    + w.offerKindsDiffer * f.offerKindsDiffer + w.platformsDisjoint * f.platformsDisjoint
    + w.priceOk * f.priceOk + w.priceSuspicious * f.priceSuspicious + w.priceLogRatio * f.priceLogRatio;
}

export function compareProfiles(a: MatchProfile, b: MatchProfile): MatchResult {
  const { features, overlap, gtin, brand, price, code } = pairSignals(a, b);
  const reasons: string[] = [];
  for (let i = 0; i < REASONS.length; i += 1) if (features[REASONS[i][0]] > 0) reasons.push(REASONS[i][1]);
  let score = sigmoid(linearScore(features));
  let matchClass: MatchClass = score >= 0.5 ? 'exact' : 'different';
  // A shared GTIN or long model code outranks title wording ("battery" in one title only).
  const identified = gtin === 'equal' || code.sharedStrong;
  const [acc, other] = a.accessory ? [a, b] : [b, a];
  // ...except the model code of the product a case is for: "Case for Galaxy S24 SM-S921B" names
  // the phone's code, which identifies the phone, not the case.
  const accessoryIdentified = identified && (gtin === 'equal' || !codeNamesWhatItFits(acc, code.shared));

  if (!accessoryIdentified && a.accessory !== b.accessory) {
    const related = fitsOverlap(acc, other) >= 0.5 || overlap.similarity >= 0.5;
    matchClass = related ? 'accessory' : 'different';
    if (related) reasons.push('accessory_of_other');
    score = Math.min(score, CAP.accessory);
  } else if (!identified && (a.bundle !== b.bundle || a.quantity !== b.quantity)) {
    reasons.push(a.quantity !== b.quantity ? 'pack_quantity_differs' : 'bundle_vs_single');
    matchClass = overlap.similarity >= 0.5 ? 'bundle' : 'different';
    score = Math.min(score, CAP.bundle);
  } else {
    const capacityDiffers = a.capacityGb !== null && b.capacityGb !== null && a.capacityGb !== b.capacityGb;
    const sizeDiffers = a.sizeIn !== null && b.sizeIn !== null && a.sizeIn !== b.sizeIn;
    // "Galaxy S7" is not "Galaxy S7 edge", nor "iPhone 15 Pro" an "iPhone 15 Pro Max".
    const variantDiffers = variantWordsDiffer(a, b);
    if (capacityDiffers) reasons.push('capacity_differs');
    if (sizeDiffers) reasons.push('size_differs');
    if (variantDiffers) reasons.push('variant_word_differs');
    if (((capacityDiffers || sizeDiffers) && gtin !== 'equal') || (variantDiffers && !identified)) {
      matchClass = score >= 0.5 ? 'variant' : 'different';
      score = Math.min(score, CAP.variant);
    }
  }
  // Colour is deliberately not a class: shoppers comparing prices want every colour of a model.
  if (matchClass === 'exact' && setAgreement(a.colours, b.colours) === 'disjoint') reasons.push('colour_differs');

  return {
    score: round4(score),
    matchClass,
    evidence: {
      gtin,
      model_number: code.shared,
      brand,
      title_similarity: round4(overlap.similarity),
      price_sanity: price,
      reasons,
    },
  };
}
