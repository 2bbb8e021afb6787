import { defineConfig } from 'vitest/config';

/** `npm run test:fuzz`: the schema-driven fuzz of every documented operation (test/fuzz); CI runs it with its fixed seed. */
export default defineConfig({
  test: {
    include: ['test/fuzz/**/*.test.ts'],
    pool: 'forks',
    testTimeout: 30 * 60_000,
  },
});
