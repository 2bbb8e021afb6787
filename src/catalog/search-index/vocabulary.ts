import type { TermLookup } from '../../domain/search-text.js';

const DIGIT = /\p{N}/u;
/** Completions look at this many terms under a prefix at most, so a short prefix costs a bounded walk. */
const COMPLETION_SCAN = 20_000;
/** Terms added since the last sort that completions scan one by one before they are merged in. */
const UNSORTED_MIN = 256;

/**
 * The terms of an index for forgiving search, held in typed arrays (a search index holds some
 * 360,000 terms at 1,000,000 listings: as a trie of objects and a map of deletion strings they
 * took 170 MB of heap that every full collection marked). Corrections by symmetric deletion
 * (SymSpell): each term that can be a correction is filed under a 32-bit hash of every string left
 * after deleting up to 1 or 2 of its characters, so a lookup is a few dozen probes for the query's
 * own deletions and a bounded edit distance on what they find (which also drops what a hash
 * collision brings), not a pass over the vocabulary. Completions from the terms in sorted order:
 * the range that starts with the prefix. A term is added once and never removed: `docs` says how
 * many listings hold it now, and a term held by none is skipped.
 */
export class Vocabulary implements TermLookup {
  private readonly terms: string[] = [];
  /** Term ids by their term's hash (open addressing, id + 1; 0 is empty). */
  private byTerm = new Int32Array(1024);
  /** Deletion hashes, open addressing; `heads` holds each slot's first filed term (entry + 1). */
  private deleteKeys = new Int32Array(1024);
  private deleteHeads = new Int32Array(1024);
  private deleteCount = 0;
  /** Filed terms: entry -> term id, and the next entry of the same deletion hash (entry + 1; 0 ends). */
  private entryTerm = new Int32Array(1024);
  private entryNext = new Int32Array(1024);
  private entries = 0;
  /** Term ids in term order, and those added since (scanned by completions until merged). */
  private sorted = new Int32Array(0);
  private unsorted: number[] = [];

  constructor(private readonly docs: (term: string) => number) {}

  get size(): number {
    return this.terms.length;
  }

  add(term: string): void {
    const mask = this.byTerm.length - 1;
    let slot = hash(term) & mask;
    for (let id = this.byTerm[slot]; id !== 0; id = this.byTerm[slot]) {
      if (this.terms[id - 1] === term) return;
      slot = (slot + 1) & mask;
    }
    const id = this.terms.push(term) - 1;
    this.byTerm[slot] = id + 1;
    if (this.terms.length * 2 > this.byTerm.length) this.rehashTerms();
    this.unsorted.push(id);
    const chars = [...term];
    const depth = deletionDepth(chars.length);
    if (depth && !chars.some(isDigit)) for (const key of deletions(chars, depth)) this.file(hash(key), id);
  }

  /**
   * Sorts in the terms added since the last merge once they are a quarter as many as the sorted
   * ones, or all of them (`all`). An index being built calls it between chunks and once at the end:
   * the merges grow geometrically, and neither one of them nor the first completion after the build
   * sorts the whole vocabulary at once, which held a first search for a third of a second.
   */
  settle(all = false): void {
    if (this.unsorted.length > (all ? 0 : this.sorted.length >> 2)) this.merge();
  }

  completions(prefix: string, limit: number): string[] {
    if (this.unsorted.length > Math.max(UNSORTED_MIN, this.sorted.length >> 6)) this.merge();
    const found: Array<{ term: string; docs: number }> = [];
    let scanned = 0;
    const consider = (term: string) => {
      if (term.length <= prefix.length || hasDigit(term, prefix.length)) return;
      scanned++;
      const d = this.docs(term);
      if (d > 0) found.push({ term, docs: d });
    };
    for (let i = this.lowerBound(prefix); i < this.sorted.length && scanned < COMPLETION_SCAN; i++) {
      const term = this.terms[this.sorted[i]];
      if (!term.startsWith(prefix)) break;
      consider(term);
    }
    for (const id of this.unsorted) if (this.terms[id].startsWith(prefix)) consider(this.terms[id]);
    return found.sort((a, b) => b.docs - a.docs || (a.term < b.term ? -1 : 1)).slice(0, limit).map((f) => f.term);
  }

  /** Complete for what `typoBudget` allows: 1 edit from 5 letters, 2 from 9 (see `deletionDepth`). */
  near(token: string, maxEdits: number, limit: number): string[] {
    const q = [...token];
    const found: Array<{ term: string; edits: number; docs: number }> = [];
    const seen = new Set<number>();
    const mask = this.deleteKeys.length - 1;
    for (const key of deletions(q, maxEdits)) {
      const h = hash(key);
      let slot = h & mask;
      while (this.deleteHeads[slot] !== 0 && this.deleteKeys[slot] !== h) slot = (slot + 1) & mask;
      for (let e = this.deleteHeads[slot]; e !== 0; e = this.entryNext[e - 1]) {
        const id = this.entryTerm[e - 1];
        if (seen.has(id)) continue;
        seen.add(id);
        const term = this.terms[id];
        if (term === token) continue;
        const edits = osa(q, [...term], maxEdits);
        if (edits > maxEdits) continue;
        const d = this.docs(term);
        if (d > 0) found.push({ term, edits, docs: d });
      }
    }
    found.sort((a, b) => a.edits - b.edits || b.docs - a.docs || (a.term < b.term ? -1 : 1));
    return found.slice(0, limit).map((f) => f.term);
  }

  /** Files term `id` under deletion hash `h` (a term is filed once per distinct hash). */
  private file(h: number, id: number): void {
    const mask = this.deleteKeys.length - 1;
    let slot = h & mask;
    while (this.deleteHeads[slot] !== 0 && this.deleteKeys[slot] !== h) slot = (slot + 1) & mask;
    const head = this.deleteHeads[slot];
    if (head !== 0 && this.entryTerm[head - 1] === id) return;
    if (this.entries === this.entryTerm.length) {
      this.entryTerm = grown(this.entryTerm, this.entries * 2);
      this.entryNext = grown(this.entryNext, this.entries * 2);
    }
    this.entryTerm[this.entries] = id;
    this.entryNext[this.entries] = head;
    this.entries++;
    if (head === 0) {
      this.deleteKeys[slot] = h;
      this.deleteCount++;
    }
    this.deleteHeads[slot] = this.entries;
    if (this.deleteCount * 2 > this.deleteKeys.length) this.rehashDeletes();
  }

  private rehashTerms(): void {
    const table = new Int32Array(this.byTerm.length * 2);
    const mask = table.length - 1;
    for (let id = 0; id < this.terms.length; id++) {
      let slot = hash(this.terms[id]) & mask;
      while (table[slot] !== 0) slot = (slot + 1) & mask;
      table[slot] = id + 1;
    }
    this.byTerm = table;
  }

  private rehashDeletes(): void {
    const keys = new Int32Array(this.deleteKeys.length * 2);
    const heads = new Int32Array(keys.length);
    const mask = keys.length - 1;
    for (let old = 0; old < this.deleteKeys.length; old++) {
      if (this.deleteHeads[old] === 0) continue;
      let slot = this.deleteKeys[old] & mask;
      while (heads[slot] !== 0) slot = (slot + 1) & mask;
      keys[slot] = this.deleteKeys[old];
      heads[slot] = this.deleteHeads[old];
    }
    this.deleteKeys = keys;
    this.deleteHeads = heads;
  }

  /** The terms added since the last merge, sorted into `sorted`. */
  private merge(): void {
    const byTerm = (a: number, b: number) => (this.terms[a] < this.terms[b] ? -1 : 1);
    const added = this.unsorted.sort(byTerm);
    const out = new Int32Array(this.sorted.length + added.length);
    let i = 0;
    let j = 0;
    for (let k = 0; k < out.length; k++) {
      out[k] = j >= added.length || (i < this.sorted.length && byTerm(this.sorted[i], added[j]) < 0) ? this.sorted[i++] : added[j++];
    }
    this.sorted = out;
    this.unsorted = [];
  }

  /** The first position in `sorted` whose term is not before `prefix`. */
  private lowerBound(prefix: string): number {
    let lo = 0;
    let hi = this.sorted.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.terms[this.sorted[mid]] < prefix) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}

/** FNV-1a over UTF-16 code units, as a signed 32-bit number. */
function hash(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h | 0;
}

function grown(a: Int32Array, size: number): Int32Array<ArrayBuffer> {
  const b = new Int32Array(size);
  b.set(a);
  return b;
}

/** Whether `term` holds a digit from position `from` on. */
function hasDigit(term: string, from: number): boolean {
  for (const c of term.slice(from)) if (isDigit(c)) return true;
  return false;
}

/**
 * How many deletions of a term are keyed: a token of 5+ letters is corrected by 1 edit, so a term of
 * 4+ letters can be its correction; one of 9+ by 2, so a term of 7+ letters. Symmetric deletion:
 * two words within k edits (transpositions included) meet on some string of at most k deletions from each.
 */
const deletionDepth = (length: number) => (length >= 7 ? 2 : length >= 4 ? 1 : 0);

/** The word and every string from deleting up to `k` of its characters. */
function deletions(chars: string[], k: number): Set<string> {
  const out = new Set<string>([chars.join('')]);
  let level = [chars];
  for (let d = 0; d < k; d++) {
    const next: string[][] = [];
    for (const w of level) {
      for (let i = 0; i < w.length; i++) {
        const shorter = [...w.slice(0, i), ...w.slice(i + 1)];
        const key = shorter.join('');
        if (!out.has(key)) {
          out.add(key);
          next.push(shorter);
        }
      }
    }
    level = next;
  }
  return out;
}

/** Optimal string alignment distance, or more than `max` as soon as it must be. */
function osa(a: string[], b: string[], max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  const w = b.length + 1;
  let prev2 = new Int32Array(w);
  let prev = Int32Array.from({ length: w }, (_, j) => j);
  let row = new Int32Array(w);
  for (let i = 1; i <= a.length; i++) {
    row[0] = i;
    let best = i;
    for (let j = 1; j < w; j++) {
      let v = Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1] && prev2[j - 2] + 1 < v) v = prev2[j - 2] + 1;
      row[j] = v;
      if (v < best) best = v;
    }
    if (best > max) return max + 1;
    [prev2, prev, row] = [prev, row, prev2];
  }
  return prev[w - 1];
}

/** A digit of any script (model numbers are never corrections or completions); ASCII decided without a regex. */
function isDigit(c: string): boolean {
  const code = c.charCodeAt(0);
  return code < 128 ? code >= 48 && code <= 57 : DIGIT.test(c);
}
