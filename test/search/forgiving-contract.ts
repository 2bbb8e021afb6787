import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeHarness, type Harness } from '../helpers/app.js';
import { rec } from '../helpers/records.js';

const item = (sku: string, title: string, brand: string, category: string) =>
  rec({ sku, title, brand, category, category_path: [category] });

/** Issue 26 part 3: listings whose words typos, completions, synonyms and folding must reach. */
export const FORGIVING_LISTINGS = [
  item('S24', 'Samsung Galaxy S24 Ultra 256GB', 'Samsung', 'Smartphones'),
  item('S23', 'Samsung Galaxy S23 128GB', 'Samsung', 'Smartphones'),
  item('XM5', 'Sony WH1000XM5 Wireless Headphones', 'Sony', 'Audio'),
  item('OLED', 'LG OLED Television 55 inch', 'LG', 'Televisions'),
  item('BUDS', 'Jabra Elite Earbuds Black', 'Jabra', 'Audio'),
  item('VN', 'Điện thoại Xiaomi Redmi Note 13', 'Xiaomi', 'Điện thoại'),
  // A word one edit from "samsung", spelled so on purpose: asked for as written, it ranks first.
  item('SAMSONG', 'Samsong Rice Cooker 1.8L', 'Samsong', 'Kitchen'),
  // "Sam" is a whole word here and a prefix of "samsung" elsewhere.
  item('SAM', 'Sam Smith Vinyl Record', 'Universal', 'Music'),
];

/** The forgiving rules over HTTP (`GET /v1/search`), on whatever store and search path `env` names. */
export function forgivingContract(name: string, env: () => Record<string, string>): void {
  describe(`forgiving search (${name})`, () => {
    let h: Harness;
    let auth: { authorization: string };
    beforeAll(async () => {
      h = await makeHarness(env());
      await h.ingest(FORGIVING_LISTINGS);
      auth = (await h.key('pro')).headers;
    }, 60_000);
    afterAll(async () => { await h?.close(); });
    const skus = async (q: string) => {
      const r = await h.app.inject({ method: 'GET', url: `/v1/search?q=${encodeURIComponent(q)}&limit=20`, headers: auth });
      expect(r.statusCode, q).toBe(200);
      return r.json().items.map((i: { sku: string }) => i.sku) as string[];
    };
    const sorted = async (q: string) => (await skus(q)).sort();

    it('corrects one edit from 5 letters and two from 9, not under 5', async () => {
      expect(await sorted('samsnug galaxy')).toEqual(['S23', 'S24']);
      expect(await sorted('galxy ultra')).toEqual(['S24']);
      expect(await sorted('wireles hedphnoes')).toEqual(['XM5']);
      expect(await sorted('hedphnoes sony')).toEqual(['XM5']);
      expect(await sorted('galaxy ultar')).toEqual(['S24']);
      // "sonny" is 5 letters: one edit; "elit" is 4: none.
      expect(await sorted('sonny wireless')).toEqual(['XM5']);
      expect(await sorted('jabra elit ')).toEqual([]);
    });

    it('never corrects or completes a model number', async () => {
      expect(await sorted('galaxy s25')).toEqual([]);
      expect(await sorted('wh1000xm4')).toEqual([]);
      expect(await sorted('galaxy s2')).toEqual([]);
      expect(await sorted('galaxy s24')).toEqual(['S24']);
      expect(await sorted('wh1000xm5')).toEqual(['XM5']);
    });

    it('completes the last word while it is typed, not once a space follows it', async () => {
      expect(await sorted('galaxy ult')).toEqual(['S24']);
      expect(await sorted('headph')).toEqual(['XM5']);
      expect(await sorted('galaxy ult ')).toEqual([]);
      expect(await sorted('ult galaxy')).toEqual([]);
    });

    it('folds accents and Vietnamese diacritics, đ included', async () => {
      for (const q of ['dien thoai', 'điện thoại', 'ĐIỆN THOẠI xiaomi', 'dien thoai redmi']) expect(await sorted(q), q).toEqual(['VN']);
    });

    it('matches the synonym table both ways', async () => {
      expect(await sorted('tv ')).toEqual(['OLED']);
      expect(await sorted('lg television')).toEqual(['OLED']);
      // "earphones" has 9 letters: "headphones", two edits away, is a correction, ranked after.
      expect(await skus('earphones ')).toEqual(['BUDS', 'XM5']);
      expect(await sorted('earphone ')).toEqual(['BUDS']);
      expect(await sorted('jabra earbud')).toEqual(['BUDS']);
    });

    it('ranks exact matches above corrected ones and above completions', async () => {
      const corrected = await skus('samsong');
      expect(corrected[0]).toBe('SAMSONG');
      expect(corrected.slice(1).sort()).toEqual(['S23', 'S24']);
      // The misspelling the other way: the two Samsungs match exactly, the Samsong by a correction.
      const exact = await skus('samsung');
      expect(exact.slice(0, 2).sort()).toEqual(['S23', 'S24']);
      expect(exact[2]).toBe('SAMSONG');
      const typed = await skus('sam');
      expect(typed[0]).toBe('SAM');
      expect(typed.slice(1).sort()).toEqual(['S23', 'S24', 'SAMSONG']);
    });

    it('reaches a word that arrives after the same text was asked for (no stale correction or completion)', async () => {
      expect(await sorted('quorvex')).toEqual([]);
      expect(await sorted('quorvax')).toEqual([]);
      expect(await sorted('quorv')).toEqual([]);
      await h.ingest([item('QUORVAX', 'Quorvax Blender 1.5L', 'Quorvax', 'Kitchen')]);
      expect(await sorted('quorvex')).toEqual(['QUORVAX']);
      expect(await sorted('quorvax')).toEqual(['QUORVAX']);
      expect(await sorted('quorv')).toEqual(['QUORVAX']);
    });
  });
}
