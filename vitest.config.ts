import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
    exclude: ['test/scale/**', 'node_modules/**'],
    testTimeout: 20000,
    pool: 'forks',
  },
});
