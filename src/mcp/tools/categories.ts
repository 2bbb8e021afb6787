import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { categoryLines, presentCategories } from '../present.js';
import { guarded, ok, ToolRefusal } from '../results.js';
import { Category, IntArg, Text } from '../schemas.js';
import type { McpOptions, McpServices } from '../services.js';
import { READ_ONLY } from './annotations.js';
import { withFields } from '../../domain/with-fields.js';

const CategoriesArgs = z.object({
  parent: Text('parent', 200, 'a category slug: list what is under it (omit for the top of the tree)').optional(),
  depth: IntArg('depth', 1, 6, 2, 'levels of the tree to return'),
}).strict();

const CategoriesOut = z.object({
  parent: z.object({ name: z.string(), slug: z.string(), path: z.array(z.string()), count: z.number().int() }).nullable(),
  categories: z.array(Category),
});

export function registerCategoryTools(server: McpServer, s: McpServices, opts: McpOptions): void {
  server.registerTool('categories', {
    title: 'Category tree',
    description: 'The catalog\'s categories with listing counts, as a tree: the top levels, or what is under a `parent` slug. '
      + 'Use it to find the category name or slug to pass to search_products, deals or best_price.',
    inputSchema: CategoriesArgs, outputSchema: CategoriesOut, annotations: withFields(READ_ONLY, { title: 'Category tree' }),
  }, guarded('categories', async (a) => {
    const parent = a.parent ? await s.catalog.categoryBySlug(a.parent.toLowerCase()) : null;
    if (a.parent && !parent) throw new ToolRefusal(`No category has the slug "${a.parent}". Call categories without parent to see the slugs.`);
    const categories = presentCategories(parent ? parent.children : await s.catalog.categoryTree(), a.depth);
    const head = parent ? `Under ${parent.path.join(' > ')} [${parent.slug}] (${parent.count} listings):` : 'Categories (name [slug] listings):';
    return ok(
      { parent: parent && { name: parent.name, slug: parent.slug, path: parent.path, count: parent.count }, categories },
      [head, ...categoryLines(categories)].join('\n'),
    );
  }, opts.onError));
}
