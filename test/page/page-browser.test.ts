import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeHarness, type Harness } from '../helpers/app.js';
import { rec } from '../helpers/records.js';

/** What the functions run in the page touch of its DOM: this program is compiled without the DOM library. */
interface DomNode {
  textContent: string | null; firstChild: DomNode | null; value: string; complete: boolean; naturalWidth: number;
  getTotalLength(): number; getBoundingClientRect(): { width: number };
  querySelector(selector: string): DomNode | null; querySelectorAll(selector: string): ArrayLike<DomNode> & Iterable<DomNode>;
}
declare const document: DomNode;
declare const window: { __xss?: number };

/** Debian's chromium package; .ci/run installs it. */
const CHROMIUM = '/usr/bin/chromium';
const hasChromium = existsSync(CHROMIUM);
/** CI keeps these as artifacts; a person looks at them before calling the page done. */
export const SCREENS = join(tmpdir(), 'catalog-screens');

const A55 = { gtin: '8806095426280', rating: 4.6, title: 'Samsung Galaxy A55 5G 8GB 128GB Awesome Navy' };
const HISTORY: Array<[string, Record<string, unknown>]> = [
  ['2026-08-01T10:00:00Z', { source: 'shopee_sg', sku: 'SG-A55', price: '529.00', ...A55 }],
  ['2026-08-01T10:00:00Z', { source: 'lazada_sg', sku: 'LZ-A55', price: '519.00', ...A55, rating: 4.8, review_count: 310 }],
  ['2026-08-01T10:00:00Z', { source: 'lazada_my', sku: 'MY-A55', price: '1699.00', currency: 'MYR', country_code: 'MY', ...A55, rating: 4.4 }],
  ['2026-08-01T10:00:00Z', { source: 'amazon_us', sku: 'US-A55', price: '399.99', currency: 'USD', country_code: 'US', ...A55, rating: 4.2 }],
  ['2026-09-05T10:00:00Z', { source: 'shopee_sg', sku: 'SG-A55', price: '499.00', ...A55 }],
  ['2026-09-20T10:00:00Z', { source: 'lazada_my', sku: 'MY-A55', price: '1599.00', currency: 'MYR', country_code: 'MY', ...A55, rating: 4.4 }],
  ['2026-10-11T10:00:00Z', { source: 'lazada_sg', sku: 'LZ-A55', price: '489.00', ...A55, rating: 4.8, review_count: 310 }],
  ['2026-10-30T10:00:00Z', { source: 'shopee_sg', sku: 'SG-A55', price: '479.00', ...A55 }],
  ['2026-11-11T10:00:00Z', { source: 'shopee_sg', sku: 'SG-A55', price: '449.00', ...A55 }],
  ['2026-11-12T10:00:00Z', { source: 'amazon_us', sku: 'US-A55', price: '379.99', currency: 'USD', country_code: 'US', ...A55, rating: 4.2 }],
  ['2026-11-18T10:00:00Z', { source: 'shopee_sg', sku: 'SG-A55', price: '469.00', ...A55 }],
  ['2026-11-19T10:00:00Z', { source: 'lazada_sg', sku: 'SG-CASE', title: 'Spigen case for Samsung Galaxy A55', brand: 'Spigen', price: '19.90', category: 'Phone Cases' }],
  ['2026-11-19T10:00:00Z', { source: 'shopee_sg', sku: 'SG-EVIL', title: 'Samsung Galaxy <img src=x onerror="window.__xss=1"> Buds', price: '99.00', gtin: null }],
];

describe.skipIf(!hasChromium)(`the catalog page in headless Chromium (skipped when ${CHROMIUM} is absent: apt-get install -y chromium)`, () => {
  let h: Harness;
  let key: string;
  let origin: string;
  let browser: Browser;

  beforeAll(async () => {
    mkdirSync(SCREENS, { recursive: true });
    h = await makeHarness();
    for (const [at, over] of HISTORY) {
      h.clock.set(at);
      await h.ingest([rec({ ...over, observed_at: at })]);
    }
    h.clock.set('2026-11-20T12:00:00Z');
    await h.c.searchIndex?.build();
    key = (await h.key('pro')).key;
    origin = await h.app.listen({ port: 0, host: '127.0.0.1' });
    browser = await puppeteer.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu', '--font-render-hinting=none'] });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await h?.close();
  });

  async function open(): Promise<Page> {
    const context = await browser.createBrowserContext();
    const page = await context.newPage();
    await page.setViewport({ width: 1100, height: 900 });
    await page.goto(`${origin}/`);
    await page.waitForSelector('body[data-ready="true"]');
    return page;
  }

  async function searchFor(page: Page, q: string) {
    await page.$eval('#q', (i, v) => { (i as unknown as DomNode).value = v; }, q);
    await page.select('#country', 'SG');
    await page.select('#currency', 'SGD');
    await page.click('#search-form button[type="submit"]');
    await page.waitForSelector('#results h2');
  }

  it('lists results for a query, then shows a product with its offers and its chart', async () => {
    const page = await open();
    expect(await page.$eval('#key-status', (e) => e.textContent)).toContain('No API key');
    await page.type('#key-input', key);
    await page.click('#key-form button[type="submit"]');
    expect(await page.$eval('#key-status', (e) => e.textContent)).toContain('Using your key');

    await searchFor(page, 'samsung galaxy a55');
    const results = await page.$$eval('.result', (items) => items.map((r) => ({
      name: r.querySelector('.name')?.textContent, price: r.querySelector('.price')?.textContent,
      platform: r.querySelector('.platform')?.textContent, freshness: r.querySelector('.freshness')?.textContent,
    })));
    expect(results.length).toBeGreaterThanOrEqual(2);
    expect(results.map((r) => r.platform)).toEqual(expect.arrayContaining(['shopee_sg', 'lazada_sg']));
    const phone = results.find((r) => r.platform === 'shopee_sg')!;
    expect(phone).toMatchObject({ name: A55.title, price: 'SGD 469.00' });
    expect(phone.freshness).toMatch(/^(fresh|recent|stale|very stale) · checked /);
    await page.screenshot({ path: join(SCREENS, 'search-results.png'), fullPage: true });

    await page.click('.result[data-id] a.name');
    await page.waitForSelector('table.offers tr.offer');
    const offers = await page.$$eval('table.offers tr.offer', (rows) => rows.map((r) => ({
      platform: r.querySelector('.platform')?.firstChild?.textContent, price: r.querySelector('.price')?.textContent,
      badges: [...r.querySelectorAll('.badge')].map((b) => b.textContent),
    })));
    // Every platform of the match group, cheapest first in the asked currency; the accessory is not an offer.
    expect(offers.map((o) => o.platform)).toHaveLength(4);
    expect(offers.map((o) => o.platform)).not.toContain('SG-CASE');
    const prices = offers.map((o) => Number(o.price!.replace('SGD ', '')));
    expect(prices).toEqual([...prices].sort((a, b) => a - b));
    expect(offers[0].badges).toContain('Cheapest');
    expect(offers.find((o) => o.platform === 'lazada_sg')!.badges).toContain('Best rated');
    await page.waitForFunction(() => {
      const img = document.querySelector('figure.chart img');
      return img !== null && img.complete && img.naturalWidth > 0;
    });
    expect(await page.$eval('figure.chart img', (i) => (i as unknown as DomNode).naturalWidth)).toBe(880);
    await page.screenshot({ path: join(SCREENS, 'product-view.png'), fullPage: true });
  }, 60_000);

  it('draws the chart with axes, one line per offer and the lowest marked', async () => {
    const [l] = await h.c.catalog.findBySku('SG-A55');
    const page = await (await browser.createBrowserContext()).newPage();
    await page.setViewport({ width: 800, height: 400 });
    const res = await page.goto(`${origin}/v1/products/${l.id}/price-history/chart?offers=true&currency=SGD&api_key=${key}`);
    expect(res?.headers()['content-type']).toBe('image/svg+xml; charset=utf-8');
    const seen = await page.evaluate(() => ({
      lines: document.querySelectorAll('path.offer').length,
      lineLengths: [...document.querySelectorAll('path.offer')].map((p) => p.getTotalLength()),
      xTicks: [...document.querySelectorAll('.x-axis text.tick')].map((t) => t.textContent),
      yTicks: [...document.querySelectorAll('.y-axis text.tick')].map((t) => t.textContent),
      yLabel: document.querySelector('.axis-label')?.textContent,
      lowest: document.querySelector('.lowest text')?.textContent,
      marker: document.querySelector('.lowest circle')?.getBoundingClientRect().width,
    }));
    expect(seen.lines).toBe(4);
    for (const length of seen.lineLengths) expect(length).toBeGreaterThan(100);
    expect(seen.xTicks.length).toBeGreaterThanOrEqual(3);
    expect(seen.xTicks[0]).toMatch(/^[A-Z][a-z]{2} \d{1,2}$/);
    expect(seen.yTicks.length).toBeGreaterThanOrEqual(3);
    expect(seen.yLabel).toBe('SGD');
    expect(seen.lowest).toBe('Lowest now: 469.00 SGD (shopee_sg)');
    expect(seen.marker).toBeGreaterThan(0);
    await page.screenshot({ path: join(SCREENS, 'chart.png') });
    // The same chart rasterized on the server (format=png), kept beside it to be looked at.
    const png = await h.app.inject({ url: `/v1/products/${l.id}/price-history/chart?offers=true&currency=SGD&format=png&api_key=${key}` });
    expect(png.headers['content-type']).toBe('image/png');
    writeFileSync(join(SCREENS, 'chart-server.png'), png.rawPayload);
  }, 60_000);

  it('shows catalog text as text: a title holding markup runs nothing', async () => {
    const page = await open();
    await page.type('#key-input', key);
    await page.click('#key-form button[type="submit"]');
    await searchFor(page, 'buds');
    expect(await page.$$eval('.result .name', (n) => n.map((e) => e.textContent))).toEqual(['Samsung Galaxy <img src=x onerror="window.__xss=1"> Buds']);
    expect(await page.$$('.result img')).toHaveLength(0);
    expect(await page.evaluate(() => window.__xss)).toBeUndefined();
  }, 60_000);

  it('uses the demo key by itself on the embedded demo store', async () => {
    h.c.demoKey.value = key;
    try {
      const page = await open();
      expect(await page.$eval('#key-status', (e) => e.textContent)).toContain('demo key');
      await searchFor(page, 'galaxy a55');
      expect((await page.$$('.result')).length).toBeGreaterThanOrEqual(2);
    } finally {
      h.c.demoKey.value = null;
    }
  }, 60_000);
});
