import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { worldBuilder } from '../helpers/world.ts';
import { cliEnv, cliJson } from '../helpers/cli.ts';
import { expectGraphError, graphClient, type GraphClient } from '../helpers/graph.ts';
import { databaseDigest, expectUnchanged } from '../helpers/table-hash.ts';
import type { AdAccountRecord, AdSetRecord, CampaignRecord } from '../../src/ads/store.ts';

/**
 * Error 368 ("Action deemed abusive or disallowed"): an operator restricts an ad account with
 * `adgraph accounts update --restrict <reason>`; every write to its objects is then refused with 368 on both
 * surfaces (creates in it, updates and deletes of its objects, copies, rules), nothing is written, reads go on;
 * `--unrestrict` lifts it. Who may not write at all still hears 200.
 */

let server: TestServer;
let graph: GraphClient;
let token: string;
let auditorToken: string;
let account: AdAccountRecord;
let campaign: CampaignRecord;
let adSet: AdSetRecord;

beforeAll(async () => {
  server = await startTestServer({ ASYNC_RUNNER: 'false' });
  const world = worldBuilder(server.deps);
  graph = graphClient(server);
  const setup = await world.advertiserWithAccount();
  ({ token, account } = setup);
  auditorToken = (await world.user({ organizationId: setup.org.id, role: 'auditor' })).token;
  [campaign] = (await world.campaigns(account, 1)) as [CampaignRecord];
  [adSet] = (await world.adSets(campaign, 1, () => ({ billingEvent: 'IMPRESSIONS', optimizationGoal: 'LINK_CLICKS', dailyBudget: '5000' }))) as [AdSetRecord];
});
afterAll(() => server?.close());

const post = (path: string, body: Record<string, unknown>, as = token) => graph.call('POST', `/v24.0/${path}`, { token: as, json: body });
const env = () => cliEnv(server.database);

describe('a restricted ad account (error 368)', () => {
  it('the CLI restricts it; every write to its objects is refused with 368 and writes nothing; reads go on', async () => {
    const { value } = await cliJson(['accounts', 'update', `act_${account.id}`, '--restrict', 'Repeated policy violations'], env());
    expect(value).toMatchObject({ id: account.id, restricted_reason: 'Repeated policy violations' });

    const before = await databaseDigest(server.deps.db);
    const refusals = [
      await post(adSet.id, { name: 'Renamed' }),
      await post(`act_${account.id}/campaigns`, { name: 'New', objective: 'OUTCOME_TRAFFIC', special_ad_categories: [] }),
      await post(`act_${account.id}/adcreatives`, { title: 'New' }),
      await post(`${adSet.id}/copies`, {}),
      await graph.call('DELETE', `/v24.0/${campaign.id}`, { token }),
    ];
    for (const refused of refusals) {
      expectGraphError(refused, { status: 400, code: 368, message: /deemed abusive or is otherwise disallowed/ });
      expect(refused.body.error.error_user_msg).toMatch(/Repeated policy violations/);
    }
    const gql = await server.graphql('mutation ($id: ID!) { updateAdSet(id: $id, input: { name: "Renamed" }) { id } }', { id: adSet.id }, token);
    expect(gql.body.errors?.[0]).toMatchObject({ extensions: { code: 'FORBIDDEN', graphApi: { code: 368 } } });
    await expectUnchanged(server.deps.db, before, 'writes to a restricted account');

    // Reads go on; and who may not write at all hears 200, not why the account is closed.
    expect((await graph.get(adSet.id, token, { fields: 'name' })).body).toEqual({ id: adSet.id, name: adSet.name });
    expectGraphError(await post(adSet.id, { name: 'Renamed' }, auditorToken), { status: 403, code: 200 });
  });

  it('--unrestrict lifts it', async () => {
    const { value } = await cliJson(['accounts', 'update', `act_${account.id}`, '--unrestrict'], env());
    expect(value).toMatchObject({ id: account.id, restricted_reason: null });
    expect((await post(adSet.id, { name: 'Renamed' })).body).toMatchObject({ success: true });
  });
});
