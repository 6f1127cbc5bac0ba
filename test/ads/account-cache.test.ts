import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRequestContext } from '../../src/context/index.ts';
import { createDatabase, type Db } from '../../src/db/index.ts';
import { createClient } from '../../src/oauth/service.ts';
import type { AdAccountRecord } from '../../src/ads/store.ts';
import { countStatements, POSTGRES_URL, TEST_DB } from '../helpers/database.ts';
import { cliEnv, cliJson } from '../helpers/cli.ts';
import { fetchAccessToken } from '../helpers/oauth.ts';
import { startSecondInstance, startTestServer, type SecondInstance, type TestServer } from '../helpers/server.ts';
import { worldBuilder } from '../helpers/world.ts';

/**
 * Ad accounts kept by id across HTTP requests (keptLoaderById, src/db/generations.ts): answered from memory only
 * while the ad account generation stands still, which every change to an account moves, whoever writes (the
 * command line, a plain SQL statement, another instance's process); another caller gets exactly what a read
 * would give it; a session's and an access token's requests alike; long-lived contexts read for themselves.
 */
describe(`ad accounts kept across requests (${TEST_DB})`, () => {
  let a: TestServer;
  let b: SecondInstance;
  let secondDb: Db;
  let account: AdAccountRecord;
  let token: string;
  let outsiderToken: string;
  let accessToken: string;

  beforeAll(async () => {
    a = await startTestServer({ ASYNC_RUNNER: 'false' });
    b = await startSecondInstance(a);
    secondDb = b.db;
    const world = worldBuilder(a.deps);
    const advertiser = await world.advertiserWithAccount();
    ({ account, token, outsiderToken } = advertiser);
    const client = await createClient(a.deps, { name: 'reader', scope: 'ads_read', organization: advertiser.org.id });
    accessToken = await fetchAccessToken(a.url, client.client.clientId, client.clientSecret);
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  const ACCOUNT = `query ($id: ID!) { adAccount(id: $id) { id name defaultDsaPayor } }`;
  /** The account as `token`'s caller reads it from the server at `url`, and the statements that read ad accounts. */
  async function read(url: string, caller: string, db: Db = a.deps.db) {
    const { result, statements } = await countStatements(db, async () => {
      const response = await fetch(`${url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${caller}` },
        body: JSON.stringify({ query: ACCOUNT, variables: { id: account.id } }),
      });
      return (await response.json()) as { data?: { adAccount: { id: string; name: string; defaultDsaPayor: string | null } | null }; errors?: unknown };
    });
    expect(result.errors).toBeUndefined();
    return { account: result.data!.adAccount, accountReads: statements.filter((sql) => /from [`"]ad_accounts[`"]/.test(sql)).length };
  }

  it('answers a kept account without reading it again, to each caller as its own permissions decide', async () => {
    const first = await read(a.url, token);
    expect(first.account).toEqual({ id: account.id, name: account.name, defaultDsaPayor: null });
    const again = await read(a.url, token);
    expect(again).toEqual({ account: first.account, accountReads: 0 });
    // Another organization's caller, the same kept account: nothing, exactly as for an account it may not read.
    expect((await read(a.url, outsiderToken)).account).toBeNull();
    // /v24.0 answers from it too, with its own permission check.
    const rest = await fetch(`${a.url}/v24.0/act_${account.id}?fields=name&access_token=${outsiderToken}`);
    expect(rest.status).toBe(400);
    const own = await countStatements(a.deps.db, () => fetch(`${a.url}/v24.0/act_${account.id}?fields=name&access_token=${token}`).then((r) => r.json()));
    expect(own.result).toEqual({ id: `act_${account.id}`, name: account.name });
    expect(own.statements.filter((sql) => /from [`"]ad_accounts[`"]/.test(sql))).toEqual([]);
  });

  it('serves an access token’s requests the same way, reading the generation itself', async () => {
    await read(a.url, accessToken);
    expect(await read(a.url, accessToken)).toMatchObject({ accountReads: 0, account: { id: account.id } });
  });

  it('reads a change by the command line at the next request, on both instances', async () => {
    for (const url of [a.url, b.url]) await read(url, token, url === a.url ? a.deps.db : secondDb);
    const changed = await cliJson(['accounts', 'update', `act_${account.id}`, '--default-dsa-payor', 'Changed By The CLI'], cliEnv(a.database));
    expect(changed.value).toMatchObject({ default_dsa_payor: 'Changed By The CLI' });
    for (const [url, db] of [
      [a.url, a.deps.db],
      [b.url, secondDb],
    ] as const) {
      const after = await read(url, token, db);
      expect(after.account!.defaultDsaPayor).toBe('Changed By The CLI');
      expect(after.accountReads).toBe(1);
    }
  });

  it('reads a change made by a plain SQL statement, and an account deleted, at the next request', async () => {
    await read(a.url, token);
    const operator = createDatabase(TEST_DB === 'postgres' ? POSTGRES_URL : a.database.url, { schema: a.database.schema });
    try {
      await operator('ad_accounts').where({ id: account.id }).update({ name: 'Renamed by hand' });
      expect((await read(a.url, token)).account!.name).toBe('Renamed by hand');
      expect((await read(b.url, token, secondDb)).account!.name).toBe('Renamed by hand');
      const world = worldBuilder(a.deps);
      const spare = await world.adAccount(account.organizationId);
      const readSpare = () =>
        a.graphql(`query ($id: ID!) { adAccount(id: $id) { id } }`, { id: spare.id }, token).then((r) => (r.body.data as { adAccount: unknown }).adAccount);
      expect(await readSpare()).toEqual({ id: spare.id });
      await operator('ad_accounts').where({ id: spare.id }).delete();
      expect(await readSpare()).toBeNull();
    } finally {
      await operator.destroy();
    }
  });

  it('keeps records no request may change, and is not used by a context that lives long', async () => {
    const kept = await createRequestContext(a.deps, { requestId: 't1', viewer: { kind: 'anonymous' }, sharedCaches: true }).loaders.ads.adAccountById.load(
      account.id,
    );
    expect(Object.isFrozen(kept)).toBe(true);
    const own = createRequestContext(a.deps, { requestId: 't2', viewer: { kind: 'anonymous' } });
    const { result, statements } = await countStatements(a.deps.db, () => own.loaders.ads.adAccountById.load(account.id));
    expect(result).toEqual(kept);
    expect(Object.isFrozen(result)).toBe(false);
    expect(statements.filter((sql) => /from [`"]ad_accounts[`"]/.test(sql))).toHaveLength(1);
  });

  it('moves the generation with every change to an account, not with a write to its ad sets (PostgreSQL)', async () => {
    const generation = async () => String((await a.deps.db('ad_account_generation').where({ id: 1 }).first()).value);
    const before = await generation();
    await a.deps.db('ad_accounts').where({ id: account.id }).update({ spend_cap: '500000' });
    const afterUpdate = await generation();
    expect(afterUpdate).not.toBe(before);
    const world = worldBuilder(a.deps);
    const created = await world.adAccount(account.organizationId);
    const afterInsert = await generation();
    expect(afterInsert).not.toBe(afterUpdate);
    const [campaign] = await world.campaigns(created, 1);
    const afterCampaign = await generation();
    // A campaign's insert is not a change to the account; on SQLite, the no-op write that holds an account
    // while its children are written (src/db/locks.ts) moves it too, which only reads the account again sooner.
    if (TEST_DB === 'postgres') expect(afterCampaign).toBe(afterInsert);
    expect(campaign).toBeDefined();
  });
});
