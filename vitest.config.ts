import { defineConfig } from 'vitest/config';

/** `npm test`: the fast default suite (app.inject over SQLite). Worker-thread and bulk-load tests: test:slow. */
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
    exclude: ['test/scale/**', 'test/slow/**', 'test/fuzz/**', 'node_modules/**'],
    testTimeout: 20000,
    pool: 'forks',
    // Vitest's default is one fork fewer than the CPUs: one on this 2-CPU machine, so half of it idled.
    maxWorkers: 2,
  },
});
