import type { FastifyInstance } from 'fastify';
import { DomainError } from '../domain/errors.js';

/** Paths that answer while the service starts: the health check and the reference (they read no store). */
export const answersWhileStarting = (url: string) => url === '/health' || url === '/openapi.json' || url === '/llms.txt' || url === '/docs' || url.startsWith('/docs/');

/** Until the store is usable, every other request is 503 with Retry-After and the reason (before auth: nothing is read). */
export function installReadinessGate(app: FastifyInstance, readiness: { readonly notReadyBecause: string | null }): void {
  app.addHook('onRequest', (req, reply, done) => {
    const reason = readiness.notReadyBecause;
    if (reason === null || answersWhileStarting(req.routeOptions.url ?? '')) return done();
    reply.header('Retry-After', '5');
    done(new DomainError('SERVICE_UNAVAILABLE', `The service is starting (${reason}); retry shortly.`));
  });
}
