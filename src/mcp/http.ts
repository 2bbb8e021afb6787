import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { Tier } from '../domain/tier.js';
import { CALLER_ACCOUNT_HEADER, CALLER_TIER_HEADER, REQUEST_ID_HEADER } from './results.js';
import { createMcpServer } from './server.js';
import type { McpOptions, McpServices } from './services.js';

/** An HTTP exchange as the caller's framework parsed it: the body already read. */
export interface McpHttpRequest {
  method: string;
  url: string;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
  /** The caller's id of the request: reported with a tool's fault. */
  requestId?: string;
  /** Who authenticated: the tools that act for a key (alerts) act for this account. */
  caller?: { accountId: number; tier: Tier };
}

export interface McpHttpAnswer {
  status: number;
  headers: Record<string, string>;
  /** JSON text, or null (202 to a notification). */
  body: string | null;
}

/** The request headers the Streamable HTTP transport reads. */
const PASSED = ['accept', 'content-type', 'mcp-protocol-version', 'mcp-session-id', 'last-event-id'];
/** Idle servers kept for the next requests; more are built under a burst and dropped after it. */
const KEPT = 64;

const rpcError = (message: string) => JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32000, message } });

/**
 * Streamable HTTP, stateless: each POST gets its own transport, answered with one JSON body (no
 * SSE, no session id), so any instance can answer any request and nothing outlives it. With no
 * session there is no server-to-client stream to open (GET) nor session to end (DELETE): both are
 * 405, which the protocol provides for and the SDK's client expects.
 *
 * The servers themselves (their tools, resources and prompts registered once) are reused: a
 * request connects an idle one to its transport and gives it back when answered. Building one per
 * request cost more than the search it answered.
 */
export class McpHttp {
  private readonly idle: McpServer[] = [];

  constructor(private readonly services: McpServices, private readonly opts: McpOptions) {
    this.opts = { ...opts, keyTools: true };
  }

  async answer(req: McpHttpRequest): Promise<McpHttpAnswer> {
    if (req.method !== 'POST') {
      return {
        status: 405, headers: { allow: 'POST', 'content-type': 'application/json' },
        body: rpcError('Method not allowed: this MCP server is stateless; POST JSON-RPC messages to it (no stream, no session to end).'),
      };
    }
    const headers = new Headers();
    for (const name of PASSED) {
      const v = req.headers[name];
      if (typeof v === 'string') headers.set(name, v);
    }
    if (req.requestId) headers.set(REQUEST_ID_HEADER, req.requestId);
    if (req.caller) {
      headers.set(CALLER_ACCOUNT_HEADER, String(req.caller.accountId));
      headers.set(CALLER_TIER_HEADER, req.caller.tier);
    }
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    const server = this.idle.pop() ?? createMcpServer(this.services, this.opts);
    await server.connect(transport);
    try {
      const res = await transport.handleRequest(new Request(req.url, { method: 'POST', headers }), { parsedBody: req.body });
      const body = res.body ? await res.text() : null;
      return { status: res.status, headers: Object.fromEntries(res.headers), body };
    } finally {
      await server.close();
      if (this.idle.length < KEPT) this.idle.push(server);
    }
  }
}
