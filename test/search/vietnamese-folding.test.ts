import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { highlightTitle } from '../../src/domain/highlight.js';
import { searchWords } from '../../src/domain/search-text.js';
import { slugify } from '../../src/domain/slug.js';
import { searchWords as pgSearchWords } from '../../src/store/postgres/text-search.js';
import { makeHarness, type Harness } from '../helpers/app.js';
import { rec } from '../helpers/records.js';

/**
 * Issue 18 item 16: "đ" and "Đ" have no Unicode decomposition, so stripping combining marks left
 * them in place and "dien thoai" never met "Điện thoại". Every engine folds them to "d".
 */
const LISTINGS = [
  rec({ source: 'tiki_vn', sku: 'VN-1', title: 'Điện thoại Samsung Galaxy A55 5G', price: '9990000', currency: 'VND', country_code: 'VN',
    category: 'Điện thoại', category_path: ['Điện thoại & Máy tính bảng', 'Điện thoại'] }),
  rec({ source: 'tiki_vn', sku: 'VN-2', title: 'Nồi cơm điện Sharp KS-COM18V', brand: 'Sharp', price: '1290000', currency: 'VND', country_code: 'VN',
    category: 'Nồi cơm điện', category_path: ['Nhà cửa', 'Nồi cơm điện'] }),
  rec({ source: 'shopee_sg', sku: 'SG-1', title: 'Philips Kettle 1.7L', brand: 'Philips', category: 'Kettles', category_path: ['Home', 'Kettles'] }),
];

for (const mode of ['memory', 'off'] as const) {
  describe(`đ folds to d in search (SEARCH_INDEX=${mode})`, () => {
    let h: Harness;
    let auth: { authorization: string };
    beforeAll(async () => {
      h = await makeHarness({ SEARCH_INDEX: mode });
      await h.ingest(LISTINGS);
      auth = (await h.key('pro')).headers;
    });
    afterAll(async () => { await h.close(); });
    const skus = async (q: string) =>
      (await h.app.inject({ method: 'GET', url: `/v1/search?q=${encodeURIComponent(q)}`, headers: auth })).json().items.map((i: { sku: string }) => i.sku).sort();

    it('finds "Điện thoại Samsung" by "dien thoai", "điện thoại" and "ĐIỆN THOẠI"', async () => {
      expect(h.c.searchIndex?.state ?? 'off').toBe(mode === 'memory' ? 'ready' : 'off');
      for (const q of ['dien thoai', 'điện thoại', 'ĐIỆN THOẠI', 'Dien Thoai Samsung', 'đien thoai']) expect(await skus(q), q).toEqual(['VN-1']);
    });

    it('folds đ in brands and category paths as in titles', async () => {
      expect(await skus('noi com dien')).toEqual(['VN-2']);
      expect(await skus('dien')).toEqual(['VN-1', 'VN-2']);
      expect(await skus('nha cua')).toEqual(['VN-2']);
    });

    it('highlights the folded word', async () => {
      const r = await h.app.inject({ method: 'GET', url: '/v1/products/search?q=dien%20thoai&sort_by=relevance', headers: auth });
      expect(r.statusCode).toBe(200);
      expect(JSON.stringify(r.json())).toContain('<em>Điện</em> <em>thoại</em>');
    });
  });
}

describe('every normaliser of search text folds đ', () => {
  it('query words, PostgreSQL terms, highlights and category slugs', () => {
    expect(searchWords('Điện thoại')).toEqual(['diện', 'thoại']);
    expect(pgSearchWords('Điện thoại ĐẸP')).toEqual(['dien', 'thoai', 'dep']);
    expect(highlightTitle('Điện thoại Samsung', 'dien')).toBe('<em>Điện</em> thoại Samsung');
    expect(slugify('Điện thoại')).toBe('dien-thoai');
  });
});
