import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import bizSdk from 'facebook-nodejs-business-sdk';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { worldBuilder } from '../helpers/world.ts';
import { pointSdkAt, type SdkCursor } from '../helpers/sdk.ts';
import { expectGraphError, graphClient, UNKNOWN_OBJECT, type GraphClient } from '../helpers/graph.ts';
import { daysAgo, DEFAULT_PLACEMENT, importLines } from '../helpers/insights.ts';
import type { AdAccountRecord, AdSetRecord } from '../../src/ads/store.ts';

/**
 * Delivery estimates (issue 21) on every surface, from one service (src/ads/estimates.ts over the population model
 * of src/ads/rules/delivery-estimate.ts, whose numbers its unit test covers): the ad set's delivery_estimate and
 * message_delivery_estimate, the account's delivery_estimate and reachestimate for a targeting that is no ad set
 * yet, GraphQL's AdSet.deliveryEstimate, AdSet.messageDeliveryEstimate and estimateDelivery, and the official SDK's
 * getDeliveryEstimate, getReachEstimate and getMessageDeliveryEstimate. Rates come from the account's own last
 * 28 days once it has delivered; bad targeting is refused naming the parameter.
 */
interface SdkEdges {
  getDeliveryEstimate(fields: string[], params?: Record<string, unknown>): Promise<SdkCursor>;
  getMessageDeliveryEstimate(fields: string[], params?: Record<string, unknown>): Promise<SdkCursor>;
  getReachEstimate(fields: string[], params?: Record<string, unknown>): Promise<SdkCursor>;
}
const { AdSet, AdAccount } = bizSdk as unknown as { AdSet: new (id: string) => SdkEdges; AdAccount: new (id: string) => SdkEdges };

const TARGETING = { geo_locations: { countries: ['US'] }, age_min: 25, age_max: 54 };
const ESTIMATE_FIELDS =
  'estimateMauLowerBound estimateMauUpperBound estimateDau estimateReady ratesFrom dailyOutcomesCurve { spend reach impressions actions }';

let server: TestServer;
let graph: GraphClient;
let token: string;
let outsiderToken: string;
let account: AdAccountRecord;
let adSet: AdSetRecord;
let messaging: AdSetRecord;
let restoreSdk: (() => void) | undefined;

beforeAll(async () => {
  server = await startTestServer();
  const world = worldBuilder(server.deps);
  graph = graphClient(server);
  ({ token, outsiderToken, account } = await world.advertiserWithAccount());
  const [campaign] = await world.campaigns(account, 1);
  [adSet, messaging] = (await world.adSets(campaign!, 2, (i) =>
    i === 0
      ? { targeting: TARGETING, dailyBudget: '5000', optimizationGoal: 'LINK_CLICKS' }
      : { targeting: TARGETING, dailyBudget: '3000', optimizationGoal: 'CONVERSATIONS', destinationType: 'MESSENGER' },
  )) as [AdSetRecord, AdSetRecord];
  restoreSdk = pointSdkAt(server.url, token);
});
afterAll(async () => {
  restoreSdk?.();
  await server?.close();
});

/** BigInt fields: JSON numbers while safe integers, strings beyond. */
type BigIntJson = number | string;
interface GraphqlEstimate {
  estimateMauLowerBound: BigIntJson;
  estimateMauUpperBound: BigIntJson;
  estimateDau: BigIntJson;
  estimateReady: boolean;
  ratesFrom: 'ACCOUNT' | 'DEFAULTS';
  dailyOutcomesCurve: Array<{ spend: BigIntJson; reach: BigIntJson; impressions: BigIntJson; actions: BigIntJson }>;
}

async function adSetEstimate(args = ''): Promise<GraphqlEstimate> {
  const { body } = await server.graphql(`query ($id: ID!) { adSet(id: $id) { deliveryEstimate${args} { ${ESTIMATE_FIELDS} } } }`, { id: adSet.id }, token);
  expect(body.errors).toBeUndefined();
  return (body.data!.adSet as { deliveryEstimate: GraphqlEstimate }).deliveryEstimate;
}

/** The /v24.0 shape of a GraphQL estimate: the same numbers, as numbers. */
const asGraph = (estimate: GraphqlEstimate) => ({
  estimate_mau_lower_bound: Number(estimate.estimateMauLowerBound),
  estimate_mau_upper_bound: Number(estimate.estimateMauUpperBound),
  estimate_dau: Number(estimate.estimateDau),
  estimate_ready: true,
  daily_outcomes_curve: estimate.dailyOutcomesCurve.map((point) => ({
    spend: Number(point.spend),
    reach: Number(point.reach),
    impressions: Number(point.impressions),
    actions: Number(point.actions),
  })),
});

describe('delivery estimates', () => {
  it("estimates the ad set's audience and its budget's curve from the model's defaults before it delivers (GraphQL)", async () => {
    const estimate = await adSetEstimate();
    expect(estimate.ratesFrom).toBe('DEFAULTS');
    expect(estimate.estimateReady).toBe(true);
    const [lower, upper, dau] = [estimate.estimateMauLowerBound, estimate.estimateMauUpperBound, estimate.estimateDau].map(Number) as [number, number, number];
    expect(lower).toBeGreaterThanOrEqual(1000);
    expect(upper).toBeGreaterThan(lower);
    expect(dau).toBeLessThan(upper);
    const curve = estimate.dailyOutcomesCurve.map((point) => ({
      spend: Number(point.spend),
      reach: Number(point.reach),
      impressions: Number(point.impressions),
    }));
    expect(curve).toHaveLength(13);
    expect(curve[0]).toEqual({ spend: 0, reach: 0, impressions: 0 });
    // Three times its daily budget of $50.00 at the end.
    expect(curve.at(-1)!.spend).toBe(15000);
    for (let i = 1; i < curve.length; i++) {
      expect(curve[i]!.impressions).toBeGreaterThanOrEqual(curve[i - 1]!.impressions);
      expect(curve[i]!.reach).toBeLessThanOrEqual(curve[i]!.impressions);
    }
  });

  it('answers the same on /v24.0 and through the SDK, and narrows with a targeting_spec or another goal', async () => {
    const estimate = asGraph(await adSetEstimate());
    const response = await graph.get(`${adSet.id}/delivery_estimate`, token);
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual([{ id: adSet.id, ...estimate }]);
    const cursor = await new AdSet(adSet.id).getDeliveryEstimate([
      'estimate_mau_lower_bound',
      'estimate_mau_upper_bound',
      'estimate_dau',
      'estimate_ready',
      'daily_outcomes_curve',
    ]);
    expect(cursor).toHaveLength(1);
    expect(cursor[0]!._data).toEqual({ ...estimate, id: adSet.id });

    const narrower = { ...TARGETING, age_min: 25, age_max: 34, genders: [2] };
    const narrowed = await graph.get(`${adSet.id}/delivery_estimate`, token, { targeting_spec: JSON.stringify(narrower) });
    expect(narrowed.body.data[0].estimate_mau_upper_bound).toBeLessThan(estimate.estimate_mau_upper_bound);
    const viaGraphql = asGraph(await adSetEstimate('(targeting: { geoLocations: { countries: ["US"] }, ageMin: 25, ageMax: 34, genders: [2] })'));
    expect({ id: adSet.id, ...viaGraphql }).toEqual(narrowed.body.data[0]);
    // Reach optimizes for people: its results are the people reached, not link clicks.
    const reach = await graph.get(`${adSet.id}/delivery_estimate`, token, { optimization_goal: 'REACH' });
    const last = reach.body.data[0].daily_outcomes_curve.at(-1);
    expect(last.actions).toBe(last.reach);
  });

  it("estimates a targeting that is no ad set yet in the account: /act_<id>/delivery_estimate, reachestimate, GraphQL's estimateDelivery", async () => {
    const targeting = { geo_locations: { countries: ['FR', 'DE'] }, age_min: 18, age_max: 65 };
    const estimate = await graph.get(`act_${account.id}/delivery_estimate`, token, {
      targeting_spec: JSON.stringify(targeting),
      optimization_goal: 'LINK_CLICKS',
      daily_budget: '2000',
    });
    expect(estimate.status).toBe(200);
    expect(estimate.body.data[0].daily_outcomes_curve.at(-1).spend).toBe(6000);

    const { body } = await server.graphql(
      `query ($account: ID!) { estimateDelivery(accountId: $account, targeting: { geoLocations: { countries: ["FR", "DE"] }, ageMin: 18, ageMax: 65 }, optimizationGoal: LINK_CLICKS, dailyBudget: "2000") { ${ESTIMATE_FIELDS} } }`,
      { account: `act_${account.id}` },
      token,
    );
    expect(body.errors).toBeUndefined();
    expect({ id: `act_${account.id}`, ...asGraph((body.data as { estimateDelivery: GraphqlEstimate }).estimateDelivery) }).toEqual(estimate.body.data[0]);

    const reach = await new AdAccount(`act_${account.id}`).getReachEstimate(['users_lower_bound', 'users_upper_bound', 'estimate_ready'], {
      targeting_spec: targeting,
    });
    expect(reach[0]!._data).toEqual({
      id: `act_${account.id}`,
      users_lower_bound: estimate.body.data[0].estimate_mau_lower_bound,
      users_upper_bound: estimate.body.data[0].estimate_mau_upper_bound,
      estimate_ready: true,
    });
    const viaSdk = await new AdAccount(`act_${account.id}`).getDeliveryEstimate(['estimate_mau_upper_bound'], {
      targeting_spec: targeting,
      optimization_goal: 'LINK_CLICKS',
    });
    expect(viaSdk[0]!._data.estimate_mau_upper_bound).toBe(estimate.body.data[0].estimate_mau_upper_bound);
  });

  it('refuses bad input naming the parameter, on both surfaces', async () => {
    const account_ = `act_${account.id}`;
    expectGraphError(await graph.get(`${account_}/delivery_estimate`, token, { optimization_goal: 'LINK_CLICKS' }), {
      status: 400,
      code: 100,
      message: '(#100) The parameter targeting_spec is required',
    });
    expectGraphError(
      await graph.get(`${account_}/delivery_estimate`, token, {
        targeting_spec: JSON.stringify({ geo_locations: { countries: ['XX'] } }),
        optimization_goal: 'LINK_CLICKS',
      }),
      { status: 400, code: 100, message: /targeting_spec\.geo_locations\.countries\[0\]/ },
    );
    expectGraphError(await graph.get(`${account_}/delivery_estimate`, token, { targeting_spec: JSON.stringify(TARGETING), optimization_goal: 'FASTEST' }), {
      status: 400,
      code: 100,
      message: /^\(#100\) Param optimization_goal must be one of/,
    });
    expectGraphError(await graph.get(`${account_}/delivery_estimate`, token, { targeting_spec: '{not json', optimization_goal: 'REACH' }), {
      status: 400,
      code: 100,
      message: /^\(#100\) Param targeting_spec must be JSON-encoded/,
    });
    expectGraphError(await graph.get(`${adSet.id}/delivery_estimate`, token, { daily_budget: '12.50' }), {
      status: 400,
      code: 100,
      message: /^\(#100\) Param daily_budget must be a whole number/,
    });

    const { body } = await server.graphql(
      'query ($account: ID!) { estimateDelivery(accountId: $account, targeting: { geoLocations: { countries: ["XX"] } }) { estimateDau } }',
      { account: account_ },
      token,
    );
    expect(body.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'targeting.geoLocations.countries' });
  });

  it('prices from the account once it has delivered in its last 28 days', async () => {
    const [ad] = await worldBuilder(server.deps).ads(adSet, 1);
    const day = new Date(daysAgo(3)).toISOString().slice(0, 10);
    // 200,000 impressions for $1,000.00: a CPM of $5.00; 3,000 link clicks.
    await importLines(
      server.deps,
      [
        {
          ad_id: ad!.id,
          date: day,
          ...DEFAULT_PLACEMENT,
          impressions: 200_000,
          clicks: 4_000,
          inline_link_clicks: 3_000,
          spend: 100_000,
          actions: { link_click: 3_000 },
        },
      ],
      { format: 'daily' },
    );
    const estimate = await adSetEstimate();
    expect(estimate.ratesFrom).toBe('ACCOUNT');
    // $50.00 a day at $5.00 per thousand impressions, 1.5% of them a link click.
    const atBudget = estimate.dailyOutcomesCurve.find((point) => Number(point.spend) === 5000)!;
    expect(Number(atBudget.impressions)).toBe(10_000);
    expect(Number(atBudget.actions)).toBe(150);
  });

  it('estimates conversations for a messaging ad set, and refuses the others naming destination_type', async () => {
    const response = await graph.get(`${messaging.id}/message_delivery_estimate`, token);
    expect(response.status).toBe(200);
    const [entry] = response.body.data;
    expect(entry.estimate_cost).toBeGreaterThan(0);
    expect(entry.estimate_cost_lower_bound).toBeLessThan(entry.estimate_cost);
    expect(entry.estimate_delivery).toBe(Math.floor(3000 / entry.estimate_cost));
    expect(entry.estimate_status).toBe('ESTIMATE_READY');
    const viaSdk = await new AdSet(messaging.id).getMessageDeliveryEstimate(['estimate_cost', 'estimate_delivery']);
    expect(viaSdk[0]!._data).toEqual({ id: messaging.id, estimate_cost: entry.estimate_cost, estimate_delivery: entry.estimate_delivery });
    const { body } = await server.graphql(
      'query ($id: ID!) { adSet(id: $id) { messageDeliveryEstimate { estimateCost estimateDelivery } } }',
      { id: messaging.id },
      token,
    );
    // BigInt serializes as a JSON number while it is a safe integer.
    expect(body.data).toEqual({ adSet: { messageDeliveryEstimate: { estimateCost: entry.estimate_cost, estimateDelivery: entry.estimate_delivery } } });

    expectGraphError(await graph.get(`${adSet.id}/message_delivery_estimate`, token), { status: 400, code: 100, message: /destination_type/ });
  });

  it("refuses another organization's caller as reading the ad set or the account does", async () => {
    expectGraphError(await graph.get(`${adSet.id}/delivery_estimate`, outsiderToken), {
      status: 400,
      code: 100,
      subcode: 33,
      message: UNKNOWN_OBJECT(adSet.id),
    });
    expectGraphError(await graph.get(`act_${account.id}/reachestimate`, outsiderToken, { targeting_spec: JSON.stringify(TARGETING) }), {
      status: 400,
      code: 100,
      subcode: 33,
      message: UNKNOWN_OBJECT(`act_${account.id}`),
    });
    const { body } = await server.graphql(
      'query ($account: ID!) { estimateDelivery(accountId: $account, targeting: { geoLocations: { countries: ["US"] } }) { estimateDau } }',
      { account: `act_${account.id}` },
      outsiderToken,
    );
    expect(body.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
  });
});
