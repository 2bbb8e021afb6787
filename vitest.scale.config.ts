import { defineConfig } from 'vitest/config';

/**
 * `npm run test:scale`: the suites that need PostgreSQL (TEST_DATABASE_URL) and Redis
 * (TEST_REDIS_URL). Every file works in its own schema and key prefix, so runs never collide.
 */
export default defineConfig({
  test: {
    include: ['test/scale/**/*.test.ts', 'test/store/**/*.test.ts'],
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 60_000,
    hookTimeout: 180_000,
  },
});
