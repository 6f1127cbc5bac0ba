import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { unsupportedNodeMessage } from '../bin/supported-node.js';
import type { CliRun } from './helpers/cli.ts';

/**
 * The Node.js versions the project runs on are package.json's engines (24 and 22, issue 26). On another one the
 * bins and `npm test` refuse in one line naming them, before loading anything native: better-sqlite3 13 crashes
 * on Node 20 with a segmentation fault, and npm only warns about engines.
 */
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const ENGINES = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string } }).engines.node;
const MODULE_LOG_HOOK = join(ROOT, 'test/helpers/module-log.mjs');
/** Makes the Node running the tests report 20.20.2, the version the project used to run on, to the program. */
const AS_NODE_20 = `data:text/javascript,Object.defineProperty(process.versions, 'node', { value: '20.20.2' })`;

const scratch = mkdtempSync(join(tmpdir(), 'adgraph-node-version-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function node(args: string[], env: NodeJS.ProcessEnv): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, args, { cwd: ROOT, env, timeout: 60_000 }, (error, stdout, stderr) => {
      if (error && (error.killed || error.signal)) return reject(new Error(`node ${args.join(' ')} was killed (${error.signal}): ${stdout}${stderr}`));
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr });
    });
  });
}

describe('the supported Node.js versions', () => {
  it('are the 24 and 22 lines', () => {
    expect(ENGINES).toBe('^22.13.0 || ^24.0.0');
  });

  it.each([
    ['24.21.0', true],
    ['24.0.0', true],
    ['22.23.3', true],
    ['22.13.0', true],
    ['22.12.0', false], // older than what the dev tools need (vitest, @inquirer)
    ['20.20.2', false],
    ['23.11.0', false],
    ['25.9.0', false],
    ['26.10.0', false],
  ])('Node %s: supported %s', (version, supported) => {
    const message = unsupportedNodeMessage('adgraph', version, ENGINES);
    if (supported) expect(message).toBeUndefined();
    else expect(message).toBe(`adgraph: Node.js ${version} is not supported; use Node.js 24 or 22 (package.json engines: ${ENGINES})`);
  });
});

describe('on a Node that is not supported', () => {
  const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: `sqlite:${join(scratch, 'serve.sqlite')}`, PORT: '0', LOG_LEVEL: 'warn' };
  delete env.NODE_OPTIONS;

  it('adgraph serve refuses in one line, having loaded neither the build nor the database driver', async () => {
    const log = join(scratch, 'modules.log');
    const run = await node(['--import', AS_NODE_20, '--import', MODULE_LOG_HOOK, 'bin/adgraph.js', 'serve'], { ...env, MODULE_LOG: log });
    expect(run).toEqual({
      code: 1,
      stdout: '',
      stderr: `adgraph: Node.js 20.20.2 is not supported; use Node.js 24 or 22 (package.json engines: ${ENGINES})\n`,
    });
    const modules = readFileSync(log, 'utf8').split('\n').filter(Boolean);
    expect(modules).toContain(`file://${ROOT}bin/supported-node.js`); // the log works
    expect(modules.filter((url) => /\/dist\/|\/node_modules\/(better-sqlite3|knex|pg)\//.test(url))).toEqual([]);
  });

  it('npm test refuses in one line and ends with its summary line', async () => {
    const run = await node(['--import', AS_NODE_20, 'scripts/test-all.js'], env);
    expect(run).toEqual({
      code: 1,
      stdout: 'tests: 0 passed, 0 failed, 0 skipped\n',
      stderr: `npm test: Node.js 20.20.2 is not supported; use Node.js 24 or 22 (package.json engines: ${ENGINES})\n`,
    });
  });
});
