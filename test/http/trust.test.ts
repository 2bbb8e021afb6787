import { Writable } from 'node:stream';
import { parse } from 'csv-parse/sync';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { assertServable, loadConfig } from '../../src/config.js';
import { createContainer } from '../../src/container.js';
import { startBanner } from '../../src/cli/serve.js';
import { ExportService } from '../../src/catalog/export-service.js';
import type { Listing } from '../../src/domain/listing.js';
import { redactUrl, withoutCredentials } from '../../src/http/credentials.js';
import { lazyChildLogger, loggerOptions } from '../../src/http/logging.js';
import { accountsHarness, type AccountsHarness } from '../accounts/setup.js';
import { makeHarness, type Harness } from '../helpers/app.js';
import { rec } from '../helpers/records.js';

/** Issue 18 items 9 to 13 and 20: secrets, trust and what a new user meets at start. */

/** A logger writing into memory, configured as the server configures its own. */
function capturedLog() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, cb) {
      lines.push(chunk.toString());
      cb();
    },
  });
  return { lines, stream, text: () => lines.join('') };
}

describe('credentials never reach a log (item 9)', () => {
  const KEY = 'ck_SECRETsecretSECRETsecret1234567890ab';
  it.each([
    `/v1/products?api_key=${KEY}`, `/v1/products?api%5Fkey=${KEY}`, `/v1/products?api%5fkey=${KEY}`, `/v1/products?%61pi_key=${KEY}`,
    `/v1/products?API_KEY=${KEY}`, `/v1/products?Api-Key=${KEY}`, `/v1/products?api_key=x&api_key=${KEY}`,
    `/v1/products?limit=1&api_key=${KEY}&offset=0`, `/v1/products?access_token=${KEY}`, `/v1/products?client%5Fsecret=${KEY}`,
  ])('%s is redacted by its decoded name', (url) => {
    const out = redactUrl(url);
    expect(out).not.toContain(KEY);
    expect(out).toContain('[REDACTED]');
    expect(out.startsWith('/v1/products?')).toBe(true);
  });

  it('leaves other parameters, and other URLs, exactly as they were', () => {
    expect(redactUrl('/v1/products?keyword=a&token_count=2')).toBe('/v1/products?keyword=a&token_count=2');
    expect(redactUrl('/v1/products?limit=1&api_key=k&offset=0')).toBe('/v1/products?limit=1&api_key=[REDACTED]&offset=0');
    expect(withoutCredentials('/v1/products?limit=1&api%5Fkey=k&API_KEY=j')).toBe('/v1/products?limit=1');
  });

  it('a served request with the key in any spelling logs no key, and the cache key ignores it', async () => {
    const log = capturedLog();
    const c = await createContainer(loadConfig({ DATABASE_URL: 'sqlite::memory:', CATALOG_DEMO: 'off' }));
    const app = await buildApp(c, { logger: { ...(loggerOptions('info') as object), stream: log.stream } });
    await app.ready();
    const { apiKey } = await c.keys.create({ tier: 'pro', name: 'log', verified: true });
    const plain = await app.inject({ url: `/v1/products?limit=1&api_key=${apiKey}` });
    expect(plain.statusCode).toBe(200);
    const encoded = await app.inject({ url: `/v1/products?limit=1&api%5Fkey=${apiKey}` });
    expect(encoded.statusCode).toBe(200);
    expect(encoded.headers['x-cache']).toBe('HIT');
    await app.inject({ url: `/v1/categories?API_KEY=${apiKey}&api_key=${apiKey}` });
    await app.inject({ url: '/v1/categories', headers: { 'x-api-key': apiKey, authorization: `Bearer ${apiKey}` } });
    await app.close();
    await c.close();
    expect(log.lines.length).toBeGreaterThan(4);
    expect(log.text()).not.toContain(apiKey.slice(3));
    expect(log.text()).toContain('[REDACTED]');
  });

  it('credential members of logged objects and keys quoted in messages are redacted at any depth', () => {
    const log = capturedLog();
    const logger = pino(loggerOptions('info') as pino.LoggerOptions, log.stream);
    logger.info({ body: { client_secret: 'ccs_topsecretvalue12345', nested: [{ 'Api-Key': 'plain-secret-1' }], Password: 'hunter2' } }, 'with a body');
    logger.error({ err: { message: `Unexpected token in JSON "{"key": "${KEY}"` } }, `failed for ${KEY}`);
    const text = log.text();
    for (const secret of ['topsecretvalue', 'plain-secret-1', 'hunter2', KEY.slice(3)]) expect(text).not.toContain(secret);
    expect(text).toContain('with a body');
  });
});

describe('links and the OAuth issuer come from configuration only (item 10)', () => {
  let h: AccountsHarness;
  beforeAll(async () => { h = await accountsHarness({ PORT: '9123', HOST: '0.0.0.0' }); });
  afterAll(async () => { await h.close(); });

  it('a Host header does not become the origin of mailed links or the issuer', async () => {
    const evil = { host: 'evil.example', 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https' };
    const reg = await h.app.inject({
      method: 'POST', url: '/v1/auth/register', headers: { ...evil, 'content-type': 'application/json' },
      payload: { agent_name: 'a', email: 'op@example.com' },
    });
    expect(reg.statusCode).toBe(201);
    expect(h.mailer.sent.at(-1)!.text).toContain('http://localhost:9123/v1/auth/verify?token=');
    expect(h.mailer.sent.at(-1)!.text).not.toContain('evil');
    const meta = await h.app.inject({ url: '/.well-known/oauth-authorization-server', headers: evil });
    expect(meta.json().issuer).toBe('http://localhost:9123');
    expect(meta.body).not.toContain('evil');
  });

  it('the listen address is the development origin; production refuses to start without PUBLIC_URL', () => {
    expect(() => assertServable(loadConfig({ NODE_ENV: 'production' }))).toThrow(/PUBLIC_URL must be set/);
    expect(() => assertServable(loadConfig({ NODE_ENV: 'production', PUBLIC_URL: 'https://api.example.com/' }))).not.toThrow();
    expect(loadConfig({ PUBLIC_URL: 'https://api.example.com/' }).publicUrl).toBe('https://api.example.com');
    expect(() => loadConfig({ PUBLIC_URL: 'not a url' })).toThrow(/PUBLIC_URL/);
    expect(() => loadConfig({ PUBLIC_URL: 'ftp://x.example' })).toThrow(/PUBLIC_URL/);
  });
});

describe('guessing credentials is rate-limited per address (item 11)', () => {
  let h: AccountsHarness;
  let log: ReturnType<typeof capturedLog>;
  const SECRET = 'the-admin-secret-value';
  beforeAll(async () => {
    log = capturedLog();
    const c = await createContainer(loadConfig({ DATABASE_URL: 'sqlite::memory:', CATALOG_DEMO: 'off', ADMIN_SECRET: SECRET, AUTH_FAILURES_PER_MINUTE: '5' }));
    const app = await buildApp(c, { logger: { ...(loggerOptions('info') as object), stream: log.stream } });
    await app.ready();
    h = { app, c, close: async () => { await app.close(); await c.close(); } } as unknown as AccountsHarness;
  });
  afterAll(async () => { await h.close(); });

  it('wrong admin secrets: 403 five times, then 429 with Retry-After even for the right one; logged without the secret', async () => {
    const admin = (secret: string, ip: string) => h.app.inject({
      method: 'POST', url: '/v1/admin/keys/1/tier', remoteAddress: ip,
      headers: { 'x-admin-secret': secret, 'content-type': 'application/json' }, payload: { tier: 'pro' },
    });
    const statuses = [];
    for (let i = 0; i < 6; i++) statuses.push((await admin(`guess-number-${i}`, '10.0.0.1')).statusCode);
    expect(statuses).toEqual([403, 403, 403, 403, 403, 429]);
    const right = await admin(SECRET, '10.0.0.1');
    expect(right.statusCode).toBe(429);
    expect(Number(right.headers['retry-after'])).toBeGreaterThan(0);
    // Another address is not held back by the first one's failures.
    expect((await admin(SECRET, '10.0.0.2')).statusCode).toBe(404);
    expect(log.text()).toContain('authentication failed');
    expect(log.text()).not.toContain('guess-number');
    expect(log.text()).not.toContain(SECRET);
  });

  it('wrong API keys: 401 until the limit, then 429 before the key is looked at; a good key elsewhere is unaffected', async () => {
    const { apiKey } = await h.c.keys.create({ tier: 'pro', name: 'ok', verified: true });
    const get = (key: string, ip: string) => h.app.inject({ url: '/v1/categories', remoteAddress: ip, headers: { authorization: `Bearer ${key}` } });
    const statuses = [];
    for (let i = 0; i < 6; i++) statuses.push((await get(`ck_wrongwrongwrongwrong${i}`, '10.0.0.3')).statusCode);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
    expect((await get(apiKey, '10.0.0.4')).statusCode).toBe(200);
    expect(log.text()).not.toContain('ck_wrongwrong');
  });

  it('a wrong access token is logged as one, without the token', async () => {
    const res = await h.app.inject({ url: '/v1/categories', remoteAddress: '10.0.0.5', headers: { authorization: 'Bearer cat_notatokennotatoken' } });
    expect(res.statusCode).toBe(401);
    const line = log.text().split('\n').filter((l) => l.includes('"ip":"10.0.0.5"') && l.includes('authentication failed'));
    expect(line.map((l) => JSON.parse(l).credential)).toEqual(['access_token']);
    expect(log.text()).not.toContain('cat_notatoken');
  });
});

describe('CSV export neutralises formulas (item 12)', () => {
  let h: Harness;
  beforeAll(async () => { h = await makeHarness(); });
  afterAll(async () => { await h.close(); });

  it('cells starting with = + - @ tab or CR get a leading quote; JSON keeps the text as stored', async () => {
    const titles = ['=HYPERLINK("http://evil.example","x")', '+SUM(1,2)', '-2+3', '@cmd'];
    await h.ingest(titles.map((title, i) => rec({ sku: `F-${i}`, title, brand: '=cmd|" /C calc"!A0' })));
    const { headers } = await h.key('pro');
    const csv = await h.app.inject({ url: '/v1/products/export?format=csv', headers });
    const rows = parse(csv.body, { columns: true, relax_quotes: true }) as Array<Record<string, string>>;
    expect(rows.length).toBe(titles.length);
    for (const r of rows) {
      expect(r.name, r.name).toMatch(/^'[=+\-@\t\r]/);
      expect(r.brand).toBe(`'=cmd|" /C calc"!A0`);
    }
    // Numbers and ordinary text are untouched.
    expect(rows.every((r) => /^\d+\.\d{2}$/.test(r.price))).toBe(true);
    const json = await h.app.inject({ url: '/v1/products/export?format=json', headers });
    expect(json.json().map((r: { name: string }) => r.name).sort()).toEqual([...titles].sort());
  });

  it('a tab or carriage return first (ingest trims titles; other sources may not) is neutralised too', async () => {
    const rows = ['\tcmd', '\rcmd', 'plain'].map((title, i) => ({ id: i, title, price: '1.00' }) as unknown as Listing);
    async function* scan(): AsyncIterable<Listing> { yield* rows; }
    const file = await new ExportService(() => scan()).open('csv', {}, 10, 0);
    let text = '';
    for await (const chunk of file.body) text += String(chunk);
    const names = (parse(text, { columns: true }) as Array<Record<string, string>>).map((r) => r.name);
    expect(names).toEqual(["'\tcmd", "'\rcmd", 'plain']);
  });
});

describe('nosniff and CORS (item 13)', () => {
  let h: Harness;
  beforeAll(async () => { h = await makeHarness(); });
  afterAll(async () => { await h.close(); });

  it('every answer, errors and unknown paths included, says nosniff', async () => {
    const { headers } = await h.key('pro');
    for (const r of [
      await h.app.inject({ url: '/v1/categories', headers }), await h.app.inject({ url: '/v1/categories' }),
      await h.app.inject({ url: '/nope' }), await h.app.inject({ url: '/openapi.json' }), await h.app.inject({ url: '/health' }),
    ]) expect(r.headers['x-content-type-options']).toBe('nosniff');
  });

  it('a preflight from any origin is answered before authentication with the documented headers', async () => {
    const r = await h.app.inject({
      method: 'OPTIONS', url: '/v1/products/search',
      headers: { origin: 'https://shop.example', 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization,catalog-surface' },
    });
    expect(r.statusCode).toBe(204);
    expect(r.headers['access-control-allow-origin']).toBe('*');
    expect(String(r.headers['access-control-allow-headers'])).toMatch(/Authorization/);
    expect(String(r.headers['access-control-allow-headers'])).toMatch(/Catalog-Surface/);
    expect(r.headers['access-control-max-age']).toBe('600');
    expect(r.headers['access-control-allow-credentials']).toBeUndefined();
    const { headers } = await h.key('pro');
    const get = await h.app.inject({ url: '/v1/categories', headers: { ...headers, origin: 'https://shop.example' } });
    expect(get.headers['access-control-allow-origin']).toBe('*');
    expect(String(get.headers['access-control-expose-headers'])).toMatch(/X-RateLimit-Remaining/);
    // The preflight route does not make unknown paths look known.
    expect((await h.app.inject({ url: '/v1/nothing-here', headers })).statusCode).toBe(404);
  });

  it('CORS_ORIGINS restricts the origins that may read answers', async () => {
    const r = await makeHarness({ CORS_ORIGINS: 'https://app.example, https://other.example' });
    const ok = await r.app.inject({ method: 'OPTIONS', url: '/v1/categories', headers: { origin: 'https://app.example', 'access-control-request-method': 'GET' } });
    expect(ok.headers['access-control-allow-origin']).toBe('https://app.example');
    const no = await r.app.inject({ method: 'OPTIONS', url: '/v1/categories', headers: { origin: 'https://evil.example', 'access-control-request-method': 'GET' } });
    expect(no.headers['access-control-allow-origin']).toBeUndefined();
    await r.close();
  });
});

describe('what a new user meets at start (item 20)', () => {
  it('a start without a new demo key says how to get a key', () => {
    const text = startBanner('http://localhost:8080', null);
    expect(text).toContain('npx catalog keys create --tier pro');
    expect(text).toContain('http://localhost:8080/v1/auth/register?verify=false');
    expect(text).toContain('http://localhost:8080/docs');
    const first = startBanner('http://localhost:8080', 'ck_demo');
    expect(first).toContain('ck_demo');
  });

  it('the history window default is in the OpenAPI document', async () => {
    const h = await makeHarness();
    const doc = h.app.swagger() as unknown as { paths: Record<string, { get: { parameters: Array<{ name: string; schema: { default?: unknown }; description?: string }> } }> };
    const days = doc.paths['/v1/products/{ref}/price-history'].get.parameters.find((p) => p.name === 'days')!;
    expect(days.schema.default).toBe(30);
    await h.close();
  });
});

describe('the failure counter never turns a 401 into a 5xx', () => {
  it('with the limiter down, a wrong key is still a 401 and a right one a 200', async () => {
    const down = { hit: () => Promise.reject(new Error('connect ECONNREFUSED')), peek: () => Promise.reject(new Error('connect ECONNREFUSED')) };
    const c = await createContainer(loadConfig({ DATABASE_URL: 'sqlite::memory:', CATALOG_DEMO: 'off' }), { limiter: down });
    const app = await buildApp(c);
    await app.ready();
    expect((await app.inject({ url: '/v1/categories', headers: { authorization: 'Bearer ck_wrongwrongwrongwrong1' } })).statusCode).toBe(401);
    const { apiKey } = await c.keys.create({ tier: 'pro', name: 'ok', verified: true });
    expect((await app.inject({ url: '/v1/categories', headers: { authorization: `Bearer ${apiKey}` } })).statusCode).toBe(200);
    await app.close();
    await c.close();
  });
});

describe('the per-request logger', () => {
  it('logs what the eager child logged: a served request at warn, with its request id', async () => {
    const log = capturedLog();
    const c = await createContainer(loadConfig({ DATABASE_URL: 'sqlite::memory:', CATALOG_DEMO: 'off' }));
    const app = await buildApp(c, { logger: { ...(loggerOptions('warn') as object), stream: log.stream } });
    app.get('/test/logs', { config: { auth: false } }, async (req) => {
      req.log.info('not at warn');
      req.log.warn({ detail: 1 }, 'at warn');
      return { level: req.log.level };
    });
    await app.ready();
    const res = await app.inject({ url: '/test/logs', headers: { 'x-request-id': 'req-lazy-1' } });
    expect(res.json()).toEqual({ level: 'warn' });
    await app.inject({ url: '/v1/products' }); // a 401: logs nothing at warn
    await app.close();
    await c.close();
    const lines = log.lines.map((l) => JSON.parse(l));
    expect(lines).toEqual([expect.objectContaining({ level: 40, reqId: 'req-lazy-1', detail: 1, msg: 'at warn' })]);
  });

  it('is made by the first call at an enabled level, once', () => {
    const log = capturedLog();
    const parent = pino({ ...(loggerOptions('warn') as pino.LoggerOptions) }, log.stream);
    let made = 0;
    const child = parent.child.bind(parent);
    parent.child = ((...args: Parameters<typeof child>) => (made++, child(...args))) as typeof parent.child;
    const lazy = lazyChildLogger(parent, { reqId: 'r1' }, {});
    lazy.info('below the level');
    lazy.debug('below the level');
    expect([made, lazy.level]).toEqual([0, 'warn']);
    lazy.warn('first');
    lazy.error('second');
    expect(made).toBe(1);
    expect(log.lines.map((l) => JSON.parse(l))).toEqual([
      expect.objectContaining({ reqId: 'r1', msg: 'first' }), expect.objectContaining({ reqId: 'r1', msg: 'second' }),
    ]);
    // A route with a level of its own gets its child at once.
    lazyChildLogger(parent, { reqId: 'r2' }, { level: 'info' });
    expect(made).toBe(2);
  });
});
