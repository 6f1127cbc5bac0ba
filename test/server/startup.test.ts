import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD } from '../../db/seeds/demo.ts';
import { buildInto, packageFolder, removePackageFolder } from '../helpers/package-folder.ts';

/**
 * The embedded default never aborts (issue 26): `npm start`'s command (the compiled server on a SQLite file) started
 * 8 times on a fresh database and 20 times on an existing one, under the Node that runs the suite. Each start must
 * answer (a sign-in and a read: the database, the bcrypt workers and the compiled GraphQL executor) and exit 0 on
 * SIGTERM. better-sqlite3 12 on Node 24.19 and later aborted most starts (exit 134, an assertion in its objects'
 * destructors), at start or whenever the garbage collector finalized one: a handful of starts shows that, and a
 * fresh start costs 6 CPU seconds (loading the demo data, 105,000 fact rows), so most starts are on existing databases.
 */
const FRESH_STARTS = 8;
const STARTS = 20;
/** Each start is a process of its own on a database of its own: a few at a time keep the machine's cores busy. */
const AT_ONCE = Math.max(2, availableParallelism());
/** A start on a loaded machine: loading the server, migrating and loading the demo data. */
const START_TIMEOUT_MS = 150_000;

interface Start {
  code: number | null;
  signal: NodeJS.Signals | null;
  answered: boolean;
  output: string;
}

let folder: string;
let databases: string;
/** `npm start`'s script, run by the shell as npm runs it (without npm: the build test covers npm start itself). */
let startScript: string;

beforeAll(async () => {
  folder = packageFolder();
  databases = mkdtempSync(join(tmpdir(), 'adgraph-startup-'));
  startScript = (JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) as { scripts: { start: string } }).scripts.start;
  await buildInto(folder);
}, 120_000);

afterAll(() => {
  removePackageFolder(folder);
  rmSync(databases, { recursive: true, force: true });
});

async function graphql(url: string, query: string, token?: string): Promise<{ data?: Record<string, any> | null }> {
  const response = await fetch(`${url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { 'service-session-token': token } : {}) },
    body: JSON.stringify({ query }),
  });
  return (await response.json()) as { data?: Record<string, any> | null };
}

/**
 * Signs in as a demo user and reads who that is twice (a document is compiled when it comes back): true when each
 * answered as it should.
 */
async function answers(url: string): Promise<boolean> {
  const login = await graphql(
    url,
    `mutation { login(input: { email: "ads@northwind.example", password: ${JSON.stringify(DEMO_PASSWORD)} }) { sessionToken } }`,
  );
  const token = login.data?.login?.sessionToken as string | undefined;
  if (!token) return false;
  for (let run = 0; run < 2; run++) if ((await graphql(url, '{ me { email } }', token)).data?.me?.email !== 'ads@northwind.example') return false;
  return true;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One start of the server on `database` (a SQLite file): it must answer, then it gets SIGTERM and must exit 0. */
async function start(database: string): Promise<Start> {
  // The Node running the suite, whatever `node` on PATH is.
  const env: NodeJS.ProcessEnv = { ...process.env, PATH: `${dirname(process.execPath)}${delimiter}${process.env.PATH ?? ''}` };
  delete env.NODE_OPTIONS;
  delete env.NODE_ENV; // vitest's "test"; npm start runs in production mode
  Object.assign(env, { DATABASE_URL: `sqlite:${database}`, PORT: '0', HOST: '127.0.0.1', BCRYPT_COST: '4', LOG_LEVEL: 'info' });
  const child = spawn('sh', ['-c', startScript], { cwd: folder, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<Pick<Start, 'code' | 'signal'>>((resolve) => child.once('close', (code, signal) => resolve({ code, signal })));
  let ended = false;
  void exited.then(() => (ended = true));

  let port: string | undefined;
  for (const startedAt = Date.now(); !port && !ended && Date.now() - startedAt < START_TIMEOUT_MS; await sleep(50)) {
    port = /"url":"http:\/\/127\.0\.0\.1:(\d+)".*"msg":"adgraph is listening"/.exec(output)?.[1];
  }
  let answered = false;
  if (port)
    answered = await answers(`http://127.0.0.1:${port}`).catch((error: unknown) => ((output += `\n(request failed: ${(error as Error).message})`), false));
  else if (!ended) output += `\n(not serving within ${START_TIMEOUT_MS} ms)`;
  child.kill('SIGTERM');
  const stopping = setTimeout(() => {
    output += `\n(still running ${START_TIMEOUT_MS} ms after SIGTERM)`;
    child.kill('SIGKILL');
  }, START_TIMEOUT_MS);
  const exit = await exited;
  clearTimeout(stopping);
  return { ...exit, answered, output };
}

/** Each lane's databases started one after the other, the lanes side by side. */
async function runLanes(lanes: string[][]): Promise<Array<Start & { database: string }>> {
  const results: Array<Start & { database: string }> = [];
  await Promise.all(
    lanes.map(async (lane) => {
      for (const database of lane) results.push({ database, ...(await start(database)) });
    }),
  );
  return results;
}

/** `count` starts dealt over AT_ONCE lanes; `database(i)` names the i-th start's file. */
const lanesOf = (count: number, database: (i: number) => string) =>
  Array.from({ length: AT_ONCE }, (_, lane) =>
    Array.from({ length: count }, (_, i) => i)
      .filter((i) => i % AT_ONCE === lane)
      .map(database),
  );

const failures = (results: Array<Start & { database: string }>) =>
  results
    .filter((r) => r.code !== 0 || r.signal !== null || !r.answered)
    .map((r) => `${r.database}: exit ${r.code ?? r.signal}, answered ${r.answered}\n${r.output}`);

describe('npm start on the embedded database (SQLite)', { timeout: 20 * 60_000 }, () => {
  it(`starts ${FRESH_STARTS} times on a fresh database: each answers and exits 0 on SIGTERM`, async () => {
    const results = await runLanes(lanesOf(FRESH_STARTS, (i) => join(databases, `fresh-${i}.sqlite`)));
    expect(results).toHaveLength(FRESH_STARTS);
    expect(failures(results)).toEqual([]);
  });

  it(`starts ${STARTS} times on an existing database: each answers and exits 0 on SIGTERM`, async () => {
    // One database per lane, migrated and with the demo data: the fresh starts' when the test above ran (their
    // loading of the demo data is the costly part of a start), else made by a first start here.
    const existing = lanesOf(AT_ONCE, (lane) => join(databases, `fresh-${lane}.sqlite`)).flat();
    const missing = existing.filter((database) => !existsSync(database));
    expect(failures(await runLanes(missing.map((database) => [database])))).toEqual([]);
    const results = await runLanes(lanesOf(STARTS, (i) => existing[i % AT_ONCE]!));
    expect(results).toHaveLength(STARTS);
    expect(failures(results)).toEqual([]);
  });
});
