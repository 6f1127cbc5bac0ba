/**
 * Paging at the specification's limit: page 1 and page 200 of an account holding 10,000 ad sets (a bulk
 * account's limit) against page 1 of an account holding 13, on /v24.0 and GraphQL. A page should cost what
 * it shows, not what the account holds: each large-account page's time is divided by the small one's.
 */
import { AD_SET_LIMIT, AD_SET_LIMIT_BULK } from '../src/ads/rules/limits.ts';
import type { AppDeps } from '../src/context/index.ts';
import { accountWithCampaigns, fillCampaign } from './fixtures.ts';
import {
  checked,
  figures,
  goal,
  graphqlData,
  printTable,
  reportUnexpected,
  timeAll,
  UNLIMITED_ACCOUNT_ALLOWANCE,
  withDemoServer,
  type BenchRequest,
  type SectionOutcome,
} from './harness.ts';

/** The issue's small account. */
const SMALL = 13;
/** A page smaller than the small account, so that every page compared holds the same number of ad sets. */
const PAGE = 10;
const DEEP_PAGE = 200;
const FIELDS = 'id,name,status,effective_status,daily_budget,issues_info,targeting,campaign{name,effective_status}';
const GRAPHQL_FIELDS =
  'id name status effectiveStatus dailyBudget issues { errorCode } targeting { geoLocations { countries } } campaign { name effectiveStatus }';

export async function benchPages(): Promise<SectionOutcome> {
  // The accounts are filled before the server starts: it then only reads them.
  const prepare = async (deps: AppDeps) => {
    // More than AD_SET_LIMIT ad sets takes a bulk account.
    const accountOf = async (count: number) => {
      const { account, campaignIds } = await accountWithCampaigns(deps, { name: `Bench ${count}`, campaigns: 1, isBulk: count > AD_SET_LIMIT });
      await fillCampaign(deps, campaignIds[0]!, count);
      return account.id;
    };
    const filling = Date.now();
    const small = await accountOf(SMALL);
    const large = await accountOf(AD_SET_LIMIT_BULK);
    return { small, large, fillSeconds: (Date.now() - filling) / 1000 };
  };
  return withDemoServer({ env: UNLIMITED_ACCOUNT_ALLOWANCE, prepare }, async ({ url, sessionToken, prepared: { small, large, fillSeconds } }) => {
    const graphqlHeaders = { 'content-type': 'application/json', 'service-session-token': sessionToken };
    const restPage = (accountId: string, fields: string, after?: string): BenchRequest => ({
      url: `${url}/v24.0/act_${accountId}/adsets?limit=${PAGE}&fields=${encodeURIComponent(fields)}${after ? `&after=${after}` : ''}&access_token=${sessionToken}`,
    });
    const graphqlPage = (accountId: string, selection: string, after?: string): BenchRequest => ({
      url: `${url}/graphql`,
      method: 'POST',
      headers: graphqlHeaders,
      body: JSON.stringify({
        query: `query ($account: ID!, $after: String) { adSets(accountId: $account, first: ${PAGE}, after: $after) { ${selection} } }`,
        variables: { account: accountId, after },
      }),
    });

    // Page 200's cursor, found as a client finds it: by walking the pages before it (ids only).
    const walk = async (next: (after?: string) => Promise<{ ids: string[]; after?: string }>) => {
      let after: string | undefined;
      for (let page = 1; page < DEEP_PAGE; page++) {
        const step = await next(after);
        if (step.ids.length !== PAGE || !step.after) throw new Error(`page ${page} of the large account held ${step.ids.length} ad sets`);
        after = step.after;
      }
      return after!;
    };
    const restCursor = await walk(async (after) => {
      const body = JSON.parse((await checked('/v24.0 walk', restPage(large, 'id', after))).toString()) as {
        data: Array<{ id: string }>;
        paging?: { cursors?: { after?: string } };
      };
      return { ids: body.data.map((a) => a.id), after: body.paging?.cursors?.after };
    });
    const graphqlCursor = await walk(async (after) => {
      const answer = graphqlData<{ adSets: { nodes: Array<{ id: string }>; pageInfo: { endCursor: string | null } } }>(
        await checked('GraphQL walk', graphqlPage(large, 'nodes { id } pageInfo { endCursor }', after)),
      );
      if ('wrong' in answer) throw new Error(answer.wrong);
      return { ids: answer.data.adSets.nodes.map((a) => a.id), after: answer.data.adSets.pageInfo.endCursor ?? undefined };
    });

    const restIds = (body: Buffer) => (JSON.parse(body.toString()) as { data: Array<{ id: string }> }).data.map((a) => a.id);
    const graphqlIds = (body: Buffer) => {
      const answer = graphqlData<{ adSets: { nodes: Array<{ id: string }> } }>(body);
      if ('wrong' in answer) throw new Error(answer.wrong);
      return answer.data.adSets.nodes.map((a) => a.id);
    };
    const smallLabel = `account of ${SMALL}`;
    const largeLabel = `account of ${AD_SET_LIMIT_BULK.toLocaleString('en-US')}`;
    const scenarios: Array<{ name: string; request: BenchRequest; ids: (body: Buffer) => string[] }> = [
      { name: `/v24.0 page 1 of ${smallLabel}`, request: restPage(small, FIELDS), ids: restIds },
      { name: `/v24.0 page 1 of ${largeLabel}`, request: restPage(large, FIELDS), ids: restIds },
      { name: `/v24.0 page ${DEEP_PAGE} of ${largeLabel}`, request: restPage(large, FIELDS, restCursor), ids: restIds },
      { name: `GraphQL page 1 of ${smallLabel}`, request: graphqlPage(small, `nodes { ${GRAPHQL_FIELDS} }`), ids: graphqlIds },
      { name: `GraphQL page 1 of ${largeLabel}`, request: graphqlPage(large, `nodes { ${GRAPHQL_FIELDS} }`), ids: graphqlIds },
      { name: `GraphQL page ${DEEP_PAGE} of ${largeLabel}`, request: graphqlPage(large, `nodes { ${GRAPHQL_FIELDS} }`, graphqlCursor), ids: graphqlIds },
    ];
    // Each page is checked once before it is timed: a full page, and page 200 not page 1 again.
    const pages: string[][] = [];
    for (const { name, request, ids } of scenarios) {
      await checked(name, request, (body) => {
        const page = ids(body);
        pages.push(page);
        return page.length === PAGE ? null : `${page.length} ad sets, not ${PAGE}`;
      });
    }
    if (pages[2]!.some((id) => pages[1]!.includes(id)) || pages[5]!.some((id) => pages[4]!.includes(id))) throw new Error(`page ${DEEP_PAGE} repeats page 1`);
    const timings = await timeAll(scenarios.map(({ request }) => request));
    const runs = scenarios.map(({ name }, i) => ({ name, run: timings[i]! }));

    console.log(
      `Pages of ${PAGE} ad sets (fields ${FIELDS}) from accounts of ${SMALL} and ${AD_SET_LIMIT_BULK} ad sets ` +
        `(filled in ${fillSeconds.toFixed(1)}s); page ${DEEP_PAGE}'s cursor found by walking the pages before it\n`,
    );
    printTable(runs.map(({ name, run }) => ({ scenario: name, ...figures(run) })));
    // Time per request of the large account's page over the small account's page 1 (the inverse of req/s).
    const slowdown = (large: number, small: number) => runs[small]!.run.rps / runs[large]!.run.rps;
    const goals = [
      goal(`/v24.0 page 1, account of ${AD_SET_LIMIT_BULK} vs ${SMALL} (time per request)`, slowdown(1, 0), '<=', 1.5),
      goal(`/v24.0 page ${DEEP_PAGE}, account of ${AD_SET_LIMIT_BULK} vs page 1 of ${SMALL} (time per request)`, slowdown(2, 0), '<=', 1.5),
      goal(`GraphQL page 1, account of ${AD_SET_LIMIT_BULK} vs ${SMALL} (time per request)`, slowdown(4, 3), '<=', 1.5),
      goal(`GraphQL page ${DEEP_PAGE}, account of ${AD_SET_LIMIT_BULK} vs page 1 of ${SMALL} (time per request)`, slowdown(5, 3), '<=', 1.5),
    ];
    return { ok: reportUnexpected(runs), goals };
  });
}
