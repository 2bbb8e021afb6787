import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Ajv2020Module from 'ajv/dist/2020.js';
import formatsModule from 'ajv-formats';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashSecret } from '../../src/accounts/api-key.js';
import { BODY_LIMIT } from '../../src/app.js';
import { generateDemoRecords } from '../../src/demo/generate.js';
import { makeHarness, type Harness } from '../helpers/app.js';
import { FakeClock } from '../helpers/clock.js';
import { tableResolver } from '../webhooks/fixtures.js';
import { documented, operationsOf, type Operation } from './operations.js';
import { requestOf, type Fixtures, type FuzzRequest } from './requests.js';

/**
 * Issue 25: a schema-driven fuzz of every documented operation, run by `npm run test:fuzz`.
 * FUZZ_SEED (fixed by default) and FUZZ_BUDGET (requests in all, default 20,000) steer it;
 * FUZZ_OP='GET /v1/search' narrows it to one operation. A failure prints fast-check's seed and
 * path: rerun with that FUZZ_SEED and FUZZ_OP to replay it.
 *
 * What it holds, as Schemathesis does: no 5xx; only documented statuses; every JSON body valid
 * against its documented schema; broken input refused with a 4xx; nothing that needs a key answered
 * without one; no stack trace, file path or secret in any body.
 */
const SEED = Number(process.env.FUZZ_SEED ?? 20261125);
const BUDGET = Number(process.env.FUZZ_BUDGET ?? 20_000);
const ONLY = process.env.FUZZ_OP;
const ADMIN_SECRET = 'fuzz-admin-secret-0123456789abcdef0123';
const CLICK_SECRET = 'fuzz-click-secret-0123456789abcdef0123';
const LEAK = /\n\s+at [\w.<>$ ]+ \(|\bnode_modules\b|\/work\/|\/src\/[\w/-]+\.[jt]s\b|\.ts:\d+:\d+/;

const Ajv2020 = Ajv2020Module as unknown as typeof Ajv2020Module.default;
const addFormats = formatsModule as unknown as typeof formatsModule.default;
const ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: true });
addFormats(ajv);

let h: Harness;
let dir: string;
let ops: Operation[];
const keys: Record<'enterprise' | 'free', string> = { enterprise: '', free: '' };
const secrets: string[] = [ADMIN_SECRET, CLICK_SECRET];
const fixtures: Fixtures = {};
/** Operations that answered at least one 2xx: the fuzz must reach the handlers, not only the validators. */
const answered = new Set<string>();
/** Operations no generated request can succeed on, and why. */
const NEVER_2XX: Record<string, string> = {
  'GET /v1/oauth/authorize': 'no response type is offered yet: always 400',
  'GET /mcp': 'stateless MCP: 405', 'DELETE /mcp': 'stateless MCP: 405',
  'GET /v1/auth/verify': 'a verification token exists only in a mail',
  'POST /v1/webhooks/{id}/deliveries/{delivery_id}/retry': 'no delivery failed for good in the fuzzed store',
  'POST /v1/admin/keys/{key}/tier': 'the admin secret header is not a documented parameter',
  'GET /demo/key': 'answers only on an embedded store that loaded the demo catalog',
};

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'fuzz-'));
  // The fuzzer's own keys must never meet a rate limit: every tier unlimited.
  const tiers = join(dir, 'tiers.json');
  writeFileSync(tiers, JSON.stringify(Object.fromEntries(['unverified', 'free', 'basic', 'pro', 'enterprise'].map((t) => [t, { per_minute: 1e9, per_day: null }]))));
  // Webhook deliveries go to a closed local port: refused at once, nothing leaves the machine.
  h = await makeHarness({ ADMIN_SECRET, CLICK_SECRET, TIERS_FILE: tiers, PUBLIC_URL: 'https://catalog.test', WEBHOOK_ALLOW_HOSTS: 'hooks.example.com' }, new FakeClock(), {
    webhookResolver: tableResolver({ 'hooks.example.com': ['127.0.0.1'] }),
  });
  const now = h.clock.now();
  const records = [...generateDemoRecords({ listings: 300, seed: 7, historyDays: 20, now })];
  await h.ingest(records);
  for (const tier of ['enterprise', 'free'] as const) keys[tier] = (await h.key(tier)).key;
  secrets.push(...Object.values(keys), ...Object.values(keys).map(hashSecret));
  const auth = { authorization: `Bearer ${keys.enterprise}` };
  const hook = (await h.app.inject({ method: 'POST', url: '/v1/webhooks', headers: auth, payload: { url: 'https://hooks.example.com/x', events: ['price_change'] } })).json();
  secrets.push(hook.secret);
  const listing = (await h.app.inject({ url: '/v2/products?limit=50', headers: auth })).json() as { items: Array<{ uuid: string }> };
  const uuids = listing.items.map((p) => p.uuid);
  // Click tokens are signed into Surface B results: a search by a word of each of a few titles finds some.
  const tokens: string[] = [];
  for (const r of records.slice(0, 10)) {
    const word = String(r.title).split(/\s+/).find((w) => /^[A-Za-z]{4,}$/.test(w)) ?? 'phone';
    const found = await h.app.inject({ url: `/v1/products/search?q=${encodeURIComponent(word)}&region=SEA&sort=price_asc&limit=5`, headers: auth });
    tokens.push(...((found.json() as { results?: Array<{ click_url: string }> }).results ?? []).map((x) => x.click_url.split('/').pop()!));
  }
  expect(tokens.length, 'click tokens to fuzz with').toBeGreaterThan(0);
  const client = (await h.app.inject({ method: 'POST', url: '/v1/oauth/register', payload: { client_name: 'fuzz', client_type: 'confidential' } })).json();
  const token = (await h.app.inject({ method: 'POST', url: '/v1/oauth/token', payload: { grant_type: 'client_credentials', client_id: client.client_id, client_secret: client.client_secret } })).json();
  secrets.push(client.client_secret, token.access_token);
  const session = Buffer.from(JSON.stringify({ budget: { max: 500 }, currency: 'SGD', preferred_sources: ['shopee_sg'] })).toString('base64');
  const skus = records.slice(0, 40).map((r) => String(r.sku));
  const ids = Array.from({ length: 40 }, (_, i) => String(i * 7 + 1));
  const alert = (await h.app.inject({ method: 'POST', url: '/v1/alerts', headers: auth, payload: { product: ids[0], condition: { type: 'back_in_stock' } } })).json();
  const target = (await h.key('free')).key;
  const targetId = (await h.app.inject({ url: '/v1/auth/me', headers: { authorization: `Bearer ${target}` } })).json().key_id;
  Object.assign(fixtures, {
    ref: [...ids, ...skus, ...uuids], id: [...uuids, hook.id, ...ids], product_id: ids, product_ids: ids, ids: [...ids, ...uuids, ...skus],
    uuid: uuids, sku: skus, slug: ['electronics', 'mobile-phones', 'home-living', 'no-such-slug'], q: ['phone', 'galaxy', 'kettle', 'điện thoại'],
    query: ['galaxy phone', 'rice cooker'], key: [String(targetId)], 'x-admin-secret': [ADMIN_SECRET], 'catalog-surface': ['A', 'B'],
    token: [...tokens, token.access_token], client_id: [client.client_id], client_secret: [client.client_secret], grant_type: ['client_credentials'],
    'x-session-context': [session], url: ['https://hooks.example.com/x'], 'webhooks.id': [hook.id],
    'alerts.id': [alert.id],
    'alerts.body': [
      { product: ids[1], condition: { type: 'back_in_stock' } },
      { product: skus[1], condition: { type: 'price_at_or_below', target: '99.00', currency: 'USD' }, rearm: { after: 'price_above_target' } },
      { product: uuids[1], condition: { type: 'drop_percent', percent: '15' }, rearm: { quiet_period_seconds: 3600 } },
    ].map((b) => b as unknown as string),
    'mcp.body': [
      { jsonrpc: '2.0', id: 1, method: 'tools/list' },
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'search_products', arguments: { query: 'phone', limit: 3 } } },
      { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'get_product', arguments: { ref: ids[0] } } },
    ].map((m) => m as unknown as string),
  });
  // Deletions last: a webhook deleted early would leave the operations on it nothing to reach.
  ops = operationsOf((await h.app.inject({ url: '/openapi.json' })).json()).filter((o) => !ONLY || o.id === ONLY)
    .sort((a, b) => Number(a.method === 'DELETE') - Number(b.method === 'DELETE'));
}, 120_000);

afterAll(async () => {
  await h?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** What is wrong with one answer; empty when it holds. */
async function problemsOf(op: Operation, req: FuzzRequest): Promise<string[]> {
  const credential = req.credential === 'none' ? {}
    // A rotation revokes the key it is sent with: it gets a fresh one each time.
    : { authorization: `Bearer ${op.path === '/v1/keys/rotate' ? (await h.key(req.credential)).key : keys[req.credential]}` };
  const res = await h.app.inject({
    method: req.method, url: req.url, headers: { ...req.headers, ...credential }, remoteAddress: req.remoteAddress,
    ...(req.payload === undefined ? {} : { payload: req.payload }),
  });
  if (res.statusCode < 400) answered.add(op.id);
  const problems: string[] = [];
  const doc = documented(op, res.statusCode);
  if (res.statusCode >= 500) problems.push(`answered ${res.statusCode}`);
  if (!doc) problems.push(`status ${res.statusCode} is not documented (documented: ${[...op.responses.keys()].join(', ')})`);
  const isJson = String(res.headers['content-type'] ?? '').includes('json');
  if (doc?.schema && isJson && res.body) {
    let body: unknown;
    try {
      body = res.json();
    } catch {
      problems.push('the body is not the JSON its content type says');
    }
    if (body !== undefined && !ajv.validate(doc.schema, body)) problems.push(`body does not match its documented schema: ${ajv.errorsText(ajv.errors).slice(0, 300)}`);
  }
  if (req.kind === 'broken' && (res.statusCode < 400 || res.statusCode >= 500)) problems.push(`broken input answered ${res.statusCode}`);
  if (req.kind === 'nokey' && op.secured && res.statusCode < 400) problems.push(`answered ${res.statusCode} without a credential`);
  if (LEAK.test(res.body)) problems.push(`the body looks like it holds a stack or a path: ${res.body.match(LEAK)![0]}`);
  for (const s of secrets) if (s && res.body.includes(s)) problems.push('the body holds a secret');
  const sent = req.payload === undefined ? '' : ` body ${req.payload.slice(0, 300)}${req.payload.length > 300 ? '…' : ''}`;
  return problems.map((p) => `${p}\n  ${req.kind} (${req.what}): ${req.method} ${req.url.slice(0, 200)}${sent} -> ${res.statusCode} ${res.body.slice(0, 200)}`);
}

describe('every documented operation, fuzzed', () => {
  it('the document lists operations to fuzz', () => {
    expect(ops.length).toBeGreaterThan(ONLY ? 0 : 60);
  });

  it(`${BUDGET} requests: no 5xx, documented statuses and bodies, broken input refused, keys required, nothing leaked`, async () => {
    const runs = Math.max(1, Math.ceil(BUDGET / ops.length));
    const failures: string[] = [];
    for (const op of ops) {
      const started = performance.now();
      // Streams answer valid requests with a stream that does not end: only refusals are sent to them.
      const arb = requestOf(op, fixtures, BODY_LIMIT).filter((r) => !op.streaming || r.kind === 'broken' || r.kind === 'nokey');
      const result = await fc.check(fc.asyncProperty(arb, async (req) => (await problemsOf(op, req)).length === 0), {
        seed: SEED, numRuns: runs, endOnFailure: true,
      });
      if (process.env.FUZZ_VERBOSE) console.log(`${op.id}: ${runs} runs, ${Math.round(performance.now() - started)} ms`);
      if (result.failed && result.counterexample) {
        const problems = await problemsOf(op, result.counterexample[0]);
        failures.push(`${op.id} (replay: FUZZ_SEED=${result.seed} FUZZ_OP='${op.id}', path ${result.counterexamplePath}):\n${problems.join('\n')}`);
      }
    }
    expect(failures, failures.join('\n\n')).toEqual([]);
    const quiet = ops.filter((o) => !o.streaming && !answered.has(o.id) && !(o.id in NEVER_2XX)).map((o) => o.id);
    if (!ONLY) expect(quiet, 'operations no request succeeded on').toEqual([]);
  }, 30 * 60_000);
});
