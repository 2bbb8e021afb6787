import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clickKey, signClick } from '../../src/domain/click-token.js';
import { makeHarness, type Harness } from '../helpers/app.js';
import { rec } from '../helpers/records.js';

/** Tracked outbound links (issue 20 item 4): click_url on every B search result, GET /v1/click/:token, searches and clicks recorded. */
let h: Harness;
let pro: { authorization: string };
let other: { authorization: string };
let proKeyId: number;
let otherKeyId: number;
const SINCE = '2000-01-01T00:00:00.000Z';
const AFFILIATE = 'https://aff.example.net/r?to=zorblax-1&tag=catalog';

beforeAll(async () => {
  h = await makeHarness();
  await h.ingest([
    rec({ sku: 'ZB-1', title: 'Zorblax Quantum Widget Blue', brand: 'Zorblax', price: '10.00', affiliate_url: AFFILIATE }),
    rec({ sku: 'ZB-2', title: 'Zorblax Quantum Widget Red', brand: 'Zorblax', price: '12.00' }),
    rec({ sku: 'ZB-3', title: 'Zorblax Quantum Widget Green', brand: 'Zorblax', price: '14.00', affiliate_url: 'javascript:alert(1)' }),
  ]);
  const a = await h.key('pro');
  const b = await h.key('free');
  pro = a.headers;
  other = b.headers;
  proKeyId = (await h.c.keys.check(a.key) as { ok: true; key: { id: number } }).key.id;
  otherKeyId = (await h.c.keys.check(b.key) as { ok: true; key: { id: number } }).key.id;
});
afterAll(async () => { await h.close(); });

const get = (url: string, headers: Record<string, string> = pro) => h.app.inject({ url, headers });
const search = async (query: string, headers: Record<string, string> = pro) => {
  const r = await get(`/v1/products/search?${query}`, headers);
  expect(r.statusCode).toBe(200);
  return r.json() as { results: Array<{ id: string; title?: string; url?: string; click_url: string }>; total: number };
};
const listing = async (sku: string) => (await h.c.catalog.findBySku(sku))[0];
const pathOf = (url: string) => url.slice(h.c.origin().length);
const follow = (url: string, method: 'GET' | 'HEAD' = 'GET') => h.app.inject({ method, url: pathOf(url) });
/** The click_url of a listing in a search for it. */
async function linkOf(sku: string, query = 'q=zorblax', headers = pro): Promise<string> {
  const l = await listing(sku);
  const found = (await search(query, headers)).results.find((x) => x.id === l.uuid);
  return found!.click_url;
}

describe('click_url on search results', () => {
  it('every result carries one on this service, in full, `fields` and `compact` records', async () => {
    for (const query of ['q=zorblax', 'q=zorblax&fields=title,price', 'q=zorblax&compact=true', 'q=zorblax&fields=id']) {
      const r = await search(query);
      expect(r.results).toHaveLength(3);
      for (const x of r.results) expect(x.click_url).toMatch(new RegExp(`^${h.c.origin()}/v1/click/[0-9a-z]+\\.[0-9a-z]+\\.[A-Za-z0-9_-]{22}$`));
    }
    const fields = (await search('q=zorblax&fields=title')).results[0];
    expect(Object.keys(fields)).toEqual(['id', 'title', 'click_url']);
    const compact = (await search('q=zorblax&compact=true')).results[0];
    expect(Object.keys(compact).sort()).toEqual(['click_url', 'id', 'merchant', 'price', 'title', 'url']);
  });

  it('the link is the same for the same listing, key and job, and differs across listings', async () => {
    const r = await search('q=zorblax&sort=price_asc');
    expect(new Set(r.results.map((x) => x.click_url)).size).toBe(3);
    expect(await linkOf('ZB-1', 'q=zorblax+blue')).toBe(r.results[0].click_url);
  });
});

describe('GET /v1/click/:token', () => {
  it('records the click (listing, key, time) and answers 302 to the affiliate URL; no key needed', async () => {
    const l = await listing('ZB-1');
    const before = (await h.c.activity.clicksFor(l.id, SINCE, 100)).length;
    h.clock.set('2026-11-21T08:30:00.000Z');
    const r = await follow(await linkOf('ZB-1'));
    expect(r.statusCode).toBe(302);
    expect(r.headers.location).toBe(AFFILIATE);
    expect(r.headers['cache-control']).toBe('no-store');
    const clicks = await h.c.activity.clicksFor(l.id, SINCE, 100);
    expect(clicks).toHaveLength(before + 1);
    expect(clicks[0]).toEqual({ listingId: l.id, keyId: proKeyId, jobId: null, at: '2026-11-21T08:30:00.000Z' });
  });

  it('without an affiliate URL, or with one that is no web address, the merchant URL', async () => {
    const red = await follow(await linkOf('ZB-2'));
    expect(red.statusCode).toBe(302);
    expect(red.headers.location).toBe((await listing('ZB-2')).url);
    const green = await follow(await linkOf('ZB-3'));
    expect(green.headers.location).toBe((await listing('ZB-3')).url);
    expect(green.headers.location).toMatch(/^https:\/\//);
  });

  it('HEAD answers the same redirect and records nothing (a link preview is no click)', async () => {
    const l = await listing('ZB-2');
    const before = (await h.c.activity.clicksFor(l.id, SINCE, 100)).length;
    const r = await follow(await linkOf('ZB-2'), 'HEAD');
    expect(r.statusCode).toBe(302);
    expect(r.headers.location).toBe(l.url);
    expect(await h.c.activity.clicksFor(l.id, SINCE, 100)).toHaveLength(before);
  });

  it('a valid shopping_job_id is threaded into click_url as job_id and recorded with the search and the click', async () => {
    const job = 'job_2026-11-21_ABC';
    h.clock.set('2026-11-21T09:00:00.000Z');
    const r = await search(`q=zorblax+red&shopping_job_id=${job}`);
    expect(r.results).toHaveLength(1);
    expect(r.results[0].click_url).toMatch(new RegExp(`\\?job_id=${job}$`));
    expect(await h.c.activity.searches(SINCE, { jobId: job, limit: 10 })).toEqual([
      { keyId: proKeyId, jobId: job, query: 'zorblax red', total: 1, at: '2026-11-21T09:00:00.000Z' },
    ]);
    h.clock.set('2026-11-21T09:01:00.000Z');
    const click = await follow(r.results[0].click_url);
    expect(click.statusCode).toBe(302);
    const l = await listing('ZB-2');
    expect((await h.c.activity.clicksFor(l.id, SINCE, 1))[0]).toEqual({ listingId: l.id, keyId: proKeyId, jobId: job, at: '2026-11-21T09:01:00.000Z' });
  });

  it('an invalid job id is ignored: the search answers 200, its links carry none, and it is recorded without one', async () => {
    for (const bad of ['not%20url%20safe', 'a%2Fb', 'j'.repeat(129), '', 'https%3A%2F%2Fevil.example%2F']) {
      h.clock.advance(1000);
      const r = await search(`q=zorblax+green&shopping_job_id=${bad}`);
      expect(r.results[0].click_url).not.toContain('job_id');
      const [last] = await h.c.activity.searches(SINCE, { limit: 1 });
      expect(last).toMatchObject({ query: 'zorblax green', jobId: null, total: 1, at: new Date(h.clock.now()).toISOString() });
    }
    const long = await search(`q=zorblax+green&shopping_job_id=${'j'.repeat(128)}`);
    expect(long.results[0].click_url).toContain(`job_id=${'j'.repeat(128)}`);
  });

  it('a tampered, unknown or malformed token, or a changed job id, is a 404 with no Location', async () => {
    const link = pathOf(await linkOf('ZB-1', 'q=zorblax+blue&shopping_job_id=job-1'));
    const [path, query] = link.split('?');
    const token = path.slice('/v1/click/'.length);
    const [listingPart, keyPart, mac] = token.split('.');
    const flip = (s: string, i: number) => s.slice(0, i) + (s[i] === 'A' ? 'B' : 'A') + s.slice(i + 1);
    const bad = [
      `/v1/click/${listingPart}.${keyPart}.${flip(mac, 3)}?${query}`, // MAC changed
      `/v1/click/${(parseInt(listingPart, 36) + 1).toString(36)}.${keyPart}.${mac}?${query}`, // another listing
      `/v1/click/${listingPart}.${(otherKeyId).toString(36)}.${mac}?${query}`, // another key
      `/v1/click/0${listingPart}.${keyPart}.${mac}?${query}`, // another spelling of the same ids
      `${path}?job_id=job-2`, // another job
      path, // the job dropped
      `${path}?job_id=job%201`, // a job id no link carries
      '/v1/click/not-a-token',
      '/v1/click/1.1.AAAAAAAAAAAAAAAAAAAAAA',
      `/v1/click/${'x'.repeat(200)}`,
    ];
    for (const url of bad) {
      const r = await h.app.inject({ url });
      expect(r.statusCode, url).toBe(404);
      expect(r.headers.location, url).toBeUndefined();
      expect(r.json().error.code).toBe('NOT_FOUND');
    }
    expect((await h.app.inject({ url: link })).statusCode).toBe(302);
  });

  it('a token signed with another secret, or for a listing the catalog does not have, is a 404', async () => {
    const l = await listing('ZB-1');
    const foreign = signClick(clickKey('some other secret that is long enough to use'), { listingId: l.id, keyId: proKeyId, jobId: null });
    expect((await h.app.inject({ url: `/v1/click/${foreign}` })).statusCode).toBe(404);
    const sign = await h.c.clicks.signer(proKeyId, null);
    const gone = await h.app.inject({ url: `/v1/click/${sign(987654)}` });
    expect(gone.statusCode).toBe(404);
    expect(gone.headers.location).toBeUndefined();
    expect((await h.app.inject({ url: `/v1/click/${sign(l.id)}` })).statusCode).toBe(302);
  });

  it('a URL in the request is never a redirect target', async () => {
    const link = pathOf(await linkOf('ZB-2'));
    for (const url of [
      '/v1/click/https%3A%2F%2Fevil.example%2F',
      '/v1/click/%2F%2Fevil.example',
      `${link}?job_id=https%3A%2F%2Fevil.example%2F`,
      `${link}?url=https%3A%2F%2Fevil.example%2F`,
      `${link}?redirect=https%3A%2F%2Fevil.example%2F`,
    ]) {
      const r = await h.app.inject({ url, headers: { referer: 'https://evil.example/', host: 'evil.example' } });
      expect(r.statusCode, url).toBeGreaterThanOrEqual(400);
      expect(r.headers.location, url).toBeUndefined();
    }
    const ok = await h.app.inject({ url: link, headers: { host: 'evil.example' } });
    expect(ok.headers.location).toBe((await listing('ZB-2')).url);
  });
});

describe('cache and recording', () => {
  it('two keys get their own tokens, each cached for its own key; every search is recorded, a cached answer too', async () => {
    h.clock.set('2026-11-22T10:00:00.000Z');
    const query = 'q=zorblax+widget&_n=per-key';
    const a1 = await get(`/v1/products/search?${query}`);
    const b1 = await get(`/v1/products/search?${query}`, other);
    const a2 = await get(`/v1/products/search?${query}`);
    const b2 = await get(`/v1/products/search?${query}`, other);
    expect([a1, b1, a2, b2].map((r) => r.headers['x-cache'])).toEqual(['MISS', 'MISS', 'HIT', 'HIT']);
    const links = (r: typeof a1) => (r.json() as { results: Array<{ click_url: string }> }).results.map((x) => x.click_url);
    expect(links(a2)).toEqual(links(a1));
    expect(links(b2)).toEqual(links(b1));
    for (const [i, l] of links(a1).entries()) expect(l).not.toBe(links(b1)[i]);
    // Each key's link records a click for that key.
    await follow(links(b2)[0]);
    const [id] = links(b2)[0].split('/v1/click/')[1].split('.');
    expect((await h.c.activity.clicksFor(parseInt(id, 36), SINCE, 1))[0].keyId).toBe(otherKeyId);

    const recorded = (await h.c.activity.searches('2026-11-22T10:00:00.000Z', { limit: 10 })).reverse();
    expect(recorded.map((s) => [s.keyId, s.query, s.total])).toEqual([
      [proKeyId, 'zorblax widget', 3], [otherKeyId, 'zorblax widget', 3], [proKeyId, 'zorblax widget', 3], [otherKeyId, 'zorblax widget', 3],
    ]);
  });

  it('a refused search (validation, no key) is not recorded', async () => {
    h.clock.set('2026-11-23T10:00:00.000Z');
    expect((await get('/v1/products/search?q=zorblax&limit=500')).statusCode).toBe(422);
    expect((await h.app.inject({ url: '/v1/products/search?q=zorblax' })).statusCode).toBe(401);
    expect(await h.c.activity.searches('2026-11-23T10:00:00.000Z', { limit: 10 })).toEqual([]);
  });
});

describe('the click secret', () => {
  it('CLICK_SECRET signs when set; shorter than 32 characters it is refused at start', async () => {
    const configured = await makeHarness({ CLICK_SECRET: 'k'.repeat(40) });
    try {
      const sign = await configured.c.clicks.signer(1, null);
      expect(sign(5)).toBe(signClick(clickKey('k'.repeat(40)), { listingId: 5, keyId: 1, jobId: null }));
      expect(sign(5)).not.toBe((await h.c.clicks.signer(1, null))(5));
    } finally {
      await configured.close();
    }
    await expect(makeHarness({ CLICK_SECRET: 'short' })).rejects.toThrow(/CLICK_SECRET must be at least 32 characters/);
  });

  it('unset, one is generated once and kept in the store: every service on the store signs alike', async () => {
    const stored = await h.c.store.activity.clickSecret('a candidate that loses to the stored secret');
    expect(stored).not.toBe('a candidate that loses to the stored secret');
    expect(stored.length).toBeGreaterThanOrEqual(32);
    const sign = await h.c.clicks.signer(proKeyId, 'job');
    expect(sign(1)).toBe(signClick(clickKey(stored), { listingId: 1, keyId: proKeyId, jobId: 'job' }));
  });
});
