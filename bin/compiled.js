// The package's bins run the compiled program in dist/ (`npm run build`; `npm ci` runs it through `prepare`). A
// build that is missing, or older than a source it was made from, is refused in one line: running it would run
// code the sources no longer say. Without the sources (an install that ships only dist/) there is nothing to
// compare. Development runs the sources through tsx instead (`npm run dev`).
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { refuseUnsupportedNode } from './supported-node.js';

/** Written into the output folder by scripts/build.js; its modification time is when that build started. */
export const BUILD_STAMP = '.build-started';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** What the build reads: tsconfig.build.json's folders and the schema copied beside them, and the settings. */
const SOURCE_DIRS = ['src', 'db', 'bench', 'schema'];
const SOURCE_FILES = ['tsconfig.json', 'tsconfig.build.json'];
const SOURCE_FILE = /\.(ts|mts|mjs|graphql|json)$/;

/** The most recently modified source, or undefined without sources. */
function newestSource() {
  let newest;
  const consider = (path) => {
    let mtimeMs;
    try {
      ({ mtimeMs } = statSync(path));
    } catch {
      return; // not there (an install without the sources)
    }
    if (!newest || mtimeMs > newest.mtimeMs) newest = { path, mtimeMs };
  };
  // An installed folder inside the sources (bench/peers/postgraphile's node_modules) is not a source: not walked.
  const walk = (dir) => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return; // not there (an install without the sources)
    }
    for (const entry of entries) {
      if (entry.isDirectory() && entry.name !== 'node_modules') walk(join(dir, entry.name));
      else if (entry.isFile() && SOURCE_FILE.test(entry.name)) consider(join(dir, entry.name));
    }
  };
  for (const dir of SOURCE_DIRS) walk(join(ROOT, dir));
  for (const file of SOURCE_FILES) consider(join(ROOT, file));
  return newest;
}

/** Why dist/ cannot be run (missing, or older than a source), or null when it is current. */
export function buildProblem() {
  let builtAt;
  try {
    builtAt = statSync(join(ROOT, 'dist', BUILD_STAMP)).mtimeMs;
  } catch {
    return 'there is no build in dist/';
  }
  const newest = newestSource();
  return newest && newest.mtimeMs > builtAt ? `the build in dist/ is older than ${relative(ROOT, newest.path)}` : null;
}

/**
 * The file URL of dist/<modulePath> for `import()`; exits with one line naming `tool` when this Node is not a
 * supported one (./supported-node.js) or the build is missing or stale.
 */
export function compiled(modulePath, tool) {
  refuseUnsupportedNode(tool);
  const problem = buildProblem();
  if (problem) {
    process.stderr.write(`${tool}: ${problem}; run npm run build\n`);
    process.exit(1);
  }
  return pathToFileURL(join(ROOT, 'dist', modulePath)).href;
}
