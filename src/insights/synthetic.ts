import { DEFAULT_RATES_PER_USD, MINOR_UNIT_DIGITS, isCurrencyCode } from '../ads/rules/currencies.ts';
import type { DeliveryCell } from './intake/aggregate.ts';
import type { Day } from './query.ts';
import { AGE_BRACKETS, DEVICE_PLATFORMS as DEVICES, GENDERS } from './rules/breakdowns.ts';

/**
 * Synthetic delivery (`adgraph stats generate`, the demo's 90 days, the benchmark): what an account's live ads
 * would plausibly have delivered, as DeliveryCells for the intake's aggregator. Pure and deterministic: the cells
 * of an ad set's day depend only on the seed, the objects and that day, so the same seed gives the same bytes,
 * and two overlapping windows agree on the days they share.
 *
 * The model, per ad set and day:
 * - a budget for the day: the ad set's daily budget, its lifetime budget spread evenly over its schedule, or its
 *   share of the campaign's (campaign budgets are shared by the campaign's delivering ad sets by weight), or
 *   DEFAULT_DAILY_BUDGET_USD where nothing is set; spend is that budget times the ad set's pacing (70–97%) and
 *   the weekday's factor, never more than the budget;
 * - impressions from the spend at a CPM drawn per ad set from the objective's range (in US dollars, converted
 *   with the default rate table), cheaper at weekends; clicks from a CTR drawn the same way; actions that fit the
 *   objective (link_click, landing_page_view, lead, purchase with values, video_view, post_engagement);
 * - the ad set's impressions shared by its ads by a weight per ad, and each ad's reach drawn as distinct people
 *   from the ad set's audience: a window of the account's people, so the same people come back on other days
 *   (a week's reach is less than seven daily reaches) and in other ads and ad sets (an ad set's reach is less
 *   than the sum of its ads'); each person has a fixed age bracket, gender, country and device, and people who
 *   do not fit the ad set's targeting are skipped; a person sees the ad on one placement that day;
 * - the counts shared exactly (largest remainder) by the cells a day's people fall into.
 */

// --- Deterministic randomness ---------------------------------------------------------------------------------

/** The murmur3 finalizer: a bijection of 32-bit integers with full avalanche. */
export function mix32(value: number): number {
  let h = value >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85eb_ca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2_ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** A 32-bit hash of a string (FNV-1a, then mixed), to derive seeds from ids and days. */
export function hashString(text: string): number {
  let h = 0x811c_9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x0100_0193);
  return mix32(h);
}

/** sfc32 (Chris Doty-Humphrey's small fast counter): a seeded generator of uniform numbers in [0, 1). */
export class Random {
  private a: number;
  private b: number;
  private c: number;
  private d = 1;

  constructor(...seeds: number[]) {
    this.a = mix32(seeds[0] ?? 0);
    this.b = mix32((seeds[1] ?? 0) ^ 0x9e37_79b9);
    this.c = mix32((seeds[2] ?? 0) ^ 0x7f4a_7c15);
    for (const extra of seeds.slice(3)) this.a = mix32(this.a ^ extra);
    for (let i = 0; i < 12; i++) this.uint32();
  }

  uint32(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  next(): number {
    return this.uint32() / 4_294_967_296;
  }

  /** Uniform in [low, high). */
  between(low: number, high: number): number {
    return low + (high - low) * this.next();
  }

  /** 1 ± spread, uniform. */
  jitter(spread: number): number {
    return 1 + spread * (2 * this.next() - 1);
  }

  /** floor(x) plus one with probability frac(x): an integer whose mean is x. */
  round(x: number): number {
    const whole = Math.floor(x);
    return whole + (this.next() < x - whole ? 1 : 0);
  }
}

/**
 * Shares an integer total by weights exactly: each gets the floor of its share, and the units left over go to
 * the largest remainders (ties to the first). A zero weight never gets a unit; nor does anything when every
 * weight is zero.
 */
export function allocate(total: number, weights: ArrayLike<number>): number[] {
  const n = weights.length;
  const shares = new Array<number>(n).fill(0);
  let sum = 0;
  for (let i = 0; i < n; i++) sum += weights[i]!;
  if (total <= 0 || sum <= 0) return shares;
  const remainders: Array<[number, number]> = [];
  let given = 0;
  for (let i = 0; i < n; i++) {
    const exact = (total * weights[i]!) / sum;
    const whole = Math.floor(exact);
    shares[i] = whole;
    given += whole;
    if (exact > whole) remainders.push([exact - whole, i]);
  }
  remainders.sort((x, y) => y[0] - x[0] || x[1] - y[1]);
  for (let k = 0; k < total - given && k < remainders.length; k++) shares[remainders[k]![1]]! += 1;
  return shares;
}

// --- Calendar --------------------------------------------------------------------------------------------------

const DAY_MS = 86_400_000;
const dayNumber = (day: Day) => Date.UTC(Number(day.slice(0, 4)), Number(day.slice(5, 7)) - 1, Number(day.slice(8, 10))) / DAY_MS;
const dayOfNumber = (n: number): Day => new Date(n * DAY_MS).toISOString().slice(0, 10);

/** The days from `since` to `until`, both included. */
export function daysBetween(since: Day, until: Day): Day[] {
  const days: Day[] = [];
  for (let n = dayNumber(since), last = dayNumber(until); n <= last; n++) days.push(dayOfNumber(n));
  return days;
}

export function addDays(day: Day, count: number): Day {
  return dayOfNumber(dayNumber(day) + count);
}

/** 0 for Sunday … 6 for Saturday. */
const weekdayOf = (day: Day) => new Date(dayNumber(day) * DAY_MS).getUTCDay();

/** Weekly seasonality, Sunday first: people spend more time in the feed at weekends, where attention is cheaper. */
const WEEKDAY_SPEND = [0.9, 0.98, 1, 1, 0.99, 0.95, 0.88];
const WEEKDAY_CPM = [0.86, 1.04, 1.05, 1.05, 1.03, 0.97, 0.88];
const WEEKDAY_CTR = [1.08, 0.97, 0.96, 0.97, 0.99, 1.02, 1.1];

// --- The world it reads ----------------------------------------------------------------------------------------

export interface SyntheticAccount {
  id: string;
  currency: string;
  country: string;
}

export interface SyntheticCampaign {
  id: string;
  objective: string;
  /** Minor units; a campaign budget is shared by its ad sets. */
  dailyBudget: number | null;
  lifetimeBudget: number | null;
  /** The schedule in the account's days (null: open). */
  startDay: Day | null;
  stopDay: Day | null;
}

export interface SyntheticTargeting {
  countries: string[];
  ageMin: number;
  ageMax: number;
  genders: Gender[];
  publisherPlatforms: string[];
  devicePlatforms: string[];
}

export interface SyntheticAdSet {
  id: string;
  campaignId: string;
  dailyBudget: number | null;
  lifetimeBudget: number | null;
  startDay: Day | null;
  endDay: Day | null;
  targeting: SyntheticTargeting;
}

export interface SyntheticAd {
  id: string;
  adsetId: string;
}

/** The live objects of one account (what delivers), and the countries its people live in. */
export interface SyntheticWorld {
  account: SyntheticAccount;
  campaigns: SyntheticCampaign[];
  adSets: SyntheticAdSet[];
  ads: SyntheticAd[];
}

// --- Breakdown values ------------------------------------------------------------------------------------------

const AGE_LOW = [13, 18, 25, 35, 45, 55, 65];
const AGE_HIGH = [17, 24, 34, 44, 54, 64, 200];
const AGE_WEIGHTS = [0.02, 0.2, 0.27, 0.2, 0.14, 0.1, 0.07];
export type Gender = (typeof GENDERS)[number];
const GENDER_WEIGHTS = [0.49, 0.495, 0.015];
const DEVICE_WEIGHTS = [0.82, 0.18];

interface Placement {
  publisherPlatform: string;
  platformPosition: string;
  /** Its share of its platform's impressions, and whether desktops show it. */
  weight: number;
  desktop: boolean;
}
const PLATFORM_WEIGHTS: Record<string, number> = { facebook: 0.55, instagram: 0.37, audience_network: 0.04, messenger: 0.025, threads: 0.015 };
const placement = (publisherPlatform: string, platformPosition: string, weight: number, desktop = false): Placement => ({
  publisherPlatform,
  platformPosition,
  weight,
  desktop,
});
export const PLACEMENTS: Placement[] = [
  placement('facebook', 'feed', 0.46, true),
  placement('facebook', 'story', 0.1),
  placement('facebook', 'facebook_reels', 0.1),
  placement('facebook', 'video_feeds', 0.06, true),
  placement('facebook', 'marketplace', 0.06, true),
  placement('facebook', 'right_hand_column', 0.06, true),
  placement('facebook', 'instream_video', 0.04, true),
  placement('facebook', 'search', 0.02, true),
  placement('facebook', 'profile_feed', 0.02, true),
  placement('facebook', 'notification', 0.01),
  placement('facebook', 'facebook_reels_overlay', 0.01),
  placement('instagram', 'feed', 0.4, true),
  placement('instagram', 'instagram_stories', 0.24),
  placement('instagram', 'instagram_reels', 0.2),
  placement('instagram', 'instagram_explore', 0.07),
  placement('instagram', 'instagram_explore_grid_home', 0.02),
  placement('instagram', 'instagram_profile_feed', 0.04, true),
  placement('instagram', 'instagram_search', 0.03),
  placement('audience_network', 'an_classic', 0.6),
  placement('audience_network', 'rewarded_video', 0.4),
  placement('messenger', 'messenger_inbox', 0.7, true),
  placement('messenger', 'messenger_stories', 0.3),
  placement('threads', 'threads_feed', 1),
];
/** Automatic placements: what an ad set without publisher_platforms is shown on. */
const AUTOMATIC_PLATFORMS = ['facebook', 'instagram', 'audience_network', 'messenger'];

// --- Objectives -------------------------------------------------------------------------------------------------

interface ObjectiveProfile {
  /** CPM in US dollars, and the click-through rate of all clicks, as ranges. */
  cpm: [number, number];
  ctr: [number, number];
  /** Link clicks per click. */
  linkShare: number;
  landingPageViews?: [number, number]; // per link click
  leads?: [number, number]; // per link click
  purchases?: [number, number]; // per landing page view
  videoViews?: [number, number]; // per impression
}
const OBJECTIVE_PROFILES: Record<string, ObjectiveProfile> = {
  OUTCOME_AWARENESS: { cpm: [2, 6], ctr: [0.004, 0.009], linkShare: 0.35, videoViews: [0.08, 0.2] },
  OUTCOME_TRAFFIC: { cpm: [4, 10], ctr: [0.012, 0.028], linkShare: 0.72, landingPageViews: [0.65, 0.85] },
  OUTCOME_ENGAGEMENT: { cpm: [3, 8], ctr: [0.015, 0.035], linkShare: 0.25, videoViews: [0.1, 0.25] },
  OUTCOME_LEADS: { cpm: [8, 16], ctr: [0.01, 0.022], linkShare: 0.6, landingPageViews: [0.6, 0.8], leads: [0.06, 0.14] },
  OUTCOME_SALES: { cpm: [9, 20], ctr: [0.009, 0.02], linkShare: 0.62, landingPageViews: [0.6, 0.82], purchases: [0.03, 0.07] },
  OUTCOME_APP_PROMOTION: { cpm: [5, 12], ctr: [0.01, 0.02], linkShare: 0.7 },
};
const profileOf = (objective: string) => OBJECTIVE_PROFILES[objective] ?? OBJECTIVE_PROFILES.OUTCOME_TRAFFIC!;

/** What an ad set spends a day when neither it nor its campaign has a budget (US dollars). */
export const DEFAULT_DAILY_BUDGET_USD = 20;
/** A lifetime budget without an end date is spread over this many days from its start. */
export const OPEN_LIFETIME_DAYS = 30;

/** Minor units of the account's currency per US dollar. */
function minorPerUsd(currency: string): number {
  const code = isCurrencyCode(currency) ? currency : 'USD';
  return DEFAULT_RATES_PER_USD[code] * 10 ** MINOR_UNIT_DIGITS[code];
}

// --- People ----------------------------------------------------------------------------------------------------

/** A lookup table from 16 random bits to an index drawn by weight. */
function weightTable(weights: readonly number[]): Uint8Array {
  const table = new Uint8Array(65_536);
  const sum = weights.reduce((a, b) => a + b, 0);
  let index = 0;
  let bound = (weights[0]! / sum) * 65_536;
  for (let u = 0; u < 65_536; u++) {
    while (u >= bound && index < weights.length - 1) bound += (weights[++index]! / sum) * 65_536;
    table[u] = index;
  }
  return table;
}
const AGE_TABLE = weightTable(AGE_WEIGHTS);
const GENDER_TABLE = weightTable(GENDER_WEIGHTS);
const DEVICE_TABLE = weightTable(DEVICE_WEIGHTS);

/**
 * The account's people, by index in a 2^32 space. A person's traits (age bracket, gender, country, device) come
 * from their index, so nothing is stored; they are packed in a code: ((age × 3 + gender) × countries + country)
 * × 2 + device. Their sketch hash is a bijection of the index, so no two people collide.
 */
class Population {
  private readonly countryTable: Uint8Array;
  private readonly hashSalt: number;
  readonly codes: number;

  constructor(
    private readonly salt: number,
    readonly countries: string[],
  ) {
    // The account's first countries are its bigger markets.
    this.countryTable = weightTable(countries.map((_, i) => 1 / (1 + i)));
    this.hashSalt = Math.imul(salt, 0x9e37_79b1) >>> 0;
    this.codes = AGE_BRACKETS.length * GENDERS.length * countries.length * DEVICES.length;
  }

  traits(index: number): number {
    const a = mix32((index ^ this.salt) >>> 0);
    const b = mix32((a + 0x6d2b_79f5) >>> 0);
    const age = AGE_TABLE[a & 0xffff]!;
    const gender = GENDER_TABLE[a >>> 16]!;
    return ((age * 3 + gender) * this.countries.length + this.countryTable[b & 0xffff]!) * 2 + DEVICE_TABLE[b >>> 16]!;
  }

  hash(index: number): number {
    return mix32((index + this.hashSalt) >>> 0);
  }

  decode(code: number): { age: number; gender: number; country: number; device: number } {
    const device = code % 2;
    const rest = (code - device) / 2;
    const country = rest % this.countries.length;
    const ageGender = (rest - country) / this.countries.length;
    return { age: Math.floor(ageGender / 3), gender: ageGender % 3, country, device };
  }
}

// --- The generator ---------------------------------------------------------------------------------------------

export interface SyntheticOptions {
  seed: number;
  days: Day[];
}

interface AdSetPlan {
  adSet: SyntheticAdSet;
  campaign: SyntheticCampaign;
  ads: SyntheticAd[];
  profile: ObjectiveProfile;
  /** Drawn once per ad set. */
  pacing: number;
  cpm: number; // minor units per 1,000 impressions
  ctr: number;
  budgetWeight: number;
  adWeights: number[];
  adQuality: number[];
  /** Its audience: a window of 2^k people of the account's population, starting at `offset`. */
  offset: number;
  audienceBits: number;
  /** By a person's traits code (Population): whether the ad set's targeting reaches them. */
  reaches: Uint8Array;
  placementsByDevice: Placement[][];
  placementTables: Uint8Array[];
  orderValue: number; // minor units, a purchase's mean value
}

const inSchedule = (day: Day, start: Day | null, end: Day | null) => (start === null || day >= start) && (end === null || day <= end);

/** How many days a lifetime budget is spread over: its schedule, start and end included. */
function scheduleLength(start: Day | null, end: Day | null, firstDay: Day): number {
  const from = start ?? firstDay;
  const to = end ?? addDays(from, OPEN_LIFETIME_DAYS - 1);
  return Math.max(1, dayNumber(to) - dayNumber(from) + 1);
}

/**
 * Each delivering ad set's budget for a day, in minor units: its own, or its share of its campaign's (split by
 * weight among the campaign's ad sets that deliver that day, so the campaign never exceeds its budget).
 */
export function dailyBudgets(
  plans: readonly Pick<AdSetPlan, 'adSet' | 'campaign' | 'budgetWeight'>[],
  day: Day,
  firstDay: Day,
  currency: string,
): Map<string, number> {
  const budgets = new Map<string, number>();
  const byCampaign = new Map<string, Array<Pick<AdSetPlan, 'adSet' | 'campaign' | 'budgetWeight'>>>();
  for (const plan of plans) {
    const { adSet, campaign } = plan;
    if (!inSchedule(day, adSet.startDay, adSet.endDay) || !inSchedule(day, campaign.startDay, campaign.stopDay)) continue;
    if (campaign.dailyBudget !== null || campaign.lifetimeBudget !== null) {
      byCampaign.set(campaign.id, [...(byCampaign.get(campaign.id) ?? []), plan]);
      continue;
    }
    const own =
      adSet.dailyBudget ??
      (adSet.lifetimeBudget !== null
        ? Math.floor(adSet.lifetimeBudget / scheduleLength(adSet.startDay, adSet.endDay, firstDay))
        : Math.round(DEFAULT_DAILY_BUDGET_USD * minorPerUsd(currency)));
    budgets.set(adSet.id, own);
  }
  for (const sharing of byCampaign.values()) {
    const campaign = sharing[0]!.campaign;
    const total = campaign.dailyBudget ?? Math.floor(campaign.lifetimeBudget! / scheduleLength(campaign.startDay, campaign.stopDay, firstDay));
    // Floors only: the shares never add up to more than the campaign's budget.
    const weightSum = sharing.reduce((sum, plan) => sum + plan.budgetWeight, 0);
    for (const plan of sharing) budgets.set(plan.adSet.id, Math.floor((total * plan.budgetWeight) / weightSum));
  }
  return budgets;
}

function targetingTable(population: Population, allowed: { ages: boolean[]; genders: boolean[]; countries: boolean[]; devices: boolean[] }): Uint8Array {
  const table = new Uint8Array(population.codes);
  for (let code = 0; code < table.length; code++) {
    const t = population.decode(code);
    table[code] = allowed.ages[t.age] && allowed.genders[t.gender] && allowed.countries[t.country] && allowed.devices[t.device] ? 1 : 0;
  }
  return table;
}

function planAdSets(world: SyntheticWorld, seed: number, population: Population): AdSetPlan[] {
  const campaigns = new Map(world.campaigns.map((c) => [c.id, c]));
  const adsOf = new Map<string, SyntheticAd[]>();
  for (const ad of world.ads) adsOf.set(ad.adsetId, [...(adsOf.get(ad.adsetId) ?? []), ad]);
  const perUsd = minorPerUsd(world.account.currency);
  const countries = population.countries;
  const plans: AdSetPlan[] = [];
  for (const adSet of [...world.adSets].sort((a, b) => compareIds(a.id, b.id))) {
    const campaign = campaigns.get(adSet.campaignId);
    const ads = (adsOf.get(adSet.id) ?? []).sort((a, b) => compareIds(a.id, b.id));
    if (!campaign || ads.length === 0) continue;
    const random = new Random(seed, hashString(adSet.id), 0x5e7);
    const profile = profileOf(campaign.objective);
    const cpm = random.between(...profile.cpm) * perUsd;
    const t = adSet.targeting;
    const platforms = t.publisherPlatforms.length > 0 ? t.publisherPlatforms : AUTOMATIC_PLATFORMS;
    const placementsByDevice = DEVICES.map((device) =>
      PLACEMENTS.filter((p) => platforms.includes(p.publisherPlatform) && (device === 'mobile' || p.desktop)).map((p) => ({
        ...p,
        weight: p.weight * (PLATFORM_WEIGHTS[p.publisherPlatform] ?? 0.01),
      })),
    );
    const allowedDevices = DEVICES.map((d, i) => (t.devicePlatforms.length === 0 || t.devicePlatforms.includes(d)) && placementsByDevice[i]!.length > 0);
    const allowedAges = AGE_BRACKETS.map((_, i) => AGE_HIGH[i]! >= t.ageMin && AGE_LOW[i]! <= t.ageMax);
    const allowedGenders = GENDERS.map((g) => t.genders.length === 0 || g === 'unknown' || t.genders.includes(g));
    const allowedCountries = countries.map((c) => t.countries.length === 0 || t.countries.includes(c));
    // The audience holds about eight days' reach at the ad set's budget (of the people its targeting fits), so
    // people come back within a week and most of it is reached within a month, as an audience saturates.
    const reaches = targetingTable(population, { ages: allowedAges, genders: allowedGenders, countries: allowedCountries, devices: allowedDevices });
    let fitting = 1;
    for (let k = 0; k < 1024; k++) fitting += reaches[population.traits(random.uint32())]!;
    const budget = adSet.dailyBudget ?? campaign.dailyBudget ?? DEFAULT_DAILY_BUDGET_USD * perUsd;
    const dailyReach = ((budget / cpm) * 1000) / 1.3;
    const audienceBits = Math.min(30, Math.max(10, Math.ceil(Math.log2((dailyReach * 8 * 1024) / fitting))));
    plans.push({
      adSet,
      campaign,
      ads,
      profile,
      pacing: random.between(0.7, 0.97),
      cpm,
      ctr: random.between(...profile.ctr),
      budgetWeight: random.between(0.5, 1.5),
      adWeights: ads.map(() => random.between(0.3, 1)),
      adQuality: ads.map(() => random.between(0.7, 1.3)),
      offset: random.uint32(),
      audienceBits,
      reaches,
      placementsByDevice,
      placementTables: placementsByDevice.map((list) => weightTable(list.length > 0 ? list.map((p) => p.weight) : [1])),
      orderValue: random.between(35, 120) * perUsd,
    });
  }
  return plans;
}

/** The countries the account's people live in: every country its ad sets target, or its own. */
export function populationCountries(world: SyntheticWorld): string[] {
  const targeted = world.adSets.flatMap((s) => s.targeting.countries);
  return [...new Set(targeted.length > 0 ? targeted : [world.account.country])];
}

const compareIds = (a: string, b: string) => a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);

/** A day's delivery of one ad set, before it is split into cells. */
interface DayTotals {
  spend: number;
  impressions: number;
}

/**
 * The cells of every live ad of the world over the days, day by day and ad set by ad set (ids ascending), as
 * DeliveryCells for FactsAggregator.add. Ads that deliver nothing on a day have no cells that day.
 */
export function* syntheticDelivery(world: SyntheticWorld, options: SyntheticOptions): Generator<DeliveryCell> {
  const population = new Population(mix32(options.seed ^ hashString(world.account.id)), populationCountries(world));
  const plans = planAdSets(world, options.seed, population);
  const firstDay = options.days[0];
  if (firstDay === undefined) return;
  for (const day of options.days) {
    const budgets = dailyBudgets(plans, day, firstDay, world.account.currency);
    for (const plan of plans) {
      const budget = budgets.get(plan.adSet.id);
      if (budget === undefined || budget <= 0) continue;
      const random = new Random(options.seed, hashString(plan.adSet.id), dayNumber(day));
      const weekday = weekdayOf(day);
      const spend = Math.min(budget, Math.floor(budget * Math.min(1, plan.pacing * WEEKDAY_SPEND[weekday]! * random.jitter(0.08))));
      const impressions = Math.floor((spend * 1000) / (plan.cpm * WEEKDAY_CPM[weekday]! * random.jitter(0.1)));
      if (impressions === 0) continue;
      yield* adSetDay(plan, population, day, { spend, impressions }, random, WEEKDAY_CTR[weekday]!);
    }
  }
}

interface CellDraft {
  ad: number;
  /** The traits code of its people (Population) and its placement. */
  traits: number;
  placement: Placement;
  people: number[];
  impressions: number;
}

function* adSetDay(plan: AdSetPlan, population: Population, day: Day, totals: DayTotals, random: Random, ctrFactor: number): Generator<DeliveryCell> {
  const adImpressions = allocate(totals.impressions, plan.adWeights);
  const cells: CellDraft[] = [];
  const window = 2 ** plan.audienceBits;
  for (const [a, impressions] of adImpressions.entries()) {
    if (impressions === 0) continue;
    // Distinct people: a walk through the audience window by an odd stride visits each person at most once.
    const frequency = random.between(1.08, 1.6);
    const wanted = Math.max(1, Math.min(impressions, Math.round(impressions / frequency)));
    const start = random.uint32() & (window - 1);
    const stride = (random.uint32() | 1) & (window - 1) || 1;
    // People of the same traits see the ad on the same placement that day (one cell each): the placements
    // still follow their weights over the cells and days, and an ad's day stays a few dozen cells.
    const cellOf = new Int32Array(population.codes).fill(-1);
    const adCells: CellDraft[] = [];
    let reached = 0;
    for (let j = 0; j < window && reached < wanted; j++) {
      const index = (plan.offset + ((start + j * stride) & (window - 1))) >>> 0;
      const traits = population.traits(index);
      if (plan.reaches[traits] === 0) continue;
      let c = cellOf[traits]!;
      if (c < 0) {
        const device = traits & 1;
        const placement = plan.placementsByDevice[device]![plan.placementTables[device]![random.uint32() & 0xffff]!]!;
        c = cellOf[traits] = adCells.length;
        adCells.push({ ad: a, traits, placement, people: [], impressions: 0 });
      }
      adCells[c]!.people.push(population.hash(index));
      reached++;
    }
    if (reached === 0) continue;
    // Everyone reached saw the ad once; the impressions beyond that go to cells by their people.
    const extra = allocate(
      Math.max(0, impressions - reached),
      adCells.map((c) => c.people.length),
    );
    adCells.forEach((cell, i) => (cell.impressions = cell.people.length + extra[i]!));
    cells.push(...adCells);
  }
  if (cells.length === 0) return;

  // The day's counts, shared by the cells: spend by impressions, clicks by impressions and the ad's quality,
  // then each action by the count it follows from (never more link clicks than clicks, and so on).
  const profile = plan.profile;
  const impressions = cells.map((c) => c.impressions);
  const total = impressions.reduce((sum, n) => sum + n, 0);
  const spend = allocate(totals.spend, impressions);
  const clicks = allocate(
    random.round(total * plan.ctr * ctrFactor * random.jitter(0.12)),
    cells.map((c) => c.impressions * plan.adQuality[c.ad]!),
  );
  const clickSum = clicks.reduce((sum, n) => sum + n, 0);
  const linkClicks = allocate(random.round(clickSum * profile.linkShare * random.jitter(0.05)), clicks);
  const linkSum = linkClicks.reduce((sum, n) => sum + n, 0);
  const follow = (count: [number, number] | undefined, base: number[], baseSum: number) =>
    count ? allocate(random.round(baseSum * random.between(...count)), base) : null;
  const landingPageViews = follow(profile.landingPageViews, linkClicks, linkSum);
  const leads = follow(profile.leads, linkClicks, linkSum);
  const purchases = landingPageViews
    ? follow(
        profile.purchases,
        landingPageViews,
        landingPageViews.reduce((s, n) => s + n, 0),
      )
    : null;
  const videoViews = follow(profile.videoViews, impressions, total);
  const reactions = allocate(random.round(total * random.between(0.002, 0.006)), impressions);

  for (const [i, cell] of cells.entries()) {
    const actions: Record<string, number> = {};
    const actionValues: Record<string, number> = {};
    const put = (type: string, n: number | undefined) => {
      if (n) actions[type] = n;
    };
    put('link_click', linkClicks[i]);
    put('landing_page_view', landingPageViews?.[i]);
    put('lead', leads?.[i]);
    put('video_view', videoViews?.[i]);
    put('post_engagement', clicks[i]! + reactions[i]!);
    const bought = purchases?.[i] ?? 0;
    if (bought > 0) {
      actions.purchase = bought;
      actionValues.purchase = Math.round(bought * plan.orderValue * random.jitter(0.25));
    }
    // The people who clicked: some click twice, so a few fewer than the clicks.
    const clickers = clicks[i]! > 0 ? Math.min(cell.people.length, Math.max(1, Math.round(clicks[i]! * 0.92))) : 0;
    const traits = population.decode(cell.traits);
    yield {
      adId: plan.ads[cell.ad]!.id,
      day,
      age: AGE_BRACKETS[traits.age]!,
      gender: GENDERS[traits.gender]!,
      country: population.countries[traits.country]!,
      publisherPlatform: cell.placement.publisherPlatform,
      platformPosition: cell.placement.platformPosition,
      devicePlatform: DEVICES[traits.device]!,
      impressions: cell.impressions,
      clicks: clicks[i]!,
      inlineLinkClicks: linkClicks[i]!,
      spend: spend[i]!,
      actions,
      actionValues,
      people: cell.people,
      clickers: cell.people.slice(0, clickers),
    };
  }
}
