import { afterAll, describe, expect, it } from 'vitest';
import bizSdk from 'facebook-nodejs-business-sdk';
import type { TestServer } from '../helpers/server.ts';
import { pointSdkAt } from '../helpers/sdk.ts';
import type { GraphClient } from '../helpers/graph.ts';
import { DELIVERY_DAYS, DELIVERY_RANGE, money, surfaceSuite, totalsOf, type SurfaceWorld } from './surface-world.ts';

/**
 * Statistics through the reference client, facebook-nodejs-business-sdk 24.0.1 (issue 19): getInsights of
 * AdAccount, Campaign, AdSet and Ad with breakdowns and time_increment, followed through the SDK's own paging
 * (Cursor.next, which calls the `next` link the server wrote), each row an AdsInsights.
 */
interface SdkRow {
  _data: Record<string, any>;
}
interface SdkCursor extends Array<SdkRow> {
  summary: unknown;
  hasNext(): boolean;
  next(): Promise<SdkCursor>;
}
interface SdkReportable {
  getInsights(fields: string[], params?: Record<string, unknown>): Promise<SdkCursor>;
}
interface Sdk {
  AdAccount: new (id: string) => SdkReportable;
  Campaign: new (id: string) => SdkReportable;
  AdSet: new (id: string) => SdkReportable;
  Ad: new (id: string) => SdkReportable;
  AdsInsights: new (...args: unknown[]) => object;
}
const { AdAccount, Campaign, AdSet, Ad, AdsInsights } = bizSdk as unknown as Sdk;

let server: TestServer;
let graph: GraphClient;
let w: SurfaceWorld;
let restoreSdk: (() => void) | undefined;

surfaceSuite((suite) => {
  ({ server, graph, w } = suite);
  restoreSdk = pointSdkAt(server.url, w.token);
});
afterAll(() => restoreSdk?.());

const RANGE = DELIVERY_RANGE;

/** Every page of a cursor, through the SDK's own next(). */
async function allPages(first: SdkCursor): Promise<{ rows: Array<Record<string, any>>; pages: number }> {
  let cursor = first;
  const rows: Array<Record<string, any>> = [];
  let pages = 1;
  for (;;) {
    for (const row of cursor) {
      expect(row).toBeInstanceOf(AdsInsights);
      rows.push(row._data);
    }
    if (!cursor.hasNext()) return { rows, pages };
    cursor = await cursor.next();
    pages += 1;
  }
}

describe('facebook-nodejs-business-sdk 24.0.1: getInsights', () => {
  it('AdAccount.getInsights at level=ad with breakdowns and time_increment, through its paging', async () => {
    const params = { level: 'ad', breakdowns: ['age', 'gender'], time_increment: 1, time_range: RANGE(), limit: 7 };
    const fields = ['ad_id', 'impressions', 'reach', 'spend', 'cpc'];
    const { rows, pages } = await allPages(await new AdAccount(`act_${w.tree.account.id}`).getInsights(fields, params));
    expect(pages).toBeGreaterThan(2);
    // The same report in one page over plain HTTP.
    const whole = await graph.get(`act_${w.tree.account.id}/insights`, w.token, { ...params, fields: fields.join(','), limit: 100 });
    expect(whole.status, whole.text).toBe(200);
    expect(rows).toEqual(whole.body.data);
    const impressions = rows.reduce((sum, row) => sum + Number(row.impressions), 0);
    expect(impressions).toBe(totalsOf(w.events).impressions);
    for (const row of rows) {
      expect(row).toMatchObject({ ad_id: expect.any(String), age: expect.any(String), gender: expect.any(String), date_start: row.date_stop });
      const events = w.events.filter(
        (e) => e.type === 'impression' && e.ad_id === row.ad_id && e.age === row.age && e.gender === row.gender && String(e.time).startsWith(row.date_start),
      );
      expect(row.impressions).toBe(String(events.length));
      expect(row.spend).toBe(money(events.reduce((sum, e) => sum + e.spend!, 0)));
    }
  });

  it.each([
    ['Campaign', () => new Campaign(w.tree.campaigns[1]!.id), () => w.tree.ads.filter((a) => a.campaignId === w.tree.campaigns[1]!.id)],
    ['AdSet', () => new AdSet(w.tree.adSets[2]!.id), () => w.tree.ads.filter((a) => a.adsetId === w.tree.adSets[2]!.id)],
    ['Ad', () => new Ad(w.tree.ads[3]!.id), () => [w.tree.ads[3]!]],
  ])('%s.getInsights with a breakdown and time_increment', async (_name, object, adsOf) => {
    const params = { breakdowns: ['publisher_platform'], time_increment: 1, date_preset: 'last_7d', limit: 3 };
    const { rows, pages } = await allPages(await object().getInsights(['impressions', 'spend', 'actions'], params));
    const ids = adsOf().map((a) => a.id);
    expect(rows).toHaveLength(DELIVERY_DAYS.length * 2);
    expect(pages).toBe(Math.ceil(rows.length / params.limit));
    for (const row of rows) {
      const events = w.events.filter(
        (e) =>
          ids.includes(e.ad_id) && String(e.time).startsWith(row.date_start) && (e.type !== 'impression' || e.publisher_platform === row.publisher_platform),
      );
      const impressions = events.filter((e) => e.type === 'impression');
      expect(row.impressions).toBe(String(impressions.length));
      expect(row.spend).toBe(money(totalsOf(impressions).spend));
    }
  });

  it('a summary arrives on the cursor', async () => {
    const cursor = await new AdAccount(`act_${w.tree.account.id}`).getInsights(['impressions'], {
      level: 'campaign',
      default_summary: true,
      time_range: RANGE(),
    });
    expect(cursor.summary).toEqual({ impressions: String(totalsOf(w.events).impressions), date_start: RANGE().since, date_stop: RANGE().until });
  });
});
