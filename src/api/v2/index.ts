import type { FastifyPluginAsync } from 'fastify';
import type { Container } from '../../container.js';
import { fieldValidation, v1Errors } from '../envelopes.js';
import type { SurfaceUnit } from '../surface-unit.js';
import { agentCompareRoutes } from './agent-compare-routes.js';
import { agentRoutes } from './agent-routes.js';
import { productRoutes } from './product-routes.js';
import { streamRoutes } from './stream-routes.js';

/** Surface V2 (spec 2.2, 4.4): integer ids, decimal prices in a target currency, agent endpoints. */
export const v2: SurfaceUnit = {
  surface: 'v2',
  tag: { name: 'v2', description: 'V2: products, search, the agent endpoints and the event streams; errors {error: {code, message, details?}}' },
  errors: { ...v1Errors, validation: fieldValidation },
  routes(c: Container): FastifyPluginAsync {
    return async (app) => {
      await app.register(productRoutes(c));
      await app.register(agentRoutes(c));
      await app.register(agentCompareRoutes(c));
      await app.register(streamRoutes(c));
    };
  },
};
