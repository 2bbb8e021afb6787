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
 * The group whose candidate members match best, or null (the caller then creates a new group).
 * A group is judged by the *mean* over its candidate members (non-exact results count as 0),
 * not by its single closest member: with single-link, one "Dreamweaver CS3" listing close to a
 * "CS3 suite" listing would chain whole product families into one group. The returned result
 * is the best exact comparison inside the chosen group, so its evidence names a real pair.
 * Ties keep the group seen first, so replaying an import gives the same groups.
 */
export function chooseGroup(
  p: MatchProfile,
  candidates: ReadonlyArray<GroupCandidate>,
): { groupId: number; result: MatchResult } | null {
  const byGroup = new Map<number, { sum: number; n: number; best: MatchResult | null }>();
  for (const c of candidates) {
    const g = byGroup.get(c.groupId) ?? { sum: 0, n: 0, best: null };
    byGroup.set(c.groupId, g);
    g.n += 1;
    // Most candidates are other products: a cheap bound shows they cannot be exact (they count 0).
    if (!mayBeExact(p, (c.compact ??= compactProfile(c.profile)))) continue;
    const result = compareProfiles(p, c.profile);
    if (result.matchClass !== 'exact') continue;
    g.sum += result.score;
    if (g.best === null || result.score > g.best.score) g.best = result;
  }
  let chosen: { groupId: number; result: MatchResult; mean: number } | null = null;
  for (const [groupId, g] of byGroup) {
    const mean = g.sum / g.n;
    if (g.best === null || mean < GROUP_THRESHOLD) continue;
    if (chosen === null || mean > chosen.mean) chosen = { groupId, result: g.best, mean };
  }
  return chosen && { groupId: chosen.groupId, result: chosen.result };
}
