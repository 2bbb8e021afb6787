import AjvModule, { type ValidateFunction } from 'ajv';
import formatsModule from 'ajv-formats';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/**
 * Holds every response a test provokes to the schema its route declares for that status: the
 * object a handler returns, before the serializer (which would coerce a drifted type to the
 * declared one and drop an undeclared member), validated strictly. A violation fails the request.
 */
// CommonJS modules seen from ESM: the constructor and the plugin are their default members.
const Ajv = AjvModule as unknown as typeof AjvModule.default;
const addFormats = formatsModule as unknown as typeof formatsModule.default;
const ajv = new Ajv({ strict: false, allErrors: true });
addFormats(ajv);
const compiled = new WeakMap<object, ValidateFunction>();

export const contractViolations: string[] = [];

export function checkResponseContracts(app: FastifyInstance): void {
  const schemaOf = (req: FastifyRequest, reply: FastifyReply): object | undefined => {
    const schemas = (req.routeOptions.schema?.response ?? {}) as Record<string, object>;
    return schemas[String(reply.statusCode)] ?? schemas[`${String(reply.statusCode)[0]}xx`];
  };
  const violation = (req: FastifyRequest, reply: FastifyReply, schema: object, wire: unknown): Error | null => {
    let validate = compiled.get(schema);
    if (!validate) {
      validate = ajv.compile({ ...schema, $id: undefined });
      compiled.set(schema, validate);
    }
    if (validate(wire)) return null;
    const where = `${req.method} ${req.url} -> ${reply.statusCode}`;
    const problem = `${where}: ${ajv.errorsText(validate.errors)}`;
    contractViolations.push(problem);
    console.error(`response contract violated: ${problem}`);
    return new Error(`response contract violated: ${problem}`);
  };
  app.addHook('preSerialization', (req, reply, payload, done) => {
    const schema = schemaOf(req, reply);
    if (!schema || payload === null || typeof payload !== 'object') return done(null, payload);
    // The wire form: what JSON.stringify would send (undefined members dropped, dates as text).
    done(violation(req, reply, schema, JSON.parse(JSON.stringify(payload))) as never, payload);
  });
  // JSON a route wrote itself (api/record-bytes.ts) skips serialization: its bytes are checked.
  app.addHook('onSend', (req, reply, payload, done) => {
    const schema = schemaOf(req, reply);
    if (!schema || !Buffer.isBuffer(payload) || !String(reply.getHeader('content-type') ?? '').startsWith('application/json')) return done(null, payload);
    done(violation(req, reply, schema, JSON.parse(payload.toString())) as never, payload);
  });
}
