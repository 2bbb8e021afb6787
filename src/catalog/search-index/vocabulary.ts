import type { TermLookup } from '../../domain/search-text.js';

interface Node { next: Map<string, Node> | null; term: string | null }

const DIGIT = /\p{N}/u;
/** Completions look at this many terms under a prefix at most, so a short prefix costs a bounded walk. */
const COMPLETION_SCAN = 20_000;

/**
 * The terms of an index for forgiving search. Corrections by symmetric deletion (SymSpell): each
 * term that can be a correction is keyed by the strings left after deleting up to 1 or 2 of its
 * characters, so a lookup is a few dozen map reads of the query's own deletions and a bounded edit
 * distance on what they find, not a pass over the vocabulary. Completions from a trie: the terms
 * under the prefix's node. A term is added once and never removed: `docs` says how many listings
 * hold it now, and a term held by none is skipped.
 */
export class Vocabulary implements TermLookup {
  private readonly root: Node = { next: null, term: null };
  private count = 0;
  /** The terms a word can be corrected to (no digit, 4+ letters), and their deletion keys (`deletionDepth`). */
  private readonly corrections: string[] = [];
  private readonly deletes = new Map<string, number[]>();

  constructor(private readonly docs: (term: string) => number) {}

  get size(): number {
    return this.count;
  }

  add(term: string): void {
    let node = this.root;
    for (const ch of term) {
      node.next ??= new Map();
      let child = node.next.get(ch);
      if (!child) node.next.set(ch, (child = { next: null, term: null }));
      node = child;
    }
    if (node.term === null) {
      node.term = term;
      this.count++;
      const chars = [...term];
      const depth = deletionDepth(chars.length);
      if (depth && !chars.some(isDigit)) {
        const id = this.corrections.push(term) - 1;
        for (const key of deletions(chars, depth)) {
          const ids = this.deletes.get(key);
          if (ids) ids.push(id);
          else this.deletes.set(key, [id]);
        }
      }
    }
  }

  completions(prefix: string, limit: number): string[] {
    let node: Node | undefined = this.root;
    for (const ch of prefix) {
      node = node.next?.get(ch);
      if (!node) return [];
    }
    if (!node.next) return [];
    const found: Array<{ term: string; docs: number }> = [];
    let scanned = 0;
    const stack: Node[] = [...node.next].filter(([ch]) => !isDigit(ch)).map(([, c]) => c);
    while (stack.length && scanned < COMPLETION_SCAN) {
      const n = stack.pop()!;
      if (n.term !== null) {
        scanned++;
        const d = this.docs(n.term);
        if (d > 0) found.push({ term: n.term, docs: d });
      }
      if (n.next) for (const [ch, c] of n.next) if (!isDigit(ch)) stack.push(c);
    }
    return found.sort((a, b) => b.docs - a.docs || (a.term < b.term ? -1 : 1)).slice(0, limit).map((f) => f.term);
  }

  /** Complete for what `typoBudget` allows: 1 edit from 5 letters, 2 from 9 (see `deletionDepth`). */
  near(token: string, maxEdits: number, limit: number): string[] {
    const q = [...token];
    const found: Array<{ term: string; edits: number; docs: number }> = [];
    const seen = new Set<number>();
    for (const key of deletions(q, maxEdits)) {
      const ids = this.deletes.get(key);
      if (!ids) continue;
      for (const id of ids) {
        if (seen.has(id)) continue;
        seen.add(id);
        const term = this.corrections[id];
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
