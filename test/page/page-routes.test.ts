import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { startBanner } from '../../src/cli/serve.js';
import { loadConfig } from '../../src/config.js';
import { createContainer } from '../../src/container.js';
import { loggerOptions } from '../../src/http/logging.js';
import { makeHarness, type Harness } from '../helpers/app.js';
import { rec } from '../helpers/records.js';

let h: Harness;
beforeAll(async () => { h = await makeHarness(); });
afterAll(async () => { await h.close(); });

describe('the catalog page', () => {
  it('is public: the page and its modules load without a key, under a strict policy', async () => {
    const page = await h.app.inject({ url: '/' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.body).toContain('<script type="module" src="/page/app.js">');
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    expect(page.headers['referrer-policy']).toBe('no-referrer');
    for (const [url, type] of [['/page/app.js', 'text/javascript'], ['/page/render.js', 'text/javascript'], ['/page/style.css', 'text/css']]) {
      const res = await h.app.inject({ url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type'], url).toBe(`${type}; charset=utf-8`);
    }
    // The page's script builds catalog text as text nodes only.
    expect((await h.app.inject({ url: '/page/render.js' })).body).not.toMatch(/innerHTML|insertAdjacentHTML|outerHTML/);
    expect((await h.app.inject({ url: '/page/app.js' })).body).not.toMatch(/innerHTML|insertAdjacentHTML|outerHTML/);
  });

  it('GET /demo/key answers the demo key only when this process loaded the demo, and only to this machine', async () => {
    const none = await h.app.inject({ url: '/demo/key' });
    expect(none.statusCode).toBe(404);
    expect(none.json().error.code).toBe('NOT_FOUND');
    const { key } = await h.key('pro');
    h.c.demoKey.value = key;
    try {
      const mine = await h.app.inject({ url: '/demo/key' });
      expect(mine.statusCode).toBe(200);
      expect(mine.headers['cache-control']).toBe('no-store');
      expect(mine.json()).toMatchObject({ api_key: key, tier: 'pro' });
      expect((await h.app.inject({ url: '/demo/key', remoteAddress: '::1' })).statusCode).toBe(200);
      for (const remoteAddress of ['192.168.1.20', '203.0.113.9', 'fd00::1']) {
        expect((await h.app.inject({ url: '/demo/key', remoteAddress })).statusCode, remoteAddress).toBe(404);
      }
    } finally {
      h.c.demoKey.value = null;
    }
  });

  it('the start banner names the page', () => {
    expect(startBanner('http://localhost:8080', 'ck_demo')).toContain('catalog page: http://localhost:8080/');
  });
});

describe('a chart key in the query', () => {
  it('never reaches the log', async () => {
    const lines: string[] = [];
    const stream = new Writable({ write(chunk: Buffer, _enc, cb) { lines.push(chunk.toString()); cb(); } });
    const c = await createContainer(loadConfig({ DATABASE_URL: 'sqlite::memory:', CATALOG_DEMO: 'off' }));
    const app = await buildApp(c, { logger: { ...(loggerOptions('info') as object), stream } });
    await app.ready();
    const { apiKey } = await c.keys.create({ tier: 'pro', name: 'img', verified: true });
    const { Readable } = await import('node:stream');
    await c.ingest.ingestStream(Readable.from([JSON.stringify(rec({ sku: 'IMG-1' }))]));
    expect((await app.inject({ url: `/v1/products/IMG-1/price-history/chart?api_key=${apiKey}` })).statusCode).toBe(200);
    expect((await app.inject({ url: `/v1/products/IMG-1/price-history/chart?width=1&api_key=${apiKey}` })).statusCode).toBe(422);
    await app.close();
    await c.close();
    const text = lines.join('');
    expect(text).toContain('/price-history/chart?api_key=[REDACTED]');
    expect(text).not.toContain(apiKey.slice(3));
  });
});
