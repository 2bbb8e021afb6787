import { defineConfig } from 'vitest/config';

/** `npm run test:slow`: worker threads, bulk loads and spawned processes; CI runs it after the default suite. */
export default defineConfig({
  test: {
    include: ['test/slow/**/*.test.ts'],
    pool: 'forks',
    testTimeout: 60_000,
  },
});
