import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import bizSdk from 'facebook-nodejs-business-sdk';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { worldBuilder } from '../helpers/world.ts';
import { pointSdkAt, type SdkCursor } from '../helpers/sdk.ts';
import { expectGraphError, graphClient, UNKNOWN_OBJECT, type GraphClient } from '../helpers/graph.ts';
import { fetchAccessToken } from '../helpers/oauth.ts';
import { createClient } from '../../src/oauth/service.ts';
import { insertMembership } from '../../src/identity/store.ts';
import type { AdAccountRecord, AdSetRecord } from '../../src/ads/store.ts';
import type { PageRecord } from '../../src/comments/store.ts';

/**
 * How a Graph caller finds its ids (issue 22): `/me` is the person or API client the token belongs to,
 * `/me/adaccounts` the accounts it may read (across a person's organizations, only where its role reads ads),
 * `/me/accounts` the pages it moderates; `GET /?ids=` reads several objects of any type in one call, each as
 * `GET /<id>` would, an unreadable one answering its own error.
 */
const sdk = bizSdk as unknown as { User: new (id: string) => { getAdAccounts(fields: string[]): Promise<SdkCursor> } };

let server: TestServer;
let graph: GraphClient;
let advertiser: { token: string; user: { id: string; name: string; email: string } };
let moderatorToken: string;
let clientToken: string;
let clientId: string;
let accounts: AdAccountRecord[];
let otherAccount: AdAccountRecord;
let adSet: AdSetRecord;
let page: PageRecord;
let restoreSdk: (() => void) | undefined;

beforeAll(async () => {
  server = await startTestServer();
  const world = worldBuilder(server.deps);
  graph = graphClient(server);
  const orgA = await world.organization();
  const orgB = await world.organization();
  advertiser = await world.user({ organizationId: orgA.id, role: 'advertiser' });
  // In B the advertiser only moderates: B's accounts are not its to read, B's pages are its to moderate.
  await insertMembership(server.deps.db, orgB.id, advertiser.user.id, 'moderator');
  moderatorToken = (await world.user({ organizationId: orgA.id, role: 'moderator' })).token;
  accounts = [await world.adAccount(orgA.id), await world.adAccount(orgA.id)];
  otherAccount = await world.adAccount(orgB.id);
  const [campaign] = await world.campaigns(accounts[0]!, 1);
  [adSet] = (await world.adSets(campaign!, 1)) as [AdSetRecord];
  page = await world.page(orgA.id);
  await world.page(orgB.id);
  const { client, clientSecret } = await createClient(server.deps, { name: 'reporting', scope: 'ads_read', organization: orgA.id });
  clientId = client.id;
  clientToken = await fetchAccessToken(server.url, client.clientId, clientSecret);
  restoreSdk = pointSdkAt(server.url, advertiser.token);
});
afterAll(async () => {
  restoreSdk?.();
  await server?.close();
});

const ids = (body: { data: Array<{ id: string }> }) => body.data.map((row) => row.id);

describe('/me', () => {
  it("is the caller: a person's name and e-mail, an API client's name", async () => {
    expect((await graph.get('me', advertiser.token, { fields: 'id,name,email' })).body).toEqual({
      id: advertiser.user.id,
      name: advertiser.user.name,
      email: advertiser.user.email,
    });
    expect((await graph.get('me', clientToken, { fields: 'id,name' })).body).toEqual({ id: clientId, name: 'reporting' });
  });

  it("/me/adaccounts lists the accounts it may read: a person's where its role reads ads, a client's organization's", async () => {
    const mine = accounts.map((account) => `act_${account.id}`);
    expect(ids((await graph.get('me/adaccounts', advertiser.token, { summary: 'total_count' })).body)).toEqual(mine);
    expect((await graph.get('me/adaccounts', advertiser.token, { summary: 'total_count' })).body.summary).toEqual({ total_count: 2 });
    expect(ids((await graph.get('me/adaccounts', clientToken, {})).body)).toEqual(mine);
    // A moderator reads no ads.
    expect(ids((await graph.get('me/adaccounts', moderatorToken, {})).body)).toEqual([]);
    // The official SDK: User('me').getAdAccounts.
    const cursor = await new sdk.User('me').getAdAccounts(['name', 'account_id']);
    expect(cursor.map((account) => account._data.account_id)).toEqual(accounts.map((account) => account.id));
  });

  it('/me/accounts lists the pages it moderates, in every organization where it does', async () => {
    const moderated = ids((await graph.get('me/accounts', advertiser.token, { fields: 'id,name' })).body);
    expect(moderated).toHaveLength(1);
    expect(moderated).not.toContain(page.id);
    expect(ids((await graph.get('me/accounts', moderatorToken, {})).body)).toEqual([page.id]);
  });
});

describe('GET /?ids=', () => {
  it('reads several objects of any type at once, each as GET /<id> would; one it may not read answers its own error', async () => {
    const { status, body } = await graph.get('', advertiser.token, { ids: `act_${accounts[0]!.id},${adSet.id},act_${otherAccount.id}`, fields: 'name' });
    expect(status).toBe(200);
    expect(body[`act_${accounts[0]!.id}`]).toEqual({ id: `act_${accounts[0]!.id}`, name: accounts[0]!.name });
    expect(body[adSet.id]).toEqual({ id: adSet.id, name: adSet.name });
    expect(body[`act_${otherAccount.id}`]).toMatchObject({ error: { code: 100, error_subcode: 33, message: UNKNOWN_OBJECT(`act_${otherAccount.id}`) } });
    expect(Object.keys(body)).toHaveLength(3);
  });

  it('takes 1 to 50 ids', async () => {
    const many = Array.from({ length: 51 }, (_, i) => String(100000000000001 + i)).join(',');
    expectGraphError(await graph.get('', advertiser.token, { ids: many }), { status: 400, code: 100, message: /at most 50 ids, got 51/ });
    expectGraphError(await graph.get('', advertiser.token, { ids: ' , ' }), { status: 400, code: 100, message: /at least one id/ });
  });
});
