/**
 * What every benchmark shares: autocannon's API, a real server on a loopback port over a fresh SQLite
 * database with the demo data and a signed-in session, and a plain-text table of the figures.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig, type Config } from '../src/config/index.ts';
import { closeAppDeps, createAppDeps, type AppDeps } from '../src/context/index.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { createLogger } from '../src/logging/index.ts';
import { startServer } from '../src/server/index.ts';
import { DEMO_PASSWORD, seedDemo, type DemoSummary } from '../db/seeds/demo.ts';

// autocannon ships no type declarations; this is the part of its API the benchmarks use.
interface Histogram { average: number; mean: number; p50: number; p99: number; max: number }
export interface AutocannonResult {
  requests: Histogram & { sent: number; total: number };
  latency: Histogram;
  duration: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  statusCodeStats: Record<string, { count: number }>;
}
interface AutocannonRequest { method?: string; path?: string; headers?: Record<string, string>; body?: string }
export interface AutocannonOptions {
  url: string; connections: number; duration?: number; amount?: number; overallRate?: number; method?: string;
  headers?: Record<string, string>; body?: string;
  requests?: Array<AutocannonRequest & { setupRequest?: (req: AutocannonRequest) => AutocannonRequest }>;
}
export type Tracker = Promise<AutocannonResult> & { stop(): void };
export const autocannon = createRequire(import.meta.url)('autocannon') as (options: AutocannonOptions) => Tracker;

/** A positive number from the environment, or the default. */
export function positive(name: string, fallback: number): number {
  const value = Number(process.env[name] ?? fallback);
  if (!(value > 0)) throw new Error(`${name} must be a positive number`);
  return value;
}

export const DEMO_USER = 'ads@northwind.example';

export interface DemoServer {
  url: string;
  deps: AppDeps;
  config: Config;
  summary: DemoSummary;
  /** A session of DEMO_USER. */
  sessionToken: string;
}

/**
 * Runs `measure` against a fresh demo server and sets the exit code from its answer (false: something
 * unexpected was seen). `prepare` sees the dependencies before the server starts.
 */
export async function withDemoServer(
  options: { env?: Record<string, string>; prepare?: (deps: AppDeps) => void },
  measure: (server: DemoServer) => Promise<boolean>,
): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'adgraph-bench-'));
  const config = loadConfig({
    ...options.env, ...process.env, DATABASE_URL: `sqlite:${join(dir, 'bench.sqlite')}`, LOG_LEVEL: 'silent', PORT: '0', SEED_DEMO: 'false',
  });
  const deps = createAppDeps(config, { log: createLogger('silent') });
  options.prepare?.(deps);
  let running: Awaited<ReturnType<typeof startServer>> | undefined;
  try {
    await migrateToLatest(deps.db);
    const summary = await seedDemo(deps);
    running = await startServer(deps, { port: 0, host: '127.0.0.1' });
    const login = await fetch(`${running.url}/api/v2/users/login`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: DEMO_USER, password: DEMO_PASSWORD }),
    });
    if (login.status !== 201) throw new Error(`login failed: ${login.status} ${await login.text()}`);
    const { session_token: sessionToken } = (await login.json()) as { session_token: string };
    if (!(await measure({ url: running.url, deps, config, summary, sessionToken }))) process.exitCode = 1;
  } finally {
    await (running ? running.close() : closeAppDeps(deps)).catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Prints rows as an aligned table: text columns to the left, figures to the right. */
export function printTable(rows: Array<Record<string, string>>, leftAligned: string[] = []): void {
  const columns = Object.keys(rows[0]!);
  const widths = columns.map((column) => Math.max(column.length, ...rows.map((row) => row[column]!.length)));
  const line = (cells: string[]) =>
    cells.map((cell, i) => (i === 0 || leftAligned.includes(columns[i]!) ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ');
  console.log(line(columns));
  console.log(line(widths.map((width) => '-'.repeat(width))));
  for (const row of rows) console.log(line(columns.map((column) => row[column]!)));
}
