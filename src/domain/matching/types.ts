// Public shapes of the matching module. The profile is stored as JSON next to each listing, so it
// holds only plain data (strings, numbers, booleans, arrays) and carries a version for rebuilds.

export interface MatchInput {
  title: string;
  brand: string | null;
  gtin: string | null;
  mpn: string | null;
  category: string | null;
  specs: Record<string, unknown> | null;
  /** Decimal string in USD, may be null. Only used as a sanity ratio, never as money. */
  priceUsd: string | null;
  /**
   * Optional long description. Only model codes found in it are used (a secondary identity
   * signal: shops often put the exact model number in the description, not the title).
   */
  description?: string | null;
}

/** Bump when extraction rules change: profiles of an older version must be rebuilt before comparing. */
export const PROFILE_VERSION = 2;

export interface MatchProfile {
  v: number;
  /** Canonical GTIN-14 or null. */
  gtin: string | null;
  /** Normalised brand ("aspyr media inc." -> "aspyr"), from the brand field only. */
  brand: string | null;
  /** Content tokens in title order, stop words removed, duplicates dropped. */
  tokens: string[];
  /** Model codes (folded), MPN first. */
  codes: string[];
  /** Version-like numbers ("2007", "15", "4") outside units and codes. */
  numbers: string[];
  /** Edition / language words, canonical ("pro" -> "professional"). */
  editions: string[];
  colours: string[];
  /** Platforms named ("mac", "win"): software for another platform is another product. */
  platforms: string[];
  /** Offer kinds ("upgrade", "academic", "refurbished") that make a different purchase. */
  offerKinds: string[];
  /** Largest storage capacity named, in GB (the variant axis for phones, drives, cards). */
  capacityGb: number | null;
  /** Screen or body size in inches when named. */
  sizeIn: number | null;
  /** Pack quantity ("2-pack", "pack of 3"), 1 when not stated. */
  quantity: number;
  accessory: boolean;
  /** Tokens naming what an accessory fits ("case for iphone 15" -> ["iphone", "15"]). */
  fitsTokens: string[];
  bundle: boolean;
  category: string | null;
  /** Price in USD as the decimal string given; compared only as a ratio. */
  priceUsd: string | null;
  /** The same price in integer cents (parsed from the decimal string, no float arithmetic), or null. */
  priceCents: number | null;
  // Precomputed for compareProfiles (which runs per candidate and must stay cheap):
  /** Weight of each token (parallel to `tokens`), own brand already at 0.5. */
  weights: number[];
  /** Stem of each token that is a model code (parallel to `tokens`), '' otherwise. */
  tokenStems: string[];
  /** Concatenations of adjacent tokens ("print shop" -> "printshop"). */
  joins: string[];
  /** `codeStem` of each code (parallel to `codes`). */
  codeStems: string[];
  /** Model codes named only in the description (not the title/MPN/specs), folded. */
  descCodes: string[];
  /** First few naming words (not brand, filler, numbers or codes) in title order. */
  leads: string[];
}

export type MatchClass = 'exact' | 'variant' | 'bundle' | 'accessory' | 'different';

export interface MatchEvidence {
  gtin: 'equal' | 'different' | 'absent';
  /** The model code both listings share, or null. */
  model_number: string | null;
  brand: 'equal' | 'different' | 'absent';
  title_similarity: number;
  price_sanity: 'ok' | 'suspicious' | 'absent';
  reasons: string[];
}

export interface MatchResult {
  score: number;
  matchClass: MatchClass;
  evidence: MatchEvidence;
}
