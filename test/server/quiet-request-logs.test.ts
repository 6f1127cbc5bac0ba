import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { worldBuilder } from '../helpers/world.ts';
import type { CampaignRecord } from '../../src/ads/store.ts';

/**
 * At a level that writes no request lines (LOG_LEVEL=warn), a request's logger is made only when something logs
 * (src/server/http-logging.ts quietRequests; GraphQL's context makes it on first use too, through Apollo's copy
 * of the context). What does log must still name the request as pino-http's lines do: its id (the caller's
 * X-Request-Id, echoed back), method and redacted URL. A table renamed away makes the server fail for real.
 */
let server: TestServer;
let token: string;
let campaign: CampaignRecord;

beforeAll(async () => {
  server = await startTestServer({ LOG_LEVEL: 'warn', ASYNC_RUNNER: 'false' });
  const world = worldBuilder(server.deps);
  const org = await world.organization();
  token = (await world.user({ organizationId: org.id, role: 'advertiser' })).token;
  [campaign] = (await world.campaigns(await world.adAccount(org.id), 1, { name: 'Quiet' })) as [CampaignRecord];
});
afterAll(() => server?.close());

async function withCampaignsMissing<T>(work: () => Promise<T>): Promise<T> {
  await server.deps.db.schema.renameTable('campaigns', 'campaigns_gone');
  try {
    return await work();
  } finally {
    await server.deps.db.schema.renameTable('campaigns_gone', 'campaigns');
  }
}

const errorLinesOf = (requestId: string) =>
  server.logs.filter((line) => (line.level as number) >= 50 && (line.req as { id?: string } | undefined)?.id === requestId);

describe('request logs at LOG_LEVEL=warn', () => {
  it('writes nothing for requests that go well, and still echoes or gives a request id', async () => {
    const before = server.logs.length;
    const given = await fetch(`${server.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-request-id': 'quiet-ok-1', 'service-session-token': token },
      body: JSON.stringify({ query: '{ me { id } }' }),
    });
    expect(given.status).toBe(200);
    expect(given.headers.get('x-request-id')).toBe('quiet-ok-1');
    const generated = await fetch(`${server.url}/v24.0/${campaign.id}?fields=name&access_token=${token}`);
    expect(((await generated.json()) as { name: string }).name).toBe('Quiet');
    expect(generated.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(server.logs.slice(before)).toEqual([]);
  });

  it("a GraphQL request's unexpected error is logged with the request's id, method and URL", async () => {
    const requestId = 'quiet-graphql-1';
    const response = await withCampaignsMissing(() =>
      fetch(`${server.url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-request-id': requestId, 'service-session-token': token },
        body: JSON.stringify({ query: `{ campaign(id: "${campaign.id}") { name } }` }),
      }),
    );
    const body = (await response.json()) as { errors?: Array<{ extensions?: { code?: string } }> };
    expect(body.errors?.[0]?.extensions?.code).toBe('INTERNAL_SERVER_ERROR');
    expect(response.headers.get('x-request-id')).toBe(requestId);
    const lines = errorLinesOf(requestId);
    expect(lines.map((line) => line.msg)).toEqual(['unexpected GraphQL error']);
    expect(lines[0]!.req).toMatchObject({ id: requestId, method: 'POST', url: '/graphql' });
    expect(JSON.stringify(lines[0]!.err)).toMatch(/campaigns/);
  });

  it("a /v24.0 request's unexpected error is logged with its id and its URL, the token redacted", async () => {
    const requestId = 'quiet-graph-1';
    const response = await withCampaignsMissing(() =>
      fetch(`${server.url}/v24.0/${campaign.id}?fields=name&access_token=${token}`, { headers: { 'x-request-id': requestId } }),
    );
    expect(response.status).toBe(500);
    const lines = errorLinesOf(requestId);
    expect(lines).toHaveLength(1);
    expect(lines[0]!.req).toMatchObject({ id: requestId, method: 'GET', url: `/v24.0/${campaign.id}?fields=name&access_token=[redacted]` });
    expect(JSON.stringify(server.logs)).not.toContain(token);
  });
});
