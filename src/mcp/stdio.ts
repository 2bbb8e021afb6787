import type { Readable, Writable } from 'node:stream';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createMcpServer } from './server.js';
import type { McpOptions, McpServices } from './services.js';

/**
 * One MCP session on a pair of streams (stdin/stdout for `catalog mcp`): the output stream carries
 * the protocol only. Resolves when the input ends or the transport closes.
 */
export async function serveStdio(s: McpServices, opts: McpOptions, input: Readable = process.stdin, output: Writable = process.stdout): Promise<void> {
  const server = createMcpServer(s, opts);
  const transport = new StdioServerTransport(input, output);
  const closed = new Promise<void>((resolve) => {
    server.server.onclose = resolve;
    input.once('end', resolve);
    input.once('close', resolve);
  });
  await server.connect(transport);
  await closed;
  await server.close();
}
