// chooseGroup: the decision ingest makes per listing, given candidates found through blocking keys.

import { compareProfiles, GROUP_THRESHOLD } from './score.js';
import type { MatchProfile, MatchResult } from './types.js';

export interface GroupCandidate {
  id: number;
  groupId: number;
  profile: MatchProfile;
}

/**
 * The group of the best `exact` candidate scoring at least GROUP_THRESHOLD, or null (the caller
 * then creates a new group). Ties keep the earlier candidate so replaying an import is stable.
 */
export function chooseGroup(
  p: MatchProfile,
  candidates: ReadonlyArray<GroupCandidate>,
): { groupId: number; result: MatchResult } | null {
  let best: { groupId: number; result: MatchResult } | null = null;
  for (const c of candidates) {
    const result = compareProfiles(p, c.profile);
    if (result.matchClass !== 'exact' || result.score < GROUP_THRESHOLD) continue;
    if (best === null || result.score > best.result.score) best = { groupId: c.groupId, result };
  }
  return best;
}
