import { ReachSketch } from '../sketch.ts';
import type { BreakdownFamily } from '../rules/breakdowns.ts';

/**
 * Delivery aggregated into daily facts in memory, before src/insights/facts-store.ts adds them to insight_facts.
 *
 * A DeliveryCell is what was delivered for one ad on one day of its account, at the finest grain (every breakdown
 * value known): one imported event is a cell of 0/1 counts, a daily row or the synthetic generator gives whole
 * cells. Every cell counts once in every breakdown family (src/insights/rules/breakdowns.ts), so a report
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
  /**
   * People reached: one personHash (an event's person, kept as a number so an event allocates no list), several,
   * or a sketch of them; null when unknown (a daily row without a sketch).
   */
  people: number | Iterable<number> | ReachSketch | null;
  /** People who clicked, the same way. */
  clickers: number | Iterable<number> | ReachSketch | null;
}

/**
 * The actions of a cell that has none: most events are impressions, and an event's cell is added to four facts,
 * so skipping the walk of an empty object is worth a check (never written to).
 */
export const NO_COUNTS: Record<string, number> = Object.freeze({}) as Record<string, number>;

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

/** A fact being aggregated, and its place in its ad-day's list of cells. */
interface Cell {
  fact: Fact;
  index: number;
}

/**
 * The people of single events on their way into an ad-day's sketches. An event adds its person to four
 * sketches (the total and one cell of each breakdown family) of the forty-odd its ad and day hold; added at once,
 * event after event, ad after ad, they would each touch a different hash table, far from the processor's cache.
 * Kept here instead (the hash and the three cells' places, a few bytes) and added a thousand events at a time,
 * the ad-day's tables stay warm while they grow.
 */
class PendingEvents {
  private hashes = new Int32Array(8);
  /** Per event, the indexes of its three breakdown cells in the ad-day's list. */
  private cells = new Uint16Array(24);
  private length = 0;

  push(hash: number, byAge: number, byCountry: number, byPlacement: number, into: Cell[], pick: (fact: Fact) => ReachSketch | null): void {
    if (this.length === this.hashes.length) {
      if (this.length >= PENDING_EVENTS) this.flush(into, pick);
      else this.grow();
    }
    const n = this.length++;
    this.hashes[n] = hash;
    this.cells[3 * n] = byAge;
    this.cells[3 * n + 1] = byCountry;
    this.cells[3 * n + 2] = byPlacement;
  }

  /** Adds every event's person to its four cells' sketches (the ones still known: null is unknown for good). */
  flush(cells: Cell[], pick: (fact: Fact) => ReachSketch | null): void {
    const total = pick(cells[0]!.fact);
    for (let i = 0; i < this.length; i++) {
      const hash = this.hashes[i]!;
      total?.add(hash);
      pick(cells[this.cells[3 * i]!]!.fact)?.add(hash);
      pick(cells[this.cells[3 * i + 1]!]!.fact)?.add(hash);
      pick(cells[this.cells[3 * i + 2]!]!.fact)?.add(hash);
    }
    this.length = 0;
  }

  private grow(): void {
    const hashes = new Int32Array(this.hashes.length * 2);
    hashes.set(this.hashes);
    this.hashes = hashes;
    const cells = new Uint16Array(this.cells.length * 2);
    cells.set(this.cells);
    this.cells = cells;
  }
}
const PENDING_EVENTS = 1024;
const SKETCH_WEIGHT = 1024;
const reachOf = (fact: Fact) => fact.reach;
const clickersOf = (fact: Fact) => fact.clickers;

/**
 * The cells of one ad on one day, one per family and breakdown values, in maps nested by value: values are
 * looked up as they are (short strings from JSON.parse come interned, their hashes known), never joined into a
 * new key string per event.
 */
interface AdDay {
  /** Every cell, the total first (PendingEvents names cells by their place here). */
  cells: Cell[];
  /** People added, for the aggregator's totals when some days are kept. */
  people: number;
  ageGender: Map<string, Map<string, Cell>>;
  country: Map<string, Cell>;
  placement: Map<string, Map<string, Map<string, Cell>>>;
  reach: PendingEvents | null;
  clickers: PendingEvents | null;
}

/** The map under `key`, made when missing. */
function inner<V>(map: Map<string, Map<string, V>>, key: string): Map<string, V> {
  let found = map.get(key);
  if (!found) {
    found = new Map();
    map.set(key, found);
  }
  return found;
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

/** Merges one sketch into another; unknown people (null) make the sketch unknown for good. */
function mergePeople(sketch: ReachSketch | null, people: ReachSketch | null): ReachSketch | null {
  if (sketch === null || people === null) return null;
  sketch.merge(people);
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
  into.reach = mergePeople(into.reach, from.reach);
  into.clickers = mergePeople(into.clickers, from.clickers);
}

/** Adds people other than one event's (a list, or a daily row's sketch) to a sketch; unknown people make it unknown for good. */
function addPeople(sketch: ReachSketch | null, people: Iterable<number> | ReachSketch | null): ReachSketch | null {
  if (sketch === null || people === null) return null;
  if (people instanceof ReachSketch) sketch.merge(people);
  else if (Array.isArray(people)) for (let i = 0; i < people.length; i++) sketch.add(people[i] as number);
  else for (const hash of people) sketch.add(hash);
  return sketch;
}

/** Adds a cell's counts to a fact, and its people unless they are one event's (those wait in PendingEvents). */
function addCell(fact: Fact, cell: DeliveryCell): void {
  fact.impressions += cell.impressions;
  fact.clicks += cell.clicks;
  fact.inlineLinkClicks += cell.inlineLinkClicks;
  fact.spend += cell.spend;
  if (cell.actions !== NO_COUNTS) addCounts(fact.actions, cell.actions);
  if (cell.actionValues !== NO_COUNTS) addCounts(fact.actionValues, cell.actionValues);
  if (typeof cell.people !== 'number') fact.reach = addPeople(fact.reach, cell.people);
  if (typeof cell.clickers !== 'number') fact.clickers = addPeople(fact.clickers, cell.clickers);
}

/** The facts of the level above, each the sum (and merged sketches) of its children's with the same day and values. */
function rollUp(facts: Fact[], level: FactLevel, objectIdOf: (fact: Fact) => string): Fact[] {
  const rollups = new Map<string, Fact>();
  for (const fact of facts) {
    const objectId = objectIdOf(fact);
    const key = [objectId, fact.day, fact.family, fact.age, fact.gender, fact.country, fact.publisherPlatform, fact.platformPosition, fact.devicePlatform].join(
      SEPARATOR,
    );
    const rolled = rollups.get(key);
    if (rolled) {
      addFact(rolled, fact);
      continue;
    }
    // The first child's counts and people copied (many ad sets have one ad), the others' added in.
    rollups.set(key, {
      ...fact,
      level,
      objectId,
      adId: null,
      adsetId: level === 'adset' ? fact.adsetId : null,
      campaignId: level === 'account' ? null : fact.campaignId,
      actions: { ...fact.actions },
      actionValues: { ...fact.actionValues },
      reach: fact.reach && fact.reach.copy(),
      clickers: fact.clickers && fact.clickers.copy(),
    });
  }
  return [...rollups.values()];
}

export class FactsAggregator {
  private adDays = new Map<string, Map<string, AdDay>>();
  private cellCount = 0;
  private peopleAdded = 0;

  /** Facts held (ad level, every family): what memory grows with. */
  get size(): number {
    return this.cellCount;
  }

  /** People added to sketches since the last drain (an upper bound of the hashes held; a whole sketch counts as 1,024). */
  get people(): number {
    return this.peopleAdded;
  }

  add(cell: DeliveryCell): void {
    const days = inner(this.adDays, cell.adId);
    let adDay = days.get(cell.day);
    if (!adDay) {
      const total = emptyFact('ad', cell.adId, cell.day, '');
      total.adId = cell.adId;
      adDay = { cells: [{ fact: total, index: 0 }], people: 0, ageGender: new Map(), country: new Map(), placement: new Map(), reach: null, clickers: null };
      days.set(cell.day, adDay);
      this.cellCount++;
    }
    const byAge = this.cellOf(adDay, inner(adDay.ageGender, cell.age), cell.gender, cell, 'age,gender');
    const byCountry = this.cellOf(adDay, adDay.country, cell.country, cell, 'country');
    const positions = inner(adDay.placement, cell.publisherPlatform);
    const byPlacement = this.cellOf(
      adDay,
      inner(positions, cell.platformPosition),
      cell.devicePlatform,
      cell,
      'publisher_platform,platform_position,device_platform',
    );
    addCell(adDay.cells[0]!.fact, cell);
    addCell(byAge.fact, cell);
    addCell(byCountry.fact, cell);
    addCell(byPlacement.fact, cell);
    if (typeof cell.people === 'number') {
      adDay.reach ??= new PendingEvents();
      adDay.reach.push(cell.people, byAge.index, byCountry.index, byPlacement.index, adDay.cells, reachOf);
    }
    if (typeof cell.clickers === 'number') {
      adDay.clickers ??= new PendingEvents();
      adDay.clickers.push(cell.clickers, byAge.index, byCountry.index, byPlacement.index, adDay.cells, clickersOf);
    }
    // What memory the cell's people may take in the four families' sketches: a hash each, or for a whole sketch
    // (a daily row's) about what a dense one weighs (16 KB, some thousand hashes in a set).
    const people =
      typeof cell.people === 'number'
        ? 4
        : cell.people instanceof ReachSketch
          ? 4 * SKETCH_WEIGHT
          : cell.people
            ? 4 * (Array.isArray(cell.people) ? cell.people.length : 1)
            : 0;
    adDay.people += people;
    this.peopleAdded += people;
  }

  /**
   * Every fact held, at ad level and rolled up to ad set, campaign and account (counts summed, sketches merged),
   * and forgets them. `parentsOf` places each ad; an ad it does not know is a programming error. With `before`,
   * only the days before it: an import in time order writes each finished day once, while the day it is in
   * goes on filling (./import.ts).
   */
  drain(parentsOf: (adId: string) => AdParents | undefined, before?: string): Fact[] {
    const adFacts: Fact[] = [];
    for (const [adId, days] of this.adDays) {
      const parents = parentsOf(adId);
      if (!parents) throw new Error(`FactsAggregator: no parents for ad ${adId}`);
      for (const [day, adDay] of days) {
        if (before !== undefined && day >= before) continue;
        days.delete(day);
        this.cellCount -= adDay.cells.length;
        this.peopleAdded -= adDay.people;
        adDay.reach?.flush(adDay.cells, reachOf);
        adDay.clickers?.flush(adDay.cells, clickersOf);
        for (const { fact } of adDay.cells) {
          fact.accountId = parents.accountId;
          fact.campaignId = parents.campaignId;
          fact.adsetId = parents.adsetId;
          adFacts.push(fact);
        }
      }
      if (days.size === 0) this.adDays.delete(adId);
    }
    // Each level from the one below: an ad set's sketch is merged once into its campaign's, not each of its ads'.
    const adSets = rollUp(adFacts, 'adset', (fact) => fact.adsetId!);
    const campaigns = rollUp(adSets, 'campaign', (fact) => fact.campaignId!);
    const accounts = rollUp(campaigns, 'account', (fact) => fact.accountId);
    return [...adFacts, ...adSets, ...campaigns, ...accounts];
  }

  /** Forgets every fact held. */
  clear(): void {
    this.adDays = new Map();
    this.cellCount = 0;
    this.peopleAdded = 0;
  }

  /** The cell under `value` in the innermost map of a family, made when missing. */
  private cellOf(adDay: AdDay, cells: Map<string, Cell>, value: string, cell: DeliveryCell, family: BreakdownFamily): Cell {
    const known = cells.get(value);
    if (known) return known;
    const fact = emptyFact('ad', cell.adId, cell.day, family);
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
    const created = { fact, index: adDay.cells.length };
    adDay.cells.push(created);
    cells.set(value, created);
    this.cellCount++;
    return created;
  }
}
