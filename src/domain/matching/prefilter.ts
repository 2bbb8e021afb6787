// A cheap proof that a comparison cannot come out `exact`, so chooseGroup can skip the full
// comparison: most candidates a blocking key finds are other products. It computes an upper
// bound of the linear score z from a compact form of each profile (one Int32Array: 32-bit hashes
// of tokens, joins and codes, weights in tenths, word sets as bit masks), where every string
// equality becomes a hash equality: a collision can only make two strings look equal, i.e. raise
// the bound. Each feature takes its exact value or its largest possible one; the lead-word
// feature is bounded by its maximum. `exact` needs sigmoid(z) >= 0.5, i.e. z >= 0, so a bound
// below -1e-6 rules it out (far above the rounding error of these sums). Decisions are
// unchanged; only their cost is. The same test runs on the compact forms alone, so a candidate
// that is not exact costs a few cache lines, not a walk over its profile's strings.

import { codeStem, isStrongCode } from './model-codes.js';
import { WEIGHTS } from './score.js';
import { numberAgreement } from './signals.js';
import type { MatchProfile } from './types.js';

// Header slots of the compact form.
const TOKENS = 0; // token count
const TABLE = 1; // offset of the member set
const TABLE_SIZE = 2;
const CODES = 3; // offset of the code records
const CODE_COUNT = 4;
const JOIN_PRE = 5; // offset and count of the joins' prefix hashes
const JOIN_PRE_COUNT = 6;
const DESC = 7; // offset and count of the description codes
const DESC_COUNT = 8;
const FLAGS = 9;
const BRAND = 10;
const LEAD_WORD = 11;
const GTIN = 12;
const EDITIONS = 13;
const PLATFORMS = 14;
const OFFER_KINDS = 15;
const NUMBERS = 16;
const BLOOM = 17; // 256 bits over the members: most misses never touch the member set
const HEADER = 25;
// Per token: hash, weight in tenths, flags, stem hash, start and end of its prefix hashes.
const TOKEN_WIDTH = 6;
// Per code: hash, length, stem hash, start and end of its prefix hashes.
const CODE_WIDTH = 5;

const F_STRONG_CODES = 1;
const F_UNLISTED = 2; // a word set outgrew its bit mask
const T_CODE = 1;
const T_STRONG = 2;

interface Compiled {
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
  strongLo: number; strongHi: number;
  /** Offsets in `h` of the member hashes (tokens, joins, joins' prefixes) as a plain list, and their 64-bit filter. */
  membersAt: number; membersEnd: number;
  membersLo: number; membersHi: number;
  b0: number; b1: number; b2: number; b3: number; b4: number; b5: number; b6: number; b7: number;
}

/** The compact form of a profile, opaque to callers; a caller may keep it beside the profile. */
export type CompactProfile = Compiled;

const compiled = new WeakMap<MatchProfile, Compiled>();
// chooseGroup compares one profile with many: its compact form is kept at hand.
let lastProfile: MatchProfile | null = null;
let lastCompiled: Compiled | null = null;

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

/** Bits for the values of a closed word list (editions, platforms, offer kinds), given as first seen. */
class WordBits {
  private readonly bits = new Map<string, number>();
  mask(values: readonly string[]): number {
    let m = 0;
    for (const v of values) {
      let b = this.bits.get(v);
      if (b === undefined) {
        if (this.bits.size >= 30) return -1;
        b = 1 << this.bits.size;
        this.bits.set(v, b);
      }
      m |= b;
    }
    return m;
  }
}
const editionBits = new WordBits();
const platformBits = new WordBits();
const offerBits = new WordBits();

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
  const membersAt = out.length;
  for (let i = 0; i < n; i += 1) out.push(out[tokenAt + i * TOKEN_WIDTH]);
  for (const j of p.joins) out.push(hash(j));
  for (let k = out[JOIN_PRE]; k < out[JOIN_PRE] + out[JOIN_PRE_COUNT]; k += 1) out.push(out[k]);
  const membersEnd = out.length;
  const members64 = [0, 0];
  for (let k = membersAt; k < membersEnd; k += 1) members64[(out[k] >>> 31) & 1] |= 1 << ((out[k] >>> 26) & 31);
  const codes = [0, 0];
  const strong = [0, 0];
  for (let i = 0, at = codeAt; i < p.codes.length; i += 1, at += CODE_WIDTH) {
    const probes = [out[at], out[at + 2], ...out.slice(out[at + 3], out[at + 4])].filter((x) => x !== 0);
    for (const x of probes) {
      codes[(x >>> 31) & 1] |= 1 << ((x >>> 26) & 31);
      if (out[at + 1] >= 5) strong[(x >>> 31) & 1] |= 1 << ((x >>> 26) & 31);
    }
  }
  const editions = editionBits.mask(p.editions);
  const platforms = platformBits.mask(p.platforms);
  const offers = offerBits.mask(p.offerKinds);
  out[FLAGS] = (p.codes.some(isStrongCode) ? F_STRONG_CODES : 0) | (editions < 0 || platforms < 0 || offers < 0 ? F_UNLISTED : 0);
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
    descCount: out[DESC_COUNT], codesLo: codes[0], codesHi: codes[1], strongLo: strong[0], strongHi: strong[1], membersAt, membersEnd,
    membersLo: members64[0], membersHi: members64[1],
    b0: out[BLOOM], b1: out[BLOOM + 1], b2: out[BLOOM + 2], b3: out[BLOOM + 3], b4: out[BLOOM + 4], b5: out[BLOOM + 5], b6: out[BLOOM + 6], b7: out[BLOOM + 7],
  };
  compiled.set(p, c);
  return c;
}

/** Whether x may be among a 64-bit filter's hashes (lo, hi). */
function in64(lo: number, hi: number, x: number): boolean {
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

function bloomHas(c: Compiled, x: number): boolean {
  return ((bloomWord(c, x) >>> (x & 31)) & 1) !== 0;
}

/** Whether x is a member (token or join hash) of the compact form c. */
function member(c: Compiled, x: number): boolean {
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

function within(h: Int32Array, from: number, to: number, x: number): boolean {
  for (let i = from; i < to; i += 1) if (h[i] === x) return true;
  return false;
}

/** Whether x equals the hash of one of o's codes. */
function isCode(o: Int32Array, x: number): boolean {
  for (let j = 0, at = o[CODES]; j < o[CODE_COUNT]; j += 1, at += CODE_WIDTH) if (o[at] === x) return true;
  return false;
}

/** Whether x is one of o's code stems (of 4+ characters). */
function isCodeStem(o: Int32Array, x: number): boolean {
  for (let j = 0, at = o[CODES]; j < o[CODE_COUNT]; j += 1, at += CODE_WIDTH) if (o[at + 2] === x) return true;
  return false;
}

/** Whether x is a prefix (in the codePrefixMatch sense) of one of o's codes. */
function isCodePrefix(o: Int32Array, x: number): boolean {
  const codes = o[CODES];
  const n = o[CODE_COUNT];
  return n > 0 && within(o, o[codes + 3], o[codes + (n - 1) * CODE_WIDTH + 4], x);
}

/** similarity.ts matchedIn for token i of p, on hashes: true whenever matchedIn is. */
function mayMatch(p: Int32Array, at: number, co: Compiled): boolean {
  const x = p[at];
  if (member(co, x)) return true;
  if ((p[at + 2] & T_CODE) === 0) return false;
  const o = co.h;
  if (isCode(o, x)) return true;
  if (p[at + 3] !== 0 && isCodeStem(o, p[at + 3])) return true;
  if ((p[at + 2] & T_STRONG) === 0) return false; // shorter than 5
  for (let k = p[at + 4]; k < p[at + 5]; k += 1) if (isCode(o, p[k])) return true;
  return isCodePrefix(o, x);
}

let sideTotal = 0;
let sideShared = 0;

/** similarity.ts `side` in tenths: the total exactly, the shared weight bounded from above. */
function sideBound(a: Compiled, b: Compiled): void {
  let total = 0;
  let shared = 0;
  const p = a.h;
  const brand = b.brandHash;
  const otherStrong = (b.flags & F_STRONG_CODES) !== 0;
  for (let i = 0, at = HEADER; i < p[TOKENS]; i += 1, at += TOKEN_WIDTH) {
    let w = p[at] === brand && brand !== 0 && a.tokens[i] === b.brand ? 5 : p[at + 1];
    if (!otherStrong && w > 10 && (p[at + 2] & (T_CODE | T_STRONG)) === (T_CODE | T_STRONG)) w = 10;
    total += w;
    if (mayMatch(p, at, b)) shared += w;
  }
  sideTotal = total;
  sideShared = shared;
}

/**
 * Whether a strong code of p may be spelled across two words of o (codeInJoins); o's tokens count
 * as joins too. Everything of o is looked up through its member filter first.
 */
function mayJoin(cp: Compiled, co: Compiled): boolean {
  const p = cp.h;
  const o = co.h;
  for (let j = 0, at = p[CODES]; j < p[CODE_COUNT]; j += 1, at += CODE_WIDTH) {
    if (p[at + 1] < 5) continue;
    const x = p[at];
    if (bloomHas(co, x) && (member(co, x) || within(o, o[JOIN_PRE], o[JOIN_PRE] + o[JOIN_PRE_COUNT], x))) return true;
    if (p[at + 2] !== 0 && member(co, p[at + 2])) return true;
    for (let k = p[at + 3]; k < p[at + 4]; k += 1) if (member(co, p[k])) return true;
  }
  return false;
}

/** mayJoin(co, cp) from cp's side: only when one of cp's members passes co's strong-code filter is co read. */
function mayJoinBack(co: Compiled, cp: Compiled): boolean {
  if ((co.flags & F_STRONG_CODES) === 0) return false;
  if (((co.strongLo & cp.membersLo) | (co.strongHi & cp.membersHi)) === 0) return false;
  const p = cp.h;
  for (let k = cp.membersAt; k < cp.membersEnd; k += 1) if (in64(co.strongLo, co.strongHi, p[k])) return mayJoin(co, cp);
  return false;
}

/** descHits on hashes, the other's codes read only when its code filter allows a hit. */
function mayDesc(cp: Compiled, co: Compiled): boolean {
  if (cp.descCount === 0 || co.codeCount === 0) return false;
  const p = cp.h;
  const o = co.h;
  let maybe = false;
  for (let d = 0, at = p[DESC]; d < p[DESC_COUNT]; d += 1, at += 2) {
    if (in64(co.codesLo, co.codesHi, p[at]) || (p[at + 1] !== 0 && in64(co.codesLo, co.codesHi, p[at + 1]))) maybe = true;
  }
  if (!maybe) return false;
  for (let d = 0, at = p[DESC]; d < p[DESC_COUNT]; d += 1, at += 2) {
    for (let j = 0, c = o[CODES]; j < o[CODE_COUNT]; j += 1, c += CODE_WIDTH) {
      if (p[at] === o[c]) return true;
      if (p[at + 1] !== 0 && p[at + 1] === o[c + 2] && o[c + 1] >= 5) return true;
    }
  }
  return false;
}

/** The largest sum the code features can add (codeSignal + descriptionCodeShared). */
function codeBound(cp: Compiled, co: Compiled): number {
  if (cp.codeCount === 0 && co.codeCount === 0) return 0; // no codes, joins never start a match
  const p = cp.h;
  const o = co.h;
  let any = false;
  // A pair of codes agrees through a shared code, stem or prefix hash, which both filters hold.
  const pairs = cp.codeCount > 0 && co.codeCount > 0 && ((cp.codesLo & co.codesLo) | (cp.codesHi & co.codesHi)) !== 0;
  for (let i = 0, x = p[CODES]; pairs && i < p[CODE_COUNT]; i += 1, x += CODE_WIDTH) {
    for (let j = 0, y = o[CODES]; j < o[CODE_COUNT]; j += 1, y += CODE_WIDTH) {
      const match = p[x] === o[y] || (p[x + 2] !== 0 && p[x + 2] === o[y + 2])
        || within(p, p[x + 3], p[x + 4], o[y]) || within(o, o[y + 3], o[y + 4], p[x]);
      if (!match) continue;
      if (Math.max(p[x + 1], o[y + 1]) >= 5) return WEIGHTS.codeSharedStrong;
      any = true;
    }
  }
  if (mayJoin(cp, co) || mayJoinBack(co, cp)) return WEIGHTS.codeSharedStrong;
  const both = cp.codeCount > 0 && co.codeCount > 0;
  let none = (cp.flags & co.flags & F_STRONG_CODES) !== 0 ? WEIGHTS.codeStrongConflict : both ? WEIGHTS.codeWeakConflict : 0;
  if (mayDesc(cp, co) || mayDesc(co, cp)) none += WEIGHTS.codeSharedDescription;
  return any ? Math.max(WEIGHTS.codeSharedWeak, none) : none;
}

function hasToken(p: Int32Array, x: number): boolean {
  for (let i = 0, at = HEADER; i < p[TOKENS]; i += 1, at += TOKEN_WIDTH) if (p[at] === x) return true;
  return false;
}

/**
 * brandSignal's weighted value at its largest. The first profile's tokens are scanned; the other's
 * are looked up among its members (tokens and joins: a superset, so the bound only loosens), which
 * mostly ends at its bloom filter instead of walking its token records.
 */
function brandBound(cp: Compiled, co: Compiled): number {
  const bp = cp.brandHash;
  const bo = co.brandHash;
  if (bp !== 0 && bo !== 0) return bp === bo || hasToken(cp.h, bo) || member(co, bp) ? WEIGHTS.brandEqual : WEIGHTS.brandDifferent;
  if ((bp !== 0 && member(co, bp)) || (bo !== 0 && hasToken(cp.h, bo))) return WEIGHTS.brandEqual;
  if (bp === 0 && bo === 0 && cp.leadWord !== 0 && cp.leadWord === co.firstToken) return WEIGHTS.brandEqual;
  return 0;
}

/** setAgreement on bit masks: 'disjoint' -> d, 'partial' -> p, else 0. */
function maskTerm(x: number, y: number, disjoint: number, partial: number): number {
  if (x === 0 && y === 0) return 0;
  if (x === 0 || y === 0) return partial;
  if ((x & y) === 0) return disjoint;
  return x === y ? 0 : partial;
}

function popcount(x: number): number {
  let n = 0;
  for (let v = x; v !== 0; v &= v - 1) n += 1;
  return n;
}

/** False only when compareProfiles(a, b) is surely not `exact`, b given by its compact form. */
export function mayBeExact(a: MatchProfile, cb: CompactProfile): boolean {
  if (a !== lastProfile) {
    lastProfile = a;
    lastCompiled = compile(a);
  }
  const ca = lastCompiled!;
  const w = WEIGHTS;
  // Everything but the title first, cheapest first (fields of the two compact forms, then their
  // codes): when even a perfect title overlap (containment and dice 1, nothing unmatched) cannot
  // lift the bound to 0, the title is never looked at.
  const title = w.containment + w.dice;
  let z = w.bias + 2 * w.leadShared;
  if (ca.gtin !== 0 && cb.gtin !== 0) z += ca.gtin === cb.gtin ? w.gtinEqual : w.gtinDifferent;
  z += brandBound(ca, cb);
  // Editions, offer kinds and platforms only lower the score: without masks they are bounded by 0.
  if (((ca.flags | cb.flags) & F_UNLISTED) === 0) {
    z += maskTerm(ca.editions, cb.editions, w.editionsDisjoint, w.editionsOneSided);
    z += w.offerKindsDiffer * Math.min(2, popcount(ca.offerKinds ^ cb.offerKinds));
    z += maskTerm(ca.platforms, cb.platforms, w.platformsDisjoint, 0);
  }
  const pa = ca.priceCents;
  const pb = cb.priceCents;
  if (pa !== null && pb !== null) {
    z += 2 * Math.max(pa, pb) <= 5 * Math.min(pa, pb) ? w.priceOk : w.priceSuspicious;
    z += w.priceLogRatio * Math.min(3, Math.abs(Math.log(pa / pb)));
  }
  z += codeBound(ca, cb);
  if (z + title < -1e-6) return false;
  // Version numbers only lower the score; they are compared on the profiles' strings.
  if (ca.numberCount > 0 || cb.numberCount > 0) {
    const both = ca.numberCount > 0 && cb.numberCount > 0;
    const numbers = both ? numberAgreement(ca.numbers, cb.numbers) : 'partial';
    z += numbers === 'disjoint' ? w.numbersDisjoint : numbers === 'partial' ? (both ? w.numbersPartial : w.numbersOneSided) : 0;
    if (z + title < -1e-6) return false;
  }
  sideBound(ca, cb);
  const ta = sideTotal;
  const sa = sideShared;
  sideBound(cb, ca);
  const tb = sideTotal;
  const sb = sideShared;
  if (ta !== 0 && tb !== 0) {
    // Containment and dice grow, unmatchedMin shrinks, with the shared weights.
    z += w.containment * Math.min(1, Math.max(sa / ta, sb / tb)) + w.dice * Math.min(1, (sa + sb) / (ta + tb))
      + w.unmatchedMin * Math.min(4, Math.min(ta - sa, tb - sb) / 10);
  }
  return z >= -1e-6;
}
