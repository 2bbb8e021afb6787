// buildProfile: everything the comparison needs, extracted once per listing at ingest time so that
// comparing against tens of candidates is set arithmetic only.

import { normalizeGtin } from '../gtin.js';
import { codeStem, extractCodes, isModelCode } from './model-codes.js';
import { tokenWeight } from './similarity.js';
import { foldText, parseUnitToken, tokenise } from './text.js';
import { PROFILE_VERSION, type MatchInput, type MatchProfile } from './types.js';
import {
  ACCESSORY_WORDS, BRAND_ALIASES, BRAND_NOISE, BUNDLE_WORDS, COLOUR_WORDS, EDITION_WORDS, OFFER_KIND_WORDS, STOP_WORDS,
  WEAK_WORDS,
} from './vocabulary.js';

// "for" introduces what an accessory fits, in English, Vietnamese ("cho") and Thai ("สำหรับ").
const FITS_MARKERS = new Set(['for', 'fits', 'compatible', 'cho', 'สำหรับ']);
// "for mac" / "for windows" names a platform, not a product the listing attaches to.
const PLATFORMS = new Set(['mac', 'macintosh', 'pc', 'win', 'windows', 'linux', 'os', 'x', 'xp', 'vista', 'with', 'use', 'the', 'a']);
// Operating-system lists in software titles ("win 98 me 2000 xp") are requirements, not versions.
const PLATFORM_VERSIONS = new Set(['95', '98', 'me', 'nt', '2000', 'xp', 'vista', '2003', '7', '8', '10', '11']);

// Platform words of software titles, folded to one name per platform.
const PLATFORM_WORDS: ReadonlyMap<string, string> = new Map([
  ['mac', 'mac'], ['macintosh', 'mac'], ['osx', 'mac'], ['win', 'win'], ['windows', 'win'], ['pc', 'win'],
  ['xp', 'win'], ['vista', 'win'], ['linux', 'linux'],
]);
const NUMBER_TOKEN = /^\d+(\.\d+)*$/;
const HAS_DIGIT = /\d/;

/** "Aspyr Media Inc." -> "aspyr", "Hewlett-Packard - (Consumables)" -> "hp"; null when nothing is left. */
export function normalizeBrand(raw: string | null): string | null {
  if (raw === null) return null;
  const folded = foldText(raw).replace(/\(.*?\)/g, ' ');
  const whole = folded.replace(/[^a-z0-9\p{L}\p{M}]+/gu, '');
  if (BRAND_ALIASES.has(whole)) return BRAND_ALIASES.get(whole) ?? null;
  for (const word of folded.split(/[^\p{L}\p{M}\p{N}]+/u)) {
    if (word === '' || BRAND_NOISE.has(word)) continue;
    return BRAND_ALIASES.get(word) ?? word;
  }
  return null;
}

/** Bundle when the title says so or joins two named things with "+" (but not "8GB+128GB"). */
function looksLikeBundle(foldedTitle: string, tokens: readonly string[]): boolean {
  if (tokens.some((t) => BUNDLE_WORDS.has(t))) return true;
  if (!foldedTitle.includes('+')) return false;
  for (const m of foldedTitle.matchAll(/(\S+)\s*\+\s*(\S+)/g)) {
    const left = m[1].replace(/[^\p{L}\p{N}]/gu, '');
    const right = m[2].replace(/[^\p{L}\p{N}]/gu, '');
    const numeric = (s: string): boolean => s === '' || /^\d/.test(s) || parseUnitToken(s) !== null;
    if (!(numeric(left) && numeric(right))) return true;
  }
  return false;
}

const PACK_QUANTITY = /(\d+)\s*-?\s*(?:pack|pk|pcs|count|ct)\b|pack\s+of\s+(\d+)|\bx\s*(\d+)\s*$/;

function packQuantity(foldedTitle: string): number {
  if (!HAS_DIGIT.test(foldedTitle)) return 1;
  const m = PACK_QUANTITY.exec(foldedTitle);
  const n = m ? Number(m[1] ?? m[2] ?? m[3]) : 1;
  return Number.isFinite(n) && n > 1 && n < 1000 ? n : 1;
}

/** Numbers in a platform list following "win"/"windows" when the list has at least two entries. */
function platformNumberPositions(tokens: readonly string[]): Set<number> {
  const skip = new Set<number>();
  for (let i = 0; i < tokens.length; i += 1) {
    if (tokens[i] !== 'win' && tokens[i] !== 'windows') continue;
    let j = i + 1;
    while (j < tokens.length && PLATFORM_VERSIONS.has(tokens[j])) j += 1;
    if (j - i - 1 >= 2) for (let k = i + 1; k < j; k += 1) skip.add(k);
  }
  return skip;
}

const PRICE_DECIMAL = /^\s*(\d{1,12})(?:\.(\d*))?\s*$/;
// Description codes: number+word ("3angle", "54mbps") and word+digit ("mpeg2") shapes are specs, not models.
const SPEC_SHAPED = /^\d+[a-z]{3,}$|^[a-z]{4,}\d{1,2}$/;
const DESC_CHARS = 400;
const MAX_DESC_CODES = 4;
const MAX_LEADS = 4;

/** Integer cents from a decimal string ("399.99" -> 39999, "12" -> 1200), half-up on the third decimal. */
export function priceToCents(raw: string | null): number | null {
  if (raw === null) return null;
  const m = PRICE_DECIMAL.exec(raw);
  if (!m) return null;
  const frac = (m[2] ?? '').padEnd(3, '0');
  const cents = Number(m[1]) * 100 + Number(frac.slice(0, 2)) + (frac.charCodeAt(2) >= 53 ? 1 : 0);
  return cents > 0 ? cents : null;
}

const DESC_CODE_CANDIDATE = /[a-z0-9][a-z0-9/-]{3,30}[a-z0-9]/g;
const CODE_SEPARATORS = /[/-]/g;

/**
 * Strong model codes named in a description that the title did not already name. Descriptions
 * are long, so they are not tokenised: one scan for alphanumeric runs (hyphens/slashes joined).
 */
function descriptionCodes(description: string | null | undefined, codes: readonly string[]): string[] {
  if (!description) return [];
  const text = (description.length > DESC_CHARS ? description.slice(0, DESC_CHARS) : description).toLowerCase();
  const out: string[] = [];
  for (const m of text.matchAll(DESC_CODE_CANDIDATE)) {
    if (out.length >= MAX_DESC_CODES) break;
    const c = m[0].replace(CODE_SEPARATORS, '');
    if (c.length < 5 || !isModelCode(c) || SPEC_SHAPED.test(c) || !/[a-z]/.test(c)) continue;
    if (codes.includes(c) || out.includes(c)) continue;
    out.push(c);
  }
  return out;
}

/** The precomputed fields of a profile, which follow from its tokens, brand and codes alone. */
export function derivedFields(tokens: readonly string[], brand: string | null, codes: readonly string[])
  : Pick<MatchProfile, 'weights' | 'tokenStems' | 'joins' | 'codeStems' | 'leads'> {
  const weights: number[] = [];
  const tokenStems: string[] = [];
  const joins: string[] = [];
  const leads: string[] = [];
  for (let i = 0; i < tokens.length; i += 1) {
    const t = tokens[i];
    const code = isModelCode(t);
    weights.push(t === brand ? 0.5 : tokenWeight(t, code));
    tokenStems.push(code ? codeStem(t) : '');
    if (i + 1 < tokens.length) joins.push(t + tokens[i + 1]);
    if (leads.length < MAX_LEADS && t !== brand && t.length > 2 && !WEAK_WORDS.has(t) && !HAS_DIGIT.test(t)) leads.push(t);
  }
  return { weights, tokenStems, joins, codeStems: codes.map(codeStem), leads };
}

export function buildProfile(input: MatchInput): MatchProfile {
  const { tokens: raw, joined, folded: foldedTitle } = tokenise(input.title);
  const platformNumbers = platformNumberPositions(raw);
  const brand = normalizeBrand(input.brand);

  const tokens: string[] = [];
  const numbers: string[] = [];
  const editions: string[] = [];
  const colours: string[] = [];
  const offerKinds: string[] = [];
  const platforms: string[] = [];
  const fitsTokens: string[] = [];
  let capacityGb: number | null = null;
  let sizeIn: number | null = null;
  let accessory = false;
  let fitsFrom = -1;

  for (let i = 0; i < raw.length; i += 1) {
    const t = raw[i];
    if (FITS_MARKERS.has(t) && fitsFrom < 0) fitsFrom = i + 1;
    if (STOP_WORDS.has(t)) continue;
    if (!tokens.includes(t)) tokens.push(t);
    const unit = HAS_DIGIT.test(t) ? parseUnitToken(t) : null;
    if (unit?.unit === 'gb' || unit?.unit === 'tb') {
      const gb = unit.unit === 'tb' ? unit.value * 1024 : unit.value;
      capacityGb = Math.max(capacityGb ?? 0, gb);
    } else if (unit?.unit === 'in') {
      sizeIn = unit.value;
    } else if (unit === null && NUMBER_TOKEN.test(t) && !platformNumbers.has(i) && !numbers.includes(t)) {
      numbers.push(t);
    }
    const edition = EDITION_WORDS.get(t);
    if (edition && !editions.includes(edition)) editions.push(edition);
    if (COLOUR_WORDS.has(t) && !colours.includes(t)) colours.push(t);
    const platform = PLATFORM_WORDS.get(t);
    if (platform && !platforms.includes(platform)) platforms.push(platform);
    const kind = OFFER_KIND_WORDS.get(t);
    if (kind && !offerKinds.includes(kind)) offerKinds.push(kind);
    // An accessory noun before "for ..." (or anywhere when there is no "for") marks an accessory.
    if (ACCESSORY_WORDS.has(t) && (fitsFrom < 0 || i < fitsFrom)) accessory = true;
  }

  if (fitsFrom > 0) {
    let firstFit: string | undefined;
    for (let i = fitsFrom; i < raw.length && firstFit === undefined; i += 1) if (!STOP_WORDS.has(raw[i])) firstFit = raw[i];
    if (firstFit !== undefined && !PLATFORMS.has(firstFit)) {
      for (let i = fitsFrom; i < raw.length && i < fitsFrom + 5; i += 1) {
        const t = raw[i];
        if (PLATFORMS.has(t) || STOP_WORDS.has(t)) continue;
        fitsTokens.push(t);
      }
      // "case for iPhone 15": the thing after "for" is a product, so this listing is its accessory.
      if (fitsTokens.length > 0 && fitsTokens.some((t) => !/^\d/.test(t))) accessory = true;
    }
  }

  const codes = extractCodes(raw, joined, input.mpn, input.specs).filter((c) => !STOP_WORDS.has(c));
  const { weights, tokenStems, joins, codeStems, leads } = derivedFields(tokens, brand, codes);
  return {
    v: PROFILE_VERSION,
    gtin: input.gtin ? normalizeGtin(input.gtin) : null,
    brand,
    tokens,
    codes,
    numbers: numbers.filter((n) => !isModelCode(n)),
    editions,
    colours,
    offerKinds,
    platforms,
    capacityGb,
    sizeIn,
    quantity: packQuantity(foldedTitle),
    accessory,
    fitsTokens,
    bundle: looksLikeBundle(foldedTitle, raw),
    category: input.category ? foldText(input.category) : null,
    priceUsd: input.priceUsd,
    priceCents: priceToCents(input.priceUsd),
    weights,
    tokenStems,
    joins,
    codeStems,
    descCodes: descriptionCodes(input.description, codes),
    leads,
  };
}
