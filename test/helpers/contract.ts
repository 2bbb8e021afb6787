import AjvModule, { type ValidateFunction } from 'ajv';
import formatsModule from 'ajv-formats';
import type { FastifyInstance } from 'fastify';

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
  app.addHook('preSerialization', (req, reply, payload, done) => {
    const schemas = (req.routeOptions.schema?.response ?? {}) as Record<string, object>;
    const schema = schemas[String(reply.statusCode)] ?? schemas[`${String(reply.statusCode)[0]}xx`];
    if (!schema || payload === null || typeof payload !== 'object') return done(null, payload);
    let validate = compiled.get(schema);
    if (!validate) {
      validate = ajv.compile({ ...schema, $id: undefined });
      compiled.set(schema, validate);
    }
    // The wire form: what JSON.stringify would send (undefined members dropped, dates as text).
    const wire = JSON.parse(JSON.stringify(payload)) as unknown;
    if (!validate(wire)) {
      const where = `${req.method} ${req.url} -> ${reply.statusCode}`;
      const problem = `${where}: ${ajv.errorsText(validate.errors)}`;
      contractViolations.push(problem);
      console.error(`response contract violated: ${problem}`);
      return done(new Error(`response contract violated: ${problem}`) as never, payload);
    }
    done(null, payload);
  });
}
