import { describe, expect, it } from 'vitest';
import { SimilarLists } from '../../src/catalog/similar-candidates.js';
import { titleWords } from '../../src/domain/similarity.js';

/** The share of words as sets of strings say it: what the numbered lists must agree with. */
function share(a: Set<string>, b: Set<string>): number {
  if (!a.size || !b.size) return 0;
  const shared = [...a].filter((w) => b.has(w)).length;
  return shared / (a.size + b.size - shared);
}

describe('candidate lists of similar products (catalog/similar-candidates.ts)', () => {
  it('score every candidate as the word sets would, across lists sharing one numbering', () => {
    let seed = 99;
    const rand = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
    const vocab = ['galaxy', 'a55', 'samsung', 'phone', 'case', '128gb', 'lilac', 'ốp', 'điện', 'thoại', 'x', 'pro', 'max'];
    const title = () => Array.from({ length: Math.floor(rand() * 7) }, () => vocab[Math.floor(rand() * vocab.length)]).join(' ');
    const lists = new SimilarLists(10);
    for (let round = 0; round < 5; round++) {
      const rows = Array.from({ length: 40 }, (_, i) => ({ id: round * 100 + i, groupId: i % 7, brand: i % 3 ? 'Samsung' : null, title: title() }));
      const list = lists.add(`k${round}`, rows);
      expect(lists.get(`k${round}`)).toBe(list);
      for (let q = 0; q < 20; q++) {
        // Words no candidate holds ('unheard') count in the title's size and are never shared.
        const own = titleWords(`${title()} ${q % 2 ? 'unheard' : ''}`);
        const mine = list.numbersOf(own);
        rows.forEach((r, i) => {
          expect(list.similarity(i, mine), `${r.title} / ${[...own].join(' ')}`).toBe(share(own, titleWords(r.title)));
          expect([list.ids[i], list.groups[i], list.brands[i]]).toEqual([r.id, r.groupId, r.brand]);
        });
      }
    }
    const single = SimilarLists.single([{ id: 1, groupId: 1, brand: null, title: 'galaxy phone' }]);
    expect(single.similarity(0, single.numbersOf(titleWords('galaxy case')))).toBe(1 / 3);
  });
});
