import { get } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { worldBuilder } from '../helpers/world.ts';

/**
 * What the leaner request path (src/server/app.ts, src/server/health.ts, src/graphql/server.ts) still answers:
 * /healthz's bytes and headers as res.json wrote them; no ETag hashed over API answers (per caller, no-store),
 * while the IDE's assets keep their content-hash ETag and a 304 for a matching If-None-Match; a GET query's
 * query string still read by Apollo's integration (whose url.parse warning is spent once, silently).
 */
let server: TestServer;
let token: string;
let accountId: string;

beforeAll(async () => {
  server = await startTestServer({ ASYNC_RUNNER: 'false' });
  const world = worldBuilder(server.deps);
  const org = await world.organization();
  token = (await world.user({ organizationId: org.id, role: 'advertiser' })).token;
  accountId = (await world.adAccount(org.id)).id;
});
afterAll(() => server?.close());

describe('/healthz', () => {
  it('answers the same JSON, typed and sized, and HEAD the headers alone', async () => {
    const get = await fetch(`${server.url}/healthz`);
    expect(get.status).toBe(200);
    expect(get.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(get.headers.get('content-length')).toBe('15');
    expect(await get.text()).toBe('{"status":"ok"}');

    const head = await fetch(`${server.url}/healthz`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe('15');
    expect(await head.text()).toBe('');
  });
});

describe('ETags', () => {
  it('are not computed for GraphQL, /v24.0 or /api/v2 answers', async () => {
    const answers = await Promise.all([
      fetch(`${server.url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'service-session-token': token },
        body: JSON.stringify({ query: '{ me { id } }' }),
      }),
      fetch(`${server.url}/v24.0/act_${accountId}?fields=id,name&access_token=${token}`),
      fetch(`${server.url}/api/v2/users/me`, { headers: { 'service-session-token': token } }),
      fetch(`${server.url}/healthz`),
    ]);
    for (const answer of answers) {
      expect(answer.status, answer.url).toBe(200);
      expect(answer.headers.get('etag'), answer.url).toBeNull();
    }
  });

  it("are kept on the IDE's assets, and a matching If-None-Match gets 304", async () => {
    const page = await (await fetch(`${server.url}/graphql`, { headers: { accept: 'text/html' } })).text();
    const asset = /<script src="([^"]+)"/.exec(page)?.[1];
    expect(asset).toBeDefined();
    const first = await fetch(new URL(asset!, `${server.url}/graphql`), { headers: { 'accept-encoding': 'identity' } });
    expect(first.status).toBe(200);
    const etag = first.headers.get('etag');
    expect(etag).toMatch(/^"[0-9a-f]+"$/);
    // node:http, not fetch: fetch adds Cache-Control: no-cache to a conditional request, which no server answers with 304.
    const again = await new Promise<number | undefined>((resolve, reject) =>
      get(new URL(asset!, `${server.url}/graphql`), { headers: { 'accept-encoding': 'identity', 'if-none-match': etag! } }, (response) => {
        response.resume();
        resolve(response.statusCode);
      }).on('error', reject),
    );
    expect(again).toBe(304);
  });
});

describe('a GET query', () => {
  it("reads the query string's query and variables through Apollo's integration", async () => {
    const query = encodeURIComponent('query Account($id: ID!) { adAccount(id: $id) { id } __typename }');
    const variables = encodeURIComponent(JSON.stringify({ id: accountId }));
    const answer = await fetch(`${server.url}/graphql?query=${query}&variables=${variables}`, { headers: { 'service-session-token': token } });
    expect(await answer.json()).toEqual({ data: { adAccount: { id: accountId }, __typename: 'Query' } });
    expect(answer.status).toBe(200);
  });
});
