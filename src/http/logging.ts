import type { FastifyServerOptions } from 'fastify';

/** Drops the secret from `?api_key=` so a key given in the query never reaches a log line. */
export function redactUrl(url: string): string {
  return url.replace(/([?&](?:api_key|token|client_secret)=)[^&]*/gi, '$1[REDACTED]');
}

/** pino options: keys, tokens and secrets redacted wherever they appear in a request. */
export function loggerOptions(level: string): FastifyServerOptions['logger'] {
  return {
    level,
    redact: {
      paths: ['req.headers.authorization', 'req.headers["x-api-key"]', 'req.headers.cookie', '*.client_secret', '*.api_key', '*.password'],
      censor: '[REDACTED]',
    },
    serializers: {
      req(req: { method: string; url: string; id: string; ip?: string }) {
        return { id: req.id, method: req.method, url: redactUrl(req.url), ip: req.ip };
      },
    },
  };
}
