import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HTTP_TOOL_NAMES, inspect, ROOT, seededStore, serveSeeded, TOOL_NAMES, toolNames, type Served } from './setup.js';

/**
 * Issue 23: the official inspector CLI (@modelcontextprotocol/inspector-cli) drives both transports:
 * tools/list, then a tools/call. The stdio server is `catalog mcp` run from source (tsx), so the test
 * never drives a stale build; test/slow/mcp-stdio.test.ts drives the built command with the SDK.
 */
/** Each test starts two inspector processes (and, on stdio, two servers from source): seconds each on a busy machine. */
const SPAWNS = 90_000;

describe('over Streamable HTTP', () => {
  let s: Served;
  beforeAll(async () => { s = await serveSeeded(); });
  afterAll(() => s.close());

  it('lists the tools and calls one, with a bearer key', async () => {
    const target = [s.url.href, '--transport', 'http', '--header', `Authorization: Bearer ${s.key}`];
    expect(toolNames(await inspect([...target, '--method', 'tools/list']))).toEqual(HTTP_TOOL_NAMES);
    const r = await inspect([...target, '--method', 'tools/call', '--tool-name', 'search_products', '--tool-arg', 'query=galaxy a55', '--tool-arg', 'limit=2']);
    expect(r.isError).toBeUndefined();
    expect((r.structuredContent as { total: number; items: unknown[] })).toMatchObject({ total: 4, items: [{}, {}] });
  }, SPAWNS);
});

describe('over stdio (`catalog mcp`)', () => {
  let store: Awaited<ReturnType<typeof seededStore>>;
  const server = [process.execPath, '--import', 'tsx', join(ROOT, 'src', 'cli', 'main.ts'), 'mcp'];

  beforeAll(async () => { store = await seededStore(); });
  afterAll(() => store.remove());

  it('lists the tools and calls one; the store is read directly, no key needed', async () => {
    expect(toolNames(await inspect([...server, '--method', 'tools/list'], store.env))).toEqual(TOOL_NAMES);
    const r = await inspect([...server, '--method', 'tools/call', '--tool-name', 'get_product', '--tool-arg', 'ref=SG-A55'], store.env);
    expect(r.structuredContent).toMatchObject({ resolved_as: 'sku', product: { id: 1, price: { amount: '499.00', currency: 'SGD' } }, offer_count: 3 });
  }, SPAWNS);
});
