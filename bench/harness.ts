/**
 * What every benchmark shares: autocannon's API, a real server in its own process on a loopback port over a
 * fresh SQLite database with the demo data and a signed-in session, the bare-server ceiling in its own process, a check of each request before it is timed, the
 * figures as a plain-text table, and goal lines (PASS/FAIL against issue 13's goals).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { loadConfig, type Config } from '../src/config/index.ts';
import { closeAppDeps, createAppDeps, type AppDeps } from '../src/context/index.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { createLogger } from '../src/logging/index.ts';
import { startServer, type RunningServer } from '../src/server/index.ts';
import { DEMO_PASSWORD, seedDemo, type DemoSummary } from '../db/seeds/demo.ts';

// autocannon ships no type declarations; this is the part of its API the benchmarks use.
interface Histogram {
  average: number;
  mean: number;
  p50: number;
  p99: number;
  max: number;
}
export interface AutocannonResult {
  requests: Histogram & { sent: number; total: number };
  latency: Histogram;
  duration: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  statusCodeStats: Record<string, { count: number }>;
}
interface AutocannonRequest {
  method?: string;
  path?: string;
  headers?: Record<string, string>;
  body?: string;
}
export interface AutocannonOptions {
  url: string;
  connections: number;
  duration?: number;
  amount?: number;
  overallRate?: number;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  requests?: Array<AutocannonRequest & { setupRequest?: (req: AutocannonRequest) => AutocannonRequest }>;
}
export type Tracker = Promise<AutocannonResult> & {
  stop(): void;
  on(event: 'response', listener: (client: unknown, status: number, bytes: number, ms: number) => void): void;
};
export const autocannon = createRequire(import.meta.url)('autocannon') as (options: AutocannonOptions) => Tracker;

/** A positive number from the environment, or the default. */
export function positive(name: string, fallback: number): number {
  const value = Number(process.env[name] ?? fallback);
  if (!(value > 0)) throw new Error(`${name} must be a positive number`);
  return value;
}

/** Seconds each timed scenario runs, and the connections autocannon keeps open. */
export const SECONDS = positive('BENCH_SECONDS', 5);
export const CONNECTIONS = positive('BENCH_CONNECTIONS', 10);
/** The slices each timed scenario's SECONDS are cut into (see timeAll). */
export const SLICES = 4;

/** The package's root (the folder of package.json), from bench/ when run by tsx or dist/bench/ when compiled. */
export const PACKAGE_ROOT = (() => {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error('bench: no package.json above the benchmark files');
    dir = parent;
  }
  return dir;
})();

export const DEMO_USER = 'ads@northwind.example';
export const DEMO_ORGANIZATION = 'Northwind Outdoor';

/** The per-account allowance (Graph error 80004) would stop a load test of one account: lifted for benchmarks. */
export const UNLIMITED_ACCOUNT_ALLOWANCE = {
  RATE_LIMIT_ACCOUNT_CALLS: '100000000/300',
  RATE_LIMIT_ACCOUNT_TIME_MS: '100000000/300',
  RATE_LIMIT_ACCOUNT_CPU_MS: '100000000/300',
};

export interface DemoServer<P = undefined> {
  /** The server under test, in its own process. */
  url: string;
  /** Its process id. */
  pid: number;
  /** This process's connection to the server's database file, for fixtures and counting. */
  deps: AppDeps;
  config: Config;
  summary: DemoSummary;
  /** A session of DEMO_USER. */
  sessionToken: string;
  /** What `prepare` answered. */
  prepared: P;
  /** The bcrypt checks the server has sent to its worker pool so far (only with `countBcrypt`). */
  bcryptChecks(): Promise<number>;
}

/** A session of DEMO_USER on the server at `url`, through /api/v2 as any caller signs in. */
export async function signInAsDemoUser(url: string): Promise<string> {
  const login = await fetch(`${url}/api/v2/users/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: DEMO_USER, password: DEMO_PASSWORD }),
  });
  if (login.status !== 201) throw new Error(`login at ${url} failed: ${login.status} ${await login.text()}`);
  return ((await login.json()) as { session_token: string }).session_token;
}

/**
 * Runs `measure` against a fresh demo server in its own process and answers what `measure` answered. This
 * process migrates a fresh SQLite file (or the empty database `databaseUrl` names: withPostgresDatabase), loads the demo data and runs `prepare` (the section's fixtures) through
 * the services, then starts the server on that file (`serve`, compiled, or the sources through tsx when the
 * benchmarks run that way) with the section's `env`, waits for /readyz and signs in. The server gets one core,
 * autocannon (in this process) the other. At the end the server gets SIGTERM and must exit 0.
 */
export async function withDemoServer<T, P = undefined>(
  options: { env?: Record<string, string>; prepare?: (deps: AppDeps) => Promise<P>; countBcrypt?: boolean; databaseUrl?: string },
  measure: (server: DemoServer<P>) => Promise<T>,
): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), 'adgraph-bench-'));
  const env = {
    ...options.env,
    ...process.env,
    DATABASE_URL: options.databaseUrl ?? `sqlite:${join(dir, 'bench.sqlite')}`,
    LOG_LEVEL: 'silent',
    SEED_DEMO: 'false',
  };
  const config = loadConfig({ ...env, PORT: '0' });
  const deps = createAppDeps(config, { log: createLogger('silent') });
  let server: ChildServer | undefined;
  try {
    await migrateToLatest(deps.db);
    const summary = await seedDemo(deps);
    const prepared = (await options.prepare?.(deps)) as P;
    server = await startServerProcess(env, !!options.countBcrypt);
    const sessionToken = await signInAsDemoUser(server.url);
    const measured = await measure({
      url: server.url,
      pid: server.child.process.pid!,
      deps,
      config,
      summary,
      sessionToken,
      prepared,
      bcryptChecks: server.bcryptChecks,
    });
    await server.child.stop();
    return measured;
  } finally {
    await server?.child.stop().catch(() => undefined); // already stopped, or the error that got here matters more
    await closeAppDeps(deps).catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Runs `use` against a server in this process over the same database (untimed: for counting what it does on
 * its Knex instance), with its own connections, closed at the end.
 */
export async function withServerInProcess<T>(config: Config, use: (url: string, db: AppDeps['db']) => Promise<T>): Promise<T> {
  const deps = createAppDeps(config, { log: createLogger('silent') });
  let running: RunningServer;
  try {
    running = await startServer(deps, { port: 0, host: '127.0.0.1' });
  } catch (error) {
    await closeAppDeps(deps).catch(() => undefined);
    throw error;
  }
  try {
    return await use(running.url, deps.db);
  } finally {
    await running.close();
  }
}

/** A process the benchmark started: its output so far (for errors), and SIGTERM that must end it with 0. */
export interface Child {
  process: ChildProcess;
  output(): string;
  stop(): Promise<void>;
}

/** Spawns `node [execArgv] args` (tsx's loader comes along when the benchmarks run under tsx). */
export function spawnChild(label: string, args: string[], options: { env?: NodeJS.ProcessEnv; ipc?: boolean; cwd?: string } = {}): Child {
  const child = spawn(process.execPath, [...process.execArgv, ...args], {
    cwd: options.cwd ?? PACKAGE_ROOT,
    env: options.env ?? process.env,
    stdio: ['ignore', 'pipe', 'pipe', ...(options.ipc ? ['ipc' as const] : [])],
  });
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString('utf8')).slice(-4000);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      const ended = await Promise.race([exited, new Promise<null>((resolve) => setTimeout(resolve, 30_000, null))]);
      if (!ended) {
        child.kill('SIGKILL');
        throw new Error(`${label} did not exit within 30s of SIGTERM; its output: ${output}`);
      }
      if (ended.code !== 0) throw new Error(`${label} exited with ${ended.code ?? ended.signal}, not 0; its output: ${output}`);
    })());
  return { process: child, output: () => output, stop };
}

/** A port nothing listens on now, for a server that takes its port from the environment. */
export async function freePort(): Promise<number> {
  const probe = createNetServer();
  await new Promise<void>((resolve, reject) => {
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', resolve);
  });
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

export interface ChildServer {
  url: string;
  child: Child;
  bcryptChecks(): Promise<number>;
}

/** The bench modules' extension: .ts under tsx, .js compiled; a sibling module is run the same way. */
const MODULE_EXTENSION = extname(fileURLToPath(import.meta.url));
const moduleFile = (relativePath: string) => fileURLToPath(new URL(`${relativePath}${MODULE_EXTENSION}`, import.meta.url));

/**
 * Node's flags as `npm start` gives them, read from its script so the server is measured as it runs (today a
 * young generation of 64 MB: docs/benchmarks.md, Performance notes).
 */
const SERVER_NODE_FLAGS = (JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { scripts: { start: string } }).scripts.start
  .split(/\s+/)
  .filter((word) => word.startsWith('--'));

/**
 * `adgraph serve` in its own process on a free loopback port, ready once /readyz answers 200. The CLI's module
 * of this build is run directly rather than bin/adgraph.js: the benchmarks already run this build, and the bin
 * would refuse it if a source changed since (another checkout's edits during a long run).
 */
export async function startServerProcess(env: NodeJS.ProcessEnv, countBcrypt: boolean): Promise<ChildServer> {
  const port = await freePort();
  const entry = countBcrypt ? [moduleFile('./count-bcrypt')] : [];
  const child = spawnChild('the server', [...SERVER_NODE_FLAGS, ...entry, moduleFile('../src/cli/main'), 'serve'], {
    env: { ...env, PORT: String(port), HOST: '127.0.0.1' },
    ipc: countBcrypt,
  });
  const url = `http://127.0.0.1:${port}`;
  await waitUntilReady('the server', child, url);
  const bcryptChecks = () =>
    new Promise<number>((resolve, reject) => {
      if (!countBcrypt) return reject(new Error('this server does not count bcrypt checks (countBcrypt)'));
      child.process.once('message', (message: { bcryptChecks: number }) => resolve(message.bcryptChecks));
      child.process.send('bcrypt-checks');
    });
  return { url, child, bcryptChecks };
}

/** Waits for the server in `child` to answer /readyz with 200 (stopping it if it does not within 60 s). */
export async function waitUntilReady(label: string, child: Child, url: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.process.exitCode !== null) throw new Error(`${label} exited with ${child.process.exitCode} before it was ready: ${child.output()}`);
    const status = await fetch(`${url}/readyz`).then(
      (response) => response.status,
      () => 0,
    );
    if (status === 200) return;
    if (Date.now() > deadline) {
      await child.stop().catch(() => undefined);
      throw new Error(`${label} was not ready within 60s (last /readyz status ${status}): ${child.output()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * The bare-server ceiling in its own process (bench/ceiling.ts) answering every request with `bytes`; `stop`
 * ends it.
 */
export async function startCeiling(bytes: Buffer): Promise<{ url: string; pid: number; stop(): Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), 'adgraph-ceiling-'));
  const file = join(dir, 'answer.json');
  writeFileSync(file, bytes);
  try {
    const ceiling = await startPortPrinter('the ceiling', [moduleFile('./ceiling'), file]);
    return {
      url: ceiling.url,
      pid: ceiling.pid,
      stop: async () => {
        try {
          await ceiling.stop();
        } finally {
          rmSync(dir, { recursive: true, force: true });
        }
      },
    };
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}

/** A benchmark module run as its own process (`./peers/bare-express`: .ts under tsx, .js compiled). */
export const benchModule = moduleFile;

/**
 * `node args` in its own process, a server that prints its port on a line once it listens (bench/ceiling.ts,
 * bench/peers/*); answers its loopback URL, and `stop`, which sends SIGTERM and wants exit code 0.
 */
export async function startPortPrinter(
  label: string,
  args: string[],
  options: { env?: NodeJS.ProcessEnv; cwd?: string } = {},
): Promise<{ url: string; pid: number; stop(): Promise<void> }> {
  const child = spawnChild(label, args, options);
  const port = await new Promise<string>((resolve, reject) => {
    let line = '';
    child.process.stdout!.on('data', (chunk: Buffer) => {
      line += chunk.toString('utf8');
      const port = /^(\d+)\n/m.exec(line)?.[1];
      if (port) resolve(port);
    });
    child.process.once('exit', (code) => reject(new Error(`${label} exited with ${code} before it listened: ${child.output()}`)));
  }).catch(async (error: unknown) => {
    await child.stop().catch(() => undefined);
    throw error;
  });
  return { url: `http://127.0.0.1:${port}`, pid: child.process.pid!, stop: child.stop };
}

/** The PostgreSQL server the benchmarks create their databases on (a role that may create databases). */
export const BENCH_POSTGRES_URL = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/**
 * Runs `use` with the URL of a new, empty PostgreSQL database on BENCH_POSTGRES_URL's server, dropped at the
 * end (and first, when an interrupted run left it behind).
 */
export async function withPostgresDatabase<T>(name: string, use: (url: string) => Promise<T>): Promise<T> {
  const admin = new pg.Client({ connectionString: BENCH_POSTGRES_URL });
  await admin.connect();
  const drop = () => admin.query(`drop database if exists "${name}" with (force)`);
  try {
    await drop();
    await admin.query(`create database "${name}"`);
    const url = new URL(BENCH_POSTGRES_URL);
    url.pathname = `/${name}`;
    return await use(url.toString());
  } finally {
    await drop().catch(() => undefined);
    await admin.end();
  }
}

/** One HTTP request as autocannon sends it again and again. */
export interface BenchRequest {
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  /** The process that serves it: its CPU time per request is printed too (Linux, /proc). */
  servedBy?: number;
}

/**
 * CPU time (user and system) a process has used so far, in milliseconds, from /proc/<pid>/stat; null where
 * there is no /proc. Per request over a timed scenario it varies far less than requests per second on a shared
 * machine: the load generator and the database take the same cores.
 */
export function cpuMsOf(pid: number): number | null {
  try {
    // The command name (2nd field) may hold spaces and parentheses: fields are counted after its last ")".
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]); // utime and stime, fields 14 and 15
    return Number.isFinite(ticks) ? ticks * (1000 / CLOCK_TICKS_PER_SECOND) : null;
  } catch {
    return null;
  }
}
/** Linux's USER_HZ, 100 on every architecture Node runs on. */
const CLOCK_TICKS_PER_SECOND = 100;

/**
 * Sends `request` once and answers its body after checking it: a fast error is not a fast answer, so a
 * non-2xx status, or a body `verify` finds wrong (it answers what is wrong), stops the benchmark.
 */
export async function checked(label: string, request: BenchRequest, verify: (body: Buffer) => string | null = () => null): Promise<Buffer> {
  const response = await fetch(request.url, { method: request.method ?? 'GET', headers: request.headers, body: request.body });
  const body = Buffer.from(await response.arrayBuffer());
  const wrong = response.ok ? verify(body) : `status ${response.status}`;
  if (wrong) throw new Error(`${label}: ${wrong}; the answer was ${body.toString('utf8').slice(0, 500)}`);
  return body;
}

/** GraphQL data, or why there is none. */
export function graphqlData<T>(body: Buffer): { data: T } | { wrong: string } {
  const parsed = JSON.parse(body.toString('utf8')) as { data?: T; errors?: unknown[] };
  if (parsed.errors || !parsed.data) return { wrong: `GraphQL errors ${JSON.stringify(parsed.errors)}` };
  return { data: parsed.data };
}

/** A scenario's figures: the 2xx answers' p50/p99 come from each response's own time, unrounded. */
export interface Timed {
  requests: number;
  rps: number;
  /** The serving process's CPU milliseconds per 1,000 requests, when its pid was given and /proc has it. */
  cpuMsPer1000: number | null;
  p50: number;
  p99: number;
  unexpected: string | null;
}

/**
 * Times each request for SECONDS with CONNECTIONS, after a short warm-up of each (the JIT compiles the hot
 * paths before the clock runs, as on a server that has been up a while). Each gets its time in SLICES
 * slices, the scenarios in order, then in reverse, and so on, so that a change in the machine's load (other
 * processes, the garbage left by filling a table) weighs on every scenario alike, not on the first ones.
 * autocannon's own percentiles are whole milliseconds, too coarse for the fast scenarios.
 */
export async function timeAll(requests: BenchRequest[]): Promise<Timed[]> {
  const options = (request: BenchRequest) => ({
    url: request.url,
    connections: CONNECTIONS,
    method: request.method ?? 'GET',
    headers: request.headers,
    body: request.body,
  });
  for (const request of requests) await autocannon({ ...options(request), amount: 20 * CONNECTIONS });
  const runs = requests.map(() => ({
    latencies: [] as number[],
    requests: 0,
    seconds: 0,
    statuses: {} as Record<string, number>,
    errors: 0,
    cpuMs: 0 as number | null,
  }));
  const order = requests.map((_, i) => i);
  for (let slice = 0; slice < SLICES; slice++) {
    const pass = slice % 2 === 0 ? order : [...order].reverse();
    for (const i of pass) {
      const run = runs[i]!;
      const servedBy = requests[i]!.servedBy;
      const cpuBefore = servedBy === undefined ? null : cpuMsOf(servedBy);
      const tracker = autocannon({ ...options(requests[i]!), duration: SECONDS / SLICES });
      tracker.on('response', (_client, status, _bytes, ms) => {
        if (status >= 200 && status < 300) run.latencies.push(ms);
      });
      const result = await tracker;
      const cpuAfter = servedBy === undefined ? null : cpuMsOf(servedBy);
      run.cpuMs = run.cpuMs === null || cpuBefore === null || cpuAfter === null ? null : run.cpuMs + cpuAfter - cpuBefore;
      run.requests += result.requests.total;
      run.seconds += result.duration;
      run.errors += result.errors + result.timeouts;
      for (const [code, { count }] of Object.entries(result.statusCodeStats)) run.statuses[code] = (run.statuses[code] ?? 0) + count;
    }
  }
  return runs.map((run) => {
    const latencies = run.latencies.sort((a, b) => a - b);
    const percentile = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))] ?? NaN;
    const non2xx = Object.entries(run.statuses).filter(([code]) => !code.startsWith('2'));
    const unexpected =
      non2xx.length > 0 || run.errors > 0 || run.requests === 0
        ? `statuses ${
            Object.entries(run.statuses)
              .map(([code, count]) => `${code}:${count}`)
              .join(' ') || 'none'
          }, errors and timeouts ${run.errors}, requests ${run.requests}`
        : null;
    // Null when the request named no process (its first slice made it null) or /proc had none.
    const cpuMsPer1000 = run.cpuMs !== null && run.requests > 0 ? (run.cpuMs * 1000) / run.requests : null;
    return { requests: run.requests, rps: run.requests / Math.max(run.seconds, 0.001), cpuMsPer1000, p50: percentile(50), p99: percentile(99), unexpected };
  });
}

/** A scenario's row: req/s, p50, p99, and its ratio to a reference run when there is one. */
export function figures(run: Timed, reference?: { label: string; run: Timed }): Record<string, string> {
  return {
    'req/s': run.rps.toFixed(0),
    'p50 ms': formatMs(run.p50),
    'p99 ms': formatMs(run.p99),
    ...(reference ? { [`vs ${reference.label}`]: (run.rps / reference.run.rps).toFixed(4) } : {}),
    ...(run.cpuMsPer1000 !== null ? { 'CPU ms/1k': run.cpuMsPer1000.toFixed(0) } : {}),
    requests: String(run.requests),
  };
}

const formatMs = (ms: number) => (ms < 10 ? ms.toFixed(2) : ms < 100 ? ms.toFixed(1) : ms.toFixed(0));

/** Prints rows as an aligned table: text columns to the left, figures to the right. */
export function printTable(rows: Array<Record<string, string>>, leftAligned: string[] = []): void {
  const columns = Object.keys(rows[0]!);
  const widths = columns.map((column) => Math.max(column.length, ...rows.map((row) => (row[column] ?? '').length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => (i === 0 || leftAligned.includes(columns[i]!) ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!)))
      .join('  ')
      .trimEnd();
  console.log(line(columns));
  console.log(line(widths.map((width) => '-'.repeat(width))));
  for (const row of rows) console.log(line(columns.map((column) => row[column] ?? '')));
}

/** A measured figure against one of the issue's goals. */
export interface Goal {
  label: string;
  measured: string;
  target: string;
  pass: boolean;
}

export function goal(label: string, value: number, comparison: '>=' | '<=', target: number, digits = 2): Goal {
  const pass = comparison === '>=' ? value >= target : value <= target;
  return { label, measured: `${value.toFixed(digits)}x`, target: `${comparison} ${target}x`, pass };
}

/** A goal's line, its label padded to `width` so that the figures of several lines align. */
export const goalLine = (g: Goal, width = g.label.length) =>
  `${g.pass ? 'PASS' : 'FAIL'}  ${g.label.padEnd(width)}  ${g.measured.padStart(7)}  (goal ${g.target})`;

/**
 * What one benchmark section found: `ok` is false when something unexpected was answered (the run fails);
 * a missed goal is reported, not a failure of the run.
 */
export interface SectionOutcome {
  ok: boolean;
  goals: Goal[];
}

/** Prints the unexpected answers of timed runs and answers whether there were none. */
export function reportUnexpected(runs: Array<{ name: string; run: Timed }>): boolean {
  const wrong = runs.filter(({ run }) => run.unexpected);
  for (const { name, run } of wrong) console.error(`FAILED RUN  ${name}: ${run.unexpected}`);
  return wrong.length === 0;
}
