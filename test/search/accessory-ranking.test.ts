import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asksForAccessory, isAccessoryCategory, isAccessoryListing, isAccessoryTitle } from '../../src/domain/accessory.js';
import { cheapestOffer } from '../../src/domain/group-price.js';
import { makeHarness, type Harness } from '../helpers/app.js';
import { rec } from '../helpers/records.js';

/**
 * Issue 18 item 14: best-price for "galaxy s24" answered an OtterBox case, a phone's cheapest_price
 * was a case's, and search ranked accessories above the product. docs/ranking.md has the rule.
 */
const PHONE = { brand: 'Samsung', category: 'Smartphones', category_path: ['Electronics', 'Mobile Phones', 'Smartphones'], gtin: '8806095426280' };
const CASES = { category: 'Phone Cases', category_path: ['Electronics', 'Mobile Accessories', 'Phone Cases'] };
const LISTINGS = [
  rec({ ...PHONE, source: 'shopee_sg', sku: 'S24-SG', title: 'Samsung Galaxy S24 5G 256GB Onyx Black Unlocked Smartphone', price: '1188.00' }),
  rec({ ...PHONE, source: 'lazada_sg', sku: 'S24-LZ', title: 'Samsung Galaxy S24 5G (8GB+256GB) Marble Grey', price: '1099.00' }),
  // In the phone's group by its GTIN: a seller's placeholder price (a price outlier), and a case
  // listed under the phone's GTIN (an accessory).
  rec({ ...PHONE, source: 'amazon_sg', sku: 'S24-AZ', title: 'Samsung SM-S921B 256GB Smartphone', price: '9.90' }),
  rec({ ...PHONE, source: 'lazada_my', sku: 'S24-CASE', title: 'Samsung Galaxy S24 Clear Case', price: '55.00', currency: 'MYR', country_code: 'MY' }),
  // Titles stuffed with the model name rank high on words alone.
  rec({ ...CASES, source: 'shopee_sg', sku: 'CASE-OTTER', brand: 'OtterBox', title: 'OtterBox Defender Galaxy S24 Case, Galaxy S24 Cover, Samsung Galaxy S24', price: '39.00' }),
  rec({ ...CASES, source: 'lazada_sg', sku: 'CASE-SPIGEN', brand: 'Spigen', title: 'Spigen Galaxy S24 Case Samsung Galaxy S24 Clear', price: '19.90' }),
  rec({ source: 'shopee_sg', sku: 'GLASS', brand: 'Whitestone', title: 'Whitestone Tempered Glass Galaxy S24 Galaxy S24 Screen Protector', price: '12.00', category: 'Screen Protectors', category_path: null }),
  rec({ source: 'lazada_sg', sku: 'KETTLE', brand: 'Philips', title: 'Philips Electric Kettle 1.7L', price: '45.00', category: 'Kettles', category_path: ['Home', 'Kettles'] }),
];

describe('the accessory rule (domain/accessory.ts)', () => {
  it('an accessory by its leaf category or by title cues', () => {
    expect(isAccessoryCategory(['Electronics', 'Mobile Accessories', 'Phone Cases'], 'Phone Cases')).toBe(true);
    expect(isAccessoryCategory(['Computers', 'Computer Accessories', 'Keyboards'], 'Keyboards')).toBe(false);
    expect(isAccessoryCategory(null, 'Ốp lưng điện thoại')).toBe(true);
    for (const t of ['OtterBox Defender Case for Galaxy S24', 'Samsung Galaxy S24 Silicone Cover', 'Anker 20W USB-C Charger', 'Whitestone Screen Protector',
      'Spigen Tough Armor for iPhone 15', 'Strap for Apple Watch 45mm', 'Ốp lưng Spigen iPhone 15', 'เคส iPhone 15 Pro', 'iPhone 15 Plus Case']) {
      expect(isAccessoryTitle(t), t).toBe(true);
    }
    for (const t of ['Samsung Galaxy S24 5G 256GB', 'Apple Watch Series 9 45mm Midnight Aluminium Case with Sport Band', 'Samsung Galaxy S24 Ultra with Case',
      'Galaxy S24 + Clear Case Bundle', 'Charles & Keith Chain Strap Bag', 'Microsoft Office 2021 for Mac', 'Điện thoại Samsung Galaxy A55']) {
      expect(isAccessoryTitle(t), t).toBe(false);
    }
    expect(isAccessoryListing({ title: 'Clear Armor', categoryPath: ['Electronics', 'Phone Cases'], category: 'Phone Cases' })).toBe(true);
  });

  it('a query asks for an accessory when it names one', () => {
    for (const q of ['galaxy s24 case', 'screen protector s24', 'ốp lưng iphone', 'apple watch band', 'เคส s24']) expect(asksForAccessory(q), q).toBe(true);
    for (const q of ['galaxy s24', 'iphone 15 pro max', 'otterbox defender', 'điện thoại']) expect(asksForAccessory(q), q).toBe(false);
  });

  it('a group\'s cheapest offer skips accessories and prices under a quarter of the median', () => {
    const offer = (id: number, priceSgd: string | null, title = 'Samsung Galaxy S24 256GB') => ({ id, title, categoryPath: null, category: null, priceSgd });
    expect(cheapestOffer([offer(1, '9.90'), offer(2, '1099.00'), offer(3, '1188.00')]).id).toBe(2);
    expect(cheapestOffer([offer(1, '19.90', 'Spigen case for Galaxy S24'), offer(2, '1099.00')]).id).toBe(2);
    expect(cheapestOffer([offer(1, '1000.00'), offer(2, '999.99')]).id).toBe(2);
    expect(cheapestOffer([offer(1, '19.90', 'Case for S24'), offer(2, '29.90', 'Cover for S24')]).id).toBe(1);
    expect(cheapestOffer([offer(1, null), offer(2, '5.00')]).id).toBe(2);
    expect(cheapestOffer([offer(4, null), offer(3, null)]).id).toBe(3);
  });
});

for (const mode of ['memory', 'off'] as const) {
  describe(`products above their accessories (SEARCH_INDEX=${mode})`, () => {
    let h: Harness;
    let auth: { authorization: string };
    beforeAll(async () => {
      h = await makeHarness({ SEARCH_INDEX: mode });
      await h.ingest(LISTINGS);
      auth = (await h.key('pro')).headers;
    });
    afterAll(async () => { await h.close(); });
    const get = (url: string) => h.app.inject({ method: 'GET', url, headers: auth });
    const skus = async (q: string) => (await get(`/v1/search?q=${encodeURIComponent(q)}`)).json().items.map((i: { sku: string }) => i.sku);

    it('a query naming the product ranks every listing of it above every accessory, one word or several', async () => {
      expect(h.c.searchIndex?.state ?? 'off').toBe(mode === 'memory' ? 'ready' : 'off');
      for (const q of ['galaxy s24', 'samsung galaxy s24', 's24']) {
        const found = await skus(q);
        expect(found.slice(0, 2).sort(), q).toEqual(['S24-LZ', 'S24-SG']);
        expect(found.slice(2).length, q).toBeGreaterThanOrEqual(3);
        expect(found.slice(2).every((sku: string) => sku.includes('CASE') || sku === 'GLASS'), q).toBe(true);
      }
    });

    it('a query asking for an accessory ranks as words alone decide', async () => {
      const found = await skus('galaxy s24 case');
      expect(found.sort()).toEqual(['CASE-OTTER', 'CASE-SPIGEN', 'S24-CASE']);
      expect((await skus('s24 screen protector'))).toEqual(['GLASS']);
    });

    it('best-price answers the cheapest product for a product query, an accessory when one is asked for or nothing else matches', async () => {
      const best = async (q: string) => (await get(`/v1/products/best-price?q=${encodeURIComponent(q)}`)).json().sku;
      expect(await best('galaxy s24')).toBe('S24-LZ');
      expect(await best('samsung s24')).toBe('S24-LZ');
      expect(await best('galaxy s24 case')).toBe('S24-CASE');
      expect(await best('otterbox defender')).toBe('CASE-OTTER');
    });

    it('the phone\'s cheapest_price is neither a case nor a placeholder price', async () => {
      const body = (await get('/v1/products/S24-SG')).json();
      expect(body.meta).toMatchObject({ cheapest_price: '1099.00', cheapest_source: 'lazada_sg' });
    });
  });
}
