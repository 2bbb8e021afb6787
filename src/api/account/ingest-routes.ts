import { Readable } from 'node:stream';
import type { FastifyPluginAsync } from 'fastify';
import type { Container } from '../../container.js';
import { invalidInput } from '../../http/request-error.js';

/**
 * POST /v1/ingest/products (pro and enterprise): the body is NDJSON, one ingest record per line,
 * sent as application/json (spec 4.5) or application/x-ndjson; a JSON array of records is also
 * taken. Bad lines are reported by number while the good ones are stored.
 */
export function ingestRoutes(c: Container): FastifyPluginAsync {
  return async (app) => {
    // In this plugin only: keep the body as text, since NDJSON is not one JSON document.
    app.removeContentTypeParser('application/json');
    app.addContentTypeParser(['application/json', 'application/x-ndjson', 'text/plain'], { parseAs: 'string' }, (_req, body, done) => done(null, body));

    app.post('/v1/ingest/products', {
      config: { surface: 'v1a', minTier: 'pro' },
      bodyLimit: 64 * 1024 * 1024,
      schema: {
        tags: ['account'], summary: 'Ingest listings (NDJSON body; pro and enterprise)',
        description: 'One record per line in the format of the README "Ingest format". Answers the summary: inserted, updated, unchanged, rejected and each rejection with its line number, field and reason.',
      },
    }, async (req) => {
      const text = typeof req.body === 'string' ? req.body : '';
      if (!text.trim()) throw invalidInput(['body'], 'the body is empty; send one JSON record per line', 'missing');
      const trimmed = text.trimStart();
      // A JSON array is the same records, one per element: line numbers then count elements.
      let lines: string = text;
      if (trimmed.startsWith('[')) {
        try {
          lines = (JSON.parse(trimmed) as unknown[]).map((r) => JSON.stringify(r)).join('\n');
        } catch {
          throw invalidInput(['body'], 'the body starts with [ but is not a JSON array', 'json_invalid');
        }
      }
      const s = await c.ingest.ingestStream(Readable.from([lines]), { now: () => c.clock.now() });
      await c.tail.poke();
      return {
        lines: s.lines, inserted: s.inserted, updated: s.updated, unchanged: s.unchanged, rejected: s.rejected,
        rejections: s.rejections, events: s.events,
      };
    });
  };
}
