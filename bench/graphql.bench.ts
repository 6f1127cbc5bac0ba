/**
 * Throughput and latency of the GraphQL endpoint against a real server on a loopback port, over a fresh
 * SQLite database loaded with the demo data. Run with `npm run bench` (BENCH_SECONDS=5 per scenario,
 * BENCH_CONNECTIONS=10). Each GraphQL scenario is reported beside the plain GET /healthz baseline
 * measured in the same run, so the ratios mean something on any machine.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../src/config/index.ts';
import { createAppDeps, type AppDeps } from '../src/context/index.ts';
import { createDatabase } from '../src/db/index.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { createLogger } from '../src/logging/index.ts';
import { startServer } from '../src/server/index.ts';
import { DEMO_PASSWORD, seedDemo } from '../db/seeds/demo.ts';

// autocannon ships no type declarations; this is the part of its API the benchmark uses.
interface Histogram { average: number; mean: number; p50: number; p99: number; max: number }
interface AutocannonResult {
  requests: Histogram & { sent: number; total: number };
  latency: Histogram;
  non2xx: number;
  errors: number;
  timeouts: number;
  statusCodeStats: Record<string, { count: number }>;
}
type Autocannon = (options: {
  url: string; connections: number; duration: number; method?: string; headers?: Record<string, string>; body?: string;
}) => Promise<AutocannonResult>;
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
if (!(SECONDS > 0) || !(CONNECTIONS > 0)) throw new Error('BENCH_SECONDS and BENCH_CONNECTIONS must be positive numbers');

const LIGHT = '{ me { id } }';
const NESTED = '{ adAccounts(first: 5) { nodes { adSets(first: 25) { nodes { name campaign { name } account { name } ads(first: 5) { nodes { name } } } } } } }';

interface Scenario { name: string; run: () => Promise<AutocannonResult> }

const dir = mkdtempSync(join(tmpdir(), 'adgraph-bench-'));
const config = loadConfig({
  ...process.env, DATABASE_URL: `sqlite:${join(dir, 'bench.sqlite')}`, LOG_LEVEL: 'silent', PORT: '0', SEED_DEMO: 'false',
});
const deps: AppDeps = createAppDeps(config, { log: createLogger('silent') });
let exitCode = 0;
try {
  await migrateToLatest(deps.db);
  const summary = await seedDemo(deps);
  const running = await startServer(deps, { port: 0, host: '127.0.0.1' });
  try {
    const login = await fetch(`${running.url}/api/v2/users/login`, {
      method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'ads@northwind.example', password: DEMO_PASSWORD }),
    });
    if (login.status !== 201) throw new Error(`login failed: ${login.status} ${await login.text()}`);
    const { session_token: token } = (await login.json()) as { session_token: string };
    const graphqlHeaders = { 'content-type': 'application/json', 'service-session-token': token };

    // Check each query once before timing it: a fast error is not a fast answer.
    const check = async (query: string) => {
      const response = await fetch(`${running.url}/graphql`, { method: 'POST', headers: graphqlHeaders, body: JSON.stringify({ query }) });
      const body = (await response.json()) as { data?: Record<string, any>; errors?: unknown[] };
      if (response.status !== 200 || body.errors) throw new Error(`${query} answered ${response.status}: ${JSON.stringify(body).slice(0, 500)}`);
      return body.data!;
    };
    await check(LIGHT);
    const nested = await check(NESTED);
    const accounts = nested.adAccounts.nodes as Array<{ adSets: { nodes: Array<{ ads: { nodes: unknown[] } }> } }>;
    const adSetCount = accounts.reduce((n, a) => n + a.adSets.nodes.length, 0);
    const adCount = accounts.reduce((n, a) => n + a.adSets.nodes.reduce((m, s) => m + s.ads.nodes.length, 0), 0);

    const graphql = (query: string) => () =>
      autocannon({ url: `${running.url}/graphql`, connections: CONNECTIONS, duration: SECONDS, method: 'POST', headers: graphqlHeaders, body: JSON.stringify({ query }) });
    const scenarios: Scenario[] = [
      { name: '(a) GET /healthz', run: () => autocannon({ url: `${running.url}/healthz`, connections: CONNECTIONS, duration: SECONDS }) },
      { name: '(b) { me { id } }', run: graphql(LIGHT) },
      { name: `(c) nested: ${accounts.length} accounts, ${adSetCount} ad sets, ${adCount} ads`, run: graphql(NESTED) },
    ];

    console.log(`adgraph benchmark: SQLite, demo data (${summary.counts.adSets} ad sets, ${summary.counts.ads} ads), ${CONNECTIONS} connections, ${SECONDS}s per scenario, GRAPHQL_MAX_COST=${config.graphql.maxCost}, Node ${process.version}\n`);
    const results: Array<{ name: string; result: AutocannonResult }> = [];
    for (const scenario of scenarios) results.push({ name: scenario.name, result: await scenario.run() });

    const baseline = results[0]!.result.requests.average;
    const rows = results.map(({ name, result }, i) => ({
      scenario: name,
      'req/s': result.requests.average.toFixed(0),
      'p50 ms': String(result.latency.p50),
      'p99 ms': String(result.latency.p99),
      'vs baseline': i === 0 ? '1.00' : (result.requests.average / baseline).toFixed(2),
      requests: String(result.requests.total),
      non2xx: String(result.non2xx),
      'errors/timeouts': `${result.errors}/${result.timeouts}`,
    }));
    const columns = Object.keys(rows[0]!) as Array<keyof (typeof rows)[number]>;
    const widths = columns.map((c) => Math.max(c.length, ...rows.map((r) => r[c].length)));
    const line = (cells: string[]) => cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ');
    console.log(line(columns));
    console.log(line(widths.map((w) => '-'.repeat(w))));
    for (const row of rows) console.log(line(columns.map((c) => row[c])));

    const failed = results.filter(({ result }) => result.non2xx > 0 || result.errors > 0 || result.timeouts > 0 || result.requests.total === 0);
    if (failed.length > 0) {
      exitCode = 1;
      for (const { name, result } of failed) console.error(`\n${name}: non-2xx ${result.non2xx}, errors ${result.errors}, timeouts ${result.timeouts}, status codes ${JSON.stringify(result.statusCodeStats)}`);
    } else {
      console.log('\nall responses 2xx');
    }
  } finally {
    await running.close(); // also closes the database
  }
} catch (error) {
  await deps.db.destroy().catch(() => undefined);
  throw error;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
process.exitCode = exitCode;
