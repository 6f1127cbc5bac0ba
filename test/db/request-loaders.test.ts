import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLoaders } from '../../src/context/index.ts';
import { countStatements } from '../helpers/database.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { worldBuilder } from '../helpers/world.ts';
import type { AdAccountRecord } from '../../src/ads/store.ts';

/**
 * A request's loaders (src/context/index.ts createLoaders): each domain's, and each loader of a domain
 * (src/db/lazy-loaders.ts), are made on the request's first use of them, and still batch with the rest of the request's loads; what one request's loaders keep, another's never
 * see, and a write after it is what the next request reads.
 */
let server: TestServer;
let account: AdAccountRecord;
let userId: string;

beforeAll(async () => {
  server = await startTestServer({ ASYNC_RUNNER: 'false' });
  const world = worldBuilder(server.deps);
  const org = await world.organization();
  userId = (await world.user({ organizationId: org.id, role: 'advertiser' })).user.id;
  account = await world.adAccount(org.id, { name: 'Before' });
});
afterAll(() => server?.close());

describe("a request's loaders", () => {
  it('are made once per domain, on first use', () => {
    const loaders = createLoaders(server.deps.db);
    expect(loaders.ads).toBe(loaders.ads);
    expect(loaders.identity.userById).toBe(loaders.identity.userById);
    expect(createLoaders(server.deps.db).ads).not.toBe(loaders.ads);
  });

  it("make each loader of a domain on its first use, once per request, in the request's batches", async () => {
    const loaders = createLoaders(server.deps.db);
    // The domain's object is made now, its loaders one by one below, in later turns of the request.
    const ads = loaders.ads;
    await Promise.resolve();
    expect(ads.adSetsOfAccount).toBe(ads.adSetsOfAccount);
    expect(createLoaders(server.deps.db).ads.adSetsOfAccount).not.toBe(ads.adSetsOfAccount);
    const { result, statements } = await countStatements(server.deps.db, async () => {
      await new Promise((resolve) => setImmediate(resolve));
      return Promise.all([ads.campaignById.load('1'), ads.adAccountById.load(account.id), ads.campaignById.load('2'), ads.adAccountById.load('3')]);
    });
    expect(result.map((found) => found?.id ?? null)).toEqual([null, account.id, null, null]);
    expect(statements).toHaveLength(2);
  });

  it('batch loads of one domain made in one turn into one statement, whichever loader was made first', async () => {
    const loaders = createLoaders(server.deps.db);
    const { result, statements } = await countStatements(server.deps.db, () =>
      Promise.all([loaders.identity.userById.load(userId), loaders.ads.adAccountById.load(account.id), loaders.ads.adAccountById.load('1')]),
    );
    expect(result.map((found) => found?.id ?? null)).toEqual([userId, account.id, null]);
    expect(statements).toHaveLength(2);
  });

  it('keep nothing across requests: a write between two requests is what the second reads', async () => {
    const first = createLoaders(server.deps.db);
    expect((await first.ads.adAccountById.load(account.id))?.name).toBe('Before');
    await server.deps.db('ad_accounts').where({ id: account.id }).update({ name: 'After' });
    expect((await createLoaders(server.deps.db).ads.adAccountById.load(account.id))?.name).toBe('After');
    // Within one request, DataLoader's own cache keeps what the request read first (one answer per request).
    expect((await first.ads.adAccountById.load(account.id))?.name).toBe('Before');
  });
});
