/**
 * An error whose body the spec fixes exactly (the compare-by-ids 400 `{error: "..."}`, the
 * compare-by-product-id 404 `{detail: "..."}`). Thrown by a route, sent as is by the error handler.
 */
export class WireError extends Error {
  constructor(readonly status: number, readonly body: Record<string, unknown>) {
    super(`wire error ${status}`);
  }
}
