import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRequestContext } from '../../src/context/index.ts';
import { restorePrincipal } from '../../src/identity/principals.ts';
import { insightsReport } from '../../src/insights/service.ts';
import type { InsightsQuery } from '../../src/insights/query.ts';
import { metricOf } from '../../src/insights/rules/metrics.ts';
import { ReachSketch, personHash } from '../../src/insights/sketch.ts';
import { adTree, importLines, statsTestBed, type AdTree } from '../helpers/insights.ts';

// Daily rows imported without a reach sketch leave the number of people unknown (README, "Statistics: reach
// unknown"): a report row whose facts include one shows no reach, frequency, cpp or unique clicks, rather than
// a count of only some of the people; counts and money are reported as usual.

const NOW = new Date('2026-03-16T12:00:00Z');
const DAY = '2026-03-10';
const PLACEMENT = { age: '25-34', gender: 'female', country: 'US', publisher_platform: 'facebook', platform_position: 'feed', device_platform: 'mobile' };

let bed: Awaited<ReturnType<typeof statsTestBed>>;
let tree: AdTree;
let ctx: ReturnType<typeof createRequestContext>;

beforeAll(async () => {
  bed = await statsTestBed();
  bed.deps.clock = () => NOW;
  const org = await bed.world.organization();
  tree = await adTree(bed.world, org.id, { adsPerAdSet: 2 });
  const people = new ReachSketch();
  for (let i = 0; i < 400; i++) people.add(personHash(`known-${i}`));
  const [known, unknown] = tree.ads;
  await importLines(
    bed.deps,
    [
      { ad_id: known!.id, date: DAY, ...PLACEMENT, impressions: 1_000, clicks: 10, spend: 5_000, reach_sketch: people.serialize().toString('base64') },
      { ad_id: unknown!.id, date: DAY, ...PLACEMENT, impressions: 600, clicks: 6, spend: 3_000 },
    ],
    { format: 'daily' },
  );
  const { user } = await bed.world.user({ organizationId: org.id, role: 'admin' });
  ctx = createRequestContext(bed.deps, { requestId: 'reach-unknown', viewer: (await restorePrincipal(bed.deps, { kind: 'user', userId: user.id }))! });
}, 60_000);

afterAll(() => bed?.close());

const query = (level: InsightsQuery['level']): InsightsQuery => ({
  fields: ['impressions', 'spend', 'reach', 'frequency', 'cpp', 'unique_clicks'],
  level,
  timeRange: { since: DAY, until: DAY },
  breakdowns: [],
  actionBreakdowns: [],
  filtering: [],
  sort: [],
});

describe('reach of daily rows without a sketch', () => {
  it('is reported for the ad whose row carried one, and unknown for the other', async () => {
    const page = await insightsReport(ctx, { kind: 'account', id: tree.account.id }, query('ad'), { limit: 10 });
    const [known, unknown] = page.rows;
    expect(known).toMatchObject({ adId: tree.ads[0]!.id, impressions: 1_000, reach: 400 });
    expect(metricOf(known!, 'frequency')?.printed).toBe('2.5');
    expect(unknown).toMatchObject({ adId: tree.ads[1]!.id, impressions: 600, spend: 3_000, reach: null, uniqueClicks: null });
    expect(metricOf(unknown!, 'reach')).toBeUndefined();
    expect(metricOf(unknown!, 'frequency')).toBeUndefined();
    expect(metricOf(unknown!, 'cpp')).toBeUndefined();
  });

  it('is unknown for the ad set and account that roll both up, and in the summary; counts and money still add up', async () => {
    const account = await insightsReport(ctx, { kind: 'account', id: tree.account.id }, query('account'), { limit: 10 }, { summary: true });
    expect(account.rows).toHaveLength(1);
    expect(account.rows[0]).toMatchObject({ impressions: 1_600, spend: 8_000, reach: null });
    expect(account.summary).toMatchObject({ impressions: 1_600, reach: null });
    const adSet = await insightsReport(ctx, { kind: 'adset', id: tree.adSets[0]!.id }, query('adset'), { limit: 10 });
    expect(adSet.rows[0]).toMatchObject({ impressions: 1_600, reach: null });
  });
});
