#!/usr/bin/env node
// The `catalog` command. Runs the compiled CLI; `npm ci` builds it through the prepare script.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const entry = join(root, 'dist', 'cli', 'main.js');
if (!existsSync(entry)) {
  console.error('catalog: the build is missing; run `npm run build` (npm ci does it for you).');
  process.exit(1);
}
await import(entry);
