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

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'fuzz-'));
  // The fuzzer's own keys must never meet a rate limit: every tier unlimited.
  const tiers = join(dir, 'tiers.json');
  writeFileSync(tiers, JSON.stringify(Object.fromEntries(['unverified', 'free', 'basic', 'pro', 'enterprise'].map((t) => [t, { per_minute: 1e9, per_day: null }]))));
  h = await makeHarness({ ADMIN_SECRET, CLICK_SECRET, TIERS_FILE: tiers, PUBLIC_URL: 'https://catalog.test' }, new FakeClock(), {
    webhookResolver: tableResolver({ 'hooks.example.com': ['93.184.215.14'] }),
  });
  const now = h.clock.now();
  const records = [...generateDemoRecords({ listings: 300, seed: 7, historyDays: 20, now })];
  await h.ingest(records);
  for (const tier of ['enterprise', 'free'] as const) keys[tier] = (await h.key(tier)).key;
  secrets.push(...Object.values(keys), ...Object.values(keys).map(hashSecret));
  const auth = { authorization: `Bearer ${keys.enterprise}` };
  const hook = (await h.app.inject({ method: 'POST', url: '/v1/webhooks', headers: auth, payload: { url: 'https://hooks.example.com/x', events: ['price_change'] } })).json();
  secrets.push(hook.secret);
  const listing = (await h.app.inject({ url: '/v2/products?limit=50', headers: auth })).json() as { products?: Array<{ id: string }> };
  const uuids = (listing.products ?? []).map((p) => String(p.id));
  const skus = records.slice(0, 40).map((r) => String(r.sku));
  const ids = Array.from({ length: 40 }, (_, i) => String(i * 7 + 1));
  const target = (await h.key('free')).key;
  const targetId = (await h.app.inject({ url: '/v1/auth/me', headers: { authorization: `Bearer ${target}` } })).json().key_id;
  Object.assign(fixtures, {
    ref: [...ids, ...skus, ...uuids], id: [...uuids, hook.id, ...ids], product_id: ids, product_ids: ids, ids: [...ids, ...uuids, ...skus],
    uuid: uuids, sku: skus, slug: ['electronics', 'mobile-phones', 'home-living', 'no-such-slug'], q: ['phone', 'galaxy', 'kettle', 'điện thoại'],
    query: ['galaxy phone', 'rice cooker'], key: [String(targetId)], 'x-admin-secret': [ADMIN_SECRET], 'catalog-surface': ['A', 'B'],
  });
  ops = operationsOf((await h.app.inject({ url: '/openapi.json' })).json()).filter((o) => !ONLY || o.id === ONLY);
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
        const [problems] = await Promise.all([problemsOf(op, result.counterexample[0])]);
        failures.push(`${op.id} (replay: FUZZ_SEED=${result.seed} FUZZ_OP='${op.id}', path ${result.counterexample ? result.counterexamplePath : '-'}):\n${problems.join('\n')}`);
      }
    }
    expect(failures, failures.join('\n\n')).toEqual([]);
  }, 30 * 60_000);
});
