import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** A worker thread's module, and its argv (tests run a TypeScript module through a loader this way). */
export interface WorkerModule {
  url: URL;
  argv?: string[];
}

/** Whether the compiled worker module at `url` is there (it is not when the sources run directly, as in tests). */
export function compiledWorkerAvailable(url: URL): boolean {
  return url.protocol === 'file:' && existsSync(fileURLToPath(url));
}
