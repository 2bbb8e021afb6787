// The compact form of a MatchProfile the prefilter (prefilter.ts) works on: 32-bit hashes of its
// tokens, joins, codes, numbers, their stems and prefixes, weights in tenths, a member set and a
// 256-bit member filter, all in one run of an Int32Array. A form is read at any offset of any
// array, so a bulk load keeps every listing's in one arena (compact-arena.ts) instead of an object
// each. Building it depends on nothing but the profile, so every thread builds the same one. A
// hash collision can only make two strings look equal; where that could lower the bound (a brand
// met as a word) two hashes are compared.

import { codeStem, isStrongCode } from './model-codes.js';
import type { MatchProfile } from './types.js';

// Header slots; every offset the header holds is relative to the form's start. A candidate is
// mostly ruled out on the first sixteen (one cache line, as forms start on one), then on its code
// records and member set, which follow the header; its token records come last.
export const GTIN = 0;
export const BRAND = 1;
export const EDITIONS = 2;
export const OFFER_KINDS = 3;
export const PLATFORMS = 4;
export const FLAGS = 5;
/** The natural log of the price in cents, a double in two slots (F_PRICE says whether there is one). */
export const LOG_PRICE = 6;
export const CODE_COUNT = 8;
/** A 64-bit filter over every code, code stem and code prefix. */
export const CODES_LO = 9;
export const CODES_HI = 10;
export const CODES = 11; // offset of the code records
/** How many hashes a strong code of this listing is looked for by (code, stem, prefixes), up to four (STRONG_PROBE), else -1. */
export const STRONG_PROBES = 12;
export const LEAD_WORD = 13;
/** Left 0 here: a slot whoever keeps the form may use (a bulk load keeps the listing's group there). */
export const KEEPER = 14;
export const NUMBER_COUNT = 15;
export const BLOOM = 16; // 8 words: 256 bits over the members, so most misses never touch the set
export const STRONG_PROBE = 24;
export const TABLE = 28; // offset of the member set
export const TABLE_SIZE = 29;
export const JOIN_PRE = 30; // offset and count of the joins' prefix hashes
export const DESC_COUNT = 31; // count and offset of the description codes (hash, stem hash)
export const DESC = 32;
export const JOIN_PRE_COUNT = 33;
export const TOKENS = 34; // token count
export const TOKEN_AT = 35; // offset of the token records
export const NUMBERS = 36; // offset of the number records
/** A second hash of the brand: a word of the other title is its brand only when both agree. */
export const BRAND2 = 37;
export const LENGTH = 38; // the form's whole length
export const FIRST_TOKEN = 39;
export const HEADER = 40;
/** Forms start at multiples of this many values (a 64-byte cache line). */
export const ALIGN = 16;
/** Per token: hash, weight in tenths, flags, stem hash, start and end of its prefix hashes, second hash. */
export const TOKEN_WIDTH = 7;
/** Per code: hash, length, stem hash, start and end of its prefix hashes. */
export const CODE_WIDTH = 5;

export const F_STRONG_CODES = 1;
export const F_PRICE = 2;
export const T_CODE = 1;
export const T_STRONG = 2;

/** A profile's compact form on its own: the form at offset 0 of its array. */
export type CompactProfile = Int32Array;

const compiled = new WeakMap<MatchProfile, CompactProfile>();

const FNV = 0x811c9dc5;
const FNV2 = 0x2b9a6f1d; // another offset basis: an independent second hash
const PRIME = 0x01000193;

function hashFrom(basis: number, s: string): number {
  let h = basis;
  for (let i = 0; i < s.length; i += 1) h = Math.imul(h ^ s.charCodeAt(i), PRIME);
  return h === 0 ? 1 : h; // 0 means "none"
}

const hash = (s: string): number => hashFrom(FNV, s);
const stemHash = (stem: string): number => (stem.length >= 4 ? hash(stem) : 0);

/**
 * A word set (editions, platforms, offer kinds) as a 32-bit mask, one bit per word by its hash.
 * Two words sharing a bit only make two sets look more alike, and every one of these features
 * penalises difference, so the bound can only rise.
 */
function wordMask(values: readonly string[]): number {
  let m = 0;
  for (const v of values) m |= 1 << (hash(v) & 31);
  return m;
}

/** Where forms are written: a growable Int32Array. */
export class CompactWriter {
  h: Int32Array;
  length = 0;

  constructor(capacity = 4096) {
    this.h = new Int32Array(capacity);
  }

  /** Room for `n` more values. */
  reserve(n: number): void {
    if (this.length + n <= this.h.length) return;
    let size = this.h.length * 2;
    while (size < this.length + n) size *= 2;
    const next = new Int32Array(size);
    next.set(this.h.subarray(0, this.length));
    this.h = next;
  }

  push(x: number): void {
    if (this.length === this.h.length) this.reserve(1);
    this.h[this.length++] = x;
  }

  /** Drops what was written, keeping the array. */
  reset(): void {
    this.length = 0;
  }
}

/**
 * codePrefixMatch(short, long) holds when long = short + 1-4 letters and short has 5+ characters:
 * the hashes of every such short of s, from one pass over s.
 */
function pushPrefixes(s: string, w: CompactWriter): void {
  let letters = 0;
  for (let k = s.length - 1; k >= s.length - 4 && k >= 5; k -= 1) {
    const c = s.charCodeAt(k);
    if (c < 97 || c > 122) break;
    letters += 1;
  }
  if (letters === 0) return;
  // The shorts are s without its last 1..letters characters, longest first (as slicing would give).
  let h = FNV;
  const from = s.length - letters;
  const at = w.length;
  w.reserve(letters);
  for (let i = 0; i < s.length - 1; i += 1) {
    h = Math.imul(h ^ s.charCodeAt(i), PRIME);
    if (i + 1 >= from) w.h[at + (s.length - 1 - (i + 1))] = h === 0 ? 1 : h;
  }
  w.length += letters;
}

/** Writes a version number's hash, then the hashes of its prefixes that end before a dot ("10.4.6": "10", "10.4"). */
function pushNumber(s: string, w: CompactWriter): void {
  const at = w.length;
  w.push(0);
  w.push(hash(s));
  let h = FNV;
  for (let i = 0; i < s.length; i += 1) {
    const c = s.charCodeAt(i);
    if (c === 46) w.push(h === 0 ? 1 : h);
    h = Math.imul(h ^ c, PRIME);
  }
  w.h[at] = w.length - at - 1;
}

function bloomSet(h: Int32Array, base: number, x: number): void {
  h[base + BLOOM + ((x >>> 5) & 7)] |= 1 << (x & 31);
}

/** Appends p's compact form to `w` (at the next multiple of ALIGN) and returns its offset there. */
export function writeCompact(p: MatchProfile, w: CompactWriter): number {
  const b = (w.length + ALIGN - 1) & -ALIGN;
  w.reserve(b - w.length);
  w.h.fill(0, w.length, b);
  w.length = b;
  const n = p.tokens.length;
  w.reserve(HEADER);
  w.h.fill(0, b, b + HEADER);
  w.length += HEADER;
  let h = w.h;
  // Codes, their prefixes, the joins' prefixes, description codes, numbers.
  const codeAt = w.length;
  w.reserve(p.codes.length * CODE_WIDTH);
  for (let i = 0; i < p.codes.length; i += 1) {
    const c = p.codes[i];
    w.h[w.length] = hash(c);
    w.h[w.length + 1] = c.length;
    w.h[w.length + 2] = stemHash(p.codeStems[i]);
    w.length += CODE_WIDTH;
  }
  for (let i = 0; i < p.codes.length; i += 1) {
    w.h[codeAt + i * CODE_WIDTH + 3] = w.length - b;
    pushPrefixes(p.codes[i], w);
    w.h[codeAt + i * CODE_WIDTH + 4] = w.length - b;
  }
  const joinPre = w.length;
  for (const j of p.joins) pushPrefixes(j, w);
  const joinPreEnd = w.length;
  const desc = w.length;
  for (const d of p.descCodes) {
    w.push(hash(d));
    w.push(stemHash(codeStem(d)));
  }
  const numbers = w.length;
  for (const x of p.numbers) pushNumber(x, w);
  // The member set: hashes of the tokens and adjacent joins, open addressing, 0 = empty slot.
  let size = 16;
  while (size < (n + p.joins.length) * 2) size *= 2;
  const table = w.length;
  w.reserve(size);
  w.h.fill(0, table, table + size);
  w.length += size;
  // Tokens and their prefixes.
  const tokenAt = w.length;
  w.reserve(n * TOKEN_WIDTH);
  for (let i = 0; i < n; i += 1) {
    const t = p.tokens[i];
    const code = p.tokenStems[i] !== '';
    const at = w.length;
    w.h[at] = hash(t);
    w.h[at + 1] = Math.round(p.weights[i] * 10);
    w.h[at + 2] = (code ? T_CODE : 0) | (isStrongCode(t) ? T_STRONG : 0);
    w.h[at + 3] = code ? stemHash(p.tokenStems[i]) : 0;
    w.h[at + 6] = hashFrom(FNV2, t);
    w.length += TOKEN_WIDTH;
  }
  for (let i = 0; i < n; i += 1) {
    w.h[tokenAt + i * TOKEN_WIDTH + 4] = w.length - b;
    if (p.tokenStems[i] !== '') pushPrefixes(p.tokens[i], w);
    w.h[tokenAt + i * TOKEN_WIDTH + 5] = w.length - b;
  }
  h = w.h;
  for (let i = 0; i < n + p.joins.length; i += 1) {
    const x = i < n ? h[tokenAt + i * TOKEN_WIDTH] : hash(p.joins[i - n]);
    let at = x & (size - 1);
    while (h[table + at] !== 0 && h[table + at] !== x) at = (at + 1) & (size - 1);
    if (h[table + at] === 0) {
      h[table + at] = x;
      bloomSet(h, b, x);
    }
  }
  // The joins' prefixes go into the member filter too: a code of the other listing spelled as a
  // join plus letters is looked for only when the filter says it may be there.
  for (let k = joinPre; k < joinPreEnd; k += 1) bloomSet(h, b, h[k]);
  let codesLo = 0;
  let codesHi = 0;
  let strong = 0;
  let strongCodes = false;
  const probe = (x: number, long: boolean) => {
    if (x === 0) return;
    if (((x >>> 31) & 1) === 0) codesLo |= 1 << ((x >>> 26) & 31);
    else codesHi |= 1 << ((x >>> 26) & 31);
    if (!long || strong < 0) return;
    for (let k = 0; k < strong; k += 1) if (h[b + STRONG_PROBE + k] === x) return;
    if (strong === 4) strong = -1;
    else h[b + STRONG_PROBE + strong++] = x;
  };
  for (let i = 0, at = codeAt; i < p.codes.length; i += 1, at += CODE_WIDTH) {
    const long = h[at + 1] >= 5;
    if (isStrongCode(p.codes[i])) strongCodes = true;
    probe(h[at], long);
    probe(h[at + 2], long);
    for (let k = b + h[at + 3]; k < b + h[at + 4]; k += 1) probe(h[k], long);
  }
  if (strong < 0) h.fill(0, b + STRONG_PROBE, b + STRONG_PROBE + 4);
  const lead = p.tokens[0];
  h[b + TOKENS] = n;
  h[b + TABLE] = table - b;
  h[b + TABLE_SIZE] = size;
  h[b + CODES] = codeAt - b;
  h[b + CODE_COUNT] = p.codes.length;
  h[b + JOIN_PRE] = joinPre - b;
  h[b + JOIN_PRE_COUNT] = joinPreEnd - joinPre;
  h[b + DESC] = desc - b;
  h[b + DESC_COUNT] = p.descCodes.length;
  h[b + FLAGS] = (strongCodes ? F_STRONG_CODES : 0) | (p.priceCents === null ? 0 : F_PRICE);
  h[b + BRAND] = p.brand === null ? 0 : hash(p.brand);
  h[b + BRAND2] = p.brand === null ? 0 : hashFrom(FNV2, p.brand);
  h[b + LEAD_WORD] = lead !== undefined && lead.length >= 2 && p.tokenStems[0] === '' && !/\d/.test(lead) ? hash(lead) : 0;
  h[b + GTIN] = p.gtin === null ? 0 : hash(p.gtin);
  h[b + EDITIONS] = wordMask(p.editions);
  h[b + PLATFORMS] = wordMask(p.platforms);
  h[b + OFFER_KINDS] = wordMask(p.offerKinds);
  h[b + NUMBER_COUNT] = p.numbers.length;
  if (p.priceCents !== null) {
    double[0] = Math.log(p.priceCents);
    h[b + LOG_PRICE] = doubleWords[0];
    h[b + LOG_PRICE + 1] = doubleWords[1];
  }
  h[b + CODES_LO] = codesLo;
  h[b + CODES_HI] = codesHi;
  h[b + STRONG_PROBES] = strong;
  h[b + FIRST_TOKEN] = n > 0 ? h[tokenAt] : 0;
  h[b + NUMBERS] = numbers - b;
  h[b + TOKEN_AT] = tokenAt - b;
  h[b + LENGTH] = w.length - b;
  return b;
}

const scratch = new CompactWriter(1 << 14);

/**
 * Takes c as p's compact form, e.g. one built by another thread from an equal profile (it is the
 * same: building it depends on nothing but the profile).
 */
export function adoptCompact(p: MatchProfile, c: CompactProfile): void {
  if (!compiled.has(p)) compiled.set(p, c);
}

/** The compact form of p on its own (built once per profile object). */
export function compactProfile(p: MatchProfile): CompactProfile {
  const found = compiled.get(p);
  if (found) return found;
  scratch.reset();
  writeCompact(p, scratch);
  const c = scratch.h.slice(0, scratch.length);
  compiled.set(p, c);
  return c;
}

/** How many values the form at b takes. */
export function compactLength(h: Int32Array, b: number): number {
  return h[b + LENGTH];
}

const double = new Float64Array(1);
const doubleWords = new Int32Array(double.buffer);

/**
 * The log of the form's price in cents, or NaN without one. Stored once: the bound's price terms
 * compare two listings by the ratio of their prices, and its log was the costliest step of a
 * candidate ruled out early.
 */
export function logPrice(h: Int32Array, b: number): number {
  if ((h[b + FLAGS] & F_PRICE) === 0) return NaN;
  doubleWords[0] = h[b + LOG_PRICE];
  doubleWords[1] = h[b + LOG_PRICE + 1];
  return double[0];
}

/** Whether x may be among a 64-bit filter's hashes (lo, hi). */
export function in64(lo: number, hi: number, x: number): boolean {
  return ((((x >>> 31) & 1) === 0 ? lo : hi) & (1 << ((x >>> 26) & 31))) !== 0;
}

export function bloomHas(h: Int32Array, b: number, x: number): boolean {
  return ((h[b + BLOOM + ((x >>> 5) & 7)] >>> (x & 31)) & 1) !== 0;
}

/** Whether x is a member (token or join hash) of the form at b. */
export function member(h: Int32Array, b: number, x: number): boolean {
  if (!bloomHas(h, b, x)) return false;
  const from = b + h[b + TABLE];
  const m = h[b + TABLE_SIZE] - 1;
  for (let at = x & m; ; at = (at + 1) & m) {
    const y = h[from + at];
    if (y === x) return true;
    if (y === 0) return false;
  }
}

export function within(h: Int32Array, from: number, to: number, x: number): boolean {
  for (let i = from; i < to; i += 1) if (h[i] === x) return true;
  return false;
}

/** Whether x equals the hash of one of the codes of the form at b. */
export function isCode(h: Int32Array, b: number, x: number): boolean {
  for (let j = 0, at = b + h[b + CODES]; j < h[b + CODE_COUNT]; j += 1, at += CODE_WIDTH) if (h[at] === x) return true;
  return false;
}

/** Whether x is one of its code stems (of 4+ characters). */
export function isCodeStem(h: Int32Array, b: number, x: number): boolean {
  for (let j = 0, at = b + h[b + CODES]; j < h[b + CODE_COUNT]; j += 1, at += CODE_WIDTH) if (h[at + 2] === x) return true;
  return false;
}

/** Whether x is a prefix (in the codePrefixMatch sense) of one of its codes: their prefixes lie together. */
export function isCodePrefix(h: Int32Array, b: number, x: number): boolean {
  const n = h[b + CODE_COUNT];
  if (n === 0) return false;
  const codes = b + h[b + CODES];
  return within(h, b + h[codes + 3], b + h[codes + (n - 1) * CODE_WIDTH + 4], x);
}

/**
 * numberAgreement (signals.ts) on hashes: a version agrees with another when equal or when one
 * refines the other, i.e. one's hash is the other's or among its dotted prefixes. A collision
 * only adds agreement, and each step towards agreement lowers the penalty.
 */
export function numbersAgreement(ha: Int32Array, a: number, hb: Int32Array, b: number): 'agree' | 'partial' | 'disjoint' | 'absent' {
  const na = ha[a + NUMBER_COUNT];
  const nb = hb[b + NUMBER_COUNT];
  if (na === 0 && nb === 0) return 'absent';
  if (na === 0 || nb === 0) return 'partial';
  const sharedA = agreeing(ha, a, hb, b);
  if (sharedA === 0) return 'disjoint';
  return sharedA === na && agreeing(hb, b, ha, a) === nb ? 'agree' : 'partial';
}

/** How many numbers of the form at a agree with some number of the form at b. */
function agreeing(ha: Int32Array, a: number, hb: Int32Array, b: number): number {
  let shared = 0;
  // The member set follows the number records.
  const endA = a + ha[a + TABLE];
  const fromB = b + hb[b + NUMBERS];
  const endB = b + hb[b + TABLE];
  for (let x = a + ha[a + NUMBERS]; x < endA; x += ha[x] + 1) {
    const hx = ha[x + 1];
    for (let y = fromB; y < endB; y += hb[y] + 1) {
      if (hb[y + 1] === hx || within(hb, y + 2, y + 1 + hb[y], hx) || within(ha, x + 2, x + 1 + ha[x], hb[y + 1])) {
        shared += 1;
        break;
      }
    }
  }
  return shared;
}
