import type { FastifyPluginAsync } from 'fastify';
import type { Container } from '../../container.js';
import { browseRoutes } from './browse-routes.js';
import { compareRoutes } from './compare-routes.js';
import { productRoutes } from './product-routes.js';
import { searchRoutes } from './search-routes.js';

/** Surface A: v1 with integer ids and flat records. */
export function v1aRoutes(c: Container): FastifyPluginAsync {
  return async (app) => {
    await app.register(searchRoutes(c));
    await app.register(productRoutes(c));
    await app.register(compareRoutes(c));
    await app.register(browseRoutes(c));
  };
}
