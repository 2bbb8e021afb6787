import { describe, expect, it } from 'vitest';
import { gtinStoredForms, normalizeGtin } from '../../src/domain/gtin.js';
import { isProductUrl, productUrlCandidates, productUrlKey } from '../../src/domain/product-url.js';

describe('GTIN stored forms', () => {
  it('a GTIN-14 with leading zeros is also stored as its EAN-13, UPC-A and EAN-8', () => {
    expect(gtinStoredForms('00012345678905')).toEqual(['00012345678905', '0012345678905', '012345678905']);
    expect(gtinStoredForms('00000096385074')).toEqual(['00000096385074', '0000096385074', '000096385074', '96385074']);
    expect(gtinStoredForms('08806095426280')).toEqual(['08806095426280', '8806095426280']);
    expect(gtinStoredForms('18806095426287')).toEqual(['18806095426287']);
  });

  it('every stored form normalizes back to the GTIN-14', () => {
    for (const g of ['00012345678905', '00000096385074', '04006381333931']) {
      for (const form of gtinStoredForms(g)) expect(normalizeGtin(form)).toBe(g);
    }
  });
});

describe('product URLs', () => {
  it('a URL or a host-and-path without scheme; nothing else', () => {
    expect(isProductUrl('https://shopee.sg/product/1/2')).toBe(true);
    expect(isProductUrl('HTTP://Shop.Example.com')).toBe(true);
    expect(isProductUrl('www.lazada.sg/products/x-i1.html')).toBe(true);
    expect(isProductUrl('SKU-123/blue')).toBe(false);
    expect(isProductUrl('ftp://example.com/x')).toBe(false);
    expect(isProductUrl('https://user:pw@example.com/x')).toBe(false);
    expect(isProductUrl('https://exa mple.com/x')).toBe(false);
  });

  it('the key ignores scheme, host case, www, default port, trailing slash, fragment and tracking parameters', () => {
    const key = 'shop.example.com/p/Galaxy-A55?id=7';
    for (const u of [
      'https://shop.example.com/p/Galaxy-A55?id=7', 'http://www.SHOP.example.com/p/Galaxy-A55/?id=7#reviews',
      'https://shop.example.com:443/p/Galaxy-A55?id=7&utm_source=x&gclid=abc', 'shop.example.com/p/Galaxy-A55?id=7',
    ]) expect(productUrlKey(u), u).toBe(key);
    expect(productUrlKey('https://shop.example.com/p/galaxy-a55?id=7')).not.toBe(key);
    expect(productUrlKey('https://shop.example.com/p/Galaxy-A55?id=8')).not.toBe(key);
    expect(productUrlKey('not a url')).toBeNull();
  });

  it('candidates: the URL as given and its page under both schemes, with and without www and a trailing slash, query as given and untracked', () => {
    const c = productUrlCandidates('http://WWW.Shop.example.com/p/x/?a=1&utm_medium=y#top');
    expect(c[0]).toBe('http://WWW.Shop.example.com/p/x/?a=1&utm_medium=y#top');
    expect(c).toContain('https://shop.example.com/p/x?a=1');
    expect(c).toContain('https://www.shop.example.com/p/x/?a=1&utm_medium=y');
    expect(c).toContain('http://shop.example.com/p/x?a=1');
    expect(c).not.toContain('http://shop.example.com/p/x');
    expect(c.length).toBeLessThanOrEqual(17);
    expect(productUrlCandidates('https://shop.example.com')).toEqual(expect.arrayContaining(['https://shop.example.com', 'https://shop.example.com/']));
    for (const u of c.slice(1)) expect(productUrlKey(u)).toBe(productUrlKey(c[0]));
  });
});
