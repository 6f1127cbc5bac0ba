import { ReachSketch } from '../sketch.ts';
import type { BreakdownFamily } from '../rules/breakdowns.ts';

/**
 * Delivery aggregated into daily facts in memory, before src/insights/facts-store.ts adds them to insight_facts.
 *
 * A DeliveryCell is what was delivered for one ad on one day of its account, at the finest grain (every breakdown
 * value known): one imported event is a cell of 0/1 counts, a daily row or part B's synthetic generator gives
 * whole cells. Every cell counts once in every breakdown family (src/insights/rules/breakdowns.ts), so a report
 * by age and one by placement both add up to the unbroken total. Rollups to ad set, campaign and account are
 * derived when the facts are taken out (drain), not per cell: that costs as much as the cells, not the events.
 */

export interface DeliveryCell {
  adId: string;
  /** YYYY-MM-DD in the ad account's time zone. */
  day: string;
  age: string;
  gender: string;
  country: string;
  publisherPlatform: string;
  platformPosition: string;
  devicePlatform: string;
  impressions: number;
  clicks: number;
  inlineLinkClicks: number;
  /** Minor units of the account currency. */
  spend: number;
  actions: Record<string, number>;
  /** Minor units of the account currency, by action type. */
  actionValues: Record<string, number>;
  /** People reached (personHash values, or a sketch of them); null when unknown (a daily row without a sketch). */
  people: Iterable<number> | ReachSketch | null;
  /** People who clicked, the same way. */
  clickers: Iterable<number> | ReachSketch | null;
}

export const FACT_LEVELS = ['ad', 'adset', 'campaign', 'account'] as const;
export type FactLevel = (typeof FACT_LEVELS)[number];

/** One row of insight_facts, in memory. */
export interface Fact {
  level: FactLevel;
  /** The id at that level. */
  objectId: string;
  accountId: string;
  /** null at account level. */
  campaignId: string | null;
  /** null at account and campaign level. */
  adsetId: string | null;
  /** Set at ad level only. */
  adId: string | null;
  day: string;
  family: BreakdownFamily;
  /** The family's breakdown values; the other columns ''. */
  age: string;
  gender: string;
  country: string;
  publisherPlatform: string;
  platformPosition: string;
  devicePlatform: string;
  impressions: number;
  clicks: number;
  inlineLinkClicks: number;
  spend: number;
  actions: Record<string, number>;
  actionValues: Record<string, number>;
  /** null: unknown (some of what was added carried no people); a report then cannot say how many people. */
  reach: ReachSketch | null;
  clickers: ReachSketch | null;
}

/** Where an ad sits: what its facts roll up to. */
export interface AdParents {
  adsetId: string;
  campaignId: string;
  accountId: string;
}

/** The cells of one ad on one day, one fact per family and breakdown values. */
interface AdDay {
  total: Fact;
  ageGender: Map<string, Fact>;
  country: Map<string, Fact>;
  placement: Map<string, Fact>;
}

const SEPARATOR = '\u0001';

function emptyFact(level: FactLevel, objectId: string, day: string, family: BreakdownFamily): Fact {
  return {
    level,
    objectId,
    accountId: '',
    campaignId: null,
    adsetId: null,
    adId: null,
    day,
    family,
    age: '',
    gender: '',
    country: '',
    publisherPlatform: '',
    platformPosition: '',
    devicePlatform: '',
    impressions: 0,
    clicks: 0,
    inlineLinkClicks: 0,
    spend: 0,
    actions: {},
    actionValues: {},
    reach: new ReachSketch(),
    clickers: new ReachSketch(),
  };
}

function addCounts(into: Record<string, number>, from: Record<string, number>): void {
  for (const key in from) into[key] = (into[key] ?? 0) + from[key]!;
}

/** Adds people to a sketch; unknown people make the sketch unknown for good. */
function addPeople(sketch: ReachSketch | null, people: Iterable<number> | ReachSketch | null): ReachSketch | null {
  if (sketch === null || people === null) return null;
  if (people instanceof ReachSketch) sketch.merge(people);
  else for (const hash of people) sketch.add(hash);
  return sketch;
}

/** Adds what one fact holds to another of the same or a higher level (counts summed, sketches merged). */
export function addFact(into: Fact, from: Fact): void {
  into.impressions += from.impressions;
  into.clicks += from.clicks;
  into.inlineLinkClicks += from.inlineLinkClicks;
  into.spend += from.spend;
  addCounts(into.actions, from.actions);
  addCounts(into.actionValues, from.actionValues);
  into.reach = addPeople(into.reach, from.reach);
  into.clickers = addPeople(into.clickers, from.clickers);
}

function addCell(fact: Fact, cell: DeliveryCell): void {
  fact.impressions += cell.impressions;
  fact.clicks += cell.clicks;
  fact.inlineLinkClicks += cell.inlineLinkClicks;
  fact.spend += cell.spend;
  addCounts(fact.actions, cell.actions);
  addCounts(fact.actionValues, cell.actionValues);
  fact.reach = addPeople(fact.reach, cell.people);
  fact.clickers = addPeople(fact.clickers, cell.clickers);
}

function factKey(fact: Fact): string {
  return [
    fact.level,
    fact.objectId,
    fact.day,
    fact.family,
    fact.age,
    fact.gender,
    fact.country,
    fact.publisherPlatform,
    fact.platformPosition,
    fact.devicePlatform,
  ].join(SEPARATOR);
}

export class FactsAggregator {
  private adDays = new Map<string, AdDay>();
  private cellCount = 0;
  private peopleAdded = 0;

  /** Facts held (ad level, every family): what memory grows with. */
  get size(): number {
    return this.cellCount;
  }

  /** People added to sketches since the last drain (an upper bound of the hashes held). */
  get people(): number {
    return this.peopleAdded;
  }

  add(cell: DeliveryCell): void {
    const adDayKey = cell.adId + SEPARATOR + cell.day;
    let adDay = this.adDays.get(adDayKey);
    if (!adDay) {
      const total = emptyFact('ad', cell.adId, cell.day, '');
      total.adId = cell.adId;
      adDay = { total, ageGender: new Map(), country: new Map(), placement: new Map() };
      this.adDays.set(adDayKey, adDay);
      this.cellCount++;
    }
    addCell(adDay.total, cell);
    addCell(this.cellOf(adDay.ageGender, cell, 'age,gender', cell.age + SEPARATOR + cell.gender), cell);
    addCell(this.cellOf(adDay.country, cell, 'country', cell.country), cell);
    addCell(
      this.cellOf(
        adDay.placement,
        cell,
        'publisher_platform,platform_position,device_platform',
        cell.publisherPlatform + SEPARATOR + cell.platformPosition + SEPARATOR + cell.devicePlatform,
      ),
      cell,
    );
    if (cell.people && !(cell.people instanceof ReachSketch)) this.peopleAdded += 4 * (Array.isArray(cell.people) ? cell.people.length : 1);
  }

  /**
   * Every fact held, at ad level and rolled up to ad set, campaign and account (counts summed, sketches merged),
   * and forgets them. `parentsOf` places each ad; an ad it does not know is a programming error.
   */
  drain(parentsOf: (adId: string) => AdParents | undefined): Fact[] {
    const facts: Fact[] = [];
    const rollups = new Map<string, Fact>();
    const rollUp = (fact: Fact, level: FactLevel, objectId: string, parents: AdParents) => {
      const rolled: Fact = { ...fact, level, objectId, adId: null, actions: {}, actionValues: {}, impressions: 0, clicks: 0, inlineLinkClicks: 0, spend: 0 };
      rolled.adsetId = level === 'adset' ? parents.adsetId : null;
      rolled.campaignId = level === 'account' ? null : parents.campaignId;
      const key = factKey(rolled);
      const existing = rollups.get(key);
      if (existing) {
        addFact(existing, fact);
        return;
      }
      rolled.reach = fact.reach && new ReachSketch();
      rolled.clickers = fact.clickers && new ReachSketch();
      addFact(rolled, fact);
      rollups.set(key, rolled);
    };
    for (const adDay of this.adDays.values()) {
      const adId = adDay.total.objectId;
      const parents = parentsOf(adId);
      if (!parents) throw new Error(`FactsAggregator: no parents for ad ${adId}`);
      for (const fact of [adDay.total, ...adDay.ageGender.values(), ...adDay.country.values(), ...adDay.placement.values()]) {
        fact.accountId = parents.accountId;
        fact.campaignId = parents.campaignId;
        fact.adsetId = parents.adsetId;
        facts.push(fact);
        rollUp(fact, 'adset', parents.adsetId, parents);
        rollUp(fact, 'campaign', parents.campaignId, parents);
        rollUp(fact, 'account', parents.accountId, parents);
      }
    }
    this.clear();
    for (const fact of rollups.values()) facts.push(fact);
    return facts;
  }

  /** Forgets every fact held. */
  clear(): void {
    this.adDays = new Map();
    this.cellCount = 0;
    this.peopleAdded = 0;
  }

  private cellOf(cells: Map<string, Fact>, cell: DeliveryCell, family: BreakdownFamily, values: string): Fact {
    let fact = cells.get(values);
    if (fact) return fact;
    fact = emptyFact('ad', cell.adId, cell.day, family);
    fact.adId = cell.adId;
    if (family === 'age,gender') {
      fact.age = cell.age;
      fact.gender = cell.gender;
    } else if (family === 'country') {
      fact.country = cell.country;
    } else {
      fact.publisherPlatform = cell.publisherPlatform;
      fact.platformPosition = cell.platformPosition;
      fact.devicePlatform = cell.devicePlatform;
    }
    cells.set(values, fact);
    this.cellCount++;
    return fact;
  }
}
