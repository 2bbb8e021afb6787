import { MAX_BATCH_SIZE } from '@modelcontextprotocol/sdk/server/requestBody.js';
import { isJsonContentType } from '@modelcontextprotocol/sdk/shared/mediaType.js';
import {
  isInitializeRequest, isJSONRPCRequest, JSONRPCMessageSchema, SUPPORTED_PROTOCOL_VERSIONS, type JSONRPCMessage, type MessageExtraInfo,
} from '@modelcontextprotocol/sdk/types.js';
import { Exchange } from './exchange.js';
import type { Tier } from '../domain/tier.js';
import { CALLER_ACCOUNT_HEADER, CALLER_TIER_HEADER, REQUEST_ID_HEADER } from './results.js';
import { createMcpServer } from './server.js';
import type { McpOptions, McpServices } from './services.js';
import { withFields } from '../domain/with-fields.js';

/** An HTTP exchange as the caller's framework parsed it: the body already read. */
export interface McpHttpRequest {
  method: string;
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

/** The request headers a tool may read (extra.requestInfo), as the SDK's transport passes them. */
const PASSED = ['accept', 'content-type', 'mcp-protocol-version', 'mcp-session-id', 'last-event-id'];

const JSON_TYPE = { 'content-type': 'application/json' };
const rpcError = (message: string, code = -32000) => JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null });
const refusal = (status: number, message: string, code?: number): McpHttpAnswer => ({ status, headers: JSON_TYPE, body: rpcError(message, code) });
const header = (h: McpHttpRequest['headers'], name: string) => {
  const v = h[name];
  return typeof v === 'string' ? v : undefined;
};

/**
 * Streamable HTTP, stateless: each POST is answered with one JSON body (no SSE, no session id), so
 * any instance can answer any request and nothing outlives it. With no session there is no
 * server-to-client stream to open (GET) nor session to end (DELETE): both are 405, which the
 * protocol provides for and the SDK's client expects.
 *
 * One server (its tools, resources and prompts registered once) stays connected to an Exchange
 * and answers every request, many at once. The SDK's Streamable HTTP transport was one per request:
 * a web Request and Response, streams and text codecs, and a connect and close (the close building
 * an error with its stack) for each; with them it cost more than the search a call made
 * (bench/RESULTS.md). The checks it makes of a POST are made here, with its statuses and messages.
 */
export class McpHttp {
  private readonly exchange = new Exchange();
  private readonly connected: Promise<void>;

  constructor(services: McpServices, opts: McpOptions) {
    this.connected = createMcpServer(services, withFields(opts, { keyTools: true })).connect(this.exchange);
  }

  async answer(req: McpHttpRequest): Promise<McpHttpAnswer> {
    if (req.method !== 'POST') {
      const refused = refusal(405, 'Method not allowed: this MCP server is stateless; POST JSON-RPC messages to it (no stream, no session to end).');
      return withFields(refused, { headers: withFields(refused.headers, { allow: 'POST' }) });
    }
    const accept = header(req.headers, 'accept');
    if (!accept?.includes('application/json') || !accept.includes('text/event-stream')) {
      return refusal(406, 'Not Acceptable: Client must accept both application/json and text/event-stream');
    }
    if (!isJsonContentType(header(req.headers, 'content-type'))) return refusal(415, 'Unsupported Media Type: Content-Type must be application/json');
    const batch = Array.isArray(req.body);
    const raw: unknown[] = batch ? (req.body as unknown[]) : [req.body];
    if (raw.length > MAX_BATCH_SIZE) return refusal(400, `Invalid Request: Batch must not exceed ${MAX_BATCH_SIZE} messages`, -32600);
    const messages: JSONRPCMessage[] = [];
    for (const m of raw) {
      const parsed = JSONRPCMessageSchema.safeParse(m);
      if (!parsed.success) return refusal(400, 'Parse error: Invalid JSON-RPC message', -32700);
      messages.push(parsed.data);
    }
    // The SDK's test parses the whole message; only one named initialize can pass it.
    const initializing = messages.some((m) => 'method' in m && m.method === 'initialize' && isInitializeRequest(m));
    if (initializing && messages.length > 1) return refusal(400, 'Invalid Request: Only one initialization request is allowed', -32600);
    const version = header(req.headers, 'mcp-protocol-version');
    if (!initializing && version !== undefined && !SUPPORTED_PROTOCOL_VERSIONS.includes(version)) {
      return refusal(400, `Bad Request: Unsupported protocol version: ${version} (supported versions: ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')})`);
    }
    const extra: MessageExtraInfo = { requestInfo: { headers: this.requestHeaders(req) } };
    await this.connected;
    const asked: Array<Promise<JSONRPCMessage>> = [];
    for (const m of messages) {
      if (isJSONRPCRequest(m)) asked.push(this.exchange.ask(m, extra));
      else this.exchange.tell(m, extra);
    }
    if (asked.length === 0) return { status: 202, headers: {}, body: null };
    const answers = await Promise.all(asked);
    return { status: 200, headers: JSON_TYPE, body: JSON.stringify(batch ? answers : answers[0]) };
  }

  /** What a tool reads of the request: the transport's headers, then ours (set here alone, never taken from the client). */
  private requestHeaders(req: McpHttpRequest): Record<string, string> {
    const headers: Record<string, string> = {};
    for (const name of PASSED) {
      const v = header(req.headers, name);
      if (v !== undefined) headers[name] = v;
    }
    if (req.requestId) headers[REQUEST_ID_HEADER] = req.requestId;
    if (req.caller) {
      headers[CALLER_ACCOUNT_HEADER] = String(req.caller.accountId);
      headers[CALLER_TIER_HEADER] = req.caller.tier;
    }
    return headers;
  }
}
