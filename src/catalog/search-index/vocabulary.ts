import type { TermLookup } from '../../domain/search-text.js';

interface Node { next: Map<string, Node> | null; term: string | null }

const DIGIT = /\p{N}/u;
/** Completions look at this many terms under a prefix at most, so a short prefix costs a bounded walk. */
const COMPLETION_SCAN = 20_000;

/**
 * The terms of an index in a trie of code points, for forgiving search: the corrections of a word
 * are found by walking the trie with one row of the edit-distance table per node and pruning every
 * branch already beyond the budget (so a 1-edit lookup touches a few hundred nodes, not the whole
 * vocabulary), and the completions of a prefix are the terms under its node. A term is added once
 * and never removed: `docs` says how many listings hold it now, and a term held by none is skipped.
 */
export class Vocabulary implements TermLookup {
  private readonly root: Node = { next: null, term: null };
  private count = 0;

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
    const stack: Node[] = [...node.next].filter(([ch]) => !DIGIT.test(ch)).map(([, c]) => c);
    while (stack.length && scanned < COMPLETION_SCAN) {
      const n = stack.pop()!;
      if (n.term !== null) {
        scanned++;
        const d = this.docs(n.term);
        if (d > 0) found.push({ term: n.term, docs: d });
      }
      if (n.next) for (const [ch, c] of n.next) if (!DIGIT.test(ch)) stack.push(c);
    }
    return found.sort((a, b) => b.docs - a.docs || (a.term < b.term ? -1 : 1)).slice(0, limit).map((f) => f.term);
  }

  near(token: string, maxEdits: number, limit: number): string[] {
    const q = [...token];
    const width = q.length + 1;
    const found: Array<{ term: string; edits: number; docs: number }> = [];
    // Optimal string alignment over the trie: `row` is the table's row for the node's path, `prev` its parent's.
    const walk = (node: Node, ch: string, parentCh: string | null, prev2: Int32Array | null, prev: Int32Array) => {
      const row = new Int32Array(width);
      row[0] = prev[0] + 1;
      let best = row[0];
      for (let j = 1; j < width; j++) {
        let v = Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (q[j - 1] === ch ? 0 : 1));
        if (prev2 && j > 1 && q[j - 1] === parentCh && q[j - 2] === ch) v = Math.min(v, prev2[j - 2] + 1);
        row[j] = v;
        if (v < best) best = v;
      }
      if (best > maxEdits) return;
      const edits = row[width - 1];
      if (node.term !== null && edits <= maxEdits && node.term !== token) {
        const d = this.docs(node.term);
        if (d > 0) found.push({ term: node.term, edits, docs: d });
      }
      if (node.next) for (const [c, child] of node.next) if (!DIGIT.test(c)) walk(child, c, ch, prev, row);
    };
    const first = Int32Array.from({ length: width }, (_, j) => j);
    if (this.root.next) for (const [c, child] of this.root.next) if (!DIGIT.test(c)) walk(child, c, null, null, first);
    found.sort((a, b) => a.edits - b.edits || b.docs - a.docs || (a.term < b.term ? -1 : 1));
    return found.slice(0, limit).map((f) => f.term);
  }
}
