import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DocTerms } from '../../src/catalog/search-index/doc-terms.js';
import { Postings } from '../../src/catalog/search-index/postings.js';
import { TopK } from '../../src/catalog/search-index/top-k.js';

/** The index's building blocks against plain arrays doing the same thing slowly. */
describe('search index structures', () => {
  it('Postings keeps ids in order with their weights, groups and bitmap through any adds and removes', () => {
    fc.assert(fc.property(
      fc.array(fc.record({ add: fc.boolean(), id: fc.integer({ min: 1, max: 400 }), f: fc.integer({ min: 1, max: 300 }) }), { maxLength: 300 }),
      (ops) => {
        const p = new Postings();
        const model = new Map<number, number>();
        const length = new Uint16Array(401).map((_, i) => i % 7);
        p.buildGroups(length);
        for (const [i, op] of ops.entries()) {
          if (i === 50) p.buildBits();
          if (op.add && !model.has(op.id)) {
            p.add(op.id, op.f, length[op.id]);
            model.set(op.id, Math.min(op.f, 255));
          } else if (!op.add) {
            p.remove(op.id, length[op.id]);
            model.delete(op.id);
          }
        }
        const ids = [...model.keys()].sort((a, b) => a - b);
        expect([...p.data.subarray(0, p.n)].map((e) => [e >>> 8, e & 255])).toEqual(ids.map((id) => [id, model.get(id)]));
        const onList = (id: number) => p.lowerBound(id) < p.n && p.data[p.lowerBound(id)] >>> 8 === id;
        const bit = (id: number) => p.bits !== null && id >>> 5 < p.bits.length && (p.bits[id >>> 5] & (1 << (id & 31))) !== 0;
        for (let id = 1; id <= 400; id++) {
          expect(onList(id)).toBe(model.has(id));
          if (p.bits) expect(bit(id)).toBe(model.has(id));
        }
        const grouped = [...p.groups!.values()].flatMap((g) => [...g.ids.subarray(0, g.n)].map((id) => ({ id, f: g.f, length: g.length })));
        expect(grouped.sort((a, b) => a.id - b.id)).toEqual(ids.map((id) => ({ id, f: model.get(id), length: length[id] })));
        for (const g of p.groups!.values()) expect([...g.ids.subarray(0, g.n)]).toEqual([...g.ids.subarray(0, g.n)].sort((a, b) => a - b));
        for (const from of [0, 3, p.n]) for (const id of [0, 1, 17, 200, 401]) expect(p.seek(id, Math.min(from, p.lowerBound(id)))).toBe(p.lowerBound(id));
      },
    ));
  });

  it('DocTerms returns what was set last for every listing, across compactions', () => {
    const terms = new DocTerms();
    const model = new Map<number, number[]>();
    for (let round = 0; round < 40; round++) {
      for (let id = 1; id <= 2000; id++) {
        if ((id + round) % 3) continue;
        const list = Array.from({ length: (id + round) % 9 }, (_, k) => id * 10 + k + round);
        terms.set(id, list);
        model.set(id, list);
      }
    }
    for (const [id, list] of model) expect([...terms.get(id)]).toEqual(list);
    expect([...terms.get(99_999)]).toEqual([]);
  });

  it('TopK keeps the best by key, ties by id in either direction', () => {
    fc.assert(fc.property(fc.array(fc.tuple(fc.integer({ min: 0, max: 5 }), fc.integer({ min: 1, max: 1000 }))), fc.integer({ min: 0, max: 12 }), fc.boolean(),
      (items, k, ascending) => {
        const top = new TopK(k, ascending);
        const unique = [...new Map(items.map(([key, id]) => [id, key])).entries()].map(([id, key]) => ({ id, key }));
        for (const { id, key } of unique) top.push(key, id);
        const expected = unique.sort((a, b) => b.key - a.key || (ascending ? a.id - b.id : b.id - a.id)).slice(0, k).map((x) => x.id);
        expect(top.sorted()).toEqual(expected);
      }));
  });
});
