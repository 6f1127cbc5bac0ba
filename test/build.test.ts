import { execFile, spawn } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliEnv, lines, type CliRun } from './helpers/cli.ts';
import { createTestDatabase, type TestDatabase } from './helpers/database.ts';
import { buildInto, packageFolder as makePackageFolder, removePackageFolder } from './helpers/package-folder.ts';
import { spawnServe } from './helpers/serve-child.ts';
import { convertFormat, describeConversion } from '../src/dateformats/convert.ts';
import { DEMO_PASSWORD } from '../db/seeds/demo.ts';

/**
 * The compiled build (issue 13): `scripts/build.js` (what `npm run build` and `npm ci` run) into a package folder of its
 * own under .tmp/, holding copies of the bin files, run the way `npm start` and `adgraph` run dist/. node_modules is
 * found up the tree from there, as from dist/. The other tests that start the CLI or `serve` run the repository's own
 * dist/ through bin/adgraph.js (test/global-setup.ts builds it when a source is newer).
 */
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const MODULE_LOG_HOOK = join(ROOT, 'test/helpers/module-log.mjs');

/** Package folders made by the tests; removed after them. */
const packageFolders: string[] = [];
function packageFolder(): string {
  const folder = makePackageFolder();
  packageFolders.push(folder);
  return folder;
}

/** The environment of a command without a database; no NODE_OPTIONS, so the child runs only what a test gives it. */
const ENV: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: 'warn' };
delete ENV.NODE_OPTIONS;

function node(args: string[], env: NodeJS.ProcessEnv = ENV): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, args, { cwd: ROOT, env, timeout: 120_000 }, (error, stdout, stderr) => {
      if (error && (error.killed || error.signal)) return reject(new Error(`node ${args.join(' ')} was killed (${error.signal}): ${stderr}`));
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr });
    });
  });
}

/** The modules a run of the compiled CLI loaded (test/helpers/module-log.mjs), besides its result. */
async function loadedModules(bin: string, args: string[], env: NodeJS.ProcessEnv = ENV): Promise<{ run: CliRun; modules: string[] }> {
  const log = join(packageFolder(), 'modules.log');
  const run = await node(['--import', MODULE_LOG_HOOK, bin, ...args], { ...env, MODULE_LOG: log });
  return { run, modules: [...new Set(readFileSync(log, 'utf8').split('\n').filter(Boolean))] };
}

/** The server stack and the schema: what only `serve` needs. */
const SERVER_STACK = /\/node_modules\/(@apollo\/|express\/|@as-integrations\/|@graphql-tools\/|graphql\/|graphql-scalars\/)|\/dist\/src\/(server|graphql)\//;
/** The database layer and the logger: what commands without a database do not need either. */
const DATABASE_AND_LOGGER = /\/node_modules\/(knex|pg|better-sqlite3|pino)\//;
/**
 * What a configuration or a first use switches on (docs/decisions.md, "Operating the server"): Redis, SMTP, the
 * trace exporter, graphql-jit (a document answered a second time), file-type (an upload). None of them is loaded
 * by a process that is not configured for it or has not used it yet.
 */
const OPTIONAL_PARTS =
  /\/node_modules\/(ioredis|nodemailer|@opentelemetry\/(sdk-trace|exporter-trace-otlp-proto|resources|context-async-hooks|core)|graphql-jit|fast-json-stringify|file-type)\//;

let folder: string;
let bin: string;

beforeAll(async () => {
  folder = packageFolder();
  bin = join(folder, 'bin', 'adgraph.js');
  await buildInto(folder);
}, 120_000);

afterAll(() => {
  packageFolders.forEach(removePackageFolder);
});

describe('the compiled command line', () => {
  it('prints its help', async () => {
    const run = await node([bin, '--help']);
    expect(run, run.stderr).toMatchObject({ code: 0, stderr: '' });
    expect(run.stdout).toMatch(/^Usage: adgraph \[options\] \[command\]/);
    for (const command of ['serve', 'db', 'orgs', 'clients', 'accounts', 'dates']) expect(run.stdout).toMatch(new RegExp(`^  ${command}[ |]`, 'm'));
  });

  it('converts a date format as the sources do', async () => {
    const text = await node([bin, 'dates', 'convert', 'yyyy-MM-dd']);
    expect(text, text.stderr).toMatchObject({ code: 0, stderr: '' });
    expect(text.stdout).toBe(`${describeConversion(convertFormat('yyyy-MM-dd', { lenient: false }))}\n`);
    expect(lines(text.stdout)[0]).toBe('uuuu-MM-dd||uuuu-MM-d');
    const json = await node([bin, 'dates', 'convert', 'yyyy-MM-dd', '--json']);
    expect(JSON.parse(json.stdout)).toEqual(JSON.parse(JSON.stringify(convertFormat('yyyy-MM-dd', { lenient: false }))));
  });

  it.each([[['--help']], [['dates', 'convert', 'yyyy-MM-dd']]])('adgraph %j loads neither the server stack nor the database', async (args) => {
    const { run, modules } = await loadedModules(bin, args);
    expect(run.code, run.stderr).toBe(0);
    expect(modules).toContain(`file://${folder}/dist/src/cli/main.js`); // the log works and this is the compiled CLI
    expect(modules.filter((url) => SERVER_STACK.test(url) || DATABASE_AND_LOGGER.test(url))).toEqual([]);
  });

  it('an admin command loads the database and its services, not the server stack', async () => {
    const database = await createTestDatabase({ migrate: false });
    try {
      const { run, modules } = await loadedModules(bin, ['clients', 'list', '--json'], cliEnv(database));
      expect(run.code, run.stderr).toBe(0);
      expect(JSON.parse(run.stdout)).toMatchObject({ clients: [], next: null });
      expect(modules.some((url) => /\/node_modules\/knex\//.test(url))).toBe(true);
      expect(modules.some((url) => url.endsWith('/dist/db/migrations/index.js'))).toBe(true);
      expect(modules.filter((url) => SERVER_STACK.test(url))).toEqual([]);
      expect(modules.filter((url) => OPTIONAL_PARTS.test(url))).toEqual([]);
    } finally {
      await database.dispose();
    }
  });
});

describe('the compiled server', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase({ migrate: false });
  });
  afterAll(() => database.dispose());

  it('migrates an empty database, loads the demo data, and answers /healthz and GraphQL', { timeout: 90_000 }, async () => {
    // At info: its `adgraph is listening` line gives the address (over a pipe there is no banner).
    const moduleLog = join(packageFolder(), 'modules.log');
    const child = spawnServe(database, { LOG_LEVEL: 'info', MODULE_LOG: moduleLog }, [], ['--import', MODULE_LOG_HOOK, bin]);
    try {
      const url = await child.url();
      expect(await (await fetch(`${url}/healthz`)).json()).toEqual({ status: 'ok' });
      expect(await (await fetch(`${url}/readyz`)).json()).toEqual({ status: 'ready' });

      // The schema (dist/schema), the resolvers, and a password check in the bcrypt worker (dist/src/hashing).
      const graphql = (query: string, headers: Record<string, string> = {}) =>
        fetch(`${url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ query }) }).then((r) =>
          r.json(),
        );
      const login = await graphql(`mutation { login(input: { email: "ads@northwind.example", password: ${JSON.stringify(DEMO_PASSWORD)} }) { sessionToken } }`);
      const token = login.data?.login?.sessionToken;
      expect(token, JSON.stringify(login)).toEqual(expect.any(String));
      expect(await graphql('{ me { email } }', { 'service-session-token': token })).toEqual({ data: { me: { email: 'ads@northwind.example' } } });

      // The IDE's page and an asset it reads from node_modules.
      const page = await fetch(`${url}/graphql`, { headers: { accept: 'text/html' } });
      expect(page.status).toBe(200);
      const asset = /<script src="([^"]+)"/.exec(await page.text())?.[1];
      expect(asset).toBeDefined();
      expect((await fetch(new URL(asset!, `${url}/graphql`))).status).toBe(200);

      child.signal('SIGTERM');
      expect(await child.exited).toMatchObject({ code: 0 });

      // Served without Redis, SMTP or traces, no document answered twice and nothing uploaded: none of what those
      // switch on was loaded. The server stack was (the log works).
      const modules = readFileSync(moduleLog, 'utf8').split('\n').filter(Boolean);
      expect(modules.some((url) => /\/node_modules\/@apollo\/server\//.test(url))).toBe(true);
      expect([...new Set(modules.filter((url) => OPTIONAL_PARTS.test(url)))]).toEqual([]);
    } finally {
      await child.dispose();
    }
  });
});

describe('the bin', () => {
  it('refuses a missing or stale build in one line, and runs a fresh one', async () => {
    const copy = packageFolder();
    const copyBin = join(copy, 'bin', 'adgraph.js');
    const missing = await node([copyBin, '--help']);
    expect(missing).toMatchObject({ code: 1, stdout: '', stderr: 'adgraph: there is no build in dist/; run npm run build\n' });

    // The build keeps the time it started at; a source from before it is fine, one changed since is not.
    cpSync(join(folder, 'dist'), join(copy, 'dist'), { recursive: true, preserveTimestamps: true });
    const source = join(copy, 'src', 'cli', 'main.ts');
    mkdirSync(join(copy, 'src', 'cli'), { recursive: true });
    writeFileSync(source, '// a source file\n');
    utimesSync(source, new Date('2020-01-01'), new Date('2020-01-01'));
    expect(await node([copyBin, '--help'])).toMatchObject({ code: 0, stderr: '' });

    // A package installed inside the sources (the peers benchmark installs PostGraphile under bench/) is not a source.
    const installed = join(copy, 'bench', 'peers', 'postgraphile', 'node_modules', 'postgraphile', 'package.json');
    mkdirSync(dirname(installed), { recursive: true });
    writeFileSync(installed, '{}\n');
    expect(await node([copyBin, '--help'])).toMatchObject({ code: 0, stderr: '' });

    utimesSync(source, new Date(), new Date());
    const stale = await node([copyBin, '--help']);
    expect(stale).toMatchObject({ code: 1, stdout: '', stderr: 'adgraph: the build in dist/ is older than src/cli/main.ts; run npm run build\n' });
  });
});

describe('npm start', () => {
  it('serves the build, and Ctrl-C (SIGINT to its process group, as a terminal sends it) ends it with 0', { timeout: 90_000 }, async () => {
    // The package's own start script (its package.json is in the folder that holds the build). The database is a
    // SQLite file whatever TEST_DB says: what is tested is how npm, the shell and the server end together.
    const env = { ...ENV, DATABASE_URL: `sqlite:${join(folder, 'start.sqlite')}`, PORT: '0', LOG_LEVEL: 'info' };
    const npm = spawn('npm', ['start'], { cwd: folder, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    npm.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    npm.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      npm.once('exit', (code, signal) => resolve({ code, signal })),
    );
    try {
      let url: string | undefined;
      for (let i = 0; i < 600 && !url; i++) {
        url = /"url":"(http:\/\/[^"]+)".*"msg":"adgraph is listening"/.exec(output)?.[1];
        if (!url) await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(url, output).toBeDefined();
      expect(await (await fetch(`${url}/healthz`)).json()).toEqual({ status: 'ok' });

      process.kill(-npm.pid!, 'SIGINT');
      // Without `exec` in the script the shell between npm and node dies of the signal, and npm with it (exit 130).
      expect(await exited, output).toEqual({ code: 0, signal: null });
      expect(output).toContain('shut down cleanly');
    } finally {
      if (npm.exitCode === null && npm.signalCode === null) process.kill(-npm.pid!, 'SIGKILL');
    }
  });
});
