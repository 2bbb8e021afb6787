import type { FastifyPluginAsync } from 'fastify';
import type { Container } from '../../container.js';
import { v1Errors } from '../envelopes.js';
import type { SurfaceUnit } from '../surface-unit.js';
import { chartRoutes } from '../chart/chart-routes.js';
import { browseRoutes } from './browse-routes.js';
import { compareRoutes } from './compare-routes.js';
import { productRoutes } from './product-routes.js';
import { searchRoutes } from './search-routes.js';

/** Surface A: v1 with integer ids and flat records (spec 2.1, 4.2). */
export const v1a: SurfaceUnit = {
  surface: 'v1a',
  tag: { name: 'surface A', description: 'v1 with integer product ids and flat records; decimal prices as strings (spec 4.2)' },
  errors: v1Errors,
  routes(c: Container): FastifyPluginAsync {
    return async (app) => {
      await app.register(searchRoutes(c));
      await app.register(productRoutes(c));
      await app.register(chartRoutes(c, 'A'));
      await app.register(compareRoutes(c));
      await app.register(browseRoutes(c));
    };
  },
};
