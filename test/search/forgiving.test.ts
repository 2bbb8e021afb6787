import { describe, expect, it } from 'vitest';
import { Vocabulary } from '../../src/catalog/search-index/vocabulary.js';
import { forgivingQuery, isModelNumber, typoBudget } from '../../src/domain/search-text.js';
import { synonymsOf } from '../../src/domain/synonyms.js';
import { forgivingContract } from './forgiving-contract.js';

forgivingContract('SQLite, in-memory index', () => ({ SEARCH_INDEX: 'memory' }));
forgivingContract('SQLite FTS5, SEARCH_INDEX=off', () => ({ SEARCH_INDEX: 'off' }));

/** Optimal string alignment distance, the plain dynamic programme: what the trie walk must agree with. */
function osa(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.length][b.length];
}

const vocabOf = (docs: Record<string, number>) => {
  const v = new Vocabulary((t) => docs[t] ?? 0);
  for (const t of Object.keys(docs)) v.add(t);
  return v;
};

describe('the forgiving rule (domain/search-text.ts)', () => {
  it('budgets edits by length and never for a model number', () => {
    expect(['case', 'phone', 'wireless', 'bluetooth', 'headphones'].map(typoBudget)).toEqual([0, 1, 1, 2, 2]);
    expect(['s24', 'wh1000xm5', '128gb', '15', 'galaxy'].map(isModelNumber)).toEqual([true, true, true, true, false]);
    expect(typoBudget('wh1000xm5')).toBe(0);
  });

  it('expands each token with synonyms, corrections and, for the typed last word, completions', () => {
    const v = vocabOf({ samsung: 50, galaxy: 40, galaxies: 2, gala: 1, television: 3, tv: 1, s24: 5, s25: 5, ultra: 4, ultrasonic: 1 });
    expect(forgivingQuery('samsnug galxy', v)).toEqual([{ exact: ['samsnug'], near: ['samsung'] }, { exact: ['galxy'], near: ['galaxy'] }]);
    expect(forgivingQuery('galaxxies', v)).toEqual([{ exact: ['galaxxies'], near: ['galaxies'] }]);
    expect(forgivingQuery('galaxxie', v)).toEqual([{ exact: ['galaxxie'], near: [] }]);
    expect(forgivingQuery('galaxy s2', v)).toEqual([{ exact: ['galaxy'], near: [] }, { exact: ['s2'], near: [] }]);
    expect(forgivingQuery('samsung ult', v)![1]).toEqual({ exact: ['ult'], near: ['ultra', 'ultrasonic'] });
    expect(forgivingQuery('samsung ult ', v)![1]).toEqual({ exact: ['ult'], near: [] });
    expect(forgivingQuery('TV', v)).toEqual([{ exact: ['tv', 'television', 'tivi'], near: [] }]);
    expect(forgivingQuery('Điện', v)).toEqual([{ exact: ['dien'], near: [] }]);
    expect(forgivingQuery('!!!', v)).toBeNull();
    expect(synonymsOf('earphones')).toContain('earbuds');
  });

  it('finds exactly the terms within the budget, as the plain edit distance says, digits never', () => {
    let seed = 12345;
    const rand = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
    const word = (n: number) => Array.from({ length: n }, () => 'abcde'[Math.floor(rand() * 5)]).join('');
    const docs: Record<string, number> = {};
    for (let i = 0; i < 800; i++) docs[word(3 + Math.floor(rand() * 10))] = 1 + Math.floor(rand() * 9);
    docs.abcd1 = 9;
    docs.abcde1 = 9;
    const v = vocabOf(docs);
    for (let i = 0; i < 120; i++) {
      const q = word(5 + Math.floor(rand() * 8));
      for (const k of [1, typoBudget(q)]) {
        const expected = Object.keys(docs).filter((t) => t !== q && !/\d/.test(t) && osa(q, t) <= k)
          .sort((a, b) => osa(q, a) - osa(q, b) || docs[b] - docs[a] || (a < b ? -1 : 1));
        expect(v.near(q, k, 1000), `${q} ${k}`).toEqual(expected);
      }
    }
    expect(v.completions('abcd', 1000)).not.toContain('abcd1');
    expect(v.near('abcdf', 1, 1000)).not.toContain('abcde1');
  });

  it('completes from every term added so far, sorted in or not yet, each term once, settled or not', () => {
    let seed = 777;
    const rand = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
    const word = (n: number) => Array.from({ length: n }, () => 'abcdé1'[Math.floor(rand() * 6)]).join('');
    const docs: Record<string, number> = {};
    const v = new Vocabulary((t) => docs[t] ?? 0);
    for (let round = 0; round < 6; round++) {
      // Rounds of a few hundred words: some queries find them merged into the sorted terms, some not yet.
      for (let i = 0; i < 40 + round * 150; i++) {
        const t = word(2 + Math.floor(rand() * 7));
        docs[t] = Math.floor(rand() * 5);
        v.add(t);
        v.add(t);
      }
      expect(v.size).toBe(Object.keys(docs).length);
      // As an index build does between chunks (a quarter's growth merged) and at its end (all).
      if (round % 3 === 1) v.settle();
      if (round % 3 === 2) v.settle(true);
      for (const prefix of ['a', 'ab', 'é', 'abc', 'b1', 'ca']) {
        const expected = Object.keys(docs)
          .filter((t) => t.startsWith(prefix) && t !== prefix && !/\d/.test(t.slice(prefix.length)) && docs[t] > 0)
          .sort((a, b) => docs[b] - docs[a] || (a < b ? -1 : 1));
        expect(v.completions(prefix, 1000), `${round} ${prefix}`).toEqual(expected);
      }
    }
  });
});
