import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { createContainer } from '../../src/container.js';
import { CATALOG } from '../helpers/catalog.js';
import { HISTORY, ingestInto, inspect, ROOT, serveSeeded, TOOL_NAMES, toolNames, type Served } from './setup.js';

/**
 * Issue 23: the official inspector CLI (@modelcontextprotocol/inspector-cli) drives both transports:
 * tools/list, then a tools/call. The stdio server is `catalog mcp` run from source (tsx), so the test
 * never drives a stale build; test/slow/mcp-stdio.test.ts drives the built command with the SDK.
 */
describe('over Streamable HTTP', () => {
  let s: Served;
  beforeAll(async () => { s = await serveSeeded(); });
  afterAll(() => s.close());

  it('lists the tools and calls one, with a bearer key', async () => {
    const target = [s.url.href, '--transport', 'http', '--header', `Authorization: Bearer ${s.key}`];
    expect(toolNames(await inspect([...target, '--method', 'tools/list']))).toEqual(TOOL_NAMES);
    const r = await inspect([...target, '--method', 'tools/call', '--tool-name', 'search_products', '--tool-arg', 'query=galaxy a55', '--tool-arg', 'limit=2']);
    expect(r.isError).toBeUndefined();
    expect((r.structuredContent as { total: number; items: unknown[] })).toMatchObject({ total: 4, items: [{}, {}] });
  });
});

describe('over stdio (`catalog mcp`)', () => {
  let dir: string;
  let env: Record<string, string>;
  const server = [process.execPath, '--import', 'tsx', join(ROOT, 'src', 'cli', 'main.ts'), 'mcp'];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'mcp-inspector-'));
    env = { DATABASE_URL: `sqlite:${join(dir, 'catalog.db')}` };
    const c = await createContainer(loadConfig(env));
    await ingestInto(c, [...HISTORY, ...CATALOG]);
    await c.close();
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('lists the tools and calls one; the store is read directly, no key needed', async () => {
    expect(toolNames(await inspect([...server, '--method', 'tools/list'], env))).toEqual(TOOL_NAMES);
    const r = await inspect([...server, '--method', 'tools/call', '--tool-name', 'get_product', '--tool-arg', 'ref=SG-A55'], env);
    expect(r.structuredContent).toMatchObject({ resolved_as: 'sku', product: { id: 1, price: { amount: '499.00', currency: 'SGD' } }, offer_count: 3 });
  });
});
