import { readFile } from 'node:fs/promises';
import type { FastifyPluginAsync } from 'fastify';
import ipaddr from 'ipaddr.js';
import { Type } from 'typebox';
import type { Container } from '../../container.js';
import { DomainError } from '../../domain/errors.js';
import { CodedError, DetailValidation } from '../error-schemas.js';

/** The catalog page: plain files of web/, no build step (two levels above both src/api/page and dist/api/page). */
const WEB = new URL('../../../web/', import.meta.url);
const FILES: Record<string, { file: string; type: string }> = {
  '/': { file: 'index.html', type: 'text/html; charset=utf-8' },
  '/page/app.js': { file: 'app.js', type: 'text/javascript; charset=utf-8' },
  '/page/render.js': { file: 'render.js', type: 'text/javascript; charset=utf-8' },
  '/page/style.css': { file: 'style.css', type: 'text/css; charset=utf-8' },
};

/**
 * The page loads only itself: its script, its style, the API and the chart images. No inline script
 * can run, so a title that slipped through as markup still could not; and no referrer carries a
 * URL out.
 */
const PAGE_POLICY = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

const DemoKey = Type.Object({ api_key: Type.String(), tier: Type.String(), note: Type.String() });

const isLoopback = (ip: string) => {
  try {
    return ipaddr.process(ip).range() === 'loopback';
  } catch {
    return false;
  }
};

/** GET / (the catalog page and its files) and GET /demo/key; both public. */
export function pageRoutes(c: Container): FastifyPluginAsync {
  return async (app) => {
    const read = new Map<string, Promise<Buffer>>();
    for (const [path, { file, type }] of Object.entries(FILES)) {
      app.get(path, { config: { auth: false }, schema: { hide: true } }, async (_req, reply) => {
        let body = read.get(file);
        if (!body) read.set(file, (body = readFile(new URL(file, WEB))));
        return reply.type(type).header('Cache-Control', 'no-cache').header('Content-Security-Policy', PAGE_POLICY)
          .header('Referrer-Policy', 'no-referrer').send(await body);
      });
    }

    app.get('/demo/key', {
      // A secret, answered no-store: never tagged, no 304.
      config: { auth: false, etag: false },
      schema: {
        summary: 'The demo key, for the catalog page (embedded demo store only, asked from this machine)', security: [],
        description: 'Answers only on the start that loaded the demo catalog into the embedded store (the key its banner printed), and only to a loopback address; 404 otherwise.',
        response: { 200: DemoKey, 404: CodedError, 422: DetailValidation },
      },
    }, async (req, reply) => {
      const key = c.demoKey.value;
      if (!key || c.store.kind !== 'sqlite' || !isLoopback(req.ip)) {
        throw new DomainError('NOT_FOUND', 'No demo key here: paste an API key (npx catalog keys create --tier pro).');
      }
      reply.header('Cache-Control', 'no-store');
      return { api_key: key, tier: 'pro', note: 'The demo key printed at start; for this machine only.' };
    });
  };
}
