import type { FastifyInstance } from 'fastify';
import { RequestValidationError, type FieldProblem } from './request-error.js';

/**
 * A query or path value such as `1e400` or `Infinity` is coerced to a number that Ajv's bounds do
 * not check (they skip non-finite numbers), so it would reach SQL and big.js. Every number a
 * request carries after validation is finite, or the request is a 422 naming the field.
 */
export function installFiniteNumbers(app: FastifyInstance): void {
  app.addHook('preHandler', (req, _reply, done) => {
    const problems: FieldProblem[] = [];
    collect(req.query, 'query', problems);
    collect(req.params, 'path', problems);
    if (problems.length) return done(new RequestValidationError(problems));
    done();
  });
}

function collect(values: unknown, part: string, out: FieldProblem[]): void {
  if (!values || typeof values !== 'object') return;
  for (const [name, v] of Object.entries(values as Record<string, unknown>)) {
    const items = Array.isArray(v) ? v : [v];
    if (items.some((x) => typeof x === 'number' && !Number.isFinite(x))) {
      out.push({ loc: [part, name], msg: `${name} must be a finite number within its bounds`, type: 'finite_number' });
    }
  }
}
