import { createHash } from 'node:crypto';
import Big from 'big.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toMinor } from '../../src/domain/money.js';
import { indexForm, searchCategory } from '../../src/domain/search-text.js';
import { categoryKey, derivedColumns, domainOf, plainHost, storedColumns } from '../../src/domain/listing-columns.js';
import { listingUuid } from '../../src/domain/listing-id.js';
import { isAccessoryListing } from '../../src/domain/accessory.js';
import { slugify } from '../../src/domain/slug.js';

/** The definition the fast paths must agree with. */
function domainByParser(url: string): string | null {
  try {
    return new URL(url).hostname.replace(/^www\./, '');
  } catch {
    return null;
  }
}

describe('derived columns', () => {
  it('domainOf agrees with the URL parser', () => {
    const urls = ['https://shopee.sg/x-i.1.2', 'http://www.lazada.com.my/products/a.html?x=1', 'https://WWW.Amazon.com/dp/B0', 'https://a.b.c',
      'https://1.2.3.4/x', 'https://1.0x1a/', 'https://a.0x/', 'https://a.0xg/', 'https://host-/', 'https://a..b/', 'https://example.com./',
      'https://a.com:8080/x', 'https://user@a.com/', 'https://xn--bcher-kva.example/', 'https://bücher.example/', ' https://a.com/',
      'https://a.com#x', 'https://a.com?q', 'https://123/', 'https://0x/', 'https://a.09/', 'ftp://a.com/', 'notaurl', 'https://',
      'https://a.b1/', 'https://1a.2b.3c/', 'https://-a.com/', 'https://xn--/', 'https://a.xn--abc/', 'https://xn--bcher-kva.com/'];
    // A plain host (what ingest takes as a valid URL without the parser) is one the parser finds.
    const hostByParser = (url: string) => new URL(url).hostname;
    for (const url of urls) {
      expect(domainOf(url), url).toBe(domainByParser(url));
      if (plainHost(url) !== null) expect(hostByParser(url), url).toBe(plainHost(url));
    }
    const label = fc.stringMatching(/^[a-z0-9x-]{0,6}$/);
    const rests = fc.constantFrom('', '/', '/p?q=1', '#f', ':80/', '/a b/ü?x=<y>#"z"', '\\x', '/%zz', '?\u0000');
    fc.assert(fc.property(fc.array(label, { minLength: 1, maxLength: 4 }), rests, fc.constantFrom('http', 'https'), (labels, rest, scheme) => {
      const url = `${scheme}://${labels.join('.')}${rest}`;
      expect(domainOf(url)).toBe(domainByParser(url));
      if (plainHost(url) !== null) expect(hostByParser(url)).toBe(plainHost(url));
    }), { numRuns: 3000 });
  });

  it('slugify gives the same slug from its memo', () => {
    for (const name of ['Home & Living', 'Điện thoại', 'เคส', 'T-Shirts', 'Home & Living']) {
      expect(slugify(name)).toBe(name.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase().replace(/đ/g, 'd')
        .replace(/&/g, ' ').replace(/[^a-z0-9\u0E00-\u0E7F]+/g, '-').replace(/^-+|-+$/g, ''));
    }
    expect(slugify('Điện thoại')).toBe('dien-thoai');
  });

  it('a record\'s category columns come from the memo of its path as from the path itself', () => {
    const name = fc.constantFrom('Electronics', 'Điện thoại', 'ＵＳＢ Cables', 'Home & Living', 'Phone Cases', '');
    const title = fc.constantFrom('Samsung Galaxy S24', 'Spigen case for Galaxy S24', 'Ốp lưng iPhone 15');
    const record = fc.record({ categoryPath: fc.option(fc.array(name, { maxLength: 3 })), category: fc.option(name), title });
    // Small sets of names, so paths and categories meet again and the memo answers.
    fc.assert(fc.property(fc.array(record, { minLength: 20, maxLength: 60 }), (records) => {
      for (const { categoryPath, category, title } of records) {
        const stored = storedColumns({ source: 's', sku: '1', title, categoryPath, category, specs: null, metadata: null, variants: [], url: 'https://a.com/', price: '1', originalPrice: null });
        expect(stored.categoryKey).toBe(categoryKey(categoryPath, category));
        expect(stored.searchCategory).toBe(indexForm(searchCategory(categoryPath, category)));
        expect(stored.accessory).toBe(isAccessoryListing({ title, categoryPath, category }));
      }
    }), { numRuns: 300 });
  });

  it('SGD cents are read off two-decimal amounts exactly as Big computes them', () => {
    fc.assert(fc.property(fc.bigInt({ min: 0n, max: 10n ** 15n }), fc.integer({ min: 0, max: 4 }), (units, decimals) => {
      const text = decimals === 0 ? units.toString() : `${units / 10n ** BigInt(decimals)}.${(units % 10n ** BigInt(decimals)).toString().padStart(decimals, '0')}`;
      const s = { title: 'x', price: '1.00', originalPrice: null, referencePrice: null, priceSgd: text, categoryPath: null, category: null, url: 'https://a.com/' };
      expect(derivedColumns(s as never).priceSgdMinor).toBe(toMinor(new Big(text), 'SGD'));
    }), { numRuns: 2000 });
  });

  it('listingUuid is the version-5 layout of a SHA-1 of (source, sku)', () => {
    const h = createHash('sha1').update('catalog-listing\u0000shopee_sg\u0000123').digest();
    h[6] = (h[6] & 0x0f) | 0x50;
    h[8] = (h[8] & 0x3f) | 0x80;
    const x = h.subarray(0, 16).toString('hex');
    expect(listingUuid('shopee_sg', '123')).toBe(`${x.slice(0, 8)}-${x.slice(8, 12)}-${x.slice(12, 16)}-${x.slice(16, 20)}-${x.slice(20, 32)}`);
  });
});
