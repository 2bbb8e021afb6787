// Cross-platform product matching: pure functions, no I/O. Ingest calls buildProfile once per
// listing, stores the profile as JSON, indexes blockingKeys, and calls chooseGroup with the
// listings found under those keys. See docs/matching.md for the score formula.

export type { MatchClass, MatchEvidence, MatchInput, MatchProfile, MatchResult } from './types.js';
export { PROFILE_VERSION } from './types.js';
export { normalizeGtin, gtinCheckDigit } from '../gtin.js';
export { buildProfile, normalizeBrand, priceToCents } from './profile.js';
export { decodeProfile, encodeProfile } from './profile-codec.js';
export { blockingKeys, HEAD_IDS, MAX_CANDIDATES, MAX_KEYS, MAX_PER_KEY, pickCandidates } from './blocking.js';
export { compareProfiles, GROUP_THRESHOLD, WEIGHTS } from './score.js';
export { chooseGroup, GroupTally, type GroupCandidate } from './group.js';
export { MemoryBlocks } from './memory-blocks.js';
export { BLOOM, KEEPER } from './compact-profile.js';
export { adoptCompact, compactLength, compactProfile, CompactWriter, mayBeExact, mayBeExactAt, writeCompact, type CompactProfile } from './prefilter.js';
export { tokenise, foldText } from './text.js';
export { CompactArena } from './compact-arena.js';
export { BulkMatcher, KeyNumbers, type MatchBatch } from './bulk-matcher.js';
