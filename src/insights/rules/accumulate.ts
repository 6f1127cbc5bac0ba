import { ReachSketch } from '../sketch.ts';
import type { ActionStat, Breakdown, Day, DayRange } from '../query.ts';

/**
 * Fact rows summed into report rows: counts and money add up as integers, actions add up per type, and the
 * people behind reach and unique clicks merge as sketches (never summed). Pure: the store reads the facts, this
 * groups them by the report's object, bucket and breakdown values.
 */
export interface FactRow {
  /** The report-level object the fact belongs to (the fact's own object, or its ancestor at the report's level). */
  group: string;
  campaignId: string | null;
  adsetId: string | null;
  adId: string | null;
  day: Day;
  breakdownValues: Partial<Record<Breakdown, string>>;
  impressions: number;
  clicks: number;
  inlineLinkClicks: number;
  spend: number;
  actions: Record<string, number>;
  actionValues: Record<string, number>;
  reachSketch: Uint8Array | null;
  clickerSketch: Uint8Array | null;
  /** Whether it had any action (when the actions themselves were not read). */
  hasActions?: boolean;
}

export interface Totals {
  impressions: number;
  clicks: number;
  inlineLinkClicks: number;
  spend: number;
  actions: Map<string, number>;
  actionValues: Map<string, number>;
  reach: ReachSketch;
  clickers: ReachSketch;
  /** Some fact carried no sketch (a daily row imported without one): its people are unknown, so the total is too. */
  reachUnknown: boolean;
  clickersUnknown: boolean;
  /** Some fact had actions, though they were not read. */
  hasActions: boolean;
}

export const emptyTotals = (): Totals => ({
  impressions: 0,
  clicks: 0,
  inlineLinkClicks: 0,
  spend: 0,
  actions: new Map(),
  actionValues: new Map(),
  reach: new ReachSketch(),
  clickers: new ReachSketch(),
  reachUnknown: false,
  clickersUnknown: false,
  hasActions: false,
});

const addTo = (into: Map<string, number>, from: Record<string, number> | Map<string, number>) => {
  for (const [type, value] of from instanceof Map ? from : Object.entries(from)) into.set(type, (into.get(type) ?? 0) + value);
};

/** Adds one fact to running totals (sketches merged when present). */
export function addFact(totals: Totals, fact: FactRow): void {
  totals.impressions += fact.impressions;
  totals.clicks += fact.clicks;
  totals.inlineLinkClicks += fact.inlineLinkClicks;
  totals.spend += fact.spend;
  addTo(totals.actions, fact.actions);
  addTo(totals.actionValues, fact.actionValues);
  if (fact.hasActions) totals.hasActions = true;
  if (fact.reachSketch === null) totals.reachUnknown = true;
  else if (fact.reachSketch.length > 0) totals.reach.mergeSerialized(fact.reachSketch);
  if (fact.clickerSketch === null) totals.clickersUnknown = true;
  else if (fact.clickerSketch.length > 0) totals.clickers.mergeSerialized(fact.clickerSketch);
}

/** Adds other totals (a summary over report rows): people merge, so one person in two rows counts once. */
export function addTotals(totals: Totals, other: Totals): void {
  totals.impressions += other.impressions;
  totals.clicks += other.clicks;
  totals.inlineLinkClicks += other.inlineLinkClicks;
  totals.spend += other.spend;
  addTo(totals.actions, other.actions);
  addTo(totals.actionValues, other.actionValues);
  totals.reach.merge(other.reach);
  totals.clickers.merge(other.clickers);
  totals.reachUnknown ||= other.reachUnknown;
  totals.clickersUnknown ||= other.clickersUnknown;
  totals.hasActions ||= other.hasActions;
}

/** A day with no delivery has no row, as on the platform. */
export const isEmpty = (totals: Totals) =>
  totals.impressions === 0 && totals.clicks === 0 && totals.spend === 0 && totals.actions.size === 0 && !totals.hasActions;

/** Action stats in action_type order (zero counts left out). */
export const actionStats = (values: Map<string, number>): ActionStat[] =>
  [...values]
    .filter(([, value]) => value !== 0)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([actionType, value]) => ({ actionType, value }));

/**
 * Which buckets a day falls in. Increments cut the window into consecutive buckets (one each); several
 * time_ranges may overlap, so a day can count in more than one.
 */
export function bucketFinder(buckets: readonly DayRange[], overlapping: boolean): (day: Day) => number[] {
  if (overlapping) return (day) => buckets.flatMap((bucket, index) => (day >= bucket.since && day <= bucket.until ? [index] : []));
  return (day) => {
    let low = 0;
    let high = buckets.length - 1;
    while (low <= high) {
      const middle = (low + high) >> 1;
      const bucket = buckets[middle]!;
      if (day < bucket.since) high = middle - 1;
      else if (day > bucket.until) low = middle + 1;
      else return [middle];
    }
    return [];
  };
}

/** Orders numeric ids as numbers (they are decimal strings of up to 19 digits). */
export const compareIds = (a: string, b: string) => a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);

export interface Group {
  group: string;
  bucket: number;
  /** The breakdown values, joined: the row's order within an object and bucket. */
  key: string;
  campaignId: string | null;
  adsetId: string | null;
  adId: string | null;
  breakdownValues: Partial<Record<Breakdown, string>>;
  totals: Totals;
}

/** Report rows' position: object id, then bucket, then breakdown values. */
export const compareGroups = (a: Pick<Group, 'group' | 'bucket' | 'key'>, b: Pick<Group, 'group' | 'bucket' | 'key'>) =>
  compareIds(a.group, b.group) || a.bucket - b.bucket || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);

/**
 * Facts grouped into report rows by object, bucket and the breakdowns asked for (the family's other columns
 * summed over), empty ones left out, in report order.
 */
export function groupFacts(facts: Iterable<FactRow>, breakdowns: readonly Breakdown[], bucketsOf: (day: Day) => number[]): Group[] {
  const groups = new Map<string, Group>();
  for (const fact of facts) {
    const values: Partial<Record<Breakdown, string>> = {};
    for (const breakdown of breakdowns) values[breakdown] = fact.breakdownValues[breakdown] ?? '';
    const key = breakdowns.map((b) => values[b]).join('\u0000');
    for (const bucket of bucketsOf(fact.day)) {
      const id = `${fact.group}\u0001${bucket}\u0001${key}`;
      let group = groups.get(id);
      if (!group) {
        group = {
          group: fact.group,
          bucket,
          key,
          campaignId: fact.campaignId,
          adsetId: fact.adsetId,
          adId: fact.adId,
          breakdownValues: values,
          totals: emptyTotals(),
        };
        groups.set(id, group);
      }
      addFact(group.totals, fact);
    }
  }
  return [...groups.values()].filter((group) => !isEmpty(group.totals)).sort(compareGroups);
}
