import type { MatchInput } from '../src/domain/matching/index.js';

/** The records, pairs and figures of the matching evaluation (eval-matching.ts). */
export interface EvalRecord { id: string; input: MatchInput }
export interface EvalPair { left: string; right: string; label: 0 | 1 }
export interface Metrics { pairs: number; tp: number; fp: number; fn: number; precision: number; recall: number; f1: number }
export interface AssignStats {
  listings: number;
  microsPerListing: number;
  /** buildProfile + blockingKeys only. */
  microsProfileKeys: number;
  /** chooseGroup time divided by the candidates it compared. */
  microsPerCompare: number;
  meanCandidates: number;
  maxCandidates: number;
  maxPostings: number;
}
/** Puts every record in a group; the lead can swap this for the real ingest path. */
export type Assign = (records: readonly EvalRecord[]) => Promise<{ groups: Map<string, number>; stats?: AssignStats }>;

