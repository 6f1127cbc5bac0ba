import { describe, expect, it } from 'vitest';
import { bucketFinder, compareIds, groupFacts, type FactRow } from '../../../src/insights/rules/accumulate.ts';
import { personHash, ReachSketch } from '../../../src/insights/sketch.ts';

const sketchOf = (...people: string[]) => {
  const sketch = new ReachSketch();
  for (const person of people) sketch.add(personHash(person));
  return sketch.serialize();
};

const fact = (fields: Partial<FactRow>): FactRow => ({
  group: '10',
  campaignId: null,
  adsetId: null,
  adId: null,
  day: '2026-05-01',
  breakdownValues: {},
  impressions: 0,
  clicks: 0,
  inlineLinkClicks: 0,
  spend: 0,
  actions: {},
  actionValues: {},
  reachSketch: null,
  clickerSketch: null,
  ...fields,
});

describe('buckets of a day', () => {
  const weeks = [
    { since: '2026-05-01', until: '2026-05-07' },
    { since: '2026-05-08', until: '2026-05-14' },
    { since: '2026-05-15', until: '2026-05-16' },
  ];
  it.each([
    ['2026-04-30', []],
    ['2026-05-01', [0]],
    ['2026-05-07', [0]],
    ['2026-05-08', [1]],
    ['2026-05-16', [2]],
    ['2026-05-17', []],
  ])('%s falls in %j', (day, buckets) => expect(bucketFinder(weeks, false)(day)).toEqual(buckets));
  it('overlapping time ranges count a day in each', () =>
    expect(bucketFinder([weeks[0]!, { since: '2026-05-03', until: '2026-05-09' }], true)('2026-05-05')).toEqual([0, 1]));
});

describe('ids in numeric order', () => {
  it.each([
    ['9', '10', -1],
    ['100000000000002', '99999999999999', 1],
    ['123', '123', 0],
    ['124', '123', 1],
  ])('%s vs %s', (a, b, sign) => expect(Math.sign(compareIds(a, b))).toBe(sign));
});

describe('facts grouped into rows', () => {
  const buckets = bucketFinder([{ since: '2026-05-01', until: '2026-05-31' }], false);

  it('sums counts and money, adds actions per type, and merges people (one person on two days counts once)', () => {
    const [row] = groupFacts(
      [
        fact({ impressions: 3, clicks: 1, spend: 199, actions: { link_click: 1 }, reachSketch: sketchOf('ann', 'bob'), clickerSketch: sketchOf('ann') }),
        fact({
          day: '2026-05-02',
          impressions: 2,
          spend: 1,
          actions: { link_click: 2, lead: 1 },
          actionValues: { lead: 500 },
          reachSketch: sketchOf('ann', 'cy'),
        }),
      ],
      [],
      buckets,
    );
    expect(row!.totals).toMatchObject({ impressions: 5, clicks: 1, spend: 200 });
    expect(Object.fromEntries(row!.totals.actions)).toEqual({ link_click: 3, lead: 1 });
    expect(Object.fromEntries(row!.totals.actionValues)).toEqual({ lead: 500 });
    expect(row!.totals.reach.estimate()).toBe(3);
    expect(row!.totals.clickers.estimate()).toBe(1);
  });

  it('one row per breakdown value asked, the family\u2019s other columns summed over', () => {
    const rows = groupFacts(
      [
        fact({ breakdownValues: { age: '18-24', gender: 'male' }, impressions: 1 }),
        fact({ breakdownValues: { age: '18-24', gender: 'female' }, impressions: 2 }),
        fact({ breakdownValues: { age: '25-34', gender: 'female' }, impressions: 4 }),
      ],
      ['age'],
      buckets,
    );
    expect(rows.map((r) => [r.breakdownValues, r.totals.impressions])).toEqual([
      [{ age: '18-24' }, 3],
      [{ age: '25-34' }, 4],
    ]);
  });

  it('leaves out rows without delivery, orders by object id, bucket, then values, and drops days outside every bucket', () => {
    const rows = groupFacts(
      [
        fact({ group: '100', impressions: 1 }),
        fact({ group: '99', impressions: 1 }),
        fact({ group: '99', day: '2026-06-01', impressions: 1 }),
        fact({ group: '7' }),
        fact({ group: '8', actions: { lead: 1 } }),
      ],
      [],
      buckets,
    );
    expect(rows.map((r) => [r.group, r.totals.impressions])).toEqual([
      ['8', 0],
      ['99', 1],
      ['100', 1],
    ]);
  });
});
