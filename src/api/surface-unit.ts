import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import type { Container } from '../container.js';
import type { ErrorPresenter } from '../http/error-presenter.js';
import type { Surface } from '../http/surface.js';

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

/** Registers a unit: its error presenter, then its routes, each marked with the surface and its tag. */
export async function registerSurface(app: FastifyInstance, unit: SurfaceUnit, c: Container): Promise<void> {
  app.errorPresenters.set(unit.surface, unit.errors);
  await app.register(async (scope) => {
    scope.addHook('onRoute', (route) => {
      route.config = { ...route.config, surface: route.config?.surface ?? unit.surface };
      if (route.schema && !route.schema.hide) route.schema.tags = route.schema.tags ?? [unit.tag.name];
    });
    await scope.register(unit.routes(c));
  });
}
