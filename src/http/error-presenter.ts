import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { WindowState } from '../accounts/quota.js';
import type { ErrorCode } from '../domain/errors.js';
import type { FieldProblem } from './request-error.js';
import type { Surface } from './surface.js';

/** A surface's error bodies: every error it answers, the rate-limit ones included, is built here. */
export interface ErrorPresenter {
  error(code: ErrorCode, message: string, details?: Record<string, unknown>): unknown;
  validation(problems: FieldProblem[]): unknown;
  rateLimited(window: WindowState, message: string): unknown;
  dailyLimited(window: WindowState, message: string, upgradeUrl: string): unknown;
}

declare module 'fastify' {
  interface FastifyInstance {
    errorPresenters: Map<Surface, ErrorPresenter>;
    /** The surface of a request no route answers (by its path and dispatch rules). */
    surfaceOfUnrouted: (req: FastifyRequest) => Surface;
  }
}

export function installErrorPresenters(app: FastifyInstance, fallback: ErrorPresenter, surfaceOfUnrouted: (req: FastifyRequest) => Surface): void {
  app.decorate('errorPresenters', new Map<Surface, ErrorPresenter>([['account', fallback]]));
  app.decorate('surfaceOfUnrouted', surfaceOfUnrouted);
}

export function surfaceOf(req: FastifyRequest): Surface {
  return req.routeOptions.config?.surface ?? req.server.surfaceOfUnrouted(req);
}

/** The error presenter of the surface a request was asked in. */
export function presenterFor(req: FastifyRequest): ErrorPresenter {
  const presenters = req.server.errorPresenters;
  return presenters.get(surfaceOf(req)) ?? presenters.get('account')!;
}
