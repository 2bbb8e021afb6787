import { existsSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { makeHarness } from '../helpers/app.js';

/** Debian's chromium, driven by puppeteer-core; without it the test says so and skips. */
const CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => existsSync(p));
if (!CHROMIUM) console.warn('reference-page.test.ts: no chromium found (apt-get install -y chromium); the /docs rendering test is skipped');

/** Screenshots land here, to be kept as CI artifacts and looked at. */
const SCREENSHOTS = join(tmpdir(), 'catalog-screenshots');

describe.skipIf(!CHROMIUM)('/docs in a browser', () => {
  it('renders the guide and the three surfaces from the service alone, with no request elsewhere', async () => {
    const { default: puppeteer } = await import('puppeteer-core');
    const h = await makeHarness();
    const browser = await puppeteer.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu'] });
    try {
      await h.app.listen({ port: 0, host: '127.0.0.1' });
      const origin = `http://127.0.0.1:${(h.app.server.address() as AddressInfo).port}`;
      const page = await browser.newPage();
      await page.setViewport({ width: 1400, height: 1000 });
      await page.setRequestInterception(true);
      const elsewhere: string[] = [];
      page.on('request', (r) => {
        if (r.url().startsWith(origin) || r.url().startsWith('data:')) return void r.continue();
        elsewhere.push(r.url());
        void r.abort();
      });
      await page.goto(`${origin}/docs/`, { waitUntil: 'networkidle0', timeout: 45_000 });
      // Run in the page, where `document` is the DOM's (this project compiles without the DOM types).
      await page.waitForFunction('document.body.innerText.includes("Three surfaces")', { timeout: 30_000 });
      const text = await page.evaluate('document.body.innerText') as string;
      for (const seen of ['Start here', 'surface A', 'surface B', 'v2', 'Rate limits', 'standardwebhooks']) expect(text, seen).toContain(seen);
      mkdirSync(SCREENSHOTS, { recursive: true });
      await page.screenshot({ path: join(SCREENSHOTS, 'docs.png') });
      expect(elsewhere).toEqual([]);
    } finally {
      await browser.close();
      await h.close();
    }
  }, 120_000);
});
