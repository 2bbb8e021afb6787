// The compact form of a MatchProfile the prefilter (prefilter.ts) works on: one Int32Array of
// 32-bit hashes (tokens, joins, codes, their stems and prefixes), weights in tenths and an
// open-addressing member set, plus the values tried first as fields of its object (header
// values, a 256-bit member filter, 64-bit code filters, the strong codes' probe hashes). Built
// once per profile object; a hash collision can only make two strings look equal.

import { codeStem, isStrongCode } from './model-codes.js';
import type { MatchProfile } from './types.js';

// Header slots of the compact form.
export const TOKENS = 0; // token count
export const TABLE = 1; // offset of the member set
export const TABLE_SIZE = 2;
export const CODES = 3; // offset of the code records
export const CODE_COUNT = 4;
export const JOIN_PRE = 5; // offset and count of the joins' prefix hashes
export const JOIN_PRE_COUNT = 6;
export const DESC = 7; // offset and count of the description codes
export const DESC_COUNT = 8;
const FLAGS = 9;
const BRAND = 10;
const LEAD_WORD = 11;
const GTIN = 12;
const EDITIONS = 13;
const PLATFORMS = 14;
const OFFER_KINDS = 15;
const NUMBERS = 16;
const BLOOM = 17; // 256 bits over the members: most misses never touch the member set
export const HEADER = 25;
// Per token: hash, weight in tenths, flags, stem hash, start and end of its prefix hashes.
export const TOKEN_WIDTH = 6;
// Per code: hash, length, stem hash, start and end of its prefix hashes.
export const CODE_WIDTH = 5;

export const F_STRONG_CODES = 1;
export const T_CODE = 1;
export const T_STRONG = 2;

export interface Compiled {
  h: Int32Array;
  priceCents: number | null;
  /** The few strings the bound compares as strings, so it never reads the profile itself. */
  brand: string | null;
  tokens: readonly string[];
  numbers: readonly string[];
  // Header values and the bloom filter again as fields: the features tried first (and the bloom
  // lookups that end most member tests) read only this object, not the array behind `h`.
  brandHash: number;
  gtin: number;
  leadWord: number;
  firstToken: number;
  flags: number;
  editions: number;
  platforms: number;
  offerKinds: number;
  numberCount: number;
  codeCount: number;
  descCount: number;
  /** 64-bit filters: every code, code stem and code prefix; and the same of the strong codes only. */
  codesLo: number; codesHi: number;
  /** The hashes a strong code of this listing is looked for by (code, stem, prefixes): up to four, else -1 = read them from `h`. */
  strongProbes: number;
  sp0: number; sp1: number; sp2: number; sp3: number;
  b0: number; b1: number; b2: number; b3: number; b4: number; b5: number; b6: number; b7: number;
}

/** The compact form of a profile, opaque to callers; a caller may keep it beside the profile. */
export type CompactProfile = Compiled;

const compiled = new WeakMap<MatchProfile, Compiled>();

function hash(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i += 1) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h === 0 ? 1 : h; // 0 means "none"
}

const stemHash = (stem: string): number => (stem.length >= 4 ? hash(stem) : 0);

/** codePrefixMatch(short, long) holds when long = short + 1-4 letters and short has 5+ characters: every such short of s. */
function prefixes(s: string, out: number[]): void {
  for (let k = 1; k <= 4 && s.length - k >= 5; k += 1) {
    const c = s.charCodeAt(s.length - k);
    if (c < 97 || c > 122) break;
    out.push(hash(s.slice(0, s.length - k)));
  }
}

/**
 * A word set (editions, platforms, offer kinds) as a 32-bit mask, one bit per word by its hash.
 * Two words sharing a bit only make two sets look more alike, and every one of these features
 * penalises difference, so the bound can only rise. The same on every thread.
 */
function wordMask(values: readonly string[]): number {
  let m = 0;
  for (const v of values) m |= 1 << (hash(v) & 31);
  return m;
}

/**
 * Takes c as p's compact form, e.g. one built by another thread from an equal profile (it is the
 * same: building it depends on nothing but the profile).
 */
export function adoptCompact(p: MatchProfile, c: CompactProfile): void {
  if (!compiled.has(p)) compiled.set(p, c);
}

/** The compact form of p (built once per profile object). */
export function compactProfile(p: MatchProfile): CompactProfile {
  return compile(p);
}

function compile(p: MatchProfile): Compiled {
  const found = compiled.get(p);
  if (found) return found;
  const out: number[] = new Array<number>(HEADER).fill(0);
  const n = p.tokens.length;
  out[TOKENS] = n;
  const pre: number[][] = [];
  const tokenAt = out.length;
  for (let i = 0; i < n; i += 1) {
    const t = p.tokens[i];
    const code = p.tokenStems[i] !== '';
    out.push(hash(t), Math.round(p.weights[i] * 10), (code ? T_CODE : 0) | (isStrongCode(t) ? T_STRONG : 0), code ? stemHash(p.tokenStems[i]) : 0, 0, 0);
    const own: number[] = [];
    if (code) prefixes(t, own);
    pre.push(own);
  }
  for (let i = 0; i < n; i += 1) {
    out[tokenAt + i * TOKEN_WIDTH + 4] = out.length;
    out.push(...pre[i]);
    out[tokenAt + i * TOKEN_WIDTH + 5] = out.length;
  }
  out[CODES] = out.length;
  out[CODE_COUNT] = p.codes.length;
  const codeAt = out.length;
  for (let i = 0; i < p.codes.length; i += 1) out.push(hash(p.codes[i]), p.codes[i].length, stemHash(p.codeStems[i]), 0, 0);
  for (let i = 0; i < p.codes.length; i += 1) {
    out[codeAt + i * CODE_WIDTH + 3] = out.length;
    prefixes(p.codes[i], out);
    out[codeAt + i * CODE_WIDTH + 4] = out.length;
  }
  out[JOIN_PRE] = out.length;
  for (const j of p.joins) prefixes(j, out);
  out[JOIN_PRE_COUNT] = out.length - out[JOIN_PRE];
  out[DESC] = out.length;
  out[DESC_COUNT] = p.descCodes.length;
  for (const d of p.descCodes) out.push(hash(d), stemHash(codeStem(d)));
  // The member set: hashes of the tokens and adjacent joins, open addressing, 0 = empty slot.
  let size = 16;
  while (size < (n + p.joins.length) * 2) size *= 2;
  out[TABLE] = out.length;
  out[TABLE_SIZE] = size;
  const table = new Int32Array(size);
  for (let i = 0; i < n + p.joins.length; i += 1) {
    const h = i < n ? out[tokenAt + i * TOKEN_WIDTH] : hash(p.joins[i - n]);
    let at = h & (size - 1);
    while (table[at] !== 0 && table[at] !== h) at = (at + 1) & (size - 1);
    table[at] = h;
  }
  for (const x of table) {
    out.push(x);
    if (x !== 0) out[BLOOM + ((x >>> 5) & 7)] |= 1 << (x & 31);
  }
  // The joins' prefixes go into the member filter too: a code of the other listing spelled as a
  // join plus letters is looked for only when the filter says it may be there.
  for (let k = out[JOIN_PRE]; k < out[JOIN_PRE] + out[JOIN_PRE_COUNT]; k += 1) out[BLOOM + ((out[k] >>> 5) & 7)] |= 1 << (out[k] & 31);
  const codes = [0, 0];
  const strong: number[] = [];
  for (let i = 0, at = codeAt; i < p.codes.length; i += 1, at += CODE_WIDTH) {
    const probes = [out[at], out[at + 2], ...out.slice(out[at + 3], out[at + 4])].filter((x) => x !== 0);
    for (const x of probes) {
      codes[(x >>> 31) & 1] |= 1 << ((x >>> 26) & 31);
      if (out[at + 1] >= 5 && !strong.includes(x)) strong.push(x);
    }
  }
  const editions = wordMask(p.editions);
  const platforms = wordMask(p.platforms);
  const offers = wordMask(p.offerKinds);
  out[FLAGS] = p.codes.some(isStrongCode) ? F_STRONG_CODES : 0;
  out[BRAND] = p.brand === null ? 0 : hash(p.brand);
  const lead = p.tokens[0];
  out[LEAD_WORD] = lead !== undefined && lead.length >= 2 && p.tokenStems[0] === '' && !/\d/.test(lead) ? hash(lead) : 0;
  out[GTIN] = p.gtin === null ? 0 : hash(p.gtin);
  out[EDITIONS] = editions;
  out[PLATFORMS] = platforms;
  out[OFFER_KINDS] = offers;
  out[NUMBERS] = p.numbers.length;
  const c: Compiled = {
    h: Int32Array.from(out), priceCents: p.priceCents, brand: p.brand, tokens: p.tokens, numbers: p.numbers,
    brandHash: out[BRAND], gtin: out[GTIN], leadWord: out[LEAD_WORD], firstToken: n > 0 ? out[HEADER] : 0, flags: out[FLAGS],
    editions: out[EDITIONS], platforms: out[PLATFORMS], offerKinds: out[OFFER_KINDS], numberCount: out[NUMBERS], codeCount: out[CODE_COUNT],
    descCount: out[DESC_COUNT], codesLo: codes[0], codesHi: codes[1],
    strongProbes: strong.length <= 4 ? strong.length : -1, sp0: strong[0] ?? 0, sp1: strong[1] ?? 0, sp2: strong[2] ?? 0, sp3: strong[3] ?? 0,
    b0: out[BLOOM], b1: out[BLOOM + 1], b2: out[BLOOM + 2], b3: out[BLOOM + 3], b4: out[BLOOM + 4], b5: out[BLOOM + 5], b6: out[BLOOM + 6], b7: out[BLOOM + 7],
  };
  compiled.set(p, c);
  return c;
}

/** Whether x may be among a 64-bit filter's hashes (lo, hi). */
export function in64(lo: number, hi: number, x: number): boolean {
  return ((((x >>> 31) & 1) === 0 ? lo : hi) & (1 << ((x >>> 26) & 31))) !== 0;
}

function bloomWord(c: Compiled, x: number): number {
  switch ((x >>> 5) & 7) {
    case 0: return c.b0;
    case 1: return c.b1;
    case 2: return c.b2;
    case 3: return c.b3;
    case 4: return c.b4;
    case 5: return c.b5;
    case 6: return c.b6;
    default: return c.b7;
  }
}

export function bloomHas(c: Compiled, x: number): boolean {
  return ((bloomWord(c, x) >>> (x & 31)) & 1) !== 0;
}

/** Whether x is a member (token or join hash) of the compact form c. */
export function member(c: Compiled, x: number): boolean {
  if (!bloomHas(c, x)) return false;
  const o = c.h;
  const from = o[TABLE];
  const m = o[TABLE_SIZE] - 1;
  for (let at = x & m; ; at = (at + 1) & m) {
    const y = o[from + at];
    if (y === x) return true;
    if (y === 0) return false;
  }
}

export function within(h: Int32Array, from: number, to: number, x: number): boolean {
  for (let i = from; i < to; i += 1) if (h[i] === x) return true;
  return false;
}

/** Whether x equals the hash of one of o's codes. */
export function isCode(o: Int32Array, x: number): boolean {
  for (let j = 0, at = o[CODES]; j < o[CODE_COUNT]; j += 1, at += CODE_WIDTH) if (o[at] === x) return true;
  return false;
}

/** Whether x is one of o's code stems (of 4+ characters). */
export function isCodeStem(o: Int32Array, x: number): boolean {
  for (let j = 0, at = o[CODES]; j < o[CODE_COUNT]; j += 1, at += CODE_WIDTH) if (o[at + 2] === x) return true;
  return false;
}

/** Whether x is a prefix (in the codePrefixMatch sense) of one of o's codes. */
export function isCodePrefix(o: Int32Array, x: number): boolean {
  const codes = o[CODES];
  const n = o[CODE_COUNT];
  return n > 0 && within(o, o[codes + 3], o[codes + (n - 1) * CODE_WIDTH + 4], x);
}
