import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    pool: 'forks',
    // A test file per core, and at least two: most files spend much of their time waiting on a server, a child
    // process or the database, and vitest's default (the cores less one) runs them one at a time on 2 cores.
    maxWorkers: Math.max(2, availableParallelism()),
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // TEST_DB picks the database every test file gets a fresh copy of (see test/helpers/database.ts).
    env: { TEST_DB: process.env.TEST_DB ?? 'sqlite' },
  },
});
