import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { buildProblem } from '../bin/compiled.js';

/**
 * Before any test file: the tests run the command line and `serve` as operators do, through bin/adgraph.js and the
 * build in dist/ (a child process starts in half the time it takes through tsx). A build that is missing or older
 * than a source is made again here, so the code under test is always the code in the tree.
 */
export default function buildWhenStale(): void {
  const problem = buildProblem();
  if (!problem) return;
  console.log(`tests: ${problem}: building it (npm run build)`);
  const root = fileURLToPath(new URL('..', import.meta.url));
  const build = spawnSync(process.execPath, ['scripts/build.js'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) throw new Error(`tests: npm run build failed (${build.status ?? build.signal}); the command-line tests need dist/`);
}
