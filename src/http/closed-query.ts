import type { FastifyInstance } from 'fastify';
import { RequestValidationError, type FieldProblem } from './request-error.js';

/**
 * Paths whose standards say unknown parameters are ignored (RFC 6749 3.1/3.2, RFC 8414), and the
 * pages for people (the catalog page at /, its assets, the reference): a link may carry utm_* and such.
 */
const OPEN = /^\/(v1\/oauth\/|\.well-known\/|docs(\/|\?|$)|page\/|\?|$)/;

/** Whether a path refuses query parameters it does not declare (a 422 its reference must list). */
export const refusesUnknownQuery = (url: string): boolean => !OPEN.test(url);
/** What a query number may look like: decimal, as the reference documents (no hex, binary or blanks). */
const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/**
 * Query parameters the route does not take are refused, as they are where a route declares its
 * query (issue 18: a misspelled filter silently ignored gives unfiltered results). Routes that
 * declare no query take none but the free ones. Numbers are given in decimal: Ajv's coercion
 * would otherwise read `0x10` as 16.
 */
export function installClosedQuery(app: FastifyInstance, free: RegExp): void {
  app.addHook('preHandler', (req, _reply, done) => {
    const query = req.query as Record<string, unknown> | undefined;
    if (!query || typeof query !== 'object' || OPEN.test(req.url)) return done();
    const problems: FieldProblem[] = [];
    const declared = !!req.routeOptions.schema?.querystring;
    let raw: URLSearchParams | undefined;
    for (const [name, value] of Object.entries(query)) {
      if (free.test(name)) continue;
      if (!declared) {
        problems.push({ loc: ['query', name], msg: `${name} is not a known parameter; this endpoint takes no query parameters`, type: 'extra_forbidden' });
        continue;
      }
      const numbers = (Array.isArray(value) ? value : [value]).some((v) => typeof v === 'number');
      if (!numbers) continue;
      raw ??= new URLSearchParams(req.url.slice(req.url.indexOf('?') + 1));
      if (raw.getAll(name).some((text) => !DECIMAL.test(text))) {
        problems.push({ loc: ['query', name], msg: `${name} must be a decimal number`, type: 'decimal_number' });
      }
    }
    done(problems.length ? new RequestValidationError(problems) : undefined);
  });
}
