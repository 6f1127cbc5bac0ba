import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { statusFilters } from '../../src/ads/edges.ts';
import {
  AD_EFFECTIVE_STATUSES,
  AD_SET_EFFECTIVE_STATUSES,
  adEffectiveStatus,
  adSetEffectiveStatus,
  CAMPAIGN_EFFECTIVE_STATUSES,
  campaignEffectiveStatus,
  type EffectiveStatus,
} from '../../src/ads/rules/effective-status.ts';
import { OBJECT_STATUSES, type ObjectStatus } from '../../src/ads/rules/enums.ts';
import { conditionFor, type Dimension, type RawCondition } from '../../src/db/conditions.ts';

/**
 * conditionFor turns a pure rule into SQL by enumerating its inputs. Each condition is checked against the
 * rule itself in a real SQLite database holding one row per combination of inputs.
 */
const subsets = <T>(items: readonly T[]): T[][] => Array.from({ length: 2 ** items.length }, (_, mask) => items.filter((_, i) => (mask >> i) & 1));

let db: Database.Database;

/** Ids of the rows of `table` the condition keeps. */
function matching(table: string, condition: RawCondition): number[] {
  const rows = db.prepare(`select id from ${table} where (${condition.sql}) order by id`).all(...condition.bindings) as Array<{ id: number }>;
  return rows.map((r) => r.id);
}

// One row per combination of the inputs of each object's effective status, in plain columns.
interface AdSetRow {
  id: number;
  own: ObjectStatus;
  campaign: ObjectStatus;
  hasIssues: boolean;
}
interface AdRow {
  id: number;
  own: ObjectStatus;
  campaign: ObjectStatus;
  adSet: ObjectStatus;
  adSetHasIssues: boolean;
}
const CAMPAIGN_ROWS = OBJECT_STATUSES.map((own, i) => ({ id: i + 1, own }));
const AD_SET_ROWS: AdSetRow[] = OBJECT_STATUSES.flatMap((own) =>
  OBJECT_STATUSES.flatMap((campaign) => [false, true].map((hasIssues) => ({ own, campaign, hasIssues }))),
).map((row, i) => ({ id: 100 + i, ...row }));
const AD_ROWS: AdRow[] = OBJECT_STATUSES.flatMap((own) =>
  AD_SET_ROWS.map((s) => ({ own, campaign: s.campaign, adSet: s.own, adSetHasIssues: s.hasIssues })),
).map((row, i) => ({ id: 1000 + i, ...row }));

beforeAll(() => {
  db = new Database(':memory:');
  db.exec(`
    create table flat_ad_sets (id integer primary key, own text not null, campaign text not null, has_issues integer not null);
    create table flat_ads (id integer primary key, own text not null, campaign text not null, ad_set text not null, ad_set_has_issues integer not null);
  `);
  const insertAdSet = db.prepare('insert into flat_ad_sets values (?, ?, ?, ?)');
  for (const r of AD_SET_ROWS) insertAdSet.run(r.id, r.own, r.campaign, r.hasIssues ? 1 : 0);
  const insertAd = db.prepare('insert into flat_ads values (?, ?, ?, ?, ?)');
  for (const r of AD_ROWS) insertAd.run(r.id, r.own, r.campaign, r.adSet, r.adSetHasIssues ? 1 : 0);
});

afterAll(() => db.close());

const FLAT_AD_SET: Dimension[] = [
  { name: 'own', sql: 'own', values: OBJECT_STATUSES },
  { name: 'campaign', sql: 'campaign', values: OBJECT_STATUSES },
  { name: 'hasIssues', sql: 'has_issues = 1', values: [false, true] },
];
const FLAT_AD: Dimension[] = [
  { name: 'own', sql: 'own', values: OBJECT_STATUSES },
  { name: 'campaign', sql: 'campaign', values: OBJECT_STATUSES },
  { name: 'adSet', sql: 'ad_set', values: OBJECT_STATUSES },
  { name: 'adSetHasIssues', sql: 'ad_set_has_issues = 1', values: [false, true] },
];

type Inputs = Record<string, string | boolean>;
const adSetRule = (i: Inputs) => adSetEffectiveStatus({ own: i.own as ObjectStatus, campaign: i.campaign as ObjectStatus, hasIssues: i.hasIssues as boolean });
const adRule = (i: Inputs) =>
  adEffectiveStatus({
    own: i.own as ObjectStatus,
    campaign: i.campaign as ObjectStatus,
    adSet: i.adSet as ObjectStatus,
    adSetHasIssues: i.adSetHasIssues as boolean,
  });

describe('conditionFor over the effective status rules (every subset of wanted statuses)', () => {
  it('ad sets: 128 subsets of 7 statuses', () => {
    for (const wanted of subsets(AD_SET_EFFECTIVE_STATUSES)) {
      const condition = conditionFor(FLAT_AD_SET, (i) => (wanted as EffectiveStatus[]).includes(adSetRule(i)));
      const expected = AD_SET_ROWS.filter((r) => (wanted as EffectiveStatus[]).includes(adSetEffectiveStatus(r))).map((r) => r.id);
      expect(matching('flat_ad_sets', condition), `wanted ${wanted.join(',')}: ${condition.sql}`).toEqual(expected);
    }
  });

  it('ads: 256 subsets of 8 statuses', () => {
    for (const wanted of subsets(AD_EFFECTIVE_STATUSES)) {
      const condition = conditionFor(FLAT_AD, (i) => (wanted as EffectiveStatus[]).includes(adRule(i)));
      const expected = AD_ROWS.filter((r) => (wanted as EffectiveStatus[]).includes(adEffectiveStatus(r))).map((r) => r.id);
      expect(matching('flat_ads', condition), `wanted ${wanted.join(',')}: ${condition.sql}`).toEqual(expected);
    }
  });

  it('keeps every row for a wanted set that covers every reachable value, and none for an unreachable one', () => {
    expect(conditionFor(FLAT_AD_SET, (i) => adSetRule(i) !== 'IN_PROCESS')).toEqual({ sql: '1 = 1', bindings: [] });
    expect(conditionFor(FLAT_AD_SET, (i) => adSetRule(i) === 'IN_PROCESS')).toEqual({ sql: '1 = 0', bindings: [] });
    expect(conditionFor(FLAT_AD_SET, (i) => adSetRule(i) === 'ADSET_PAUSED')).toEqual({ sql: '1 = 0', bindings: [] });
    expect(conditionFor(FLAT_AD, () => true)).toEqual({ sql: '1 = 1', bindings: [] });
    expect(conditionFor(FLAT_AD, () => false)).toEqual({ sql: '1 = 0', bindings: [] });
    expect(conditionFor([], () => true)).toEqual({ sql: '1 = 1', bindings: [] });
    expect(conditionFor([], () => false)).toEqual({ sql: '1 = 0', bindings: [] });
  });

  it('is compact: an own status that decides alone is one comparison', () => {
    expect(conditionFor(FLAT_AD_SET, (i) => adSetRule(i) === 'DELETED' && i.own === 'DELETED')).toEqual({ sql: 'own = ?', bindings: ['DELETED'] });
    // Two of four values: the excluded ones are named (the database's planner then guesses "most rows").
    expect(conditionFor(FLAT_AD_SET, (i) => ['DELETED', 'ARCHIVED'].includes(adSetRule(i)) && i.own !== 'ACTIVE' && i.own !== 'PAUSED')).toEqual({
      sql: 'own not in (?, ?)',
      bindings: ['ACTIVE', 'PAUSED'],
    });
    expect(conditionFor(FLAT_AD_SET, (i) => i.own !== 'DELETED')).toEqual({ sql: 'own <> ?', bindings: ['DELETED'] });
    // A status that depends on two inputs: the rest of the condition appears only under the values that need it.
    expect(conditionFor(FLAT_AD_SET, (i) => adSetRule(i) === 'PAUSED')).toEqual({
      sql: 'own = ? and (campaign not in (?, ?))',
      bindings: ['PAUSED', 'DELETED', 'ARCHIVED'],
    });
  });

  it('gives values with the same rest one test', () => {
    // Without a filter: not DELETED or ARCHIVED itself, nor through its campaign; issues do not matter.
    expect(conditionFor(FLAT_AD_SET, (i) => !['DELETED', 'ARCHIVED'].includes(adSetRule(i)))).toEqual({
      sql: 'own not in (?, ?) and (campaign not in (?, ?))',
      bindings: ['DELETED', 'ARCHIVED', 'DELETED', 'ARCHIVED'],
    });
  });
});

describe('conditionFor over any predicate', () => {
  // Booleans first and last, a string in between: every one of the 2^12 truth tables over the 12 inputs.
  const DIMENSIONS: Dimension[] = [
    { name: 'a', sql: 'a = 1', values: [false, true] },
    { name: 'x', sql: 'x', values: ['p', 'q', 'r'] },
    { name: 'b', sql: 'exists (select 1 from marks m where m.row_id = grid.id)', values: [false, true] },
  ];
  const ROWS = [false, true].flatMap((a) => ['p', 'q', 'r'].flatMap((x) => [false, true].map((b) => ({ a, x, b })))).map((r, i) => ({ id: i + 1, ...r }));

  beforeAll(() => {
    db.exec('create table grid (id integer primary key, a integer not null, x text not null); create table marks (row_id integer not null)');
    const insert = db.prepare('insert into grid values (?, ?, ?)');
    const mark = db.prepare('insert into marks values (?)');
    for (const r of ROWS) {
      insert.run(r.id, r.a ? 1 : 0, r.x);
      if (r.b) {
        mark.run(r.id);
        mark.run(r.id);
      } // twice: exists counts a row once
    }
  });

  it('agrees with every truth table', () => {
    for (let table = 0; table < 2 ** ROWS.length; table++) {
      const truth = (i: Inputs) => {
        const index = ROWS.findIndex((r) => r.a === i.a && r.x === i.x && r.b === i.b);
        return ((table >> index) & 1) === 1;
      };
      const condition = conditionFor(DIMENSIONS, truth);
      const expected = ROWS.filter((r) => truth({ a: r.a, x: r.x, b: r.b })).map((r) => r.id);
      expect(matching('grid', condition), `table ${table}: ${condition.sql}`).toEqual(expected);
    }
  });
});

describe('the effective_status filters of the edges (src/ads/edges.ts)', () => {
  // The real tables' columns the filters read, and every kind of issue an ad set can have.
  beforeAll(() => {
    db.exec(`
      create table campaigns (id integer primary key, status text not null);
      create table ad_sets (id integer primary key, status text not null, campaign_id integer not null);
      create table ads (id integer primary key, status text not null, campaign_id integer not null, adset_id integer not null);
      create table ad_set_references (ad_set_id integer not null, kind text not null, object_id integer not null);
      create table custom_audiences (id integer primary key, flagged_reason text, operation_status_code integer not null);
      create table custom_conversions (id integer primary key, flagged_reason text);
      insert into custom_audiences values (1, null, 200), (2, 'health', 200), (3, null, 471);
      insert into custom_conversions values (4, null), (5, 'financial');
    `);
    const campaign = db.prepare('insert into campaigns values (?, ?)');
    for (const c of CAMPAIGN_ROWS) campaign.run(c.id, c.own);
    const campaignId = (status: ObjectStatus) => CAMPAIGN_ROWS.find((c) => c.own === status)!.id;
    const adSet = db.prepare('insert into ad_sets values (?, ?, ?)');
    const reference = db.prepare('insert into ad_set_references values (?, ?, ?)');
    AD_SET_ROWS.forEach((s, i) => {
      adSet.run(s.id, s.own, campaignId(s.campaign));
      // Clean references everywhere; one issue of a different kind in turn where the row has issues.
      reference.run(s.id, 'custom_audience', 1);
      reference.run(s.id, 'custom_conversion', 4);
      if (s.hasIssues) {
        const [kind, object] = (
          [
            ['custom_audience', 2],
            ['custom_audience', 3],
            ['custom_conversion', 5],
          ] as const
        )[i % 3]!;
        reference.run(s.id, kind, object);
      }
    });
    const ad = db.prepare('insert into ads values (?, ?, ?, ?)');
    for (const a of AD_ROWS) {
      const parent = AD_SET_ROWS.find((s) => s.own === a.adSet && s.campaign === a.campaign && s.hasIssues === a.adSetHasIssues)!;
      ad.run(a.id, a.own, campaignId(a.campaign), parent.id);
    }
  });

  const conditionOf = (table: 'campaigns' | 'ad_sets' | 'ads', effectiveStatus?: string[]) =>
    statusFilters(table, effectiveStatus ? { effectiveStatus } : {}).effective_status as RawCondition;

  it('campaigns: every subset', () => {
    for (const wanted of subsets(CAMPAIGN_EFFECTIVE_STATUSES)) {
      const expected = CAMPAIGN_ROWS.filter((c) => (wanted as EffectiveStatus[]).includes(campaignEffectiveStatus(c))).map((c) => c.id);
      expect(matching('campaigns', conditionOf('campaigns', wanted)), `wanted ${wanted.join(',')}`).toEqual(expected);
    }
  });

  it('ad sets: every subset', () => {
    for (const wanted of subsets(AD_SET_EFFECTIVE_STATUSES)) {
      const expected = AD_SET_ROWS.filter((s) => (wanted as EffectiveStatus[]).includes(adSetEffectiveStatus(s))).map((s) => s.id);
      expect(matching('ad_sets', conditionOf('ad_sets', wanted)), `wanted ${wanted.join(',')}`).toEqual(expected);
    }
  });

  it('ads: every subset', () => {
    for (const wanted of subsets(AD_EFFECTIVE_STATUSES)) {
      const expected = AD_ROWS.filter((a) => (wanted as EffectiveStatus[]).includes(adEffectiveStatus(a))).map((a) => a.id);
      expect(matching('ads', conditionOf('ads', wanted)), `wanted ${wanted.join(',')}`).toEqual(expected);
    }
  });

  it('without a filter, leave out exactly what reads as DELETED or ARCHIVED', () => {
    const visible = (status: EffectiveStatus) => status !== 'DELETED' && status !== 'ARCHIVED';
    expect(matching('campaigns', conditionOf('campaigns'))).toEqual(CAMPAIGN_ROWS.filter((c) => visible(campaignEffectiveStatus(c))).map((c) => c.id));
    expect(matching('ad_sets', conditionOf('ad_sets'))).toEqual(AD_SET_ROWS.filter((s) => visible(adSetEffectiveStatus(s))).map((s) => s.id));
    expect(matching('ads', conditionOf('ads'))).toEqual(AD_ROWS.filter((a) => visible(adEffectiveStatus(a))).map((a) => a.id));
  });

  it('order and repetition of the wanted values do not matter', () => {
    const once = matching('ads', conditionOf('ads', ['WITH_ISSUES', 'ADSET_PAUSED']));
    expect(matching('ads', conditionOf('ads', ['ADSET_PAUSED', 'WITH_ISSUES', 'ADSET_PAUSED']))).toEqual(once);
    expect(once.length).toBeGreaterThan(0);
  });

  it('refuses a value the object type does not report', () => {
    expect(() => statusFilters('campaigns', { effectiveStatus: ['ADSET_PAUSED'] })).toThrow(/effective_status\[0\] must be one of/);
    expect(() => statusFilters('ad_sets', { effectiveStatus: ['ACTIVE', 'ADSET_PAUSED'] })).toThrow(/effective_status\[1\] must be one of/);
  });

  it('keeps refusing a bad value after a good spelling was answered, and answers each spelling the same object', () => {
    const good = statusFilters('ad_sets', { effectiveStatus: ['ACTIVE', 'PAUSED'] });
    // A value with a comma in it is not the two values it resembles.
    expect(() => statusFilters('ad_sets', { effectiveStatus: ['ACTIVE,PAUSED'] })).toThrow(/effective_status\[0\] must be one of/);
    expect(() => statusFilters('ad_sets', { effectiveStatus: ['ACTIVE,PAUSED'] })).toThrow(/effective_status\[0\] must be one of/);
    expect(statusFilters('ad_sets', { effectiveStatus: ['ACTIVE', 'PAUSED'] })).toBe(good);
    expect(statusFilters('ad_sets', { effectiveStatus: ['PAUSED', 'ACTIVE', 'PAUSED'] })).toBe(good);
    expect(statusFilters('ads', { effectiveStatus: ['ACTIVE', 'PAUSED'] })).not.toBe(good);
  });

  it("answers a list's items asking in turn with the same values the same filters, and anything else its own", () => {
    const asked = ['ACTIVE', 'PAUSED'];
    const first = statusFilters('ads', { effectiveStatus: asked });
    // The same values in another list (each item's arguments are a list of their own): the same filters.
    expect(statusFilters('ads', { effectiveStatus: ['ACTIVE', 'PAUSED'] })).toBe(first);
    // The caller's list changed after the call: what was kept is a copy, so the new values get their own filters.
    asked.push('ARCHIVED');
    const changed = statusFilters('ads', { effectiveStatus: asked });
    expect(changed).not.toBe(first);
    expect(changed).toBe(statusFilters('ads', { effectiveStatus: ['ARCHIVED', 'PAUSED', 'ACTIVE'] }));
    // Another list after a good one still refuses a bad value, and no filter at all is the default's.
    expect(() => statusFilters('ads', { effectiveStatus: ['ACTIVE', 'NOPE'] })).toThrow(/effective_status\[1\] must be one of/);
    expect(statusFilters('ads', {})).toBe(statusFilters('ads'));
    expect(statusFilters('ads', {})).not.toBe(first);
    expect(statusFilters('ad_sets', { status: ['ACTIVE'] })).not.toBe(statusFilters('ad_sets', { status: ['PAUSED'] }));
  });
});
