/**
 * Issue 27: adgraph against what it is built on and what a user would pick instead, side by side in one run.
 *
 * On each database (SQLite, then PostgreSQL), in their own processes: the bare node:http ceiling answering the
 * nested read's bytes, bare Express 5 answering `/healthz`, bare Apollo Server 5 on Express 5 answering
 * `{ __typename }`, and adgraph as `npm start` runs it (authentication, authorization, rate and cost limits with
 * the per-account allowance lifted so the load is not refused, metrics; logs silenced). On PostgreSQL also
 * PostGraphile 5 (Amber preset, no plugins, no authentication) over adgraph's own tables after its migrations
 * and demo data: the same account's ad sets with name, daily budget, campaign name and 5 ads each, which adgraph
 * answers through GraphQL and through /v24.0. PostGraphile is installed on the section's first use, in
 * bench/peers/postgraphile with its own lockfile (npm ci there), never as a dependency of adgraph.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { demoAccountId, EVERY_STATUS, graphqlAt } from './reads.bench.ts';
import {
  benchModule,
  checked,
  figures,
  goal,
  graphqlData,
  PACKAGE_ROOT,
  printTable,
  reportUnexpected,
  startCeiling,
  startPortPrinter,
  timeAll,
  UNLIMITED_ACCOUNT_ALLOWANCE,
  withDemoServer,
  withPostgresDatabase,
  type BenchRequest,
  type Goal,
  type SectionOutcome,
} from './harness.ts';

/** Every effective status an ad may have: an ad set's, and ADSET_PAUSED. */
const EVERY_AD_STATUS = [...EVERY_STATUS, 'ADSET_PAUSED'];
/**
 * Issue 27's nested read, through adgraph's GraphQL. Every status on both levels: PostGraphile's Amber schema
 * filters nothing, and the ads of an archived or deleted ad set are left out by adgraph's default filter.
 */
const NESTED = (accountId: string) =>
  `{ adAccount(id: "${accountId}") { adSets(first: 25, effectiveStatus: [${EVERY_STATUS.join(', ')}]) { nodes { id name dailyBudget campaign { name } ads(first: 5, effectiveStatus: [${EVERY_AD_STATUS.join(', ')}]) { nodes { id name } } } } } }`;
/** The same read in PostGraphile's Amber schema of the same tables. */
const POSTGRAPHILE_NESTED = (accountId: string) =>
  `{ adAccountByRowId(rowId: "${accountId}") { adSetsByAccountId(first: 25) { nodes { rowId name dailyBudget campaignByCampaignId { name } adsByAdsetId(first: 5) { nodes { rowId name } } } } } }`;
/** The same read through /v24.0. */
const REST_FIELDS = `id,name,daily_budget,campaign{name},ads.limit(5).effective_status(${JSON.stringify(EVERY_AD_STATUS)}){id,name}`;
const TYPENAME = '{ __typename }';
const ME = '{ me { id } }';

/** What the three surfaces must agree on: ad sets by id with name, daily budget, campaign name and ad ids. */
type Shape = Array<{ id: string; name: string; dailyBudget: string | null; campaign: string; ads: string[] }>;
const canonical = (shape: Shape) =>
  shape.map((s) => JSON.stringify({ ...s, dailyBudget: s.dailyBudget === null ? null : String(s.dailyBudget), ads: [...s.ads].sort() })).sort();
/** Null when `shape` is `expected`, else the first ad set that differs. */
function difference(expected: string[], shape: Shape, whose: string): string | null {
  const found = canonical(shape);
  const missing = expected.find((line) => !found.includes(line));
  const extra = found.find((line) => !expected.includes(line));
  return missing || extra ? `${whose} differs: adgraph's GraphQL has ${missing ?? 'nothing more'}, ${whose} has ${extra ?? 'nothing more'}` : null;
}

const POSTGRAPHILE_DIR = join(PACKAGE_ROOT, 'bench', 'peers', 'postgraphile');

/** The databases measured, `sqlite,postgres` unless BENCH_PEERS_DATABASES names fewer. */
const DATABASES = (process.env.BENCH_PEERS_DATABASES ?? 'sqlite,postgres').split(',').map((name) => name.trim());

export async function benchPeers(): Promise<SectionOutcome> {
  const outcomes: SectionOutcome[] = [];
  for (const database of DATABASES) {
    try {
      if (database === 'sqlite') outcomes.push(await peersOn('SQLite'));
      else if (database === 'postgres') {
        installPostGraphile();
        outcomes.push(await withPostgresDatabase('adgraph_bench_peers', (url) => peersOn('PostgreSQL', url)));
      } else throw new Error(`BENCH_PEERS_DATABASES: unknown database "${database}" (sqlite, postgres)`);
    } catch (error) {
      // One database's failure leaves the other's figures standing.
      console.error(`FAILED  peers on ${database}: ${error instanceof Error ? error.stack : String(error)}`);
      outcomes.push({ ok: false, goals: [] });
    }
  }
  return { ok: outcomes.every((o) => o.ok), goals: outcomes.flatMap((o) => o.goals) };
}

/** `npm ci` in bench/peers/postgraphile when what is installed there is not what its package.json names. */
function installPostGraphile(): void {
  const [major] = process.versions.node.split('.').map(Number);
  if (major! < 22) throw new Error(`PostGraphile 5 needs Node 22 or newer; this is Node ${process.version}`);
  const wanted = (JSON.parse(readFileSync(join(POSTGRAPHILE_DIR, 'package.json'), 'utf8')) as { dependencies: Record<string, string> }).dependencies
    .postgraphile;
  const installedManifest = join(POSTGRAPHILE_DIR, 'node_modules', 'postgraphile', 'package.json');
  const installed = existsSync(installedManifest) ? (JSON.parse(readFileSync(installedManifest, 'utf8')) as { version: string }).version : null;
  if (installed === wanted) return;
  console.log(`Installing PostGraphile ${wanted} for this section into bench/peers/postgraphile (npm ci, its own lockfile)…`);
  // npm's own script when run by `npm run bench`, so the same npm installs it; otherwise the one on PATH.
  const npm = process.env.npm_execpath ? [process.execPath, process.env.npm_execpath] : ['npm'];
  const result = spawnSync(npm[0]!, [...npm.slice(1), 'ci', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: POSTGRAPHILE_DIR, stdio: 'inherit' });
  if (result.status !== 0) throw new Error(`npm ci in ${POSTGRAPHILE_DIR} failed (${result.status ?? result.signal})`);
}

async function peersOn(database: 'SQLite' | 'PostgreSQL', databaseUrl?: string): Promise<SectionOutcome> {
  const env = { ...UNLIMITED_ACCOUNT_ALLOWANCE, ASYNC_POLL_MS: '600000' };
  return withDemoServer({ env, databaseUrl }, async ({ url, pid, sessionToken }) => {
    const graphql = graphqlAt(url, sessionToken);
    const anonymous = (query: string): BenchRequest => ({
      url: `${url}/graphql`,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query }),
    });
    const accountId = await demoAccountId(graphql, 'adgraph');

    const nested = graphql(NESTED(accountId));
    let expected: string[] = [];
    const nestedBytes = await checked('adgraph GraphQL nested read', nested, (body) => {
      const answer = graphqlData<{
        adAccount: {
          adSets: { nodes: Array<{ id: string; name: string; dailyBudget: string | null; campaign: { name: string }; ads: { nodes: Array<{ id: string }> } }> };
        };
      }>(body);
      if ('wrong' in answer) return answer.wrong;
      const sets = answer.data.adAccount.adSets.nodes;
      expected = canonical(
        sets.map((s) => ({ id: s.id, name: s.name, dailyBudget: s.dailyBudget, campaign: s.campaign.name, ads: s.ads.nodes.map((a) => a.id) })),
      );
      return sets.length > 0 ? null : 'no ad sets';
    });
    const rest: BenchRequest = {
      url: `${url}/v24.0/act_${accountId}/adsets?limit=25&effective_status=${EVERY_STATUS.join(',')}&fields=${encodeURIComponent(REST_FIELDS)}&access_token=${sessionToken}`,
    };
    await checked('adgraph /v24.0 same data', rest, (body) => {
      const answer = JSON.parse(body.toString()) as {
        data: Array<{ id: string; name: string; daily_budget?: string; campaign: { name: string }; ads?: { data: Array<{ id: string }> } }>;
      };
      const shape = answer.data.map((s) => ({
        id: s.id,
        name: s.name,
        dailyBudget: s.daily_budget ?? null,
        campaign: s.campaign.name,
        ads: (s.ads?.data ?? []).map((a) => a.id),
      }));
      return difference(expected, shape, '/v24.0');
    });
    await checked(`adgraph ${ME}`, graphql(ME), (body) => ('wrong' in graphqlData(body) ? 'GraphQL errors' : null));
    await checked(`adgraph ${TYPENAME}`, anonymous(TYPENAME), (body) => ('wrong' in graphqlData(body) ? 'GraphQL errors' : null));

    const peers: Array<{ stop(): Promise<void> }> = [];
    try {
      const ceiling = await startCeiling(nestedBytes);
      peers.push(ceiling);
      const express = await startPortPrinter('bare Express', [benchModule('./peers/bare-express')]);
      peers.push(express);
      const apollo = await startPortPrinter('bare Apollo', [benchModule('./peers/bare-apollo')]);
      peers.push(apollo);
      const postgraphile = databaseUrl
        ? await startPortPrinter('PostGraphile', [join(POSTGRAPHILE_DIR, 'server.mjs')], {
            cwd: POSTGRAPHILE_DIR,
            env: { ...process.env, DATABASE_URL: databaseUrl, GRAPHILE_ENV: 'production', NODE_ENV: 'production' },
          })
        : null;
      if (postgraphile) peers.push(postgraphile);

      const ceilingRequest = { ...nested, url: `${ceiling.url}/graphql` };
      await checked('ceiling', ceilingRequest, (body) => (body.equals(nestedBytes) ? null : 'not the same bytes'));
      const expressHealth = { url: `${express.url}/healthz` };
      await checked('bare Express /healthz', expressHealth);
      const apolloTypename: BenchRequest = { ...anonymous(TYPENAME), url: `${apollo.url}/graphql` };
      await checked(`bare Apollo ${TYPENAME}`, apolloTypename, (body) => ('wrong' in graphqlData(body) ? 'GraphQL errors' : null));
      const postgraphileNested: BenchRequest | null = postgraphile
        ? { ...anonymous(POSTGRAPHILE_NESTED(accountId)), url: `${postgraphile.url}/graphql` }
        : null;
      if (postgraphileNested) {
        await checked('PostGraphile nested read', postgraphileNested, (body) => {
          const answer = graphqlData<{
            adAccountByRowId: {
              adSetsByAccountId: {
                nodes: Array<{
                  rowId: string;
                  name: string;
                  dailyBudget: string | null;
                  campaignByCampaignId: { name: string };
                  adsByAdsetId: { nodes: Array<{ rowId: string }> };
                }>;
              };
            };
          }>(body);
          if ('wrong' in answer) return answer.wrong;
          const shape = answer.data.adAccountByRowId.adSetsByAccountId.nodes.map((s) => ({
            id: s.rowId,
            name: s.name,
            dailyBudget: s.dailyBudget,
            campaign: s.campaignByCampaignId.name,
            ads: s.adsByAdsetId.nodes.map((a) => a.rowId),
          }));
          return difference(expected, shape, 'PostGraphile');
        });
      }

      // Each with the process serving it, whose CPU time per request is printed beside the rates.
      const adgraph = (request: BenchRequest): BenchRequest => ({ ...request, servedBy: pid });
      const scenarios: Array<[string, BenchRequest]> = [
        [`ceiling: node:http answering the nested read's ${nestedBytes.length} bytes`, { ...ceilingRequest, servedBy: ceiling.pid }],
        ['bare Express 5: GET /healthz', { ...expressHealth, servedBy: express.pid }],
        ['adgraph GET /healthz', adgraph({ url: `${url}/healthz` })],
        [`bare Apollo Server 5 on Express 5: ${TYPENAME}`, { ...apolloTypename, servedBy: apollo.pid }],
        [`adgraph ${TYPENAME}`, adgraph(anonymous(TYPENAME))],
        [`adgraph ${ME} (a session)`, adgraph(graphql(ME))],
        ['adgraph GraphQL nested read', adgraph(nested)],
        ['adgraph /v24.0 adsets?fields=id,name,daily_budget,campaign{name},ads.limit(5)…{id,name}', adgraph(rest)],
        ...(postgraphileNested && postgraphile
          ? [['PostGraphile 5 (Amber) nested read, same tables', { ...postgraphileNested, servedBy: postgraphile.pid }] as [string, BenchRequest]]
          : []),
      ];
      const timings = await timeAll(scenarios.map(([, request]) => request));
      const runs = scenarios.map(([name], i) => ({ name, run: timings[i]! }));
      const rps = (prefix: string) => runs.find((r) => r.name.startsWith(prefix))!.run.rps;

      console.log(`${database}: the demo's Northwind US (account ${accountId}); adgraph GraphQL \`${NESTED('…')}\`\n`);
      printTable(runs.map(({ name, run }) => ({ scenario: name, ...figures(run, { label: 'ceiling', run: runs[0]!.run }) })));
      console.log('');
      const on = (label: string) => `${database}: ${label}`;
      const goals: Goal[] = [
        goal(on('adgraph /healthz ÷ bare Express 5'), rps('adgraph GET /healthz') / rps('bare Express'), '>=', 0.9),
        goal(on(`adgraph ${TYPENAME} ÷ bare Apollo 5`), rps(`adgraph ${TYPENAME}`) / rps('bare Apollo'), '>=', 0.9),
        goal(on(`adgraph ${ME} ÷ bare Apollo's ${TYPENAME}`), rps(`adgraph ${ME}`) / rps('bare Apollo'), '>=', 0.6),
        goal(on('adgraph nested read ÷ the ceiling'), rps('adgraph GraphQL nested') / rps('ceiling'), '>=', 0.05, 3),
      ];
      if (postgraphileNested) {
        goals.push(
          goal(on('adgraph GraphQL nested read ÷ PostGraphile 5'), rps('adgraph GraphQL nested') / rps('PostGraphile'), '>=', 1),
          goal(on('adgraph /v24.0 nested read ÷ PostGraphile 5'), rps('adgraph /v24.0') / rps('PostGraphile'), '>=', 1),
        );
      }
      return { ok: reportUnexpected(runs), goals };
    } finally {
      for (const peer of peers.reverse()) await peer.stop().catch((error: unknown) => console.error(String(error)));
    }
  });
}
