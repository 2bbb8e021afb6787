import type { FastifyServerOptions } from 'fastify';
import { redactText, redactUrl, redactValue } from './credentials.js';

/**
 * pino options: credentials redacted wherever they appear in what is logged, by decoded name
 * (query parameters, headers, members of any logged object) and by shape (keys quoted in a message).
 */
export function loggerOptions(level: string): FastifyServerOptions['logger'] {
  return {
    level,
    formatters: {
      log: (obj) => redactValue(obj) as Record<string, unknown>,
    },
    hooks: {
      logMethod(args, method) {
        // The message string: an error's message may quote what the client sent.
        method.apply(this, args.map((a) => (typeof a === 'string' ? redactText(a) : a)) as Parameters<typeof method>);
      },
    },
    serializers: {
      req(req: { method: string; url: string; id: string; ip?: string }) {
        return { id: req.id, method: req.method, url: redactUrl(req.url), ip: req.ip };
      },
    },
  };
}
