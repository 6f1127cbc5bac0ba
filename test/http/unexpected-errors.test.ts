import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { worldBuilder } from '../helpers/world.ts';
import { batchAnswers, graphClient, type GraphClient } from '../helpers/graph.ts';
import { tokenRequest } from '../helpers/oauth.ts';
import { createClient } from '../../src/oauth/service.ts';
import type { AdAccountRecord, CampaignRecord } from '../../src/ads/store.ts';

/**
 * A real fault on every surface (DECISIONS sections 1, 3 and 4): a table the server needs is renamed away inside
 * this test's own database, so the store's query fails the way a bug or a broken deployment makes it fail (not a
 * lost connection, which is SERVICE_UNAVAILABLE), and is put back afterwards. Each surface answers in its own shape:
 * /v24.0 with the Graph envelope of code 1, is_transient true, HTTP 500 (in a batch, per item); GraphQL with a masked
 * INTERNAL_SERVER_ERROR; /api/v2 and /oauth2/token with their 500 bodies. No answer carries a stack, SQL, a file path
 * or an internal name; the log carries the cause, with the request's id.
 */

let server: TestServer;
let graph: GraphClient;
let token: string;
let account: AdAccountRecord;
let campaign: CampaignRecord;
let client: { clientId: string; secret: string };

beforeAll(async () => {
  server = await startTestServer({ ASYNC_RUNNER: 'false', CLIENT_AUTH_CACHE_SECONDS: '0' });
  graph = graphClient(server);
  const world = worldBuilder(server.deps);
  const org = await world.organization();
  token = (await world.user({ organizationId: org.id, role: 'advertiser' })).token;
  account = await world.adAccount(org.id);
  [campaign] = (await world.campaigns(account, 1, { name: 'Intact' })) as [CampaignRecord];
  const created = await createClient(server.deps, { name: 'reporting', scope: 'ads_read', organization: org.id });
  client = { clientId: created.client.clientId, secret: created.clientSecret };
});
afterAll(() => server?.close());

/** Runs `work` while `table` is missing from the server's database, then puts it back, whatever happened. */
async function withTableMissing<T>(table: string, work: () => Promise<T>): Promise<T> {
  const away = `${table}_gone`;
  await server.deps.db.schema.renameTable(table, away);
  try {
    return await work();
  } finally {
    await server.deps.db.schema.renameTable(away, table);
  }
}

interface RawResponse {
  status: number;
  headers: Headers;
  text: string;
  body: any;
}

async function raw(response: Response): Promise<RawResponse> {
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, body: JSON.parse(text) };
}

/** Nothing of the server's insides: no stack frame, file path, SQL, database or table name, in the body or a header. */
function expectNoInternals(response: RawResponse, table: string): void {
  const headers: string[] = [];
  response.headers.forEach((value, name) => headers.push(`${name}: ${value}`));
  const everything = `${headers.join('\n')}\n${response.text}`;
  for (const leak of [
    /\bat \S+ \(|\n\s+at |:\d+:\d+\)/,
    /node_modules|\/work\/|\/src\/|\.[cm]?[jt]s\b/,
    /\b(select|insert|update|delete)\b[^"]*\b(from|into|set)\b/i,
    /sqlite|knex|postgres|\bpg\b|relation|no such table|syntax error/i,
    new RegExp(`\\b${table}\\b`, 'i'),
  ]) {
    expect(everything, `${leak}`).not.toMatch(leak);
  }
}

/** The log holds the cause for the operator: an error-level line of that request naming what failed. */
function expectLoggedWithCause(requestId: string, table: string): void {
  const lines = server.logs.filter((line) => (line.level as number) >= 50 && JSON.stringify(line).includes(requestId));
  expect(
    lines.some((line) => JSON.stringify(line).includes(table)),
    JSON.stringify(server.logs.slice(-5)),
  ).toBe(true);
  // Only causes carry a stack: the request's own line says that it failed, without an invented error and stack.
  const stacks = lines.filter((line) => JSON.stringify(line).includes('"stack"'));
  expect(stacks.length).toBeGreaterThan(0);
  for (const line of stacks) expect(JSON.stringify(line)).toContain(table);
}

/** The Graph envelope of an unexpected error, exactly (DECISIONS section 4). */
const unexpectedGraphError = (traceId: string) => ({
  error: { message: 'An unknown error occurred', type: 'OAuthException', code: 1, is_transient: true, fbtrace_id: traceId },
  __fb_trace_id__: traceId,
  __www_request_id__: traceId,
});

describe('/v24.0', () => {
  it('a read answers HTTP 500 with error code 1, is_transient true, and nothing else', async () => {
    const response = await withTableMissing('campaigns', async () => raw(await fetch(`${server.url}/v24.0/${campaign.id}?fields=name&access_token=${token}`)));
    const traceId = response.headers.get('x-fb-trace-id')!;
    expect(traceId).toMatch(/^\S+$/);
    expect({ status: response.status, body: response.body }).toEqual({ status: 500, body: unexpectedGraphError(traceId) });
    expect(response.headers.get('x-request-id')).toBe(traceId);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expectNoInternals(response, 'campaigns');
    expectLoggedWithCause(traceId, 'campaigns');
    // With the table back, the same call answers again: the fault was the only cause.
    expect((await graph.get(campaign.id, token, { fields: 'name' })).body).toEqual({ id: campaign.id, name: 'Intact' });
  });

  it('a write answers the same, and writes nothing', async () => {
    const objects = async () => Number(((await server.deps.db('graph_objects').count({ n: '*' })) as Array<{ n: number | string }>)[0]!.n);
    const before = await objects();
    const [adSet] = await worldBuilder(server.deps).adSets(campaign, 1);
    const response = await withTableMissing('ads', async () =>
      raw(
        await fetch(`${server.url}/v24.0/act_${account.id}/ads?access_token=${token}`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ name: 'Never stored', adset_id: adSet!.id, creative: '{"title":"x"}' }),
        }),
      ),
    );
    const traceId = response.headers.get('x-fb-trace-id')!;
    expect({ status: response.status, body: response.body }).toEqual({ status: 500, body: unexpectedGraphError(traceId) });
    expectNoInternals(response, 'ads');
    expectLoggedWithCause(traceId, 'ads');
    // The ad set is the only new object: the ad's id went with its rolled-back transaction.
    expect(await objects()).toBe(before + 1);
    expect(await server.deps.db('ads').where({ name: 'Never stored' })).toEqual([]);
  });

  it('in a batch, each failing item answers 500 with the envelope; the batch and the healthy items answer as usual', async () => {
    const response = await withTableMissing('campaigns', async () =>
      raw(
        await fetch(`${server.url}/v24.0/`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({
            access_token: token,
            batch: JSON.stringify([
              { method: 'GET', relative_url: `${campaign.id}?fields=name` },
              { method: 'GET', relative_url: `act_${account.id}?fields=name` },
              { method: 'POST', relative_url: campaign.id, body: 'name=Never%20renamed' },
            ]),
          }),
        }),
      ),
    );
    const batchTrace = response.headers.get('x-fb-trace-id')!;
    const answers = batchAnswers({ ...response, body: response.body });
    expect(answers.map((answer) => answer.code)).toEqual([500, 200, 500]);
    for (const [index, answer] of [
      [0, answers[0]!],
      [2, answers[2]!],
    ] as const) {
      expect(answer.header('x-fb-trace-id')).toBe(`${batchTrace}.${index}`);
      expect(answer.parsed).toEqual(unexpectedGraphError(`${batchTrace}.${index}`));
    }
    expect(answers[1]!.parsed).toEqual({ id: `act_${account.id}`, name: account.name });
    expectNoInternals(response, 'campaigns');
    expectLoggedWithCause(batchTrace, 'campaigns');
    expect((await graph.get(campaign.id, token, { fields: 'name' })).body.name).toBe('Intact');
  });
});

describe('GraphQL', () => {
  async function graphql(query: string): Promise<RawResponse> {
    return raw(
      await fetch(`${server.url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'service-session-token': token },
        body: JSON.stringify({ query }),
      }),
    );
  }

  it('a query answers the masked INTERNAL_SERVER_ERROR on the field that failed, the rest of the data intact', async () => {
    const response = await withTableMissing('campaigns', () => graphql(`{ campaign(id: "${campaign.id}") { name } adAccount(id: "${account.id}") { name } }`));
    expect({ status: response.status, body: response.body }).toEqual({
      status: 200,
      body: {
        errors: [{ message: 'Internal server error', locations: [{ line: 1, column: 3 }], path: ['campaign'], extensions: { code: 'INTERNAL_SERVER_ERROR' } }],
        data: { campaign: null, adAccount: { name: account.name } },
      },
    });
    expectNoInternals(response, 'campaigns');
    expectLoggedWithCause(response.headers.get('x-request-id')!, 'campaigns');
  });

  it('a mutation answers the same, and changes nothing', async () => {
    const response = await withTableMissing('ad_sets', () => graphql(`mutation { deleteCampaign(id: "${campaign.id}") }`));
    expect({ status: response.status, body: response.body }).toEqual({
      status: 200,
      body: {
        errors: [
          { message: 'Internal server error', locations: [{ line: 1, column: 12 }], path: ['deleteCampaign'], extensions: { code: 'INTERNAL_SERVER_ERROR' } },
        ],
        data: null,
      },
    });
    expectNoInternals(response, 'ad_sets');
    expectLoggedWithCause(response.headers.get('x-request-id')!, 'ad_sets');
    // The campaign's own update was in the same transaction as its ad sets': rolled back with it.
    expect((await server.deps.db('campaigns').where({ id: campaign.id }).first()).status).toBe('ACTIVE');
  });
});

describe('/api/v2', () => {
  it('answers HTTP 500 with {message} alone', async () => {
    const response = await withTableMissing('campaigns', async () =>
      raw(
        await fetch(`${server.url}/api/v2/authcheck`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'service-session-token': token },
          body: JSON.stringify({ checks: { read: { action: 'read', object: { resource_type: 'campaign', resource_id: campaign.id } } } }),
        }),
      ),
    );
    expect({ status: response.status, body: response.body }).toEqual({ status: 500, body: { message: 'An internal error occurred.' } });
    expectNoInternals(response, 'campaigns');
    expectLoggedWithCause(response.headers.get('x-request-id')!, 'campaigns');
  });
});

describe('/oauth2/token', () => {
  it('answers HTTP 500 server_error, never cached', async () => {
    const response = await withTableMissing('api_clients', () =>
      tokenRequest(server.url, {
        body: { grant_type: 'client_credentials', client_id: client.clientId, client_secret: client.secret },
      }),
    );
    expect({ status: response.status, body: response.body }).toEqual({
      status: 500,
      body: { error: 'server_error', error_description: 'An internal error occurred.' },
    });
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('pragma')).toBe('no-cache');
    expectNoInternals(response, 'api_clients');
    expectLoggedWithCause(response.headers.get('x-request-id')!, 'api_clients');
  });
});
