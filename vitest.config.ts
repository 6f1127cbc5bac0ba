import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // TEST_DB picks the database every test file gets a fresh copy of (see test/helpers/database.ts).
    env: { TEST_DB: process.env.TEST_DB ?? 'sqlite' },
  },
});
