// A compact text form of a MatchProfile for storage: the extracted fields as one JSON array,
// without the fields derived from tokens, brand and codes (weights, stems, joins, leads), which
// decoding computes again exactly as buildProfile does. Far smaller than JSON.stringify(profile),
// so a store's rows stay small; decoding also accepts that older form.

import { derivedFields } from './profile.js';
import type { MatchProfile } from './types.js';

type Packed = [
  v: number, gtin: string | null, brand: string | null, tokens: string[], codes: string[], numbers: string[],
  editions: string[], colours: string[], offerKinds: string[], platforms: string[], capacityGb: number | null,
  sizeIn: number | null, quantity: number, accessory: 0 | 1, fitsTokens: string[], bundle: 0 | 1, category: string | null,
  priceUsd: string | null, priceCents: number | null, descCodes: string[],
];

export function encodeProfile(p: MatchProfile): string {
  const packed: Packed = [
    p.v, p.gtin, p.brand, p.tokens, p.codes, p.numbers, p.editions, p.colours, p.offerKinds, p.platforms, p.capacityGb,
    p.sizeIn, p.quantity, p.accessory ? 1 : 0, p.fitsTokens, p.bundle ? 1 : 0, p.category, p.priceUsd, p.priceCents, p.descCodes,
  ];
  return JSON.stringify(packed);
}

/** A profile from `encodeProfile` text, or from JSON.stringify(profile). */
export function decodeProfile(text: string): MatchProfile {
  if (text.charCodeAt(0) !== 91 /* [ */) return JSON.parse(text) as MatchProfile;
  const [v, gtin, brand, tokens, codes, numbers, editions, colours, offerKinds, platforms, capacityGb, sizeIn, quantity, accessory,
    fitsTokens, bundle, category, priceUsd, priceCents, descCodes] = JSON.parse(text) as Packed;
  const d = derivedFields(tokens, brand, codes);
  return {
    v, gtin, brand, tokens, codes, numbers, editions, colours, offerKinds, platforms, capacityGb, sizeIn, quantity,
    accessory: accessory === 1, fitsTokens, bundle: bundle === 1, category, priceUsd, priceCents,
    weights: d.weights, tokenStems: d.tokenStems, joins: d.joins, codeStems: d.codeStems, descCodes, leads: d.leads,
  };
}
