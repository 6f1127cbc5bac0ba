import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import bizSdk from 'facebook-nodejs-business-sdk';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { worldBuilder } from '../helpers/world.ts';
import { pointSdkAt, type SdkCursor } from '../helpers/sdk.ts';
import { expectGraphError, graphClient, UNKNOWN_OBJECT, type GraphClient } from '../helpers/graph.ts';
import type { AdAccountRecord } from '../../src/ads/store.ts';

/**
 * Payor and beneficiary recommendations (the specification's rule 5): the strings an account's ad sets use, the
 * most used first, then its defaults, on /act_<id>/dsa_recommendations (the SDK's getDsaRecommendations) and
 * GraphQL's AdAccount.dsaRecommendations; deleted ad sets do not count; another organization sees nothing.
 */
const sdk = bizSdk as unknown as { AdAccount: new (id: string) => { getDsaRecommendations(fields: string[]): Promise<SdkCursor> } };

let server: TestServer;
let graph: GraphClient;
let token: string;
let outsiderToken: string;
let account: AdAccountRecord;
let restoreSdk: (() => void) | undefined;

beforeAll(async () => {
  server = await startTestServer();
  const world = worldBuilder(server.deps);
  graph = graphClient(server);
  const setup = await world.advertiserWithAccount();
  ({ token, outsiderToken } = setup);
  account = await world.adAccount(setup.org.id, { defaultDsaPayor: 'Northwind SA', defaultDsaBeneficiary: 'Acme GmbH' });
  const [campaign] = await world.campaigns(account, 1);
  const people: Array<[string, string, string]> = [
    ['Acme GmbH', 'Acme GmbH', 'ACTIVE'],
    ['Acme GmbH', 'Brand BV', 'ACTIVE'],
    ['Brand BV', 'Acme GmbH', 'PAUSED'],
    ['Gone Ltd', 'Gone Ltd', 'DELETED'],
  ];
  await world.adSets(campaign!, people.length, (i) => ({ dsaPayor: people[i]![0], dsaBeneficiary: people[i]![1], status: people[i]![2] as never }));
  restoreSdk = pointSdkAt(server.url, token);
});
afterAll(async () => {
  restoreSdk?.();
  await server?.close();
});

describe('dsa_recommendations', () => {
  // Acme GmbH is used four times, Brand BV twice; the defaults follow, each string once; Gone Ltd is deleted.
  const EXPECTED = ['Acme GmbH', 'Brand BV', 'Northwind SA'];

  it('answers the strings the account uses, the most used first, then its defaults, through the SDK and GraphQL', async () => {
    const [entry] = await new sdk.AdAccount(`act_${account.id}`).getDsaRecommendations(['recommendations']);
    expect(entry!._data.recommendations).toEqual(EXPECTED);
    const { body } = await server.graphql('query ($id: ID!) { adAccount(id: $id) { dsaRecommendations } }', { id: account.id }, token);
    expect(body.data).toEqual({ adAccount: { dsaRecommendations: EXPECTED } });
  });

  it("is the account's: another organization sees no such account", async () => {
    expectGraphError(await graph.get(`act_${account.id}/dsa_recommendations`, outsiderToken), {
      status: 400,
      code: 100,
      subcode: 33,
      message: UNKNOWN_OBJECT(`act_${account.id}`),
    });
  });
});
