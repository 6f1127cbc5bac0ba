import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliEnv, cliJson, expectOneLineFailure, runCli } from '../helpers/cli.ts';
import { statsTestBed } from '../helpers/insights.ts';
import { databaseDigest } from '../helpers/table-hash.ts';
import type { AdRecord, AdSetRecord, CampaignRecord } from '../../src/ads/store.ts';
import { ReachSketch } from '../../src/insights/sketch.ts';
import { generationWindow, MAX_GENERATE_DAYS } from '../../src/insights/generate.ts';

/**
 * `adgraph stats generate` (src/insights/generate.ts) as an operator runs it: a child process over a real
 * database, the facts it writes read back at every level.
 */

let bed: Awaited<ReturnType<typeof statsTestBed>>;
let env: NodeJS.ProcessEnv;
let accountId: string;
let otherAccountId: string;
let live: AdRecord[];
let notLive: AdRecord[];
let sales: AdSetRecord;
let shared: CampaignRecord;
const ZONE = 'America/Los_Angeles';

const dayIn = (timeZone: string, ms: number) => new Intl.DateTimeFormat('en-CA', { timeZone }).format(ms);
const db = () => bed.deps.db;

beforeAll(async () => {
  bed = await statsTestBed();
  env = cliEnv(bed.database);
  const { world } = bed;
  const organization = await world.organization();
  const account = await world.adAccount(organization.id, { timezoneName: ZONE });
  accountId = account.id;
  otherAccountId = (await world.adAccount(organization.id)).id;
  const [salesCampaign] = await world.campaigns(account, 1, { objective: 'OUTCOME_SALES' });
  [shared] = (await world.campaigns(account, 1, { objective: 'OUTCOME_TRAFFIC', dailyBudget: '8000' })) as [CampaignRecord];
  const [paused] = await world.campaigns(account, 1, { status: 'PAUSED' });
  const [salesSet, pausedSet] = await world.adSets(salesCampaign!, 2, (i) => ({ dailyBudget: '3000', status: i === 0 ? 'ACTIVE' : 'PAUSED' }));
  sales = salesSet!;
  const sharedSets = await world.adSets(shared, 2, (i) => ({ targeting: { geo_locations: { countries: ['US', 'MX'] }, age_min: 25 + i * 10 } }));
  const [underPaused] = await world.adSets(paused!, 1, () => ({ dailyBudget: '2000' }));
  const salesAds = await world.ads(sales, 2);
  await db()('ads').where({ id: salesAds[1]!.id }).update({ status: 'PAUSED' });
  live = [salesAds[0]!, ...(await world.ads(sharedSets[0]!, 1)), ...(await world.ads(sharedSets[1]!, 1))];
  notLive = [salesAds[1]!, ...(await world.ads(pausedSet!, 1)), ...(await world.ads(underPaused!, 1))];
});
afterAll(() => bed?.close());

const factRows = (where: Record<string, unknown>) => db()('insight_facts').where({ account_id: accountId, ...where });
const sum = (rows: Array<Record<string, unknown>>, column: string) => rows.reduce((total, row) => total + Number(row[column]), 0);

/** Every fact of the account, without the row ids, in key order: what "the same bytes" compares. */
async function factsDump(): Promise<unknown[]> {
  const rows = await factRows({}).orderBy([
    'level',
    'object_id',
    'day',
    'family',
    'age',
    'gender',
    'country',
    'publisher_platform',
    'platform_position',
    'device_platform',
  ]);
  return rows.map(({ id: _, ...row }) => ({
    ...row,
    actions: typeof row.actions === 'string' ? JSON.parse(row.actions) : row.actions,
    action_values: typeof row.action_values === 'string' ? JSON.parse(row.action_values) : row.action_values,
    reach_sketch: Buffer.from(row.reach_sketch).toString('hex'),
    clicker_sketch: Buffer.from(row.clicker_sketch).toString('hex'),
  }));
}

describe('stats generate', () => {
  let first: Record<string, any>;

  beforeAll(async () => {
    first = (await cliJson(['stats', 'generate', '--account', `act_${accountId}`, '--days', '30', '--seed', '42'], env)).value;
  });

  it('writes 30 days ending yesterday in the account time zone, for the live ads only', async () => {
    const yesterday = dayIn(ZONE, Date.now() - 86_400_000);
    expect(first).toMatchObject({ account_id: accountId, until: yesterday, days: 30, seed: 42, live_ads: 3, currency: 'USD' });
    const accountDays = await factRows({ level: 'account', family: '' }).orderBy('day');
    expect(accountDays).toHaveLength(30);
    expect(accountDays[0].day).toBe(first.since);
    expect(accountDays.at(-1).day).toBe(yesterday);
    expect(sum(accountDays, 'impressions')).toBe(first.impressions);
    expect(sum(accountDays, 'spend')).toBe(first.spend);
    expect(first.impressions).toBeGreaterThan(30 * 1000);

    const adIds = new Set((await factRows({ level: 'ad' }).distinct('ad_id')).map((row) => String(row.ad_id)));
    expect(adIds).toEqual(new Set(live.map((ad) => ad.id)));
    for (const ad of notLive) expect(adIds.has(ad.id)).toBe(false);
    expect(await db()('insight_facts').where({ account_id: otherAccountId }).first()).toBeUndefined();
  });

  it('keeps budgets: the ad set under its daily budget, the shared campaign under its own, every day', async () => {
    const salesDays = await factRows({ level: 'adset', object_id: sales.id, family: '' });
    expect(salesDays).toHaveLength(30);
    for (const row of salesDays) expect(Number(row.spend), row.day).toBeLessThanOrEqual(3000);
    const sharedDays = await factRows({ level: 'campaign', object_id: shared.id, family: '' });
    expect(sharedDays).toHaveLength(30);
    for (const row of sharedDays) expect(Number(row.spend), row.day).toBeLessThanOrEqual(8000);
    expect(sum(sharedDays, 'spend') / 30).toBeGreaterThan(8000 * 0.6);
  });

  it('counts every cell in every breakdown family, with reach below impressions and purchases valued', async () => {
    const account = await factRows({ level: 'account' });
    const families = new Map<string, { impressions: number; spend: number }>();
    for (const row of account) {
      const f = families.get(row.family) ?? { impressions: 0, spend: 0 };
      f.impressions += Number(row.impressions);
      f.spend += Number(row.spend);
      families.set(row.family, f);
    }
    expect([...families.keys()].sort()).toEqual(['', 'age,gender', 'country', 'publisher_platform,platform_position,device_platform']);
    for (const [family, totals] of families) expect(totals, family).toEqual({ impressions: first.impressions, spend: first.spend });
    const countries = new Set(account.filter((row) => row.family === 'country').map((row) => row.country));
    expect(countries).toEqual(new Set(['US', 'MX']));

    const days = account.filter((row) => row.family === '');
    const dailyReach = days.map((row) => ReachSketch.deserialize(row.reach_sketch).estimate());
    for (const [i, row] of days.entries()) expect(dailyReach[i]).toBeLessThan(Number(row.impressions));
    const monthly = ReachSketch.union(days.map((row) => row.reach_sketch)).estimate();
    expect(monthly).toBeLessThan(dailyReach.reduce((a, b) => a + b, 0));
    const actions = (row: Record<string, any>) => (typeof row.actions === 'string' ? JSON.parse(row.actions) : row.actions);
    const values = (row: Record<string, any>) => (typeof row.action_values === 'string' ? JSON.parse(row.action_values) : row.action_values);
    expect(sum(days.map(actions), 'link_click')).toBe(sum(days, 'inline_link_clicks'));
    const salesRows = await factRows({ level: 'adset', object_id: sales.id, family: '' });
    const purchases = sum(
      salesRows.map((row) => ({ n: actions(row).purchase ?? 0 })),
      'n',
    );
    expect(purchases).toBeGreaterThan(0);
    expect(
      sum(
        salesRows.map((row) => ({ n: values(row).purchase ?? 0 })),
        'n',
      ),
    ).toBeGreaterThan(purchases * 2000);
  });

  it('refuses to run over a window that has statistics, in one line, changing nothing', async () => {
    const before = await databaseDigest(db());
    expectOneLineFailure(
      await runCli(['stats', 'generate', '--account', accountId, '--days', '7', '--seed', '42'], env),
      /^adgraph: account: act_\d+ already has statistics between \d{4}-\d\d-\d\d and \d{4}-\d\d-\d\d; give --replace/,
    );
    expect(await databaseDigest(db())).toEqual(before);
  });

  it('--replace with the same seed writes the same bytes; with another seed, other numbers, never doubled', async () => {
    const before = await factsDump();
    const again = (await cliJson(['stats', 'generate', '--account', accountId, '--days', '30', '--seed', '42', '--replace'], env)).value;
    expect(again).toEqual({ ...first, facts_replaced: before.length });
    expect(await factsDump()).toEqual(before);

    const other = (await cliJson(['stats', 'generate', '--account', accountId, '--days', '30', '--seed', '7', '--replace'], env)).value;
    expect(other.impressions).not.toBe(first.impressions);
    const accountDays = await factRows({ level: 'account', family: '' });
    expect(sum(accountDays, 'impressions')).toBe(other.impressions);
    expect(sum(accountDays, 'spend')).toBe(other.spend);
  }, 120_000); // two generations in child processes, and the facts read back between them, on a busy machine

  const REFUSED: Array<[string[], RegExp]> = [
    [['--account', '999999999', '--days', '3'], /^adgraph: account: No ad account 999999999\.$/m],
    [['--account', 'act_x', '--days', '3'], /^adgraph: account: "x" is not an ad account id/],
    [['--account', 'CAMPAIGN', '--days', '3'], /^adgraph: account: \d+ is a campaign, not an ad account\.$/m],
    [['--account', 'ACCOUNT', '--days', '0'], /^adgraph: days: "0" is not a number of days from 1 to 1130 \(37 months\)\.$/m],
    [['--account', 'ACCOUNT', '--days', '1131'], /^adgraph: days: "1131" is not a number of days from 1 to 1130/],
    [['--account', 'ACCOUNT', '--days', 'ten'], /^adgraph: days: "ten" is not a number of days/],
    [['--account', 'ACCOUNT', '--days', '3', '--seed', '-1'], /^adgraph: seed: "-1" is not a seed \(a whole number from 0 to 4294967295\)\.$/m],
    [['--account', 'ACCOUNT', '--days', '3', '--seed', '4294967296'], /^adgraph: seed: "4294967296" is not a seed/],
    [['--account', 'ACCOUNT', '--days', '3', '--seed', '1.5'], /^adgraph: seed: "1.5" is not a seed/],
    [['--account', 'ACCOUNT', '--days', '3', '--until', '2026-02-30'], /^adgraph: until: "2026-02-30" is not a day \(YYYY-MM-DD\)\.$/m],
    [['--account', 'ACCOUNT', '--days', '3', '--until', '2999-01-01'], /^adgraph: until: 2999-01-01 is in the future/],
    [['--account', 'ACCOUNT', '--days', '3', '--until', '2001-01-01'], /^adgraph: days: 3 days up to 2001-01-01 start on 2000-12-30, more than 37 months back/],
    [['--account', 'ACCOUNT'], /required option '--days <n>' not specified/],
  ];
  // One test for all: a digest of the whole database (its facts included) takes seconds on a busy machine, and one
  // before and one after the refusals show that none of them wrote anything.
  it(`refuses ${REFUSED.length} kinds of bad input, each in one line, writing nothing`, async () => {
    const before = await databaseDigest(db());
    for (const [args, message] of REFUSED) {
      const resolved = args.map((a) => (a === 'ACCOUNT' ? otherAccountId : a === 'CAMPAIGN' ? shared.id : a));
      expectOneLineFailure(await runCli(['stats', 'generate', ...resolved], env), message);
    }
    expect(await databaseDigest(db())).toEqual(before);
  }, 120_000);
});

describe('generationWindow', () => {
  const calendar = { today: '2026-11-26', earliest: '2023-10-26' };
  it.each([
    [{ days: '1' }, { since: '2026-11-25', until: '2026-11-25', days: 1, seed: 1 }],
    [
      { days: 90, seed: '0' },
      { since: '2026-08-28', until: '2026-11-25', days: 90, seed: 0 },
    ],
    [
      { days: '7', until: '2026-11-26' },
      { since: '2026-11-20', until: '2026-11-26', days: 7, seed: 1 },
    ],
    [
      { days: '3', until: '2024-03-01' },
      { since: '2024-02-28', until: '2024-03-01', days: 3, seed: 1 },
    ],
    [
      { days: '31', until: '2023-11-25' },
      { since: '2023-10-26', until: '2023-11-25', days: 31, seed: 1 },
    ],
  ])('%j → %j', (input, expected) => {
    expect(generationWindow(input, calendar)).toEqual(expected);
  });

  it.each([
    [{ days: '32', until: '2023-11-25' }, 'days'],
    [{ days: String(MAX_GENERATE_DAYS + 1) }, 'days'],
    [{ days: '2', until: '2026-11-27' }, 'until'],
    [{ days: '2', until: '26-11-2026' }, 'until'],
    [{ days: '2', seed: 'x' }, 'seed'],
  ])('%j is refused, naming %s', (input, field) => {
    expect(() => generationWindow(input, calendar)).toThrow(expect.objectContaining({ code: 'BAD_USER_INPUT', field }));
  });
});
