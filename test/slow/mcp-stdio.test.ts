import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BAD_CALLS, expectValidOutput, GOOD_CALLS, refusalOf, ROOT, seededStore, TOOL_NAMES } from '../mcp/setup.js';
import { until } from '../helpers/until.js';

/**
 * Issue 23 over stdio: `catalog mcp` (the built command, as an agent host runs it) on a store
 * seeded beforehand, driven by the SDK's StdioClientTransport (the inspector CLI drives it in
 * test/mcp/inspector.test.ts). Standard
 * output must carry the protocol alone: a stray line would reach the client as an error.
 */
const bin = join(ROOT, 'bin', 'catalog.js');
let env: Record<string, string>;
let remove: () => void;

beforeAll(async () => {
  ({ env, remove } = await seededStore());
});
afterAll(() => remove());

describe('the SDK client on `catalog mcp`', () => {
  let client: Client;
  let transport: StdioClientTransport;
  const protocolErrors: Error[] = [];
  let stderr = '';

  beforeAll(async () => {
    transport = new StdioClientTransport({ command: process.execPath, args: [bin, 'mcp'], env: { PATH: process.env.PATH ?? '', ...env }, stderr: 'pipe' });
    transport.stderr?.on('data', (d: Buffer) => { stderr += d.toString(); });
    client = new Client({ name: 'stdio-test', version: '1.0.0' });
    client.onerror = (e) => protocolErrors.push(e);
    await client.connect(transport);
  });

  it('every tool: good calls valid against their outputSchema, bad calls isError results', async () => {
    const tools = (await client.listTools()).tools;
    expect(tools.map((t) => t.name).sort()).toEqual(TOOL_NAMES);
    for (const tool of tools) {
      expectValidOutput(tool, (await client.callTool({ name: tool.name, arguments: GOOD_CALLS[tool.name] })) as CallToolResult);
      const [args, message] = BAD_CALLS[tool.name];
      expect(refusalOf((await client.callTool({ name: tool.name, arguments: args })) as CallToolResult), tool.name).toMatch(message);
    }
  });

  it('resources and prompts', async () => {
    const tree = await client.readResource({ uri: 'catalog://categories' });
    expect(JSON.parse((tree.contents[0] as { text: string }).text).categories.length).toBe(2);
    const p = await client.readResource({ uri: 'catalog://products/SG-A55' });
    expect(JSON.parse((p.contents[0] as { text: string }).text)).toMatchObject({ id: 1, price: { amount: '499.00' } });
    expect((await client.listPrompts()).prompts).toHaveLength(2);
  });

  it('stdout held the protocol alone, and the process ends with its input', async () => {
    const pid = transport.pid!;
    await client.close();
    expect(protocolErrors).toEqual([]);
    expect(stderr).not.toMatch(/failed|error/i);
    const ended = await until(() => {
      try {
        process.kill(pid, 0);
        return false;
      } catch {
        return true;
      }
    }, 2000, 20);
    expect(ended).toBe(true);
  });
});
