/**
 * GraphQL under load (`npm run bench`): a baseline (GET /healthz), a light query and a nested one, each for
 * BENCH_SECONDS (default 5) with BENCH_CONNECTIONS (default 10), against a demo server; prints requests/s,
 * p50/p99 and each scenario's ratio to the baseline measured in the same run.
 */
import { autocannon, positive, printTable, withDemoServer, type AutocannonResult } from './harness.ts';

const SECONDS = positive('BENCH_SECONDS', 5);
const CONNECTIONS = positive('BENCH_CONNECTIONS', 10);
const LIGHT = '{ me { id } }';
const NESTED = '{ adAccounts(first: 5) { nodes { adSets(first: 25) { nodes { name campaign { name } account { name } ads(first: 5) { nodes { name } } } } } } }';

await withDemoServer({}, async ({ url, config, summary, sessionToken }) => {
  const headers = { 'content-type': 'application/json', 'service-session-token': sessionToken };

  // Check each query once before timing it: a fast error is not a fast answer.
  const check = async (query: string) => {
    const response = await fetch(`${url}/graphql`, { method: 'POST', headers, body: JSON.stringify({ query }) });
    const body = (await response.json()) as { data?: Record<string, any>; errors?: unknown[] };
    if (response.status !== 200 || body.errors) throw new Error(`${query} answered ${response.status}: ${JSON.stringify(body).slice(0, 500)}`);
    return body.data!;
  };
  await check(LIGHT);
  const accounts = (await check(NESTED)).adAccounts.nodes as Array<{ adSets: { nodes: Array<{ ads: { nodes: unknown[] } }> } }>;
  const adSetCount = accounts.reduce((n, a) => n + a.adSets.nodes.length, 0);
  const adCount = accounts.reduce((n, a) => n + a.adSets.nodes.reduce((m, s) => m + s.ads.nodes.length, 0), 0);

  const graphql = (query: string) => () =>
    autocannon({ url: `${url}/graphql`, connections: CONNECTIONS, duration: SECONDS, method: 'POST', headers, body: JSON.stringify({ query }) });
  const scenarios: Array<{ name: string; run: () => Promise<AutocannonResult> }> = [
    { name: '(a) GET /healthz', run: () => autocannon({ url: `${url}/healthz`, connections: CONNECTIONS, duration: SECONDS }) },
    { name: '(b) { me { id } }', run: graphql(LIGHT) },
    { name: `(c) nested: ${accounts.length} accounts, ${adSetCount} ad sets, ${adCount} ads`, run: graphql(NESTED) },
  ];

  console.log(`adgraph benchmark: SQLite, demo data (${summary.counts.adSets} ad sets, ${summary.counts.ads} ads), ${CONNECTIONS} connections, ${SECONDS}s per scenario, GRAPHQL_MAX_OBJECTS=${config.graphql.maxObjects}, GRAPHQL_MAX_COST=${config.graphql.maxCost}, Node ${process.version}\n`);
  const results: Array<{ name: string; result: AutocannonResult }> = [];
  for (const scenario of scenarios) results.push({ name: scenario.name, result: await scenario.run() });

  const baseline = results[0]!.result.requests.average;
  printTable(results.map(({ name, result }, i) => ({
    scenario: name,
    'req/s': result.requests.average.toFixed(0),
    'p50 ms': String(result.latency.p50),
    'p99 ms': String(result.latency.p99),
    'vs baseline': i === 0 ? '1.00' : (result.requests.average / baseline).toFixed(2),
    requests: String(result.requests.total),
    non2xx: String(result.non2xx),
    'errors/timeouts': `${result.errors}/${result.timeouts}`,
  })));

  const failed = results.filter(({ result }) => result.non2xx > 0 || result.errors > 0 || result.timeouts > 0 || result.requests.total === 0);
  for (const { name, result } of failed) console.error(`\n${name}: non-2xx ${result.non2xx}, errors ${result.errors}, timeouts ${result.timeouts}, status codes ${JSON.stringify(result.statusCodeStats)}`);
  if (failed.length === 0) console.log('\nall responses 2xx');
  return failed.length === 0;
});
