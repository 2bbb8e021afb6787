// A cheap proof that a comparison cannot come out `exact`, so chooseGroup can skip the full
// comparison: most candidates a blocking key finds are other products. It computes an upper
// bound of the linear score z from the compact forms of the two profiles (compact-profile.ts),
// where every string equality becomes a hash equality: a collision can only make two strings
// look equal, i.e. raise the bound. Each feature takes its exact value or its largest possible one; the lead-word
// feature is bounded by its maximum. `exact` needs sigmoid(z) >= 0.5, i.e. z >= 0, so a bound
// below -1e-6 rules it out (far above the rounding error of these sums). Decisions are
// unchanged; only their cost is. The same test runs on the compact forms alone, so a candidate
// that is not exact costs a few cache lines, not a walk over its profile's strings.

import {
  bloomHas, CODE_COUNT, CODE_WIDTH, CODES, compactProfile, DESC, DESC_COUNT, F_STRONG_CODES, HEADER, in64, isCode, isCodePrefix,
  isCodeStem, JOIN_PRE, JOIN_PRE_COUNT, member, T_CODE, T_STRONG, TOKEN_WIDTH, TOKENS, within, type CompactProfile,
} from './compact-profile.js';
import { WEIGHTS } from './score.js';
import { numberAgreement } from './signals.js';
import type { MatchProfile } from './types.js';

export { adoptCompact, compactProfile, type CompactProfile } from './compact-profile.js';

// chooseGroup compares one profile with many: its compact form is kept at hand.
let lastProfile: MatchProfile | null = null;
let lastCompiled: CompactProfile | null = null;

/** similarity.ts matchedIn for token i of p, on hashes: true whenever matchedIn is. */
function mayMatch(p: Int32Array, at: number, co: CompactProfile): boolean {
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
function sideBound(a: CompactProfile, b: CompactProfile): void {
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
function mayJoin(cp: CompactProfile, co: CompactProfile): boolean {
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

/** mayJoin(co, cp), co's strong-code probes (fields of its object) looked up among cp's members. */
function mayJoinBack(co: CompactProfile, cp: CompactProfile): boolean {
  const n = co.strongProbes;
  if (n === 0) return false;
  if (n < 0) return mayJoin(co, cp);
  return reaches(cp, co.sp0) || (n > 1 && reaches(cp, co.sp1)) || (n > 2 && reaches(cp, co.sp2)) || (n > 3 && reaches(cp, co.sp3));
}

/** Whether a probe hash is one of c's tokens or joins or their prefixes (what mayJoin tests from the other side). */
function reaches(c: CompactProfile, x: number): boolean {
  return bloomHas(c, x) && (member(c, x) || within(c.h, c.h[JOIN_PRE], c.h[JOIN_PRE] + c.h[JOIN_PRE_COUNT], x));
}

/** descHits on hashes, the other's codes read only when its code filter allows a hit. */
function mayDesc(cp: CompactProfile, co: CompactProfile): boolean {
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
function codeBound(cp: CompactProfile, co: CompactProfile): number {
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
function brandBound(cp: CompactProfile, co: CompactProfile): number {
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
    lastCompiled = compactProfile(a);
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
  z += maskTerm(ca.editions, cb.editions, w.editionsDisjoint, w.editionsOneSided);
  z += w.offerKindsDiffer * Math.min(2, popcount(ca.offerKinds ^ cb.offerKinds));
  z += maskTerm(ca.platforms, cb.platforms, w.platformsDisjoint, 0);
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
