import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inspect, serveSeeded, TOOL_NAMES, toolNames, type Served } from './setup.js';

/**
 * Issue 23: the official inspector CLI (@modelcontextprotocol/inspector-cli) drives the HTTP server:
 * tools/list, then a tools/call. Its stdio run spawns `catalog mcp` twice, seconds each: it is in
 * test/slow/mcp-stdio.test.ts.
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
