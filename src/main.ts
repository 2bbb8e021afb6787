import { loadConfig } from './config.js';
import { serve } from './cli/serve.js';

// `npm run dev` entry; the `catalog` bin reaches the same serve() through cli/main.ts.
await serve(loadConfig());
