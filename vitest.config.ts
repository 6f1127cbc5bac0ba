import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { configDefaults, defineConfig } from 'vitest/config';
import { databaseIndependentTestFiles, postgresOnlyTestFiles } from './test/files-for-database.ts';
import { SlowestFirst } from './test/slow-first.ts';

const TEST_DB = process.env.TEST_DB ?? 'sqlite';
const ROOT = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig({
  // graphql has no exports map: Node loads its CommonJS build for every importer (ours and graphql-ws's, Apollo's,
  // graphql-tools'), but Vite would hand our sources its ESM build, a second graphql whose schema objects the first
  // refuses ("from another module or realm"). The tests load the one Node loads.
  resolve: { alias: [{ find: /^graphql$/, replacement: fileURLToPath(new URL('./node_modules/graphql/index.js', import.meta.url)) }] },
  test: {
    include: ['test/**/*.test.ts'],
    // The command line and `serve` run from dist/ in the tests: built first when it is stale (test/global-setup.ts).
    globalSetup: ['test/global-setup.ts'],
    // The PostgreSQL run leaves out what cannot depend on the database, the SQLite run what is about PostgreSQL
    // alone (test/files-for-database.ts).
    exclude: [...configDefaults.exclude, ...(TEST_DB === 'postgres' ? databaseIndependentTestFiles(ROOT) : postgresOnlyTestFiles(ROOT))],
    sequence: { sequencer: SlowestFirst },
    pool: 'forks',
    // A worker runs its files one after another in one module graph: the sources (the server, Apollo, Knex, ...)
    // are loaded once per worker, not once per file, which was a fifth of the suite's time. Each file still gets
    // fresh databases and servers of its own; nothing the files share is global state.
    isolate: false,
    // A test file per core, and at least two: most files spend much of their time waiting on a server, a child
    // process or the database, and vitest's default (the cores less one) runs them one at a time on 2 cores.
    maxWorkers: Math.max(2, availableParallelism()),
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // TEST_DB picks the database every test file gets a fresh copy of (see test/helpers/database.ts).
    env: { TEST_DB },
  },
});
