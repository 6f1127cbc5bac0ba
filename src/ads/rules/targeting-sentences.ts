/**
 * The human summary of an ad set's targeting ("targeting sentence lines", as Ads Manager shows them), in English,
 * read from the stored Graph-API (snake_case) targeting. Pure: the caller looks up audience names first
 * (`audienceIdsNamed`). Stored JSON may be malformed: nothing throws, values of the wrong type are skipped.
 *
 * Choices:
 * - Lines in a fixed order; Location, Age and Placements always appear (with the platform's defaults), the others
 *   only when their key holds a usable value. Keys this module cannot phrase still appear: unknown top-level keys
 *   under a last "Other targeting:" line, unknown geo keys among the places, unknown detailed-targeting keys in
 *   their group, each under their key in sentence case.
 * - Location: one child, `<who>: <places>`, places in the order country groups, countries, regions, cities, zips,
 *   each list as given. <who> from location_types: home "Living in", recent "Recently in", travel_in "Traveling
 *   in", several joined by " or "; absent or empty is the platform's default (home and recent): "Living in or
 *   recently in". A city radius without distance_unit is in miles (the platform's default). Excluded location
 *   uses the same phrasing and appears only when it names a place (an empty exclusion excludes nothing).
 * - Age: `min - max`, min 18 when absent, `65+` when age_max is absent or 65.
 * - Lists of one kind are joined with ", "; the items of a detailed-targeting group with " or ", its kinds with
 *   ", " (one group reaches anyone matching any of them). Groups are ANDed, so each is its own child: the
 *   top-level interests, behaviors ... first, then flexible_spec in order. Unnamed entries print as `<kind> <id>`.
 * - Placements: no platform, position or page type given is Advantage+ placements. Otherwise one child per
 *   platform (`Facebook: Feed, Stories`, or `all positions`); positions given without publisher_platforms follow
 *   an "All platforms" child, and positions of a platform not selected say so. page_types (legacy desktop
 *   placements) are a last `Page types:` child. Unknown values read in sentence case ("groups_feed" -> "Groups
 *   feed"), like the known ones.
 * - Language: the platform's locale keys this module knows (a partial table), `locale <key>` for the others.
 */

import { asObject, codesOf, nonEmptyString, stringsOf, type JsonObject } from './stored-json.ts';

export interface TargetingSentenceLine {
  /** The heading, ending in a colon: "Location:", "Age:", ... */
  content: string;
  /** One or more sentences under it. */
  children: string[];
}

/** Names the targeting refers to by id, looked up by the caller (the service) before calling. */
export interface TargetingNames {
  /** Custom audience (and lookalike) id -> name; an id missing here prints as `audience <id>`. */
  audiences: ReadonlyMap<string, string>;
}

/** The targeting keys the gateway accepts (schema/ads.graphql TargetingInput, in the stored snake_case). */
export const TARGETING_KEYS = [
  'geo_locations',
  'excluded_geo_locations',
  'age_min',
  'age_max',
  'genders',
  'locales',
  'custom_audiences',
  'excluded_custom_audiences',
  'flexible_spec',
  'exclusions',
  'interests',
  'behaviors',
  'life_events',
  'industries',
  'income',
  'family_statuses',
  'work_positions',
  'relationship_statuses',
  'education_statuses',
  'publisher_platforms',
  'facebook_positions',
  'instagram_positions',
  'audience_network_positions',
  'messenger_positions',
  'device_platforms',
  'user_os',
  'page_types',
] as const;

/** GeoLocationsInput, in the stored snake_case. */
export const GEO_LOCATION_KEYS = ['countries', 'country_groups', 'regions', 'cities', 'zips', 'location_types'] as const;

/** FlexibleSpecInput (one detailed-targeting group), in the stored snake_case, with the label each prints under. */
const DETAILED_KINDS = {
  interests: { label: 'Interests', noun: 'interest' },
  behaviors: { label: 'Behaviors', noun: 'behavior' },
  life_events: { label: 'Life events', noun: 'life event' },
  industries: { label: 'Industries', noun: 'industry' },
  income: { label: 'Income', noun: 'income' },
  family_statuses: { label: 'Family statuses', noun: 'family status' },
  work_positions: { label: 'Job titles', noun: 'job title' },
  custom_audiences: { label: 'Custom audiences', noun: 'audience' },
  relationship_statuses: { label: 'Relationship status', noun: 'status' },
  education_statuses: { label: 'Education', noun: 'status' },
} as const;
type DetailedKind = keyof typeof DETAILED_KINDS;
export const DETAILED_TARGETING_KEYS = Object.keys(DETAILED_KINDS) as DetailedKind[];
/** Top-level detailed keys that have a line of their own rather than joining the top-level group. */
const OWN_LINE_KEYS: readonly string[] = ['custom_audiences', 'relationship_statuses', 'education_statuses'];

export const RELATIONSHIP_STATUSES: Readonly<Record<number, string>> = {
  1: 'Single',
  2: 'In a relationship',
  3: 'Married',
  4: 'Engaged',
  6: 'Not specified',
  7: 'In a civil union',
  8: 'In a domestic partnership',
  9: 'In an open relationship',
  10: "It's complicated",
  11: 'Separated',
  12: 'Divorced',
  13: 'Widowed',
};

export const EDUCATION_STATUSES: Readonly<Record<number, string>> = {
  1: 'High school',
  2: 'Undergraduate',
  3: 'Alumnus',
  4: 'High school graduate',
  5: 'Some college',
  6: 'Associate degree',
  7: 'In grad school',
  8: 'Some grad school',
  9: "Master's degree",
  10: 'Professional degree',
  11: 'Doctorate degree',
  12: 'Unspecified',
  13: 'Some high school',
};

/**
 * The platform's ad locale keys (targeting search type=adlocale) this module is confident of; the rest print as
 * `locale <key>` rather than risk a wrong language.
 */
export const LOCALE_NAMES: Readonly<Record<number, string>> = {
  5: 'German',
  6: 'English (US)',
  7: 'Spanish',
  9: 'French (France)',
  10: 'Italian',
  11: 'Japanese',
  12: 'Korean',
  14: 'Dutch',
  15: 'Polish',
  16: 'Portuguese (Brazil)',
  17: 'Russian',
  18: 'Swedish',
  19: 'Turkish',
  20: 'Chinese (Simplified)',
  22: 'Chinese (Traditional)',
  23: 'Spanish (Spain)',
  24: 'English (UK)',
  28: 'Arabic',
  31: 'Portuguese (Portugal)',
  1001: 'English (All)',
  1002: 'Spanish (All)',
};

const COUNTRY_GROUPS: Readonly<Record<string, string>> = {
  worldwide: 'Worldwide',
  africa: 'Africa',
  asia: 'Asia',
  caribbean: 'Caribbean',
  central_america: 'Central America',
  europe: 'Europe',
  north_america: 'North America',
  oceania: 'Oceania',
  south_america: 'South America',
  eea: 'European Economic Area',
  emea: 'Europe, the Middle East and Africa',
  mena: 'Middle East and North Africa',
  gcc: 'Gulf Cooperation Council',
  asean: 'ASEAN',
  apac: 'Asia-Pacific',
};

const LOCATION_TYPES: Readonly<Record<string, string>> = { home: 'living in', recent: 'recently in', travel_in: 'traveling in' };

const PLATFORMS: Readonly<Record<string, { name: string; positionsKey?: string }>> = {
  facebook: { name: 'Facebook', positionsKey: 'facebook_positions' },
  instagram: { name: 'Instagram', positionsKey: 'instagram_positions' },
  audience_network: { name: 'Audience Network', positionsKey: 'audience_network_positions' },
  messenger: { name: 'Messenger', positionsKey: 'messenger_positions' },
  threads: { name: 'Threads' },
};

/** Positions whose Ads Manager name is not their key in sentence case. */
const POSITION_NAMES: Readonly<Record<string, string>> = {
  story: 'Stories',
  facebook_reels: 'Reels',
  facebook_reels_overlay: 'Ads on reels',
  instagram_stories: 'Stories',
  instagram_reels: 'Reels',
  right_hand_column: 'Right column',
  search: 'Search results',
  ig_search: 'Search results',
  instream_video: 'In-stream videos',
  an_classic: 'Native, banner and interstitial',
  classic: 'Native, banner and interstitial',
  rewarded_video: 'Rewarded videos',
  messenger_inbox: 'Inbox',
  messenger_home: 'Inbox',
  stream: 'Feed',
  notification: 'Notifications',
};

const PAGE_TYPE_NAMES: Readonly<Record<string, string>> = {
  desktopfeed: 'Desktop feed',
  rightcolumn: 'Right column',
  mobilefeed: 'Mobile feed',
  mobileexternal: 'Mobile external',
  instagramstream: 'Instagram feed',
  instagramstory: 'Instagram stories',
};

const OS_NAMES: Readonly<Record<string, string>> = { ios: 'iOS', android: 'Android' };

const ADVANTAGE_PLACEMENTS = 'Advantage+ placements (all platforms and positions)';
const DEFAULT_AGE_MIN = 18;
const OPEN_AGE_MAX = 65;

/** An entry naming an object by id: `{id, name?}` or the bare id. */
const entityIdOf = (entry: unknown): string | null => {
  const raw = asObject(entry)?.id ?? entry;
  if (typeof raw === 'number' && Number.isSafeInteger(raw)) return String(raw);
  return nonEmptyString(raw);
};

/** A table's entry for a stored string: own keys only, so "constructor" or "toString" read as unknown. */
const lookUp = <T>(table: Readonly<Record<string, T>>, key: string): T | undefined => (Object.hasOwn(table, key) ? table[key] : undefined);
const isDetailedKind = (key: string): key is DetailedKind => Object.hasOwn(DETAILED_KINDS, key);

const sentenceCase = (key: string): string => {
  const words = key.replace(/_/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
};

const MAX_RAW_LENGTH = 120;

/** Any stored value as short text, for keys this module has no phrasing for; null when there is nothing to show. */
function rawText(value: unknown): string | null {
  if (typeof value === 'string') return nonEmptyString(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) {
    const shown = value.map(entryText).filter((s): s is string => s !== null);
    return shown.length > 0 ? shown.join(', ') : null;
  }
  const object = asObject(value);
  if (!object || Object.keys(object).length === 0) return null;
  const json = JSON.stringify(object);
  return json.length > MAX_RAW_LENGTH ? `${json.slice(0, MAX_RAW_LENGTH - 1)}…` : json;
}

/** One entry of a list: an object by its name, key or id when it has one. */
function entryText(entry: unknown): string | null {
  const object = asObject(entry);
  if (!object) return rawText(entry);
  return nonEmptyString(object.name) ?? nonEmptyString(object.key) ?? entityIdOf(object) ?? rawText(object);
}

let regionNames: Intl.DisplayNames | null = null;
function countryName(code: string): string {
  regionNames ??= new Intl.DisplayNames(['en'], { type: 'region' });
  try {
    return regionNames.of(code.toUpperCase()) ?? code;
  } catch {
    // Not a well-formed region code (stored data): show it as written.
    return code;
  }
}

/** A region, city, zip ... entry: its name, else its key, with a radius when it has one. */
function placeName(entry: unknown): string | null {
  const object = asObject(entry);
  if (!object) return nonEmptyString(entry);
  const name = nonEmptyString(object.name) ?? nonEmptyString(object.key) ?? nonEmptyString(object.address_string);
  if (name === null) return null;
  const radius = object.radius;
  if (typeof radius !== 'number' || !Number.isFinite(radius) || radius <= 0) return name;
  return `${name} (+${radius} ${object.distance_unit === 'kilometer' ? 'km' : 'mi'})`;
}

function placesOf(geo: JsonObject): string[] {
  const places = [...stringsOf(geo.country_groups).map((group) => lookUp(COUNTRY_GROUPS, group) ?? group), ...stringsOf(geo.countries).map(countryName)];
  for (const key of ['regions', 'cities', 'zips'] as const) {
    if (Array.isArray(geo[key])) places.push(...geo[key].map(placeName).filter((s): s is string => s !== null));
  }
  // Geo keys the gateway does not name (custom_locations, geo_markets ...) are places too.
  for (const [key, value] of Object.entries(geo)) {
    if ((GEO_LOCATION_KEYS as readonly string[]).includes(key)) continue;
    if (Array.isArray(value)) places.push(...value.map(placeName).filter((s): s is string => s !== null));
    else {
      const text = rawText(value);
      if (text !== null) places.push(`${sentenceCase(key)}: ${text}`);
    }
  }
  return places;
}

function whoIsIn(geo: JsonObject): string {
  const types = [...new Set(stringsOf(geo.location_types))];
  const phrase =
    types.length === 0 ? 'living in or recently in' : types.map((type) => lookUp(LOCATION_TYPES, type) ?? sentenceCase(type).toLowerCase()).join(' or ');
  return sentenceCase(phrase);
}

function locationChildren(geo: JsonObject): string[] {
  const places = placesOf(geo);
  return places.length > 0 ? [`${whoIsIn(geo)}: ${places.join(', ')}`] : [];
}

function ageChild(targeting: JsonObject): string {
  const min = typeof targeting.age_min === 'number' && Number.isInteger(targeting.age_min) ? targeting.age_min : DEFAULT_AGE_MIN;
  const max = targeting.age_max;
  const shownMax = typeof max === 'number' && Number.isInteger(max) && max < OPEN_AGE_MAX ? String(max) : `${OPEN_AGE_MAX}+`;
  return `${min} - ${shownMax}`;
}

function genderChild(genders: number[]): string {
  const men = genders.includes(1);
  const women = genders.includes(2);
  return men && !women ? 'Men' : women && !men ? 'Women' : 'All';
}

function audienceNames(value: unknown, names: TargetingNames): string[] {
  if (!Array.isArray(value)) return [];
  const shown: string[] = [];
  for (const entry of value) {
    const id = entityIdOf(entry);
    if (id === null) continue;
    shown.push(names.audiences.get(id) ?? nonEmptyString(asObject(entry)?.name) ?? `audience ${id}`);
  }
  return shown;
}

/** The items of one kind of a detailed-targeting group, as names. */
function detailedItems(key: string, value: unknown, names: TargetingNames): string[] {
  if (key === 'custom_audiences') return audienceNames(value, names);
  if (key === 'relationship_statuses') return codesOf(value).map((code) => RELATIONSHIP_STATUSES[code] ?? `status ${code}`);
  if (key === 'education_statuses') return codesOf(value).map((code) => EDUCATION_STATUSES[code] ?? `status ${code}`);
  if (!isDetailedKind(key)) {
    // A key the gateway does not name: shown as stored, entry by entry.
    const entries = Array.isArray(value) ? value.map(entryText) : [rawText(value)];
    return entries.filter((s): s is string => s !== null);
  }
  if (!Array.isArray(value)) return [];
  const noun = DETAILED_KINDS[key].noun;
  const items: string[] = [];
  for (const entry of value) {
    const name = nonEmptyString(asObject(entry)?.name);
    const id = entityIdOf(entry);
    if (name !== null) items.push(name);
    else if (id !== null) items.push(`${noun} ${id}`);
  }
  return items;
}

/** One group, `Interests: Hiking or Camping, Behaviors: Frequent travelers`; null when it names nothing. */
function groupSentence(group: JsonObject, names: TargetingNames, keys: readonly string[]): string | null {
  const known = DETAILED_TARGETING_KEYS.filter((key) => keys.includes(key));
  const unknown = keys.filter((key) => !isDetailedKind(key));
  const parts: string[] = [];
  for (const key of [...known, ...unknown]) {
    const items = detailedItems(key, group[key], names);
    if (items.length === 0) continue;
    const label = isDetailedKind(key) ? DETAILED_KINDS[key].label : sentenceCase(key);
    parts.push(`${label}: ${items.join(' or ')}`);
  }
  return parts.length > 0 ? parts.join(', ') : null;
}

function peopleWhoMatch(targeting: JsonObject, names: TargetingNames): string[] {
  const topLevelKeys = DETAILED_TARGETING_KEYS.filter((key) => !OWN_LINE_KEYS.includes(key));
  const sentences = [groupSentence(targeting, names, topLevelKeys)];
  if (Array.isArray(targeting.flexible_spec)) {
    for (const entry of targeting.flexible_spec) {
      const group = asObject(entry);
      if (group) sentences.push(groupSentence(group, names, Object.keys(group)));
    }
  }
  return sentences.filter((s): s is string => s !== null);
}

function positionsText(positions: string[]): string {
  return positions.map((position) => lookUp(POSITION_NAMES, position) ?? sentenceCase(position)).join(', ');
}

function placementChildren(targeting: JsonObject): string[] {
  const platforms = [...new Set(stringsOf(targeting.publisher_platforms))];
  const positionsOf = (platform: string) => {
    const key = lookUp(PLATFORMS, platform)?.positionsKey;
    return key === undefined ? [] : stringsOf(targeting[key]);
  };
  const platformName = (platform: string) => lookUp(PLATFORMS, platform)?.name ?? sentenceCase(platform);
  const withPositions = Object.keys(PLATFORMS).filter((platform) => positionsOf(platform).length > 0);
  const pageTypes = stringsOf(targeting.page_types);
  if (platforms.length === 0 && withPositions.length === 0 && pageTypes.length === 0) return [ADVANTAGE_PLACEMENTS];

  const children: string[] = [];
  if (platforms.length === 0) {
    children.push('All platforms');
    for (const platform of withPositions) children.push(`${platformName(platform)}: ${positionsText(positionsOf(platform))}`);
  } else {
    for (const platform of platforms) {
      const positions = positionsOf(platform);
      children.push(`${platformName(platform)}: ${positions.length > 0 ? positionsText(positions) : 'all positions'}`);
    }
    for (const platform of withPositions.filter((p) => !platforms.includes(p))) {
      children.push(`${platformName(platform)} (platform not selected): ${positionsText(positionsOf(platform))}`);
    }
  }
  if (pageTypes.length > 0) children.push(`Page types: ${pageTypes.map((type) => lookUp(PAGE_TYPE_NAMES, type) ?? sentenceCase(type)).join(', ')}`);
  return children;
}

function osName(value: string): string {
  const version = /^(.+?)_ver_(.+)$/i.exec(value);
  const base = version?.[1] ?? value;
  const name = lookUp(OS_NAMES, base.toLowerCase()) ?? base.replace(/_/g, ' ');
  return version?.[2] === undefined ? name : `${name} ${version[2].replace(/_/g, ' ')}`;
}

export function targetingSentences(targeting: unknown, names: TargetingNames): TargetingSentenceLine[] {
  const t = asObject(targeting) ?? {};
  const lines: TargetingSentenceLine[] = [];
  const add = (content: string, children: string[]) => {
    if (children.length > 0) lines.push({ content, children });
  };
  const joined = (items: string[]) => (items.length > 0 ? [items.join(', ')] : []);

  const included = locationChildren(asObject(t.geo_locations) ?? {});
  add('Location:', included.length > 0 ? included : ['No location chosen']);
  add('Excluded location:', locationChildren(asObject(t.excluded_geo_locations) ?? {}));
  add('Age:', [ageChild(t)]);
  if (Array.isArray(t.genders)) add('Gender:', [genderChild(codesOf(t.genders))]);
  add('Language:', joined(codesOf(t.locales).map((key) => LOCALE_NAMES[key] ?? `locale ${key}`)));
  add('Custom audience:', joined(audienceNames(t.custom_audiences, names)));
  add('Excluded custom audience:', joined(audienceNames(t.excluded_custom_audiences, names)));
  add('People who match:', peopleWhoMatch(t, names));
  const exclusions = asObject(t.exclusions);
  const excluded = exclusions ? groupSentence(exclusions, names, Object.keys(exclusions)) : null;
  add('Exclude:', excluded === null ? [] : [excluded]);
  add('Relationship status:', joined(detailedItems('relationship_statuses', t.relationship_statuses, names)));
  add('Education:', joined(detailedItems('education_statuses', t.education_statuses, names)));
  add('Placements:', placementChildren(t));
  add('Devices:', joined(stringsOf(t.device_platforms).map(sentenceCase)));
  add('Operating systems:', joined(stringsOf(t.user_os).map(osName)));

  const others: string[] = [];
  for (const [key, value] of Object.entries(t)) {
    if ((TARGETING_KEYS as readonly string[]).includes(key)) continue;
    const text = rawText(value);
    if (text !== null) others.push(`${sentenceCase(key)}: ${text}`);
  }
  add('Other targeting:', others);
  return lines;
}

/**
 * Every custom audience id the targeting names (custom_audiences and excluded_custom_audiences, also inside
 * flexible_spec and exclusions, whose entries are {id, name?}), once each, for the caller to look up.
 */
export function audienceIdsNamed(targeting: unknown): string[] {
  const t = asObject(targeting);
  if (!t) return [];
  const holders = [t, ...(Array.isArray(t.flexible_spec) ? t.flexible_spec : []), t.exclusions];
  const ids = new Set<string>();
  for (const holder of holders) {
    const object = asObject(holder);
    if (!object) continue;
    for (const key of ['custom_audiences', 'excluded_custom_audiences']) {
      const entries = object[key];
      if (!Array.isArray(entries)) continue;
      for (const entry of entries) {
        const id = entityIdOf(entry);
        if (id !== null) ids.add(id);
      }
    }
  }
  return [...ids];
}
