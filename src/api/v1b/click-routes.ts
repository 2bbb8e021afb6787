import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Container } from '../../container.js';
import { DomainError } from '../../domain/errors.js';
import { Query, Str } from '../schema-kit.js';

/** The tracked link of a search result: on this service, the job id beside the token it is signed into. */
export function clickUrl(origin: string, token: string, jobId: string | null): string {
  return `${origin}/v1/click/${token}${jobId ? `?job_id=${jobId}` : ''}`;
}

// Lenient on purpose: whatever a token or job id looks like, a link that does not open is a 404.
const ClickParams = Type.Object({ token: Str({ maxLength: 200, description: 'the click token of a search result\'s click_url' }) });
const ClickQuery = Query({ job_id: Type.Optional(Str({ maxLength: 1000, description: 'the shopping job id the link was made for' })) });

const NOT_FOUND = 'This link is not one this service made, or its product is gone.';

/**
 * GET /v1/click/:token: a search result's `click_url`, followed by the shopper's browser (no key).
 * Records the click and answers 302 to the listing's affiliate URL, else its merchant URL, both
 * read from the store. A malformed, tampered or unknown token, a changed job id or a listing no
 * longer in the catalog is a 404: nothing from the request is ever a redirect target.
 */
export function clickRoutes(c: Container): FastifyPluginAsync {
  return async (base) => {
    const app = base.withTypeProvider<TypeBoxTypeProvider>();
    app.get('/v1/click/:token', {
      config: { auth: false },
      schema: {
        summary: 'Follow a tracked link: records the click, then 302 to the offer (no key needed)',
        description: 'The `click_url` of a surface B search result. HEAD answers the same redirect without recording a click. '
          + 'A link that does not open (tampered, unknown, another job id, product gone) is 404.',
        params: ClickParams, querystring: ClickQuery, security: [],
        response: {
          302: Type.Null({ description: 'to the listing\'s affiliate URL, else its merchant URL (Location)', headers: { location: Type.String({ description: 'the offer\'s URL' }) } }),
        },
      },
    }, async (req, reply) => {
      const target = await c.clicks.follow(req.params.token, req.query.job_id, req.method !== 'HEAD');
      if (!target) throw new DomainError('NOT_FOUND', NOT_FOUND);
      // Every follow must reach this service to be counted: nothing may keep the redirect.
      return reply.header('Cache-Control', 'no-store').redirect(target, 302);
    });
  };
}
