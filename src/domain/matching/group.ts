// chooseGroup: the decision ingest makes per listing, given candidates found through blocking keys.

import { compactProfile, mayBeExact, type CompactProfile } from './prefilter.js';
import { compareProfiles, GROUP_THRESHOLD } from './score.js';
import type { MatchProfile, MatchResult } from './types.js';

export interface GroupCandidate {
  id: number;
  groupId: number;
  /** Read only for the few candidates the compact form cannot rule out (may be a lazy getter). */
  readonly profile: MatchProfile;
  /** The profile's compact form: chooseGroup fills it when absent; a caller that keeps candidates keeps it. */
  compact?: CompactProfile;
}

/**
 * The group rule, fed one candidate at a time in ascending id order. A group is judged by the
 * *mean* over its candidate members (non-exact results count as 0), not by its single closest
 * member: with single-link, one "Dreamweaver CS3" listing close to a "CS3 suite" listing would
 * chain whole product families into one group. Ties keep the group seen first, so replaying an
 * import gives the same groups. Reused from listing to listing: no allocation per candidate.
 */
export class GroupTally {
  private groups = new Int32Array(64);
  private sums = new Float64Array(64);
  private counts = new Int32Array(64);
  private exact = new Uint8Array(64);
  private size = 0;

  reset(): void {
    this.size = 0;
  }

  /** Adds a candidate of `groupId` (a listing has few: a linear search beats a Map); returns its group's slot. */
  add(groupId: number, exactScore: number | null): number {
    let at = 0;
    while (at < this.size && this.groups[at] !== groupId) at++;
    if (at === this.size) {
      if (at === this.groups.length) this.grow();
      this.groups[at] = groupId;
      this.sums[at] = 0;
      this.counts[at] = 0;
      this.exact[at] = 0;
      this.size++;
    }
    this.counts[at] += 1;
    if (exactScore !== null) {
      this.sums[at] += exactScore;
      this.exact[at] = 1;
    }
    return at;
  }

  /** The slot of the chosen group, or -1 (the listing then starts a group of its own). */
  chosen(): number {
    let chosen = -1;
    let best = 0;
    for (let at = 0; at < this.size; at++) {
      const mean = this.sums[at] / this.counts[at];
      if (this.exact[at] === 0 || mean < GROUP_THRESHOLD) continue;
      if (chosen < 0 || mean > best) {
        chosen = at;
        best = mean;
      }
    }
    return chosen;
  }

  groupAt(slot: number): number {
    return this.groups[slot];
  }

  private grow(): void {
    const n = this.groups.length * 2;
    const more = <T extends Int32Array | Float64Array | Uint8Array>(a: T, b: T): T => {
      b.set(a);
      return b;
    };
    this.groups = more(this.groups, new Int32Array(n));
    this.sums = more(this.sums, new Float64Array(n));
    this.counts = more(this.counts, new Int32Array(n));
    this.exact = more(this.exact, new Uint8Array(n));
  }
}

const tally = new GroupTally();
const bests: Array<MatchResult | null> = [];

/**
 * The group whose candidate members match best (GroupTally), or null (the caller then creates a
 * new group). The returned result is the best exact comparison inside the chosen group, so its
 * evidence names a real pair.
 */
export function chooseGroup(
  p: MatchProfile,
  candidates: ReadonlyArray<GroupCandidate>,
): { groupId: number; result: MatchResult } | null {
  tally.reset();
  bests.length = 0;
  for (const c of candidates) {
    // Most candidates are other products: a cheap bound shows they cannot be exact (they count 0).
    const result = mayBeExact(p, (c.compact ??= compactProfile(c.profile))) ? compareProfiles(p, c.profile) : null;
    const exact = result !== null && result.matchClass === 'exact';
    const slot = tally.add(c.groupId, exact ? result.score : null);
    if (slot === bests.length) bests.push(null);
    const best = bests[slot];
    if (exact && (best === null || result.score > best.score)) bests[slot] = result;
  }
  const slot = tally.chosen();
  return slot < 0 ? null : { groupId: tally.groupAt(slot), result: bests[slot]! };
}
