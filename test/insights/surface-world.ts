import { afterAll, beforeAll } from 'vitest';
import type { AppDeps } from '../../src/context/index.ts';
import type { AdRecord } from '../../src/ads/store.ts';
import { adTree, importEvents, type AdTree } from '../helpers/insights.ts';
import { expectedBy, importLine, type DayEvent, type Expected } from './oracle.ts';
import { worldBuilder } from '../helpers/world.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { graphClient, type GraphClient } from '../helpers/graph.ts';

/**
 * The world the surface tests report on (/v24.0, GraphQL, the SDK): delivery imported through the real import
 * (test/helpers/insights.ts) into a USD account (2 campaigns, 2 ad sets each, 1 ad each) on four recent days, a
 * JPY account with one ad, and another organization's account. The expected numbers come from the raw events,
 * apart from the engine: totals by the report tests' oracle (oracle.ts: sums, and reach and unique clicks as exact
 * distinct counts, which small sets match exactly), printed here by the platform's rules (6 decimals, half up).
 */

const DAY_MS = 86_400_000;
/** The day `daysAgo` before today, in UTC (the accounts' time zone). */
export const dayAgo = (daysAgo: number) => new Date(Date.now() - daysAgo * DAY_MS).toISOString().slice(0, 10);
/** Delivery on these days (days ago, oldest first): inside last_7d, last_30d and maximum, never today or yesterday. */
export const DELIVERY_DAYS = [5, 4, 3, 2];
/** The first and last day with delivery. */
export const DELIVERY_RANGE = () => ({ since: dayAgo(DELIVERY_DAYS[0]!), until: dayAgo(DELIVERY_DAYS.at(-1)!) });

/** The events of one ad on one day: enough variety for every breakdown, people shared across days and ads. */
function eventsOf(ad: AdRecord, adIndex: number, dayIndex: number, day: string): DayEvent[] {
  const time = `${day}T12:00:00Z`;
  const of = { ad_id: ad.id, campaign_id: ad.campaignId, adset_id: ad.adsetId, time, day };
  const events: DayEvent[] = [];
  const people = 10 + adIndex * 3 + dayIndex;
  for (let i = 0; i < people; i++) {
    events.push({
      ...of,
      type: 'impression',
      person: `p${i}`,
      spend: 7 + adIndex,
      age: i % 2 === 0 ? '25-34' : '35-44',
      gender: i % 3 === 0 ? 'male' : 'female',
      country: i % 4 === 0 ? 'DE' : 'US',
      publisher_platform: i % 2 === 0 ? 'facebook' : 'instagram',
      platform_position: i % 2 === 0 ? 'feed' : 'instagram_stories',
      device_platform: i % 5 === 0 ? 'desktop' : 'mobile',
    });
  }
  for (let i = 0; i < 2 + adIndex; i++) {
    events.push({ ...of, type: 'click', person: `p${i}`, link: i % 2 === 0 });
  }
  events.push({ ...of, type: 'action', person: 'p1', action_type: 'lead' });
  if ((adIndex + dayIndex) % 2 === 0) events.push({ ...of, type: 'action', person: 'p2', action_type: 'purchase', value: 1999 });
  return events;
}

export interface SurfaceWorld {
  tree: AdTree;
  jpy: AdTree;
  other: AdTree;
  events: DayEvent[];
  jpyEvents: DayEvent[];
  token: string;
  otherToken: string;
}

export async function surfaceWorld(deps: AppDeps, world: ReturnType<typeof worldBuilder>): Promise<SurfaceWorld> {
  const org = await world.organization();
  const token = (await world.user({ organizationId: org.id, role: 'advertiser' })).token;
  const tree = await adTree(world, org.id, { campaigns: 2, adSetsPerCampaign: 2, adsPerAdSet: 1 });
  // Rows carry their ad set's optimization goal: give the ad sets one.
  await deps
    .db('ad_sets')
    .whereIn(
      'id',
      tree.adSets.map((s) => s.id),
    )
    .update({ optimization_goal: 'LINK_CLICKS' });
  for (const adSet of tree.adSets) adSet.optimizationGoal = 'LINK_CLICKS';
  const jpy = await adTree(world, org.id, { account: { currency: 'JPY' } });
  const otherOrg = await world.organization();
  const otherToken = (await world.user({ organizationId: otherOrg.id, role: 'advertiser' })).token;
  const other = await adTree(world, otherOrg.id);

  const events = tree.ads.flatMap((ad, a) => DELIVERY_DAYS.flatMap((daysAgo, k) => eventsOf(ad, a, k, dayAgo(daysAgo))));
  const jpyEvents = DELIVERY_DAYS.flatMap((daysAgo, k) => eventsOf(jpy.ads[0]!, 2, k, dayAgo(daysAgo))).map((event) =>
    event.spend ? { ...event, spend: event.spend * 13 } : event,
  );
  const otherEvents = DELIVERY_DAYS.flatMap((daysAgo, k) => eventsOf(other.ads[0]!, 0, k, dayAgo(daysAgo)));
  await importEvents(deps, [...events, ...jpyEvents, ...otherEvents].map(importLine));
  return { tree, jpy, other, events, jpyEvents, token, otherToken };
}

export interface SurfaceSuite {
  server: TestServer;
  graph: GraphClient;
  w: SurfaceWorld;
}

/**
 * For a test file: before its tests, a test server over a fresh database holding the surface world, and a /v24.0
 * client for it (handed to `use`); after them, the server closed.
 */
export function surfaceSuite(use: (suite: SurfaceSuite) => void): void {
  let server: TestServer | undefined;
  beforeAll(async () => {
    server = await startTestServer();
    use({ server, graph: graphClient(server), w: await surfaceWorld(server.deps, worldBuilder(server.deps)) });
  });
  afterAll(async () => {
    await server?.close();
  });
}

// --- The expected numbers, from the raw events ----------------------------------------------------------------

export type Totals = Expected;

const NONE: Expected = { impressions: 0, clicks: 0, inlineLinkClicks: 0, spend: 0, reach: 0, uniqueClicks: 0, actions: {}, actionValues: {} };

/** The exact totals of these events. */
export const totalsOf = (events: readonly DayEvent[]): Totals => expectedBy(events, () => '').get('') ?? NONE;

/** Minor units as major units, by integer arithmetic: 1234 → "12.34" (digits 2), "1234" (digits 0). */
export function money(minor: number, digits = 2): string {
  if (digits === 0) return String(minor);
  const scale = 10 ** digits;
  return `${Math.floor(minor / scale)}.${String(minor % scale).padStart(digits, '0')}`;
}

/** n / d to 6 decimals, half up, trailing zeros dropped: the platform's ratios. */
export function ratio(n: number, d: number): string | undefined {
  if (d === 0) return undefined;
  const scaled = (BigInt(n) * 2_000_000n + BigInt(d)) / (2n * BigInt(d));
  const fraction = String(scaled % 1_000_000n)
    .padStart(6, '0')
    .replace(/0+$/, '');
  return `${scaled / 1_000_000n}${fraction ? `.${fraction}` : ''}`;
}

/** A row as /v24.0 prints every field of these totals (USD unless digits says otherwise). */
export function printedTotals(t: Totals, digits = 2): Record<string, unknown> {
  const scale = 10 ** digits;
  const stats = (values: Record<string, number>, print: (n: number) => string) =>
    Object.keys(values)
      .sort()
      .map((type) => ({ action_type: type, value: print(values[type]!) }));
  return {
    impressions: String(t.impressions),
    reach: String(t.reach),
    frequency: ratio(t.impressions, t.reach),
    clicks: String(t.clicks),
    unique_clicks: String(t.uniqueClicks),
    inline_link_clicks: String(t.inlineLinkClicks),
    ctr: ratio(t.clicks * 100, t.impressions),
    cpc: ratio(t.spend, t.clicks * scale),
    cpm: ratio(t.spend * 1000, t.impressions * scale),
    cpp: ratio(t.spend * 1000, t.reach * scale),
    spend: money(t.spend, digits),
    actions: stats(t.actions, String),
    action_values: stats(t.actionValues, (n) => money(n, digits)),
    cost_per_action_type: stats(t.actions, (n) => ratio(t.spend, n * scale)!),
  };
}

export const ALL_FIELDS =
  'impressions,reach,frequency,clicks,unique_clicks,inline_link_clicks,ctr,cpc,cpm,cpp,spend,actions,action_values,cost_per_action_type';

/** A printed row with its action lists sorted by type (the order of action types is not part of the contract). */
export function sortedLists(row: Record<string, unknown>): Record<string, unknown> {
  const sorted = { ...row };
  for (const key of ['actions', 'action_values', 'cost_per_action_type', 'conversions']) {
    const list = sorted[key] as Array<{ action_type: string }> | undefined;
    if (list) sorted[key] = [...list].sort((a, b) => a.action_type.localeCompare(b.action_type));
  }
  return sorted;
}
