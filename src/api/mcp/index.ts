import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { WindowState } from '../../accounts/quota.js';
import type { Container } from '../../container.js';
import type { ErrorCode } from '../../domain/errors.js';
import type { ErrorPresenter } from '../../http/error-presenter.js';
import type { FieldProblem } from '../../http/request-error.js';
import { McpHttp } from '../../mcp/http.js';
import { Type, type TSchema } from 'typebox';
import { RpcError } from '../error-schemas.js';
import type { SurfaceUnit } from '../surface-unit.js';
import { withFields } from '../../domain/with-fields.js';

/** A refusal before the MCP server is reached (401, 429, a body that is not JSON) as a JSON-RPC error, our code in `data`. */
const rpcError = (message: string, data: Record<string, unknown>) => ({ jsonrpc: '2.0', id: null, error: { code: -32000, message, data } });
const window = (w: WindowState) => ({ retry_after: w.retryAfter, limit: w.limit, remaining: w.remaining, reset_at: w.resetAt.toISOString() });

export const mcpErrors: ErrorPresenter = {
  error: (code: ErrorCode, message: string, details?: Record<string, unknown>) => rpcError(message, { code, ...(details ? { details } : {}) }),
  validation: (problems: FieldProblem[]) => rpcError(problems[0]?.msg ?? 'invalid request', { code: 'VALIDATION_ERROR', errors: problems }),
  rateLimited: (w: WindowState, message: string) => rpcError(message, { code: 'RATE_LIMIT_EXCEEDED', rate_limit: window(w) }),
  dailyLimited: (w: WindowState, message: string, upgradeUrl: string) =>
    rpcError(message, { code: 'daily_limit_exceeded', upgrade_url: upgradeUrl, reset_at: w.resetAt.toISOString() }),
};

const DESCRIPTION = 'Model Context Protocol, Streamable HTTP transport, stateless (docs/mcp.md): POST one JSON-RPC message, '
  + 'get one JSON answer. Authenticated and rate limited like every endpoint (each request counts one). GET and DELETE are 405.';

const RpcId = Type.Union([Type.String(), Type.Number()]);
/** What the reference shows of the body; the SDK's transport reads and checks it, not a route schema. */
const RpcRequest = Type.Object({
  jsonrpc: Type.Literal('2.0'), id: Type.Optional(RpcId), method: Type.String({ description: 'initialize, tools/list, tools/call, resources/read, prompts/get, ...' }),
  params: Type.Optional(Type.Object({}, { additionalProperties: true })),
}, { description: 'One JSON-RPC 2.0 message (a notification has no id)' });
const RpcResult = Type.Object({ jsonrpc: Type.Literal('2.0'), id: RpcId, result: Type.Object({}, { additionalProperties: true }) });
/** The SDK's answers are text already: these schemas document them and serialize only our own refusals. */
const NO_BODY: object = { type: 'null', description: 'a notification was accepted: no body' };
const POST_RESPONSES: Record<number, TSchema | object> = {
  200: Type.Union([RpcResult, RpcError], { description: 'the JSON-RPC answer: a result, or an error of the method (a tool\'s failure is a result with isError)' }),
  202: NO_BODY, 400: RpcError, 406: RpcError, 415: RpcError,
};
const documentBody = ({ schema, url }: { schema: object; url: string }) => ({ schema: withFields(schema, { body: RpcRequest }), url });

/**
 * The MCP server on the running service. The route is an ordinary one, so authentication (401 with
 * the protected-resource challenge), the tier limits, CORS and logging apply to it as to any other;
 * the handler hands the parsed body to the SDK's transport (mcp/http.ts) and sends its answer.
 */
export const mcp: SurfaceUnit = {
  surface: 'mcp',
  tag: { name: 'mcp', description: 'Model Context Protocol server for agents (docs/mcp.md)' },
  errors: mcpErrors,
  routes(c: Container): FastifyPluginAsync {
    return async (app) => {
      const mcpHttp = new McpHttp(c, {
        version: c.config.version,
        onError: (err, tool, reqId) => app.log.error({ reqId, err: { message: (err as Error).message, type: (err as Error).name }, tool }, 'mcp tool failed'),
      });
      const handler = async (req: FastifyRequest, reply: FastifyReply) => {
        const p = req.principal;
        const caller = p ? { accountId: p.accountId ?? p.keyId, tier: p.tier } : undefined;
        const answer = await mcpHttp.answer({ method: req.method, headers: req.headers, body: req.body, requestId: req.id, caller });
        reply.status(answer.status).headers(answer.headers);
        return answer.body === null ? reply.send() : reply.send(answer.body);
      };
      app.post('/mcp', {
        config: { swaggerTransform: documentBody },
        schema: { summary: 'MCP: one JSON-RPC message (initialize, tools/list, tools/call, resources/read, prompts/get, ...)', description: DESCRIPTION, response: POST_RESPONSES },
      }, handler);
      app.get('/mcp', { schema: { summary: 'MCP: no server-to-client stream (stateless): 405', description: DESCRIPTION, response: { 405: RpcError } } }, handler);
      app.delete('/mcp', { schema: { summary: 'MCP: no session to end (stateless): 405', description: DESCRIPTION, response: { 405: RpcError } } }, handler);
    };
  },
};
