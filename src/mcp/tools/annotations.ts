import type { ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';

/** Every tool reads the catalog and nothing outside it: no side effects, a closed world. */
export const READ_ONLY: ToolAnnotations = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
