import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { personHash, ReachSketch } from '../../src/insights/sketch.ts';
import { ImportRejected, MAX_LINE_BYTES, MAX_PROBLEMS } from '../../src/insights/intake/import.ts';
import { monthsBefore } from '../../src/insights/intake/calendar.ts';
import { adTree, daysAgo, importEvents, importLines, randomEvents, statsTestBed, type AdTree, type DeliveryEvent } from '../helpers/insights.ts';
import { TEST_DB } from '../helpers/database.ts';

/**
 * The import of delivery data (issue 19, "Where the numbers come from"): events become daily facts at ad, ad set,
 * campaign and account level in every breakdown family, equal to sums over the raw events (counts, spend,
 * actions) and within 2% of the exact number of distinct people (reach, unique clicks); days in the account's
 * time zone, daylight-saving days one row; a file lands once; every bad line is named and nothing lands.
 */

let bed: Awaited<ReturnType<typeof statsTestBed>>;
let organizationId: string;

beforeAll(async () => {
  bed = await statsTestBed();
  organizationId = (await bed.world.organization()).id;
});
afterAll(async () => bed?.close());

/** The account's day of an instant, straight from Intl (the oracle the import's cached calendar is checked against). */
function dayIn(timeZone: string, ms: number): string {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    formatters.set(timeZone, formatter);
  }
  return formatter.format(ms);
}
const formatters = new Map<string, Intl.DateTimeFormat>();

const instantOf = (time: string | number) => (typeof time === 'number' ? time * 1000 : Date.parse(time));

interface Expected {
  impressions: number;
  clicks: number;
  inlineLinkClicks: number;
  spend: number;
  actions: Record<string, number>;
  actionValues: Record<string, number>;
  people: Set<string>;
  clickers: Set<string>;
}

const FAMILIES: Array<[string, Array<keyof DeliveryEvent>]> = [
  ['', []],
  ['age,gender', ['age', 'gender']],
  ['country', ['country']],
  ['publisher_platform,platform_position,device_platform', ['publisher_platform', 'platform_position', 'device_platform']],
];
const BREAKDOWN_COLUMNS = ['age', 'gender', 'country', 'publisher_platform', 'platform_position', 'device_platform'] as const;

/** Sums over the raw events, by level, object, family, day and breakdown values. */
function expectedFacts(tree: AdTree, events: DeliveryEvent[], timeZone: string): Map<string, Expected> {
  const expected = new Map<string, Expected>();
  const adsById = new Map(tree.ads.map((ad) => [ad.id, ad]));
  for (const event of events) {
    const ad = adsById.get(event.ad_id)!;
    const day = dayIn(timeZone, instantOf(event.time));
    const objects: Array<[string, string]> = [
      ['ad', ad.id],
      ['adset', ad.adsetId],
      ['campaign', ad.campaignId],
      ['account', ad.accountId],
    ];
    for (const [level, objectId] of objects) {
      for (const [family, columns] of FAMILIES) {
        const values = BREAKDOWN_COLUMNS.map((column) => (columns.includes(column) ? (event[column] as string) : ''));
        const key = [level, objectId, family, day, ...values].join('|');
        let sums = expected.get(key);
        if (!sums) {
          sums = { impressions: 0, clicks: 0, inlineLinkClicks: 0, spend: 0, actions: {}, actionValues: {}, people: new Set(), clickers: new Set() };
          expected.set(key, sums);
        }
        sums.spend += event.spend ?? 0;
        if (event.type === 'impression') {
          sums.impressions++;
          sums.people.add(event.person);
        }
        if (event.type === 'click') {
          sums.clicks++;
          sums.clickers.add(event.person);
          if (event.link) {
            sums.inlineLinkClicks++;
            sums.actions.link_click = (sums.actions.link_click ?? 0) + 1;
          }
        }
        if (event.type === 'action') {
          sums.actions[event.action_type!] = (sums.actions[event.action_type!] ?? 0) + 1;
          if (event.value !== undefined) sums.actionValues[event.action_type!] = (sums.actionValues[event.action_type!] ?? 0) + event.value;
        }
      }
    }
  }
  return expected;
}

type FactRow = Record<string, unknown>;

async function factRows(accountId: string): Promise<Map<string, FactRow>> {
  const rows: FactRow[] = await bed.deps.db('insight_facts').where({ account_id: accountId });
  return new Map(
    rows.map((row) => [[row.level, String(row.object_id), row.family, row.day, ...BREAKDOWN_COLUMNS.map((column) => row[column])].join('|'), row] as const),
  );
}

const json = (value: unknown) => (typeof value === 'string' ? JSON.parse(value) : value);
const estimate = (bytes: unknown) => (bytes ? ReachSketch.deserialize(bytes as Uint8Array).estimate() : null);
const within2Percent = (estimate: number | null, exact: number) => (exact === 0 ? estimate === 0 : Math.abs(estimate! - exact) / exact <= 0.02);

/** Every fact row equals the sums over the raw events, and there is no other row. */
function expectFactsMatch(rows: Map<string, FactRow>, expected: Map<string, Expected>): void {
  expect([...rows.keys()].sort()).toEqual([...expected.keys()].sort());
  const keys = [...expected.keys()].sort();
  const actual = keys.map((key) => {
    const row = rows.get(key)!;
    const sums = expected.get(key)!;
    return {
      key,
      impressions: Number(row.impressions),
      clicks: Number(row.clicks),
      inlineLinkClicks: Number(row.inline_link_clicks),
      spend: Number(row.spend),
      actions: json(row.actions),
      actionValues: json(row.action_values),
      // The estimate itself when it is off, so a failure shows both numbers.
      reach: within2Percent(estimate(row.reach_sketch), sums.people.size) ? sums.people.size : estimate(row.reach_sketch),
      uniqueClicks: within2Percent(estimate(row.clicker_sketch), sums.clickers.size) ? sums.clickers.size : estimate(row.clicker_sketch),
    };
  });
  const wanted = keys.map((key) => {
    const sums = expected.get(key)!;
    return {
      key,
      impressions: sums.impressions,
      clicks: sums.clicks,
      inlineLinkClicks: sums.inlineLinkClicks,
      spend: sums.spend,
      actions: sums.actions,
      actionValues: sums.actionValues,
      reach: sums.people.size,
      uniqueClicks: sums.clickers.size,
    };
  });
  expect(actual).toEqual(wanted);
}

describe('events become facts equal to sums over the raw events', () => {
  let tree: AdTree;
  let events: DeliveryEvent[];

  beforeAll(async () => {
    tree = await adTree(bed.world, organizationId, { campaigns: 2, adSetsPerCampaign: 2, adsPerAdSet: 2, account: { timezoneName: 'America/Los_Angeles' } });
    // 12,000 people over 40,000 events: the account's and campaigns' sketches turn dense, the small cells stay exact.
    events = randomEvents(tree, 40_000, { seed: 19, people: 12_000, days: 4 });
    const totals = await importEvents(bed.deps, events);
    expect(totals).toMatchObject({ status: 'imported', records: 40_000, lines: 40_000, ads: 8, accounts: 1 });
    expect(totals.impressions).toBe(events.filter((e) => e.type === 'impression').length);
    expect(totals.spend).toEqual({ USD: events.reduce((sum, e) => sum + (e.spend ?? 0), 0) });
  });

  it('at every level (ad, ad set, campaign, account), family, day and breakdown value: counts, spend, actions exactly; reach within 2%', async () => {
    const expected = expectedFacts(tree, events, 'America/Los_Angeles');
    const rows = await factRows(tree.account.id);
    expectFactsMatch(rows, expected);
    // The account's reach over all days is a union of its daily sketches, not their sum.
    const accountDays = [...rows.values()].filter((row) => row.level === 'account' && row.family === '');
    const everyone = new Set(events.filter((e) => e.type === 'impression').map((e) => e.person));
    const dailySum = accountDays.reduce((sum, row) => sum + estimate(row.reach_sketch)!, 0);
    expect(within2Percent(ReachSketch.union(accountDays.map((row) => row.reach_sketch as Uint8Array)).estimate(), everyone.size)).toBe(true);
    expect(dailySum).toBeGreaterThan(everyone.size * 1.5);
    // Rollup rows name their parents: an ad set's row its campaign, a campaign's row no ad set.
    const adSet = tree.adSets[0]!;
    const adSetRow = [...rows.values()].find((row) => row.level === 'adset' && String(row.object_id) === adSet.id)!;
    expect({ campaign: String(adSetRow.campaign_id), adset: String(adSetRow.adset_id), ad: adSetRow.ad_id }).toEqual({
      campaign: adSet.campaignId,
      adset: adSet.id,
      ad: null,
    });
  });

  it('a second file adds to the same facts (counts summed, sketches merged), and the same bytes again change nothing', async () => {
    const more = randomEvents(tree, 5_000, { seed: 20, people: 12_000, days: 4 });
    const first = await importEvents(bed.deps, more);
    expect(first.status).toBe('imported');
    const before = await factRows(tree.account.id);
    expectFactsMatch(before, expectedFacts(tree, [...events, ...more], 'America/Los_Angeles'));

    const again = await importEvents(bed.deps, more);
    expect(again).toMatchObject({ status: 'already_imported', sha256: first.sha256, factsWritten: 0 });
    const after = await factRows(tree.account.id);
    expect([...after.entries()].map(([key, row]) => [key, row.impressions, row.spend, Buffer.from(row.reach_sketch as Uint8Array).toString('hex')])).toEqual(
      [...before.entries()].map(([key, row]) => [key, row.impressions, row.spend, Buffer.from(row.reach_sketch as Uint8Array).toString('hex')]),
    );
    expect(await bed.deps.db('insight_imports').where({ sha256: first.sha256 }).count({ n: '*' })).toEqual([{ n: TEST_DB === 'postgres' ? '1' : 1 }]);
  });

  // The plan is SQLite's: PostgreSQL's planner scans a table this small whatever the query, so its plan would
  // show nothing about the query's shape.
  it.runIf(TEST_DB === 'sqlite')('finds the stored facts it adds to through the key index, never by reading the whole table', async () => {
    const statements: Array<{ sql: string; bindings: unknown[] }> = [];
    const listen = (query: { sql: string; bindings?: unknown[] }) => {
      if (/^select .* from .insight_facts./i.test(query.sql)) statements.push({ sql: query.sql, bindings: query.bindings ?? [] });
    };
    bed.deps.db.on('query', listen);
    try {
      await importEvents(bed.deps, randomEvents(tree, 2_000, { seed: 21, people: 12_000, days: 4 }));
    } finally {
      bed.deps.db.off('query', listen);
    }
    expect(statements.length).toBeGreaterThan(0);
    for (const { sql, bindings } of statements) {
      const plan: Array<{ detail: string }> = await bed.deps.db.raw(`explain query plan ${sql}`, bindings as never[]);
      const steps = plan.map((step) => step.detail);
      expect(steps.some((step) => /SEARCH insight_facts USING INDEX insight_facts_key/.test(step))).toBe(true);
      expect(steps.filter((step) => /^SCAN insight_facts\b/.test(step))).toEqual([]);
    }
  });

  it('two imports of different files into the same account at once both land, neither losing the other’s additions', async () => {
    const own = await adTree(bed.world, organizationId, { adsPerAdSet: 2 });
    const a = randomEvents(own, 3_000, { seed: 31, people: 1_000, days: 2 });
    const b = randomEvents(own, 3_000, { seed: 32, people: 1_000, days: 2 });
    const results = await Promise.all([importEvents(bed.deps, a), importEvents(bed.deps, b)]);
    expect(results.map((r) => r.status)).toEqual(['imported', 'imported']);
    expectFactsMatch(await factRows(own.account.id), expectedFacts(own, [...a, ...b], 'Etc/UTC'));
  });
});

describe('days are the account’s days', () => {
  it('America/Los_Angeles: 07:59:59 UTC is the day before, 08:00 UTC (midnight PST) the day itself; any offset maps to the account’s day', async () => {
    const tree = await adTree(bed.world, organizationId, { account: { timezoneName: 'America/Los_Angeles' } });
    const ad = tree.ads[0]!.id;
    await importEvents(bed.deps, [
      { type: 'impression', ad_id: ad, time: '2026-01-15T07:59:59Z', person: 'before-midnight' },
      { type: 'impression', ad_id: ad, time: Date.parse('2026-01-15T08:00:00Z') / 1000, person: 'at-midnight' },
      { type: 'impression', ad_id: ad, time: '2026-01-15T22:00:00+09:00', person: 'tokyo-evening' },
      // 11:59:59 UTC on the 16th: 03:59:59 in Los Angeles.
      { type: 'impression', ad_id: ad, time: '2026-01-15T23:59:59-12:00', person: 'baker-island-evening' },
    ]);
    const rows = await bed.deps.db('insight_facts').where({ account_id: tree.account.id, level: 'account', family: '' }).orderBy('day');
    expect(rows.map((row) => [row.day, Number(row.impressions)])).toEqual([
      ['2026-01-14', 1],
      ['2026-01-15', 2],
      ['2026-01-16', 1],
    ]);
  });

  it.each([
    // 2026-03-08 has 23 hours in Los Angeles (02:00 PST becomes 03:00 PDT), 2026-11-01 has 25 (02:00 PDT becomes 01:00 PST).
    ['2026-03-08', '2026-03-08T08:00:00Z', '2026-03-09T06:59:59Z', 23],
    ['2026-11-01', '2026-11-01T07:00:00Z', '2026-11-02T07:59:59Z', 25],
  ])('the daylight-saving day %s (%s to %s, %i hours) is one row', async (day, first, last, hours) => {
    expect((Date.parse(last) + 1000 - Date.parse(first)) / 3_600_000).toBe(hours);
    const tree = await adTree(bed.world, organizationId, { account: { timezoneName: 'America/Los_Angeles' } });
    const ad = tree.ads[0]!.id;
    // An impression every 15 minutes of the day, and one a second either side of it.
    const events: DeliveryEvent[] = [];
    for (let ms = Date.parse(first); ms <= Date.parse(last); ms += 15 * 60_000) {
      events.push({ type: 'impression', ad_id: ad, time: new Date(ms).toISOString(), person: `p${ms}`, spend: 1 });
    }
    events.push({ type: 'impression', ad_id: ad, time: (Date.parse(first) - 1000) / 1000, person: 'eve', spend: 1 });
    events.push({ type: 'impression', ad_id: ad, time: (Date.parse(last) + 1000) / 1000, person: 'morning', spend: 1 });
    await importEvents(bed.deps, events);
    const rows = await bed.deps.db('insight_facts').where({ account_id: tree.account.id, level: 'ad', family: '' }).orderBy('day');
    expect(rows.map((row) => [row.day, Number(row.impressions)])).toEqual([
      [dayIn('America/Los_Angeles', Date.parse(first) - 1000), 1],
      [day, hours * 4],
      [dayIn('America/Los_Angeles', Date.parse(last) + 1000), 1],
    ]);
  });

  it('Asia/Kathmandu (+05:45): the day turns at 18:15 UTC', async () => {
    const tree = await adTree(bed.world, organizationId, { account: { timezoneName: 'Asia/Kathmandu' } });
    const day = new Date(daysAgo(5)).toISOString().slice(0, 10);
    await importEvents(bed.deps, [
      { type: 'impression', ad_id: tree.ads[0]!.id, time: `${day}T18:14:59Z`, person: 'a' },
      { type: 'impression', ad_id: tree.ads[0]!.id, time: `${day}T18:15:00Z`, person: 'b' },
    ]);
    const rows = await bed.deps.db('insight_facts').where({ account_id: tree.account.id, level: 'ad', family: '' }).orderBy('day');
    expect(rows.map((row) => row.day)).toEqual([
      dayIn('Asia/Kathmandu', Date.parse(`${day}T18:14:59Z`)),
      dayIn('Asia/Kathmandu', Date.parse(`${day}T18:15:00Z`)),
    ]);
    expect(rows[0]!.day).not.toBe(rows[1]!.day);
  });
});

describe('daily rows', () => {
  it('add their counts, actions and sketches to every family and level; without a sketch reach is unknown (NULL)', async () => {
    const tree = await adTree(bed.world, organizationId, { adsPerAdSet: 2 });
    const [first, second] = tree.ads as [AdTree['ads'][0], AdTree['ads'][0]];
    const day = new Date(daysAgo(2)).toISOString().slice(0, 10);
    const sketch = new ReachSketch();
    for (let i = 0; i < 5_000; i++) sketch.add(personHash(`daily-${i}`));
    const placement = {
      age: '35-44',
      gender: 'male',
      country: 'DE',
      publisher_platform: 'instagram',
      platform_position: 'instagram_reels',
      device_platform: 'mobile',
    };
    const totals = await importLines(
      bed.deps,
      [
        {
          ad_id: first.id,
          date: day,
          ...placement,
          impressions: 9_000,
          clicks: 120,
          inline_link_clicks: 80,
          spend: 45_000,
          actions: { link_click: 80, purchase: 3 },
          action_values: { purchase: 15_000 },
          reach_sketch: sketch.serialize().toString('base64'),
          clicker_sketch: new ReachSketch().serialize().toString('base64'),
        },
        { ad_id: second.id, date: day, ...placement, impressions: 100, spend: 700 },
      ],
      { format: 'daily' },
    );
    expect(totals).toMatchObject({ status: 'imported', records: 2, impressions: 9_100, clicks: 120, spend: { USD: 45_700 } });
    const rows: FactRow[] = await bed.deps.db('insight_facts').where({ account_id: tree.account.id }).orderBy(['level', 'object_id', 'family']);
    const firstAd = rows.filter((row) => row.level === 'ad' && String(row.object_id) === first.id);
    expect(firstAd.map((row) => [row.family, row.age, row.country, row.platform_position, Number(row.impressions), estimate(row.reach_sketch)])).toEqual([
      ['', '', '', '', 9_000, estimate(sketch.serialize())],
      ['age,gender', '35-44', '', '', 9_000, estimate(sketch.serialize())],
      ['country', '', 'DE', '', 9_000, estimate(sketch.serialize())],
      ['publisher_platform,platform_position,device_platform', '', '', 'instagram_reels', 9_000, estimate(sketch.serialize())],
    ]);
    expect(json(firstAd[0]!.actions)).toEqual({ link_click: 80, purchase: 3 });
    expect(json(firstAd[0]!.action_values)).toEqual({ purchase: 15_000 });
    // The second ad's row had no sketch: its reach is unknown, and so is its ad set's (a partial count would mislead).
    const secondAd = rows.find((row) => row.level === 'ad' && String(row.object_id) === second.id && row.family === '')!;
    expect(secondAd.reach_sketch).toBeNull();
    const account = rows.find((row) => row.level === 'account' && row.family === '')!;
    expect({ impressions: Number(account.impressions), spend: Number(account.spend), reach: account.reach_sketch }).toEqual({
      impressions: 9_100,
      spend: 45_700,
      reach: null,
    });
  });
});

describe('bad lines: every one named with its line number and reason, and nothing lands', () => {
  let tree: AdTree;
  let jpy: AdTree;

  beforeAll(async () => {
    tree = await adTree(bed.world, organizationId);
    jpy = await adTree(bed.world, organizationId, { account: { currency: 'JPY', country: 'JP', timezoneName: 'Asia/Tokyo' } });
  });

  async function rejection(lines: Array<object | string>, format: 'events' | 'daily' = 'events'): Promise<ImportRejected> {
    const error = await importLines(bed.deps, lines, { format }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ImportRejected);
    return error as ImportRejected;
  }

  it('each reason, in line order; a good line in the same file does not land', async () => {
    const ad = tree.ads[0]!.id;
    const now = new Date(daysAgo(1)).toISOString();
    const good = { type: 'impression', ad_id: ad, time: now, person: 'ok' };
    const longAgo = `${monthsBefore(new Date().toISOString().slice(0, 10), 38)}T12:00:00Z`;
    const cases: Array<[object | string, RegExp]> = [
      ['{"type": "impression", "ad_id": ', /not valid JSON/],
      ['[1, 2]', /not a JSON object/],
      [{ ...good, ad_id: '999999999999' }, /ad 999999999999 does not exist/],
      [{ ...good, ad_id: 12345 }, /ad_id must be an ad id/],
      [{ ...good, type: 'view' }, /type "view" is not an event type/],
      [{ ...good, person: undefined }, /person is missing/],
      [{ ...good, person: '' }, /person is missing/],
      [{ ...good, spend: -5 }, /spend must be an amount in minor units of the account currency \(at least 0\), got -5/],
      [{ ...good, spend: 2.5 }, /spend 2\.5 has decimals: amounts are whole minor units \(minor units of USD/],
      [{ ...good, ad_id: jpy.ads[0]!.id, spend: 1.5 }, /spend 1\.5 has decimals: amounts are whole JPY \(JPY has no minor unit\)/],
      [{ ...good, type: 'action', action_type: 'purchase', value: 9.99 }, /value 9\.99 of purchase has decimals/],
      [{ ...good, type: 'action', action_type: 'teleport' }, /action_type "teleport" is not a known action type/],
      [{ ...good, age: '30-40' }, /age "30-40" is not a known value/],
      [{ ...good, country: 'XX' }, /country "XX" is not a known value/],
      [{ ...good, platform_position: 'billboard' }, /platform_position "billboard" is not a known value/],
      [{ ...good, time: longAgo }, /is more than 37 months back/],
      [{ ...good, time: new Date(Date.now() + 3 * 86_400_000).toISOString() }, /is in the future/],
      [{ ...good, time: '2026-11-20 10:00' }, /time "2026-11-20 10:00" is not a time/],
      [{ ...good, time: '2026-11-20T10:00:00' }, /is not a time: ISO 8601 with an offset/],
      [{ ...good, spnd: 3 }, /unknown field "spnd"/],
      [{ ...good, link: true }, /link is a boolean of click events only/],
      [`{"type":"impression","ad_id":"${ad}","person":"${'x'.repeat(MAX_LINE_BYTES)}"}`, new RegExp(`longer than ${MAX_LINE_BYTES} bytes`)],
    ];
    const error = await rejection([good, ...cases.map(([line]) => line), good]);
    expect(error.problemCount).toBe(cases.length);
    expect(error.problems.map((p) => p.line)).toEqual(cases.map((_, i) => i + 2));
    cases.forEach(([, reason], i) => expect(error.problems[i]!.reason, `line ${i + 2}`).toMatch(reason));
    expect(error.message).toMatch(/22 bad lines; nothing was imported/);
    expect(await bed.deps.db('insight_facts').where({ account_id: tree.account.id }).count({ n: '*' })).toEqual([{ n: TEST_DB === 'postgres' ? '0' : 0 }]);
  });

  it('daily rows: bad dates, negative or fractional counts, bad sketches', async () => {
    const ad = tree.ads[0]!.id;
    const day = new Date(daysAgo(1)).toISOString().slice(0, 10);
    const row = {
      ad_id: ad,
      date: day,
      age: '18-24',
      gender: 'female',
      country: 'US',
      publisher_platform: 'facebook',
      platform_position: 'feed',
      device_platform: 'mobile',
    };
    const error = await rejection(
      [
        { ...row, date: '2026-02-30' },
        { ...row, impressions: -1 },
        { ...row, clicks: 1.5 },
        { ...row, actions: { purchase: -2 } },
        { ...row, actions: [1] },
        { ...row, reach_sketch: 'not base64!' },
        { ...row, reach_sketch: Buffer.from([7, 7, 7]).toString('base64') },
        { ...row, gender: undefined },
      ],
      'daily',
    );
    expect(error.problems.map((p) => [p.line, p.reason])).toEqual([
      [1, 'date "2026-02-30" is not a day (YYYY-MM-DD)'],
      [2, 'impressions must be a whole number of at least 0, got -1'],
      [3, 'clicks must be a whole number of at least 0, got 1.5'],
      [4, 'actions.purchase must be a whole number of at least 0, got -2'],
      [5, 'actions must be an object of action type to number'],
      [6, 'reach_sketch must be base64 of a reach sketch'],
      [7, 'reach_sketch is not a reach sketch (base64 of ReachSketch.serialize())'],
      [8, 'gender is missing'],
    ]);
  });

  it(`lists the first ${MAX_PROBLEMS} and counts the rest`, async () => {
    const lines = Array.from({ length: MAX_PROBLEMS + 50 }, (_, i) => `not json ${i}`);
    const error = await rejection(lines);
    expect(error.problems).toHaveLength(MAX_PROBLEMS);
    expect(error.problemCount).toBe(MAX_PROBLEMS + 50);
    expect(error.problems.at(-1)).toEqual({ line: MAX_PROBLEMS, reason: 'not valid JSON' });
  });

  it('blank lines are skipped, not refused', async () => {
    const ad = tree.ads[0]!.id;
    const totals = await importLines(bed.deps, ['', { type: 'impression', ad_id: ad, time: new Date(daysAgo(1)).toISOString(), person: 'blank-test' }, '   ']);
    expect(totals).toMatchObject({ status: 'imported', lines: 3, records: 1, impressions: 1 });
  });
});
