import type { CallToolResult, ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import { DomainError } from '../domain/errors.js';

/**
 * What a tool answers: structured content (held to the tool's outputSchema by the tests, not per
 * call: withoutOutputChecks in server.ts) with a short text for models that read text; or, for arguments the tool cannot use, a result
 * with isError and a message saying what to change. Never a protocol error.
 */

export function ok(structured: Record<string, unknown>, text: string): CallToolResult {
  return { structuredContent: structured, content: [{ type: 'text', text }] };
}

export function refused(message: string): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: message }] };
}

/** An argument the schema admits but the catalog cannot use (an unknown product, min above max): the message says what to change. */
export class ToolRefusal extends Error {}

/** The header mcp/http.ts passes the HTTP request's id in. */
export const REQUEST_ID_HEADER = 'x-request-id';
/** The headers mcp/http.ts passes the authenticated caller in; set by it alone, never taken from the client's request. */
export const CALLER_ACCOUNT_HEADER = 'x-catalog-caller-account';
export const CALLER_TIER_HEADER = 'x-catalog-caller-tier';

const FAULT = 'The catalog could not answer this call (an internal error); retry shortly. If it persists, try another tool.';

/** Runs a tool: refusals and the services' domain errors become isError results; a fault is reported and answered generically. */
export function guarded<A>(
  tool: string,
  run: (args: A, extra?: RequestHandlerExtra<ServerRequest, ServerNotification>) => Promise<CallToolResult>,
  onError?: (err: unknown, tool: string, requestId?: string) => void,
) {
  return async (args: A, extra?: RequestHandlerExtra<ServerRequest, ServerNotification>): Promise<CallToolResult> => {
    try {
      return await run(args, extra);
    } catch (err) {
      if (err instanceof ToolRefusal || err instanceof DomainError) return refused(err.message);
      const id = extra?.requestInfo?.headers[REQUEST_ID_HEADER];
      onError?.(err, tool, typeof id === 'string' ? id : undefined);
      return refused(FAULT);
    }
  };
}
