#!/usr/bin/env node
// `npm run build` (and `npm ci`, through `prepare`): the TypeScript sources compiled to JavaScript in dist/, the same
// layout as the sources (dist/src, dist/db, dist/bench), so that every lookup relative to a module's own file finds
// its files: dist/schema/*.graphql (src/graphql/schema.ts), dist/src/hashing/bcrypt-worker.cjs (src/hashing).
//
//   node scripts/build.js                      into dist/
//   node scripts/build.js --out-dir <dir>      elsewhere (test/build.test.ts)
//   node scripts/build.js --skip-without-typescript
//                                              what `prepare` runs: an install without dev dependencies
//                                              (npm ci --omit=dev) keeps the dist/ it was given instead of failing
//
// The new build is made beside the old one and moved into place when complete, so a failed build leaves no
// half-written dist/. Its stamp file's time is when the build started: bin/compiled.js calls a source changed
// after that one the build does not have.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, renameSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { BUILD_STAMP } from '../bin/compiled.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Files tsc does not emit, copied to the same place under the output folder. */
const ASSETS = [
  ...readdirSync(join(ROOT, 'schema'))
    .filter((name) => name.endsWith('.graphql'))
    .map((name) => `schema/${name}`),
  'src/hashing/bcrypt-worker.cjs',
];

const { values: options } = parseArgs({ options: { 'out-dir': { type: 'string' }, 'skip-without-typescript': { type: 'boolean' } } });
const outDir = resolve(ROOT, options['out-dir'] ?? 'dist');

let tsc;
try {
  tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
} catch {
  if (!options['skip-without-typescript']) {
    console.error('build: typescript is not installed; run npm ci (with dev dependencies)');
    process.exit(1);
  }
  console.error(`build: skipped, typescript is not installed (dev dependencies omitted); ${existsSync(outDir) ? 'keeping' : 'there is no'} ${outDir}`);
  process.exit(0);
}

const startedAt = new Date();
const staging = join(dirname(outDir), `${basename(outDir)}.building-${process.pid}`);

/** Compiles into `staging` and moves it to `outDir`; false when tsc failed (it has printed why). */
function build() {
  const compiled = spawnSync(process.execPath, [tsc, '-p', join(ROOT, 'tsconfig.build.json'), '--outDir', staging], { cwd: ROOT, stdio: 'inherit' });
  if (compiled.status !== 0) return false;
  for (const asset of ASSETS) {
    mkdirSync(dirname(join(staging, asset)), { recursive: true });
    copyFileSync(join(ROOT, asset), join(staging, asset));
  }
  const stamp = join(staging, BUILD_STAMP);
  writeFileSync(stamp, 'The build started at the time of this file; bin/compiled.js compares the sources with it.\n');
  utimesSync(stamp, startedAt, startedAt);
  rmSync(outDir, { recursive: true, force: true });
  renameSync(staging, outDir);
  return true;
}

rmSync(staging, { recursive: true, force: true });
try {
  if (build()) {
    console.log(`build: ${outDir} in ${((Date.now() - startedAt.getTime()) / 1000).toFixed(1)} s`);
  } else {
    console.error(`build: tsc failed; ${outDir} is unchanged`);
    process.exitCode = 1;
  }
} finally {
  rmSync(staging, { recursive: true, force: true });
}
