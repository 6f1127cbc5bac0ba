/**
 * Reads under load against the bare-server ceiling, and SQL statements per request.
 *
 * The nested read is issue 13's: one ad account's 13 ad sets (the demo's Northwind US, every status) with
 * their campaign's name and up to 5 ads each. Timed, in one run: a plain node:http server in its own process
 * answering the same request with exactly the bytes GraphQL answers (the ceiling: what HTTP and JSON on
 * this machine allow), GET /healthz, `{ me { id } }`, the nested read through GraphQL, and the same data
 * through /v24.0 with nested `fields`, and the nested read served by the code the issue measured (./baseline.ts),
 * for the issue's goal of twice its ratio to the ceiling. Then the statements one GraphQL read of 5, 50 and 500 ad sets sends,
 * counted on the Knex instance of an untimed server in this process.
 */
import { accountWithCampaigns, addAds, fillCampaign } from './fixtures.ts';
import { BASELINE_REVISION, baselineUnavailable, startBaseline, type BaselineServer } from './baseline.ts';
import {
  checked,
  figures,
  goal,
  graphqlData,
  printTable,
  reportUnexpected,
  startCeiling,
  timeAll,
  UNLIMITED_ACCOUNT_ALLOWANCE,
  withDemoServer,
  withServerInProcess,
  type Timed,
  type BenchRequest,
  type DemoServer,
  type SectionOutcome,
} from './harness.ts';

const ACCOUNT_NAME = 'Northwind US';
/** Every effective status /v24.0 filters by: the account's 13 ad sets, archived and deleted ones included. */
export const EVERY_STATUS = ['ACTIVE', 'PAUSED', 'DELETED', 'CAMPAIGN_PAUSED', 'ARCHIVED', 'IN_PROCESS', 'WITH_ISSUES'];
export const NESTED = (accountId: string) =>
  `{ adAccount(id: "${accountId}") { adSets(first: 25, effectiveStatus: [${EVERY_STATUS.join(', ')}]) { nodes { id name campaign { name } ads(first: 5) { nodes { id name } } } } } }`;
const NESTED_FIELDS = 'name,campaign{name},ads.limit(5){name}';
const LIGHT = '{ me { id } }';

/** Ad sets with their campaign's name and ad ids, as both surfaces answer them: the check that they agree. */
type Shape = Array<{ id: string; name: string; campaign: string; ads: string[] }>;

export async function benchReads(): Promise<SectionOutcome> {
  // For the statement count: its 500 ad sets need higher complexity limits (they cost nothing in the timed
  // reads), and the async request runner, which polls the same database every second, must not poll then.
  const env = { ...UNLIMITED_ACCOUNT_ALLOWANCE, GRAPHQL_MAX_OBJECTS: '10000', GRAPHQL_MAX_COST: '100000', ASYNC_POLL_MS: '600000' };
  return withDemoServer({ env }, async (server) => {
    const { url, sessionToken } = server;
    const graphql = graphqlAt(url, sessionToken);
    const accountId = await demoAccountId(graphql, 'the demo data');

    const nested = graphql(NESTED(accountId));
    const rest: BenchRequest = {
      url: `${url}/v24.0/act_${accountId}/adsets?limit=25&effective_status=${EVERY_STATUS.join(',')}&fields=${encodeURIComponent(NESTED_FIELDS)}&access_token=${sessionToken}`,
    };
    let graphqlShape: Shape = [];
    const nestedBytes = await checked('GraphQL nested read', nested, (body) => {
      const shape = nestedShape(body);
      if ('wrong' in shape) return shape.wrong;
      graphqlShape = shape;
      return graphqlShape.length === 13 ? null : `${graphqlShape.length} ad sets, not 13`;
    });
    await checked('/v24.0 same data', rest, (body) => {
      const answer = JSON.parse(body.toString()) as {
        data: Array<{ id: string; name: string; campaign: { name: string }; ads?: { data: Array<{ id: string }> } }>;
      };
      const shape: Shape = answer.data.map((s) => ({ id: s.id, name: s.name, campaign: s.campaign.name, ads: (s.ads?.data ?? []).map((a) => a.id) }));
      return JSON.stringify(shape) === JSON.stringify(graphqlShape) ? null : 'not the same ad sets, campaigns and ads as GraphQL';
    });
    await checked(LIGHT, graphql(LIGHT), (body) => ('wrong' in graphqlData(body) ? 'GraphQL errors' : null));
    await checked('/healthz', { url: `${url}/healthz` });
    const adCount = graphqlShape.reduce((n, s) => n + s.ads.length, 0);

    const unavailable = baselineUnavailable();
    const baseline = unavailable ? null : await startBaseline(env);
    let ceiling: Awaited<ReturnType<typeof startCeiling>> | undefined;
    let runs: Array<{ name: string; run: Timed }>;
    const baselineName = `GraphQL nested read, the issue's code (${BASELINE_REVISION})`;
    try {
      const baselineRequest = baseline ? await baselineNestedRead(baseline, graphqlShape) : null;
      ceiling = await startCeiling(nestedBytes);
      const ceilingRequest = { ...nested, url: `${ceiling.url}/graphql` };
      await checked('ceiling', ceilingRequest, (body) => (body.equals(nestedBytes) ? null : 'not the same bytes'));
      const scenarios: Array<[string, BenchRequest]> = [
        [`ceiling: node:http answering the nested read's ${nestedBytes.length} bytes`, ceilingRequest],
        ['GET /healthz', { url: `${url}/healthz` }],
        [LIGHT, graphql(LIGHT)],
        [`GraphQL nested read: 13 ad sets, campaign names, ${adCount} ads`, nested],
        [`/v24.0 same data: adsets?fields=${NESTED_FIELDS}`, rest],
        ...(baselineRequest ? [[baselineName, baselineRequest] as [string, BenchRequest]] : []),
      ];
      const timings = await timeAll(scenarios.map(([, request]) => request));
      runs = scenarios.map(([name], i) => ({ name, run: timings[i]! }));
    } finally {
      await ceiling?.stop();
      await baseline?.stop();
    }

    console.log(`Reads of the demo's ${ACCOUNT_NAME} (account ${accountId}): GraphQL \`${NESTED('…')}\`\n`);
    const reference = { label: 'ceiling', run: runs[0]!.run };
    printTable(runs.map(({ name, run }) => ({ scenario: name, ...figures(run, reference) })));
    const graphqlRps = runs[3]!.run.rps;
    const baselineRun = runs.find((r) => r.name === baselineName)?.run;
    if (!baselineRun) console.log(`\n(The issue's code was not measured: ${unavailable}.)`);
    const goals = [
      goal('GraphQL nested read ÷ /v24.0 same data (req/s)', graphqlRps / runs[4]!.run.rps, '>=', 1),
      // Both ratios have this run's ceiling below them, so their quotient is the quotient of the two req/s.
      baselineRun
        ? goal(`GraphQL nested read's ratio to the ceiling ÷ the issue's code's (${BASELINE_REVISION}), this run`, graphqlRps / baselineRun.rps, '>=', 2)
        : goal('GraphQL nested read ÷ bare-server ceiling (req/s)', graphqlRps / runs[0]!.run.rps, '>=', 0.03, 3),
    ];
    const ok = reportUnexpected(runs);

    console.log("\nSQL statements per GraphQL request (counted on the Knex instance of an untimed server in the benchmark's process)\n");
    const statements = await statementsPerRequest(server, graphql);
    printTable(statements.map(({ adSets, count }) => ({ 'ad sets read': String(adSets), statements: String(count) })));
    const constant = statements.every(({ count }) => count === statements[0]!.count);
    goals.push({
      label: 'SQL statements per request for 5, 50 and 500 ad sets',
      measured: statements.map((s) => s.count).join('/'),
      target: 'constant',
      pass: constant,
    });
    return { ok, goals };
  });
}

/** GraphQL requests to the server at `url` as the holder of a session token. */
export const graphqlAt =
  (url: string, sessionToken: string) =>
  (query: string, variables?: Record<string, unknown>): BenchRequest => ({
    url: `${url}/graphql`,
    method: 'POST',
    headers: { 'content-type': 'application/json', 'service-session-token': sessionToken },
    body: JSON.stringify({ query, variables }),
  });

/** The id of the demo's ACCOUNT_NAME, as a server's GraphQL lists it. */
export async function demoAccountId(graphql: ReturnType<typeof graphqlAt>, whose: string): Promise<string> {
  const accounts = graphqlData<{ adAccounts: { nodes: Array<{ id: string; name: string }> } }>(
    await checked(`${whose}: ad accounts`, graphql('{ adAccounts(first: 10) { nodes { id name } } }')),
  );
  const accountId = 'wrong' in accounts ? undefined : accounts.data.adAccounts.nodes.find((a) => a.name === ACCOUNT_NAME)?.id;
  if (!accountId) throw new Error(`${whose} has no ad account "${ACCOUNT_NAME}"`);
  return accountId;
}

/** The ad sets, campaign names and ad ids of a GraphQL answer to the nested read, or what is wrong with it. */
function nestedShape(body: Buffer): Shape | { wrong: string } {
  const answer = graphqlData<{
    adAccount: { adSets: { nodes: Array<{ id: string; name: string; campaign: { name: string }; ads: { nodes: Array<{ id: string }> } }> } };
  }>(body);
  if ('wrong' in answer) return answer;
  return answer.data.adAccount.adSets.nodes.map((s) => ({ id: s.id, name: s.name, campaign: s.campaign.name, ads: s.ads.nodes.map((a) => a.id) }));
}

/**
 * The nested read as the baseline serves it, checked to answer the same ad sets, campaign names and ad counts
 * (the demo data gives the same ids there; names are compared so that an id change alone would not matter).
 */
async function baselineNestedRead(baseline: BaselineServer, expected: Shape): Promise<BenchRequest> {
  const graphql = graphqlAt(baseline.url, baseline.sessionToken);
  const nested = graphql(NESTED(await demoAccountId(graphql, "the issue's code")));
  const outline = (shape: Shape) => JSON.stringify(shape.map((s) => [s.name, s.campaign, s.ads.length]));
  await checked("the issue's code: nested read", nested, (body) => {
    const shape = nestedShape(body);
    if ('wrong' in shape) return shape.wrong;
    return outline(shape) === outline(expected) ? null : 'not the same ad sets, campaign names and ad counts as today';
  });
  return nested;
}

const CAMPAIGNS = 5;
const STATEMENTS_QUERY = `query ($account: ID!, $perCampaign: Int!) {
  adAccount(id: $account) { campaigns(first: ${CAMPAIGNS}) { nodes { name adSets(first: $perCampaign) {
    nodes { id name campaign { name } ads(first: 5) { nodes { id name } } } } } } }
}`;

/**
 * The nested read's shape, over an account of 5 campaigns of 100 ad sets (one ad each), reading 1, 10 and
 * 100 ad sets per campaign: the statements must not grow with the objects. Counted on a server in this process
 * (the server under test is another process); the server under test stays idle meanwhile.
 */
async function statementsPerRequest(
  { deps, config }: DemoServer,
  graphql: (query: string, variables?: Record<string, unknown>) => BenchRequest,
): Promise<Array<{ adSets: number; count: number }>> {
  const { account, campaignIds } = await accountWithCampaigns(deps, { name: 'Bench statements', campaigns: CAMPAIGNS });
  for (const campaign of campaignIds) await addAds(deps, account, campaign, await fillCampaign(deps, campaign, 100));
  return withServerInProcess(config, async (url, db) => {
    const request = (query: string, variables?: Record<string, unknown>): BenchRequest => ({ ...graphql(query, variables), url: `${url}/graphql` });
    // A session is touched at most once a minute (one more statement): let that happen before counting.
    await checked('{ me { id } }', request(LIGHT));
    const counts: Array<{ adSets: number; count: number }> = [];
    for (const perCampaign of [1, 10, 100]) {
      let count = 0;
      const listener = () => {
        count += 1;
      };
      db.on('query', listener);
      try {
        await checked(`${perCampaign * CAMPAIGNS} ad sets`, request(STATEMENTS_QUERY, { account: account.id, perCampaign }), (body) => {
          const answer = graphqlData<{ adAccount: { campaigns: { nodes: Array<{ adSets: { nodes: Array<{ ads: { nodes: unknown[] } }> } }> } } }>(body);
          if ('wrong' in answer) return answer.wrong;
          const sets = answer.data.adAccount.campaigns.nodes.flatMap((c) => c.adSets.nodes);
          return sets.length === perCampaign * CAMPAIGNS && sets.every((s) => s.ads.nodes.length === 1) ? null : `${sets.length} ad sets`;
        });
      } finally {
        db.off('query', listener);
      }
      counts.push({ adSets: perCampaign * CAMPAIGNS, count });
    }
    return counts;
  });
}
