import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/**
 * A folder under .tmp/ laid out as the package is, without its build: package.json (the bins read its engines) and
 * copies of bin/. node_modules is found up the tree from there, as from the checkout.
 */
export function packageFolder(): string {
  mkdirSync(join(ROOT, '.tmp'), { recursive: true });
  const folder = mkdtempSync(join(ROOT, '.tmp', 'build-'));
  cpSync(join(ROOT, 'package.json'), join(folder, 'package.json'));
  cpSync(join(ROOT, 'bin'), join(folder, 'bin'), { recursive: true });
  return folder;
}

export function removePackageFolder(folder: string): void {
  rmSync(folder, { recursive: true, force: true });
}

/** scripts/build.js (what `npm run build` and `npm ci` run) into <folder>/dist; rejects with its output when it fails. */
export function buildInto(folder: string): Promise<void> {
  const env = { ...process.env };
  delete env.NODE_OPTIONS;
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ['scripts/build.js', '--out-dir', join(folder, 'dist')], { cwd: ROOT, env, timeout: 120_000 }, (error, stdout, stderr) =>
      error ? reject(new Error(`scripts/build.js failed (${error.message}):\n${stdout}${stderr}`)) : resolve(),
    );
  });
}
