import type { FastifyPluginAsync } from 'fastify';
import type { Container } from '../../container.js';
import { v1Errors } from '../envelopes.js';
import type { SurfaceUnit } from '../surface-unit.js';
import { chartRoutes } from '../chart/chart-routes.js';
import { brandFilterRoutes } from './brand-filter-routes.js';
import { bulkLookupRoutes } from './bulk-lookup-routes.js';
import { clickRoutes } from './click-routes.js';
import { ingestRoutes } from './ingest-routes.js';
import { routes } from './routes.js';

/** Surface B: v1 with UUID ids and nested, numeric prices (spec 2.3, 4.3). */
export const v1b: SurfaceUnit = {
  surface: 'v1b',
  tag: { name: 'surface B', description: 'v1 with product UUIDs; prices as {amount, currency} numbers; results/data envelopes (spec 4.3)' },
  errors: v1Errors,
  routes(c: Container): FastifyPluginAsync {
    return async (app) => {
      await app.register(routes(c));
      await app.register(chartRoutes(c, 'B'));
      await app.register(clickRoutes(c));
      await app.register(ingestRoutes(c));
      await app.register(bulkLookupRoutes(c));
      await app.register(brandFilterRoutes(c));
    };
  },
};
