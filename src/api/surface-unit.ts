import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import type { Container } from '../container.js';
import type { ErrorPresenter } from '../http/error-presenter.js';
import type { Surface } from '../http/surface.js';
import { conditionalAnswers, declareIdempotencyKey, standardErrors } from './route-errors.js';
import { withFields } from '../domain/with-fields.js';

/**
 * One front door of the API: its routes (each with its schemas and presenters), the envelope its
 * errors are answered in, and the OpenAPI tag its routes are listed under. Adding a surface is a
 * folder with its unit, and one line in app.ts.
 */
export interface SurfaceUnit {
  surface: Surface;
  /** The OpenAPI tag of every route of the surface, and what the tag says. */
  tag: { name: string; description: string };
  errors: ErrorPresenter;
  routes(c: Container): FastifyPluginAsync;
}

/**
 * Registers a unit: its error presenter, then its routes, each marked with the surface and its tag,
 * and given the error statuses and the 304 the shared hooks can answer it with (route-errors.ts)
 * beside its own.
 */
export async function registerSurface(app: FastifyInstance, unit: SurfaceUnit, c: Container): Promise<void> {
  app.errorPresenters.set(unit.surface, unit.errors);
  await app.register(async (scope) => {
    scope.addHook('onRoute', (route) => {
      const surface = route.config?.surface ?? unit.surface;
      route.config = withFields(route.config, { surface });
      if (!route.schema || route.schema.hide) return;
      if (route.config.idempotent) declareIdempotencyKey(route.schema, surface);
      route.schema.tags = route.schema.tags ?? [unit.tag.name];
      route.schema.response = Object.assign({}, standardErrors(route, surface), conditionalAnswers(route), route.schema.response as object | undefined);
    });
    await scope.register(unit.routes(c));
  });
}
