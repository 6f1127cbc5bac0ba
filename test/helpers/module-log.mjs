// `node --import ./test/helpers/module-log.mjs ...`: appends to the file MODULE_LOG the URL of every module the program
// loads, one a line: what ES modules resolve to (a resolve hook, in Node's hooks thread) and, as the process exits, what
// CommonJS loaded (require's cache), so packages that only CommonJS code requires are listed too.
import { appendFileSync } from 'node:fs';
import { createRequire, register } from 'node:module';
import { pathToFileURL } from 'node:url';
import { isMainThread } from 'node:worker_threads';

const LOG = process.env.MODULE_LOG;
if (!LOG) throw new Error('module-log.mjs: set MODULE_LOG to the file to write');

export async function resolve(specifier, context, nextResolve) {
  const resolved = await nextResolve(specifier, context);
  appendFileSync(LOG, `${resolved.url}\n`);
  return resolved;
}

// This file is also what the hooks thread loads (for resolve above); only the program's own thread registers it.
if (isMainThread) {
  register(import.meta.url);
  const { cache } = createRequire(import.meta.url);
  process.on('exit', () =>
    appendFileSync(
      LOG,
      Object.keys(cache)
        .map((path) => `${pathToFileURL(path).href}\n`)
        .join(''),
    ),
  );
}
