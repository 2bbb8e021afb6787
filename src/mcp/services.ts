import type { AlertService } from '../catalog/alert-service.js';
import type { CatalogService } from '../catalog/catalog-service.js';
import type { CompareService } from '../catalog/compare-service.js';
import type { FxService } from '../catalog/fx-service.js';
import type { HistoryService } from '../catalog/history-service.js';
import type { ProductService } from '../catalog/product-service.js';

/** The use cases the MCP server answers from: the same ones the HTTP surfaces call (the container has them all). */
export interface McpServices {
  catalog: CatalogService;
  products: ProductService;
  compare: CompareService;
  history: HistoryService;
  fx: FxService;
  alerts: AlertService;
}

export interface McpOptions {
  /** Also the tools that act for the calling key (create_alert, list_alerts): only where a key is known (HTTP). */
  keyTools?: boolean;
  /** Reported as the server's version in the MCP handshake. */
  version: string;
  /**
   * A fault in a tool (not a refusal of its arguments), with the id of the HTTP request that asked
   * when there was one: logged by the transport's owner; the model gets a generic message.
   */
  onError?: (err: unknown, tool: string, requestId?: string) => void;
}
