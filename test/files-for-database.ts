import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/**
 * Which test files the PostgreSQL run of `npm test` leaves out: the ones whose outcome cannot depend on the
 * database. A file depends on it when its imports reach test/helpers/database.ts (where TEST_DB is read and
 * every test database is made), unless it says otherwise in a line of its own:
 *
 *     // Same on every database: <why>
 *
 * (a browser's handling of headers, say, where the server behind it only has to answer). Rule tests, the
 * SQLite-only start-up test and the like then run once, in the SQLite run, instead of twice: CI's time on two
 * cores is bounded (docs/testing.md).
 */

const IMPORT = /(?:import|export)\s[^'"]*?from\s*['"](\.{1,2}\/[^'"]+)['"]|import\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g;
export const SAME_ON_EVERY_DATABASE = /^\/\/ Same on every database: \S/m;
/** A file about PostgreSQL alone (its client's prepared statements, say), which the SQLite run leaves out. */
export const POSTGRES_ONLY = /^\/\/ PostgreSQL only: \S/m;

function localImports(file: string): string[] {
  const found: string[] = [];
  for (const match of readFileSync(file, 'utf8').matchAll(IMPORT)) {
    let path = resolve(dirname(file), match[1] ?? match[2]!);
    if (!existsSync(path) && path.endsWith('.js')) path = path.replace(/\.js$/, '.ts');
    if (existsSync(path) && /\.(ts|js|mjs)$/.test(path)) found.push(path);
  }
  return found;
}

/** The test files (relative to `root`, with forward slashes) that the PostgreSQL run leaves out. */
export function databaseIndependentTestFiles(root: string): string[] {
  const databaseHelper = join(root, 'test/helpers/database.ts');
  const imports = new Map<string, string[]>();
  const importsOf = (file: string) => imports.get(file) ?? imports.set(file, localImports(file)).get(file)!;
  const reachesDatabase = (file: string, visited: Set<string>): boolean => {
    if (file === databaseHelper) return true;
    if (visited.has(file)) return false;
    visited.add(file);
    return importsOf(file).some((imported) => reachesDatabase(imported, visited));
  };
  return testFilesWhere(root, (file) => SAME_ON_EVERY_DATABASE.test(readFileSync(file, 'utf8')) || !reachesDatabase(file, new Set()));
}

/** The test files (relative to `root`, with forward slashes) that the SQLite run leaves out: see POSTGRES_ONLY. */
export function postgresOnlyTestFiles(root: string): string[] {
  return testFilesWhere(root, (file) => POSTGRES_ONLY.test(readFileSync(file, 'utf8')));
}

/** The test files under `root`/test that `keep` (given a file's absolute path) keeps, relative to `root`, with forward slashes. */
function testFilesWhere(root: string, keep: (file: string) => boolean): string[] {
  const testRoot = join(root, 'test');
  return (readdirSync(testRoot, { recursive: true }) as string[])
    .filter((name) => name.endsWith('.test.ts'))
    .map((name) => join(testRoot, name))
    .filter(keep)
    .map((file) => relative(root, file).split('\\').join('/'))
    .sort();
}
