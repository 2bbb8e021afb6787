import { readdirSync, readFileSync } from 'node:fs';

/** The guide lives in the repository as Markdown (docs/guide), from src/ and from dist/ alike. */
const GUIDE_DIR = new URL('../../../docs/guide/', import.meta.url);

/** The guide's files in name order, as one Markdown text: the introduction of the reference. */
export function readGuide(dir: URL = GUIDE_DIR): string {
  return readdirSync(dir).filter((f) => f.endsWith('.md')).sort()
    .map((f) => readFileSync(new URL(f, dir), 'utf8').trim())
    .join('\n\n');
}
