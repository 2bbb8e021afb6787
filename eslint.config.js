import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import importX from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';

/**
 * The layers of ARCHITECTURE.md, checked: each zone names a folder and what of src/ it may not
 * import. Imports point downwards only, adapters never import each other, and no two files import
 * each other (import-x/no-cycle).
 */
const below = (target, ...allowed) => ({
  target: `./src/${target}`,
  from: './src',
  except: [`./${target}`, ...allowed.map((a) => `./${a}`)],
  message: `${target} may import only ${allowed.join(', ') || 'itself'} (ARCHITECTURE.md layers)`,
});

const LAYERS = [
  below('domain'),
  below('runtime'),
  below('limits', 'domain'),
  below('demo', 'domain'),
  below('store/sql', 'domain', 'store/types.ts'),
  below('store/sqlite', 'domain', 'runtime', 'store/types.ts', 'store/sql'),
  below('store/postgres', 'domain', 'runtime', 'store/types.ts', 'store/sql'),
  below('catalog', 'domain', 'runtime', 'store/types.ts'),
  below('accounts', 'domain', 'store/types.ts', 'limits/limiter.ts'),
  below('events', 'domain', 'store/types.ts'),
  // The MCP server: tools over the use cases; mounted on HTTP by api/mcp, on stdio by cli/.
  below('mcp', 'catalog', 'accounts', 'domain', 'store/types.ts'),
  { target: './src/store/types.ts', from: './src', except: ['./domain', './store/types.ts'], message: 'store interfaces import only domain' },
  { target: './src/http', from: './src', except: ['./http', './domain', './accounts', './limits/limiter.ts', './store/types.ts'], message: 'http/ sits under api/: it imports domain, accounts and interfaces only' },
];

// Only api/, http/ and app.ts know HTTP.
const FASTIFY = { paths: ['fastify'], patterns: ['@fastify/*'] };

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', 'bench/out/**', '.tmp/**', 'tmp/**'] }, // scratch, git-ignored
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { process: 'readonly', console: 'readonly', Buffer: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly', setInterval: 'readonly', clearInterval: 'readonly', URL: 'readonly', URLSearchParams: 'readonly' } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'warn',
    },
  },
  {
    // An object spread from another and then given members outlives the young generation on
    // Node 20 (domain/with-fields.ts). Checked where code runs per request or per record; the API
    // reference, the demo generator and the CLI run once.
    files: ['src/**/*.ts'],
    ignores: ['src/api/reference/**', 'src/demo/**', 'src/cli/**', 'src/config.ts'],
    rules: {
      'no-restricted-syntax': ['error', {
        selector: ':function ObjectExpression > SpreadElement:first-child ~ *',
        message: 'a spread followed by members makes an object V8 keeps past the young generation: withFields(base, { ... }) (domain/with-fields.ts)',
      }],
    },
  },
  {
    // The catalog page: plain ES modules run by the browser.
    files: ['web/**/*.js'],
    languageOptions: {
      sourceType: 'module',
      globals: { document: 'readonly', window: 'readonly', location: 'readonly', history: 'readonly', sessionStorage: 'readonly', fetch: 'readonly', Node: 'readonly' },
    },
  },
  {
    files: ['src/**/*.ts', 'bench/**/*.ts'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts'] },
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: './tsconfig.json' })],
    },
    rules: {
      'import-x/no-restricted-paths': ['error', { zones: LAYERS }],
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
    },
  },
  {
    files: ['src/**/*.ts'],
    ignores: ['src/api/**', 'src/http/**', 'src/app.ts'],
    rules: { 'no-restricted-imports': ['error', FASTIFY] },
  },
);
