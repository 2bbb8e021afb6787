// A cheap proof that a comparison cannot come out `exact`, so chooseGroup can skip the full
// comparison: most candidates a blocking key finds are other products. It computes an upper
// bound of the linear score z from the compact forms of the two profiles (compact-profile.ts),
// where every string equality becomes a hash equality: a collision can only make two strings
// look equal, i.e. raise the bound. Each feature takes its exact value or its largest possible one; the lead-word
// feature is bounded by its maximum. `exact` needs sigmoid(z) >= 0.5, i.e. z >= 0, so a bound
// below -1e-6 rules it out (far above the rounding error of these sums). Decisions are
// unchanged; only their cost is. The test reads the two forms alone, at any offset of any array,
// so a candidate that is not exact costs a few cache lines, not a walk over its profile's strings.

import {
  bloomHas, BRAND, BRAND2, CODE_COUNT, CODE_WIDTH, CODES, CODES_HI, CODES_LO, compactProfile, DESC, DESC_COUNT, EDITIONS,
  F_STRONG_CODES, FIRST_TOKEN, FLAGS, GTIN, in64, isCode, isCodePrefix, isCodeStem, JOIN_PRE, JOIN_PRE_COUNT, LEAD_WORD, member,
  logPrice, NUMBER_COUNT, numbersAgreement, OFFER_KINDS, PLATFORMS, STRONG_PROBE, STRONG_PROBES, T_CODE, T_STRONG, TOKEN_AT,
  TOKEN_WIDTH, TOKENS, within, type CompactProfile,
} from './compact-profile.js';
import { WEIGHTS } from './score.js';
import type { MatchProfile } from './types.js';

export { adoptCompact, compactLength, compactProfile, CompactWriter, writeCompact, type CompactProfile } from './compact-profile.js';

/** log(2.5), and a margin for two stored logs' difference against the log of their ratio (rounding, about 1e-14). */
const LOG_OK = Math.log(2.5) + 1e-9;
const RATIO_SLACK = 1e-9;

// chooseGroup compares one profile with many: its compact form is kept at hand.
let lastProfile: MatchProfile | null = null;
let lastCompiled: CompactProfile | null = null;

/** similarity.ts matchedIn for the token at `at` of the form in p, on hashes: true whenever matchedIn is. */
function mayMatch(p: Int32Array, pb: number, at: number, o: Int32Array, ob: number): boolean {
  const x = p[at];
  if (member(o, ob, x)) return true;
  if ((p[at + 2] & T_CODE) === 0) return false;
  if (isCode(o, ob, x)) return true;
  if (p[at + 3] !== 0 && isCodeStem(o, ob, p[at + 3])) return true;
  if ((p[at + 2] & T_STRONG) === 0) return false; // shorter than 5
  for (let k = pb + p[at + 4]; k < pb + p[at + 5]; k += 1) if (isCode(o, ob, p[k])) return true;
  return isCodePrefix(o, ob, x);
}

let sideTotal = 0;
let sideShared = 0;

/** similarity.ts `side` in tenths: the total exactly, the shared weight bounded from above. */
function sideBound(p: Int32Array, a: number, o: Int32Array, b: number): void {
  let total = 0;
  let shared = 0;
  const brand = o[b + BRAND];
  const brand2 = o[b + BRAND2];
  const otherStrong = (o[b + FLAGS] & F_STRONG_CODES) !== 0;
  for (let i = 0, at = a + p[a + TOKEN_AT]; i < p[a + TOKENS]; i += 1, at += TOKEN_WIDTH) {
    let w = p[at] === brand && brand !== 0 && p[at + 6] === brand2 ? 5 : p[at + 1];
    if (!otherStrong && w > 10 && (p[at + 2] & (T_CODE | T_STRONG)) === (T_CODE | T_STRONG)) w = 10;
    total += w;
    if (mayMatch(p, a, at, o, b)) shared += w;
  }
  sideTotal = total;
  sideShared = shared;
}

/** Whether a probe hash is one of the tokens or joins of the form at b, or their prefixes. */
function reaches(h: Int32Array, b: number, x: number): boolean {
  return bloomHas(h, b, x) && (member(h, b, x) || within(h, b + h[b + JOIN_PRE], b + h[b + JOIN_PRE] + h[b + JOIN_PRE_COUNT], x));
}

/**
 * Whether a strong code of p may be spelled across two words of o (codeInJoins); o's tokens count
 * as joins too. Everything of o is looked up through its member filter first.
 */
function mayJoin(p: Int32Array, a: number, o: Int32Array, b: number): boolean {
  for (let j = 0, at = a + p[a + CODES]; j < p[a + CODE_COUNT]; j += 1, at += CODE_WIDTH) {
    if (p[at + 1] < 5) continue;
    if (reaches(o, b, p[at])) return true;
    if (p[at + 2] !== 0 && member(o, b, p[at + 2])) return true;
    for (let k = a + p[at + 3]; k < a + p[at + 4]; k += 1) if (member(o, b, p[k])) return true;
  }
  return false;
}

/** mayJoin(o, p) by o's strong-code probes (header slots), looked up among p's members. */
function mayJoinBack(o: Int32Array, b: number, p: Int32Array, a: number): boolean {
  const n = o[b + STRONG_PROBES];
  if (n === 0) return false;
  if (n < 0) return mayJoin(o, b, p, a);
  for (let k = 0; k < n; k += 1) if (reaches(p, a, o[b + STRONG_PROBE + k])) return true;
  return false;
}

/** descHits on hashes, the other's codes read only when its code filter allows a hit. */
function mayDesc(p: Int32Array, a: number, o: Int32Array, b: number): boolean {
  if (p[a + DESC_COUNT] === 0 || o[b + CODE_COUNT] === 0) return false;
  const lo = o[b + CODES_LO];
  const hi = o[b + CODES_HI];
  const from = a + p[a + DESC];
  const to = from + 2 * p[a + DESC_COUNT];
  let maybe = false;
  for (let at = from; at < to; at += 2) {
    if (in64(lo, hi, p[at]) || (p[at + 1] !== 0 && in64(lo, hi, p[at + 1]))) maybe = true;
  }
  if (!maybe) return false;
  for (let at = from; at < to; at += 2) {
    for (let j = 0, c = b + o[b + CODES]; j < o[b + CODE_COUNT]; j += 1, c += CODE_WIDTH) {
      if (p[at] === o[c]) return true;
      if (p[at + 1] !== 0 && p[at + 1] === o[c + 2] && o[c + 1] >= 5) return true;
    }
  }
  return false;
}

/** The largest sum the code features can add (codeSignal + descriptionCodeShared). */
function codeBound(p: Int32Array, a: number, o: Int32Array, b: number): number {
  const np = p[a + CODE_COUNT];
  const no = o[b + CODE_COUNT];
  if (np === 0 && no === 0) return 0; // no codes, joins never start a match
  let any = false;
  // A pair of codes agrees through a shared code, stem or prefix hash, which both filters hold.
  const pairs = np > 0 && no > 0 && ((p[a + CODES_LO] & o[b + CODES_LO]) | (p[a + CODES_HI] & o[b + CODES_HI])) !== 0;
  for (let i = 0, x = a + p[a + CODES]; pairs && i < np; i += 1, x += CODE_WIDTH) {
    for (let j = 0, y = b + o[b + CODES]; j < no; j += 1, y += CODE_WIDTH) {
      const match = p[x] === o[y] || (p[x + 2] !== 0 && p[x + 2] === o[y + 2])
        || within(p, a + p[x + 3], a + p[x + 4], o[y]) || within(o, b + o[y + 3], b + o[y + 4], p[x]);
      if (!match) continue;
      if (Math.max(p[x + 1], o[y + 1]) >= 5) return WEIGHTS.codeSharedStrong;
      any = true;
    }
  }
  if (mayJoin(p, a, o, b) || mayJoinBack(o, b, p, a)) return WEIGHTS.codeSharedStrong;
  const both = np > 0 && no > 0;
  let none = (p[a + FLAGS] & o[b + FLAGS] & F_STRONG_CODES) !== 0 ? WEIGHTS.codeStrongConflict : both ? WEIGHTS.codeWeakConflict : 0;
  if (mayDesc(p, a, o, b) || mayDesc(o, b, p, a)) none += WEIGHTS.codeSharedDescription;
  return any ? Math.max(WEIGHTS.codeSharedWeak, none) : none;
}

/**
 * brandSignal's weighted value at its largest. A brand is looked for among the other's tokens as
 * one of its members (tokens and joins: a superset, so the bound only loosens), which mostly ends
 * at the member filter instead of walking its token records.
 */
function brandBound(p: Int32Array, a: number, o: Int32Array, b: number): number {
  const bp = p[a + BRAND];
  const bo = o[b + BRAND];
  if (bp !== 0 && bo !== 0) return bp === bo || member(p, a, bo) || member(o, b, bp) ? WEIGHTS.brandEqual : WEIGHTS.brandDifferent;
  if ((bp !== 0 && member(o, b, bp)) || (bo !== 0 && member(p, a, bo))) return WEIGHTS.brandEqual;
  if (bp === 0 && bo === 0 && p[a + LEAD_WORD] !== 0 && p[a + LEAD_WORD] === o[b + FIRST_TOKEN]) return WEIGHTS.brandEqual;
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
  return mayBeExactAt(lastCompiled!, 0, cb, 0);
}

/** mayBeExact for the forms at offset a of p and at offset b of o. */
export function mayBeExactAt(p: Int32Array, a: number, o: Int32Array, b: number): boolean {
  const w = WEIGHTS;
  // Everything but the title first, cheapest first (header slots, then the codes): when even a
  // perfect title overlap (containment and dice 1, nothing unmatched) cannot lift the bound to 0,
  // the title is never looked at.
  const title = w.containment + w.dice;
  let z = w.bias + 2 * w.leadShared;
  const ga = p[a + GTIN];
  const gb = o[b + GTIN];
  if (ga !== 0 && gb !== 0) z += ga === gb ? w.gtinEqual : w.gtinDifferent;
  z += brandBound(p, a, o, b);
  z += maskTerm(p[a + EDITIONS], o[b + EDITIONS], w.editionsDisjoint, w.editionsOneSided);
  z += w.offerKindsDiffer * Math.min(2, popcount(p[a + OFFER_KINDS] ^ o[b + OFFER_KINDS]));
  z += maskTerm(p[a + PLATFORMS], o[b + PLATFORMS], w.platformsDisjoint, 0);
  // priceSignal's 2 * max <= 5 * min is |log ratio| <= log 2.5: at the edge, the larger term.
  const ratio = Math.abs(logPrice(p, a) - logPrice(o, b));
  if (ratio === ratio) {
    z += (ratio <= LOG_OK ? Math.max(w.priceOk, w.priceSuspicious) : w.priceSuspicious) + w.priceLogRatio * Math.min(3, ratio) + RATIO_SLACK;
  }
  // The codes can add codeSharedStrong at most: often the rest rules the pair out before them.
  if (z + title + (p[a + CODE_COUNT] === 0 && o[b + CODE_COUNT] === 0 ? 0 : w.codeSharedStrong) < -1e-6) return false;
  z += codeBound(p, a, o, b);
  if (z + title < -1e-6) return false;
  // Version numbers only lower the score.
  if (p[a + NUMBER_COUNT] > 0 || o[b + NUMBER_COUNT] > 0) {
    const both = p[a + NUMBER_COUNT] > 0 && o[b + NUMBER_COUNT] > 0;
    const numbers = both ? numbersAgreement(p, a, o, b) : 'partial';
    z += numbers === 'disjoint' ? w.numbersDisjoint : numbers === 'partial' ? (both ? w.numbersPartial : w.numbersOneSided) : 0;
    if (z + title < -1e-6) return false;
  }
  sideBound(p, a, o, b);
  const ta = sideTotal;
  const sa = sideShared;
  sideBound(o, b, p, a);
  const tb = sideTotal;
  const sb = sideShared;
  if (ta !== 0 && tb !== 0) {
    // Containment and dice grow, unmatchedMin shrinks, with the shared weights.
    z += w.containment * Math.min(1, Math.max(sa / ta, sb / tb)) + w.dice * Math.min(1, (sa + sb) / (ta + tb))
      + w.unmatchedMin * Math.min(4, Math.min(ta - sa, tb - sb) / 10);
  }
  return z >= -1e-6;
}
