import type { OptimizationEvent } from '../../insights/rules/learning-stage.ts';
import {
  ageShare,
  cityPeople,
  countryGroupMembers,
  countryPeople,
  DEFAULT_MONTHLY_ACTIVE_PEOPLE,
  deviceShare,
  genderShare,
  KM_PER_MILE,
  platformShare,
  REGION_PEOPLE,
  ZIP_PEOPLE,
} from './population.ts';
import { DETAILED_TARGETING_KEYS } from './targeting-sentences.ts';
import { asObject, codesOf, nonEmptyString, stringsOf, type JsonObject } from './stored-json.ts';

/**
 * An ad set's delivery estimate, as the platform's AdCampaignDeliveryEstimate reports it: the people a targeting
 * reaches (monthly active people, as a range, and daily actives) and a daily outcomes curve (what a day's spend
 * buys). Pure: the caller looks up the audiences the targeting names and the account's recent delivery. Stored
 * targeting (snake_case) may be malformed: nothing throws, values of the wrong type are skipped.
 *
 * The model (sizes and shares in population.ts, rounded magnitudes rather than the platform's data):
 * - Base: the people of geo_locations (countries, country groups, regions, cities, zips, summed as if disjoint:
 *   the platform refuses overlapping locations) minus those of excluded_geo_locations; an excluded country
 *   only subtracts when it is also included (excluding France from a US targeting changes nothing), excluded
 *   regions, cities and zips always do (the model cannot tell which country holds them). Never below 0.
 *   location_types and geo keys the gateway does not accept (custom_locations ...) change nothing.
 * - custom_audiences naming at least one audience: the base is the sum of their sizes instead, at most the geo
 *   base. A lookalike is (ratio − starting_ratio) × its country's people; other audiences count a fixed size
 *   per subtype (the model does not see who is in them).
 * - Factors multiplied in, each independent of the others: age, gender, platforms, devices (population.ts);
 *   each detailed-targeting group keeps min(0.6, max(0.02, 1 − 0.9^items)) (a group reaches anyone matching any
 *   item, so more items reach more people); exclusions keep max(0.5, 0.95^items); locales 0.6;
 *   relationship_statuses and education_statuses 0.4 each. Positions, user_os and page_types are not modelled.
 * - excluded_custom_audiences subtract their sizes, narrowed by the same factors (an excluded audience is
 *   assumed spread like the targeted people), never below 0.
 * - The answer is a range, never a count: MAU × 0.85 and × 1.15, daily actives MAU × 0.6, each rounded to two
 *   significant digits and never below PRIVACY_FLOOR, so a narrow targeting cannot single people out.
 * - Rates: the account's own CPM and results per impression once it has MIN_ACCOUNT_IMPRESSIONS (and spend),
 *   else the caller's default CPM and a default rate per event.
 * - Curve: 13 points spending 0 to 3 × the daily budget in equal steps. Impressions = spend / CPM; reach =
 *   dau × (1 − e^(−impressions / (2 × dau))): each impression has half the chance of reaching someone new that
 *   the unreached share of the daily actives gives (delivery comes back to people it has reached), so reach
 *   starts at impressions / 2 and saturates at the daily actives. Actions are impressions × results per
 *   impression, except for goals optimizing for impressions (REACH, IMPRESSIONS ...), whose results are the
 *   people reached: there actions = reach.
 */

/** No estimate says fewer people than this: the platform's privacy floor for audience sizes. */
export const PRIVACY_FLOOR = 1000;

/** What the model knows of a custom audience the targeting names (from its record). */
export interface AudienceFacts {
  subtype: string;
  lookalikeSpec: unknown;
}

export interface AudienceEstimate {
  mauLowerBound: number;
  mauUpperBound: number;
  dau: number;
}

/** Custom audience sizes by subtype (the model does not see members); LOOKALIKE is sized from its spec. */
export const AUDIENCE_SIZES: Readonly<Record<string, number>> = { CUSTOM: 50_000, WEBSITE: 100_000, ENGAGEMENT: 80_000 };
/** Any other subtype, an id missing from the caller's map, or a lookalike whose country the model cannot read. */
export const DEFAULT_AUDIENCE_SIZE = 50_000;
/** The platform's lookalike ratios: 1% to 20% of a country. */
export const LOOKALIKE_MIN_RATIO = 0.01;
export const LOOKALIKE_MAX_RATIO = 0.2;

/** Each detailed-targeting group keeps 1 − 0.9^items of the people, within these bounds. */
export const GROUP_ITEM_MISS = 0.9;
export const GROUP_MIN_SHARE = 0.02;
export const GROUP_MAX_SHARE = 0.6;
/** Each item of `exclusions` keeps 0.95 of the people, together never less than half. */
export const EXCLUSION_ITEM_KEEP = 0.95;
export const EXCLUSION_MIN_SHARE = 0.5;
export const LOCALES_SHARE = 0.6;
export const RELATIONSHIP_STATUSES_SHARE = 0.4;
export const EDUCATION_STATUSES_SHARE = 0.4;

/** The range either side of the model's MAU: ±15%. */
export const BOUND_SPREAD = 0.15;
/** Daily actives as a share of monthly actives. */
export const DAILY_ACTIVE_SHARE = 0.6;

/** Top-level keys forming one detailed-targeting group; custom audiences and statuses have their own rules. */
const TOP_LEVEL_GROUP_KEYS: readonly string[] = DETAILED_TARGETING_KEYS.filter(
  (key) => key !== 'custom_audiences' && key !== 'relationship_statuses' && key !== 'education_statuses',
);

/** An age as stored, or undefined (ageShare's default) when it is no integer. */
const ageOf = (value: unknown): number | undefined => (typeof value === 'number' && Number.isInteger(value) ? value : undefined);

/** An entry naming an object by id: `{id, name?}` or the bare id. */
const entityIdOf = (entry: unknown): string | null => {
  const raw = asObject(entry)?.id ?? entry;
  if (typeof raw === 'number' && Number.isSafeInteger(raw)) return String(raw);
  return nonEmptyString(raw);
};

/** An entry of a list that names something (a place, an interest ...): an object, a non-empty string or a number. */
const isEntry = (entry: unknown): boolean =>
  asObject(entry) !== null || nonEmptyString(entry) !== null || (typeof entry === 'number' && Number.isFinite(entry));

const entriesOf = (value: unknown): unknown[] => (Array.isArray(value) ? value.filter(isEntry) : []);

/**
 * To 2 (or `digits`) significant digits, as the platform rounds its audience sizes: 228,000,000 × 0.85 =
 * 193,800,000 reads 190,000,000. 0 and below stay 0.
 */
export function roundSignificant(n: number, digits: number): number {
  if (!Number.isFinite(n) || n <= 0) return 0;
  const exponent = Math.floor(Math.log10(n)) - Math.max(1, Math.floor(digits)) + 1;
  // Dividing by a power of ten (rather than multiplying by a negative one) keeps small results exact.
  return exponent >= 0 ? Math.round(n / 10 ** exponent) * 10 ** exponent : Math.round(n * 10 ** -exponent) / 10 ** -exponent;
}

/** The places of a geo_locations object: ISO countries (to intersect exclusions with) and everyone else. */
interface Places {
  countries: Set<string>;
  otherPeople: number;
}

function placesOf(geo: JsonObject | null): Places {
  const places: Places = { countries: new Set(), otherPeople: 0 };
  if (!geo) return places;
  for (const code of stringsOf(geo.countries)) places.countries.add(code);
  for (const group of stringsOf(geo.country_groups)) {
    const members = countryGroupMembers(group);
    if (members === null) places.otherPeople += DEFAULT_MONTHLY_ACTIVE_PEOPLE;
    else for (const code of members) places.countries.add(code);
  }
  places.otherPeople += entriesOf(geo.regions).length * REGION_PEOPLE;
  places.otherPeople += entriesOf(geo.zips).length * ZIP_PEOPLE;
  for (const city of entriesOf(geo.cities)) places.otherPeople += cityPeople(radiusKm(city));
  return places;
}

/** A city's radius in km; without distance_unit in miles (the platform's default); null when none is given. */
function radiusKm(city: unknown): number | null {
  const object = asObject(city);
  const radius = object?.radius;
  if (typeof radius !== 'number' || !Number.isFinite(radius) || radius <= 0) return null;
  return object?.distance_unit === 'kilometer' ? radius : radius * KM_PER_MILE;
}

const peopleOf = (countries: Iterable<string>): number => {
  let people = 0;
  for (const code of countries) people += countryPeople(code);
  return people;
};

/** geo_locations minus excluded_geo_locations, never below 0. */
function geoBase(t: JsonObject): number {
  const included = placesOf(asObject(t.geo_locations));
  const excluded = placesOf(asObject(t.excluded_geo_locations));
  const excludedCountries = [...excluded.countries].filter((code) => included.countries.has(code));
  return Math.max(0, peopleOf(included.countries) + included.otherPeople - peopleOf(excludedCountries) - excluded.otherPeople);
}

/** A lookalike's spec, or null when the audience is no lookalike (by subtype, or a spec with a ratio and a place). */
function lookalikeSpecOf(facts: AudienceFacts): JsonObject | null {
  const spec = asObject(facts.lookalikeSpec);
  if (facts.subtype === 'LOOKALIKE') return spec ?? {};
  return spec && spec.ratio !== undefined && (spec.country !== undefined || spec.location_spec !== undefined) ? spec : null;
}

function lookalikeSize(spec: JsonObject): number {
  const ratio =
    typeof spec.ratio === 'number' && Number.isFinite(spec.ratio)
      ? Math.min(LOOKALIKE_MAX_RATIO, Math.max(LOOKALIKE_MIN_RATIO, spec.ratio))
      : LOOKALIKE_MIN_RATIO;
  // A lookalike from starting_ratio to ratio holds the people of that band only (the platform's ranges: 1% to 2% ...).
  const start = typeof spec.starting_ratio === 'number' && spec.starting_ratio >= 0 && spec.starting_ratio < ratio ? spec.starting_ratio : 0;
  const location = asObject(spec.location_spec);
  const places = placesOf(asObject(location?.geo_locations) ?? location);
  const country = nonEmptyString(spec.country);
  if (country !== null) places.countries.add(country);
  const people = peopleOf(places.countries) + places.otherPeople;
  return people > 0 ? (ratio - start) * people : DEFAULT_AUDIENCE_SIZE;
}

function audienceSize(facts: AudienceFacts | undefined): number {
  if (!facts) return DEFAULT_AUDIENCE_SIZE;
  const lookalike = lookalikeSpecOf(facts);
  if (lookalike) return lookalikeSize(lookalike);
  return Object.hasOwn(AUDIENCE_SIZES, facts.subtype) ? (AUDIENCE_SIZES[facts.subtype] ?? DEFAULT_AUDIENCE_SIZE) : DEFAULT_AUDIENCE_SIZE;
}

/** The audiences a list names, each once, with their sizes summed. */
function audiencesSize(value: unknown, audiences: ReadonlyMap<string, AudienceFacts>): { named: number; size: number } {
  const ids = new Set(Array.isArray(value) ? value.map(entityIdOf).filter((id): id is string => id !== null) : []);
  let size = 0;
  for (const id of ids) size += audienceSize(audiences.get(id));
  return { named: ids.size, size };
}

/** The items of a detailed-targeting group (or of exclusions), over the given keys. */
function itemsOf(group: JsonObject, keys: readonly string[]): number {
  let items = 0;
  for (const key of keys) items += entriesOf(group[key]).length;
  return items;
}

/** A group with no items targets nothing and so narrows nothing. */
const groupShare = (items: number): number => (items === 0 ? 1 : Math.min(GROUP_MAX_SHARE, Math.max(GROUP_MIN_SHARE, 1 - GROUP_ITEM_MISS ** items)));

/** The product of every narrowing factor of the targeting. */
function narrowing(t: JsonObject): number {
  let share = ageShare(ageOf(t.age_min), ageOf(t.age_max));
  share *= genderShare(codesOf(t.genders));
  share *= platformShare(stringsOf(t.publisher_platforms));
  share *= deviceShare(stringsOf(t.device_platforms));
  share *= groupShare(itemsOf(t, TOP_LEVEL_GROUP_KEYS));
  if (Array.isArray(t.flexible_spec)) {
    for (const entry of t.flexible_spec) {
      const group = asObject(entry);
      if (group) share *= groupShare(itemsOf(group, Object.keys(group)));
    }
  }
  const exclusions = asObject(t.exclusions);
  if (exclusions) share *= Math.max(EXCLUSION_MIN_SHARE, EXCLUSION_ITEM_KEEP ** itemsOf(exclusions, Object.keys(exclusions)));
  if (codesOf(t.locales).length > 0) share *= LOCALES_SHARE;
  if (codesOf(t.relationship_statuses).length > 0) share *= RELATIONSHIP_STATUSES_SHARE;
  if (codesOf(t.education_statuses).length > 0) share *= EDUCATION_STATUSES_SHARE;
  return share;
}

const floored = (n: number): number => Math.max(PRIVACY_FLOOR, roundSignificant(n, 2));

export function estimateAudience(targeting: unknown, audiences: ReadonlyMap<string, AudienceFacts>): AudienceEstimate {
  const t = asObject(targeting) ?? {};
  const geo = geoBase(t);
  const included = audiencesSize(t.custom_audiences, audiences);
  const base = included.named > 0 ? Math.min(geo, included.size) : geo;
  const factor = narrowing(t);
  const excluded = audiencesSize(t.excluded_custom_audiences, audiences).size;
  const mau = Math.max(0, base * factor - excluded * factor);
  return { mauLowerBound: floored(mau * (1 - BOUND_SPREAD)), mauUpperBound: floored(mau * (1 + BOUND_SPREAD)), dau: floored(mau * DAILY_ACTIVE_SHARE) };
}

/** Delivery as an account's recent statistics (or none) give it. */
export interface RecentDelivery {
  impressions: number;
  clicks: number;
  spend: number;
  actions: Record<string, number>;
}

/** Where an estimate's rates come from: the account's recent delivery, or the model's defaults. */
export const RATE_SOURCES = ['account', 'defaults'] as const;
export type RateSource = (typeof RATE_SOURCES)[number];

export interface DeliveryRates {
  /** Minor units of the account's currency per 1,000 impressions. */
  cpm: number;
  /** Optimization events per impression, at most 1 (1 for goals optimizing for impressions, 0 without a goal). */
  resultsPerImpression: number;
  source: RateSource;
  /**
   * What a curve point's `actions` counts: optimization events (impressions × resultsPerImpression), or people
   * reached for goals optimizing for impressions (REACH, IMPRESSIONS ...), whose results are the people reached.
   */
  results: 'events' | 'reach';
}

/** Below this many impressions an account's own rates are noise: the defaults answer. */
export const MIN_ACCOUNT_IMPRESSIONS = 1000;

/** Results per impression without an account history: rounded industry magnitudes per action type. */
export const DEFAULT_RESULTS_PER_IMPRESSION: Readonly<Record<string, number>> = {
  link_click: 0.01,
  landing_page_view: 0.006,
  lead: 0.001,
  purchase: 0.0005,
  post_engagement: 0.02,
  video_view: 0.05,
  'onsite_conversion.messaging_conversation_started_7d': 0.001,
};
export const OTHER_RESULTS_PER_IMPRESSION = 0.002;

const finiteOr = (n: unknown, fallback: number): number => (typeof n === 'number' && Number.isFinite(n) ? n : fallback);

/** The model's results per impression for an event (1 for impressions: the people reached; 0 without a goal). */
function defaultResultsPerImpression(event: OptimizationEvent | null): number {
  if (event === null) return 0;
  if (event.kind === 'impressions') return 1;
  return Object.hasOwn(DEFAULT_RESULTS_PER_IMPRESSION, event.actionType) ? DEFAULT_RESULTS_PER_IMPRESSION[event.actionType]! : OTHER_RESULTS_PER_IMPRESSION;
}

/**
 * The account's own rates once it has delivered (MIN_ACCOUNT_IMPRESSIONS, and spent): its CPM, and its rate of
 * the goal's event where it recorded any (an account that never had the event, say no conversation yet, keeps the
 * model's rate for it rather than promising none); the model's defaults otherwise.
 */
export function deliveryRates(recent: RecentDelivery | null, event: OptimizationEvent | null, defaultCpm: number): DeliveryRates {
  const results = event?.kind === 'impressions' ? 'reach' : 'events';
  const impressions = finiteOr(recent?.impressions, 0);
  const spend = finiteOr(recent?.spend, 0);
  // An account that delivered for free (spend 0) has no CPM to go by.
  if (recent && impressions >= MIN_ACCOUNT_IMPRESSIONS && spend > 0) {
    let perImpression = defaultResultsPerImpression(event);
    if (event?.kind === 'action') {
      const own = Math.min(1, Math.max(0, finiteOr(asObject(recent.actions)?.[event.actionType], 0)) / impressions);
      if (own > 0) perImpression = own;
    }
    return { cpm: (spend * 1000) / impressions, resultsPerImpression: perImpression, source: 'account', results };
  }
  return { cpm: defaultCpm, resultsPerImpression: defaultResultsPerImpression(event), source: 'defaults', results };
}

export interface OutcomePoint {
  spend: number;
  reach: number;
  impressions: number;
  actions: number;
}

export const CURVE_POINTS = 13;
/** The curve runs to this many times the daily budget. */
export const CURVE_SPAN = 3;
/** The 2 of the reach curve: impressions per newly reached person at the start (how soon reach saturates). */
export const DAILY_FREQUENCY = 2;

export function dailyOutcomesCurve(audience: AudienceEstimate, rates: DeliveryRates, dailyBudget: number): OutcomePoint[] {
  const cpm = Number.isFinite(rates.cpm) && rates.cpm > 0 ? rates.cpm : 0;
  // Without a budget the curve still shows something: 3 × the CPM buys 3,000 impressions a day.
  const budget = Number.isFinite(dailyBudget) && dailyBudget > 0 ? dailyBudget : 3 * cpm;
  const dau = Number.isFinite(audience.dau) && audience.dau > 0 ? audience.dau : 0;
  const perImpression = Number.isFinite(rates.resultsPerImpression) ? Math.min(1, Math.max(0, rates.resultsPerImpression)) : 0;
  const points: OutcomePoint[] = [];
  for (let step = 0; step < CURVE_POINTS; step++) {
    const spend = Math.round((step * CURVE_SPAN * budget) / (CURVE_POINTS - 1));
    const impressions = cpm > 0 ? Math.floor((spend * 1000) / cpm) : 0;
    const reach = dau > 0 ? Math.min(impressions, Math.round(dau * (1 - Math.exp(-impressions / (DAILY_FREQUENCY * dau))))) : 0;
    const actions = rates.results === 'reach' ? reach : Math.floor(impressions * perImpression);
    points.push({ spend, reach, impressions, actions });
  }
  return points;
}
