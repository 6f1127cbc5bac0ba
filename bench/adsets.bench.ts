/**
 * Ad set reads at the specification's limits (`npm run bench:adsets`): the same page of 25 ad sets, on
 * /v24.0 and GraphQL, from a small account (30 ad sets) and from an account holding the full 5,000. A read's
 * cost should grow with what it returns, not with what the account holds: the ratios full/small are printed,
 * with a GET /healthz baseline measured in the same run. BENCH_SECONDS (default 5), BENCH_CONNECTIONS (10).
 */
import { createAdAccount, fillAdSets } from '../src/ads/admin.ts';
import { AD_SET_LIMIT } from '../src/ads/rules/limits.ts';
import { campaigns, type CampaignRecord } from '../src/ads/store.ts';
import { insertObjects } from '../src/db/objects.ts';
import type { AppDeps } from '../src/context/index.ts';
import { autocannon, positive, printTable, withDemoServer, type AutocannonResult } from './harness.ts';

const SECONDS = positive('BENCH_SECONDS', 5);
/** The small account holds a little more than a page, so both accounts answer the same 25 ad sets. */
const SMALL = 30;
const CONNECTIONS = positive('BENCH_CONNECTIONS', 10);

/** An account of the demo's first organization with one campaign filled with `count` ad sets. */
async function accountWith(deps: AppDeps, organization: string, count: number): Promise<{ accountId: string; adSetId: string }> {
  const account = await createAdAccount(deps, { organization, name: `Bench ${count}`, currency: 'USD', country: 'US' });
  const [campaign] = await deps.db.transaction((trx) => insertObjects<CampaignRecord>(trx, 'campaign', campaigns, [{
    organizationId: account.organizationId, accountId: account.id, name: 'Bench', objective: 'OUTCOME_TRAFFIC', status: 'ACTIVE',
    specialAdCategories: [], specialAdCategoryCountry: null, bidStrategy: null, buyingType: 'AUCTION', dailyBudget: null,
    lifetimeBudget: null, spendCap: null, startTime: null, stopTime: null,
  }]));
  let adSetId = '';
  // In slices, so one transaction does not hold thousands of rows.
  for (let done = 0; done < count; done += 1000) {
    const { created } = await fillAdSets(deps, { campaign: campaign!.id, count: Math.min(1000, count - done) });
    adSetId ||= created[0]!;
  }
  return { accountId: account.id, adSetId };
}

// The per-account allowance (error 80004) would stop a load test of one account: lift it for the run.
const UNLIMITED = { RATE_LIMIT_ACCOUNT_CALLS: '100000000/300', RATE_LIMIT_ACCOUNT_TIME_MS: '100000000/300', RATE_LIMIT_ACCOUNT_CPU_MS: '100000000/300' };

await withDemoServer({ env: UNLIMITED }, async ({ url, deps, summary, sessionToken }) => {
  const organization = 'Northwind Outdoor';
  const small = await accountWith(deps, organization, SMALL);
  const full = await accountWith(deps, organization, AD_SET_LIMIT);

  const fields = 'id,name,status,effective_status,daily_budget,issues_info,targeting,campaign{name,effective_status}';
  const graphPath = (accountId: string) => `/v24.0/act_${accountId}/adsets?limit=25&fields=${encodeURIComponent(fields)}&access_token=${sessionToken}`;
  const query = (accountId: string) => JSON.stringify({
    query: `{ adSets(accountId: "${accountId}", first: 25) { nodes { id name status effectiveStatus dailyBudget issues { errorCode } targeting campaign { name effectiveStatus } } } }`,
  });
  const graphqlHeaders = { 'content-type': 'application/json', 'service-session-token': sessionToken };

  // Each request is checked once before it is timed: a fast error is not a fast answer.
  for (const accountId of [small.accountId, full.accountId]) {
    const rest = await fetch(`${url}${graphPath(accountId)}`);
    const restBody = (await rest.json()) as { data?: unknown[] };
    if (rest.status !== 200 || restBody.data?.length !== 25) throw new Error(`/v24.0 answered ${rest.status}: ${JSON.stringify(restBody).slice(0, 300)}`);
    const gql = await fetch(`${url}/graphql`, { method: 'POST', headers: graphqlHeaders, body: query(accountId) });
    const gqlBody = (await gql.json()) as { errors?: unknown };
    if (gql.status !== 200 || gqlBody.errors) throw new Error(`GraphQL answered ${gql.status}: ${JSON.stringify(gqlBody).slice(0, 300)}`);
  }

  const get = (path: string) => () => autocannon({ url: `${url}${path}`, connections: CONNECTIONS, duration: SECONDS });
  const post = (body: string) => () => autocannon({ url: `${url}/graphql`, connections: CONNECTIONS, duration: SECONDS, method: 'POST', headers: graphqlHeaders, body });
  const one = `/v24.0/${full.adSetId}?fields=${encodeURIComponent(fields)}&access_token=${sessionToken}`;
  const scenarios: Array<{ name: string; run: () => Promise<AutocannonResult> }> = [
    { name: '(a) GET /healthz', run: get('/healthz') },
    { name: `(b) /v24.0 25 ad sets, account of ${SMALL}`, run: get(graphPath(small.accountId)) },
    { name: `(c) /v24.0 25 ad sets, account of ${AD_SET_LIMIT}`, run: get(graphPath(full.accountId)) },
    { name: `(d) GraphQL 25 ad sets, account of ${SMALL}`, run: post(query(small.accountId)) },
    { name: `(e) GraphQL 25 ad sets, account of ${AD_SET_LIMIT}`, run: post(query(full.accountId)) },
    { name: `(f) /v24.0 one ad set, account of ${AD_SET_LIMIT}`, run: get(one) },
  ];

  console.log(`adgraph ad set benchmark: SQLite, demo data (${summary.counts.adSets} ad sets) plus accounts of ${SMALL} and ${AD_SET_LIMIT} ad sets, ${CONNECTIONS} connections, ${SECONDS}s per scenario, Node ${process.version}\n`);
  const results: AutocannonResult[] = [];
  for (const scenario of scenarios) results.push(await scenario.run());
  const baseline = results[0]!.requests.average;
  printTable(scenarios.map(({ name }, i) => ({
    scenario: name,
    'req/s': results[i]!.requests.average.toFixed(0),
    'p50 ms': String(results[i]!.latency.p50),
    'p99 ms': String(results[i]!.latency.p99),
    'vs baseline': (results[i]!.requests.average / baseline).toFixed(2),
    non2xx: String(results[i]!.non2xx),
  })));
  const ratio = (a: number, b: number) => (results[a]!.requests.average / results[b]!.requests.average).toFixed(2);
  console.log(`\n(c)/(b) req/s, /v24.0 page, full account vs small:  ${ratio(2, 1)}x`);
  console.log(`(e)/(d) req/s, GraphQL page, full account vs small: ${ratio(4, 3)}x`);
  const failed = results.some((r) => r.non2xx > 0 || r.errors > 0 || r.timeouts > 0 || r.requests.total === 0);
  if (failed) console.error('\nsome responses were not 2xx, or failed');
  return !failed;
});
