import FindMyWay from 'find-my-way';
import type { FastifyInstance } from 'fastify';

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;

/**
 * Which methods a path answers, whatever the method asked: a wrong method on a known path is 405
 * with `Allow`, not 404. A router of its own mirrors every route the app registers.
 */
export class RouteIndex {
  private readonly router: FindMyWay.Instance<FindMyWay.HTTPVersion.V1>;
  private readonly served: Array<{ method: string; url: string }> = [];

  constructor(opts: { ignoreTrailingSlash: boolean; maxParamLength: number }) {
    this.router = FindMyWay(opts);
  }

  add(method: string | string[], url: string): void {
    // The CORS preflight answers OPTIONS anywhere; it says nothing of which paths exist.
    if (url === '*' || url === '/*') return;
    for (const m of Array.isArray(method) ? method : [method]) {
      if (this.router.hasRoute(m as FindMyWay.HTTPMethod, url)) continue;
      this.router.on(m as FindMyWay.HTTPMethod, url, () => undefined);
      this.served.push({ method: m, url });
    }
  }

  /** Every method and path served, once each (a path two surfaces share is one entry). */
  list(): ReadonlyArray<{ method: string; url: string }> {
    return this.served;
  }

  /** The methods `path` answers (empty when no route has it). */
  allowed(path: string): string[] {
    return METHODS.filter((m) => this.router.find(m, path) !== null);
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** What the app serves, by method and path: the reference is checked against it. */
    routeIndex: RouteIndex;
  }
}

/** Mirrors every route of `app` into a RouteIndex; call before routes are registered. */
export function indexRoutes(app: FastifyInstance, index: RouteIndex): void {
  app.decorate('routeIndex', index);
  app.addHook('onRoute', (route) => index.add(route.method, route.url));
}
