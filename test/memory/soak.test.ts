// Same on every database: what grows or not is the server's own heap (its caches of documents), whatever stores the rows.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { worldBuilder } from '../helpers/world.ts';

/**
 * Issue 12, defect 6: resident memory rose from 135 MB to 297 MB over 56,000 requests. A heap profile of that
 * traffic found one cause: Apollo's cache of parsed documents, which by default may hold 30 MiB as it measures
 * them (the JSON of each document) and about five times that in real heap, so every new query text a client sent
 * stayed until some 150 MB had gathered. Every other kind of request (valid and invalid GraphQL, /v24.0 reads,
 * bad REST bodies) left the heap flat. This soak sends bounded rounds of such traffic, with a new query text in
 * every other request, and checks that the heap after a full garbage collection stops growing once the caches are
 * full: a leak grows with every round, a bounded cache does not.
 */
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const ROUND = 2_400;
const CONCURRENCY = 16;

describe('memory under sustained, varied traffic', () => {
  let server: TestServer;
  let token: string;
  let sent = 0;

  beforeAll(async () => {
    server = await startTestServer({ LOG_LEVEL: 'warn' });
    const world = worldBuilder(server.deps);
    const org = await world.organization();
    ({ token } = await world.user({ organizationId: org.id, role: 'admin' }));
  });
  afterAll(() => server?.close());

  const graphql = (query: string) =>
    fetch(`${server.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'service-session-token': token },
      body: JSON.stringify({ query }),
    });

  /** One request of the mix; every other one is a query text the server has never seen. */
  function request(n: number): Promise<Response> {
    switch (n % 6) {
      case 0:
        return graphql(`query Soak${n} { me { id } }`);
      case 1:
        return graphql(`{ me { id unknownField${n} } }`);
      case 2:
        return graphql(`query Soak${n} { me { id email } }`);
      case 3:
        return fetch(`${server.url}/v24.0/me?fields=id,name&n=${n}`, { headers: { authorization: `Bearer ${token}` } });
      case 4:
        return graphql(`query Soak${n} { me { id } ${'{'.repeat(n % 5)}`);
      default:
        return fetch(`${server.url}/api/v2/users/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: `{"email":${n}` });
    }
  }

  async function round(): Promise<number> {
    const statuses = new Set<number>();
    for (let start = 0; start < ROUND; start += CONCURRENCY) {
      const responses = await Promise.all(Array.from({ length: Math.min(CONCURRENCY, ROUND - start) }, () => request(sent++)));
      for (const response of responses) {
        statuses.add(response.status);
        await response.arrayBuffer();
      }
    }
    expect(
      [...statuses].every((status) => status < 500),
      [...statuses].join(','),
    ).toBe(true);
    gc();
    gc();
    return process.memoryUsage().heapUsed;
  }

  it('the heap after garbage collection stops growing once the caches are full', async () => {
    // Two rounds fill every bounded cache (the parsed-document cache holds far fewer than 2,400 query texts).
    await round();
    const filled = await round();
    const after = [await round(), await round()];
    const growth = Math.max(...after) - filled;
    // Before the fix each round added about 4 MB of cached documents (1,200 new query texts a round).
    expect(growth, `heap grew ${(growth / 2 ** 20).toFixed(1)} MB over two more rounds of ${ROUND} requests`).toBeLessThan(3 * 2 ** 20);
  }, 180_000);
});
