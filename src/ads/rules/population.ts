import { COUNTRY_CODES } from './enums.ts';

/**
 * The population model behind delivery estimates (delivery-estimate.ts): how many people a place holds and
 * which share of them an age range, a gender, a platform or a device keeps. Pure tables and functions.
 *
 * These are the model's rounded magnitudes, NOT the platform's data: the gateway has no access to the
 * platform's audience graph, so it answers with numbers of the right order that narrow the way the platform's
 * do, and every estimate is a range. Choices:
 * - People are "monthly active people aged 13 and over" per country, rounded to two significant digits or so,
 *   for the largest markets; every other ISO code counts DEFAULT_MONTHLY_ACTIVE_PEOPLE. A string that is not an
 *   ISO code (COUNTRY_CODES) counts no one.
 * - Age, gender, platform and device shares are the same in every country (one table, not one per market).
 * - Regions, cities and zips have fixed sizes, whatever the place: the model has no gazetteer.
 * - Country groups are the union of their member countries where membership is a matter of record (the EEA,
 *   the GCC, UN M49's Europe and South America); other groups count DEFAULT_MONTHLY_ACTIVE_PEOPLE.
 */

/** Monthly active people (13+) per country: the model's rounded magnitudes. */
export const MONTHLY_ACTIVE_PEOPLE: Readonly<Record<string, number>> = {
  IN: 380_000_000,
  US: 240_000_000,
  ID: 150_000_000,
  BR: 140_000_000,
  MX: 95_000_000,
  PH: 90_000_000,
  VN: 75_000_000,
  TH: 55_000_000,
  BD: 55_000_000,
  EG: 50_000_000,
  PK: 50_000_000,
  TR: 45_000_000,
  GB: 45_000_000,
  CO: 40_000_000,
  FR: 40_000_000,
  DE: 35_000_000,
  IT: 35_000_000,
  NG: 35_000_000,
  AR: 30_000_000,
  ES: 30_000_000,
  CA: 30_000_000,
  JP: 30_000_000,
  MY: 25_000_000,
  SA: 25_000_000,
  PE: 25_000_000,
  ZA: 25_000_000,
  DZ: 25_000_000,
  IQ: 25_000_000,
  PL: 22_000_000,
  MA: 22_000_000,
  AU: 20_000_000,
  UA: 20_000_000,
  KR: 15_000_000,
  KE: 15_000_000,
  CL: 15_000_000,
  NL: 13_000_000,
  RO: 11_000_000,
  AE: 9_000_000,
  BE: 8_000_000,
  SE: 8_000_000,
  PT: 8_000_000,
  GR: 7_000_000,
  CZ: 7_000_000,
  IL: 7_000_000,
  AT: 6_000_000,
  CH: 5_000_000,
  DK: 4_500_000,
  SG: 4_500_000,
  IE: 4_000_000,
  NO: 4_000_000,
  FI: 4_000_000,
  NZ: 4_000_000,
};

/** Every ISO country code missing from MONTHLY_ACTIVE_PEOPLE: the order of a smaller market. */
export const DEFAULT_MONTHLY_ACTIVE_PEOPLE = 1_500_000;

/** The people of one country code; 0 for a string that is no ISO code (stored data may hold anything). */
export function countryPeople(code: string): number {
  if (Object.hasOwn(MONTHLY_ACTIVE_PEOPLE, code)) return MONTHLY_ACTIVE_PEOPLE[code] ?? 0;
  return COUNTRY_CODES.has(code) ? DEFAULT_MONTHLY_ACTIVE_PEOPLE : 0;
}

/**
 * Age brackets (the platform's reporting brackets) and their share of the people; they sum to 1. Within a
 * bracket people are spread evenly by year of age; 65+ is one bracket, reached whole by age_max 65.
 */
export const AGE_BRACKETS: ReadonlyArray<{ from: number; to: number; share: number }> = [
  { from: 13, to: 17, share: 0.05 },
  { from: 18, to: 24, share: 0.2 },
  { from: 25, to: 34, share: 0.25 },
  { from: 35, to: 44, share: 0.19 },
  { from: 45, to: 54, share: 0.14 },
  { from: 55, to: 64, share: 0.1 },
  { from: 65, to: 65, share: 0.07 },
];
export const MIN_AGE = 13;
/** age_max 65 means "65 and over", as on the platform. */
export const OPEN_AGE_MAX = 65;
export const DEFAULT_AGE_MIN = 18;

/** The share of people aged ageMin to ageMax (clamped to 13-65); 0 when ageMin is above ageMax. */
export function ageShare(ageMin: number = DEFAULT_AGE_MIN, ageMax: number = OPEN_AGE_MAX): number {
  const clamp = (age: number) => Math.min(OPEN_AGE_MAX, Math.max(MIN_AGE, Math.floor(age)));
  const min = clamp(Number.isFinite(ageMin) ? ageMin : DEFAULT_AGE_MIN);
  const max = clamp(Number.isFinite(ageMax) ? ageMax : OPEN_AGE_MAX);
  let share = 0;
  for (const bracket of AGE_BRACKETS) {
    const years = Math.min(max, bracket.to) - Math.max(min, bracket.from) + 1;
    if (years > 0) share += (bracket.share * years) / (bracket.to - bracket.from + 1);
  }
  return share;
}

/** targeting.genders codes: 1 men, 2 women. */
export const GENDER_SHARES: Readonly<Record<number, number>> = { 1: 0.52, 2: 0.48 };

/** One gender named keeps its share; none, both or only unknown codes keep everyone. */
export function genderShare(genders: readonly number[]): number {
  const known = [...new Set(genders.filter((g) => Object.hasOwn(GENDER_SHARES, g)))];
  return known.length === 1 ? (GENDER_SHARES[known[0] as number] ?? 1) : 1;
}

/** The share of people each publisher platform reaches on its own. */
export const PLATFORM_SHARES: Readonly<Record<string, number>> = {
  facebook: 0.85,
  instagram: 0.6,
  messenger: 0.5,
  audience_network: 0.4,
  threads: 0.15,
};

/**
 * A set of platforms reaches anyone on any of them, each platform's use taken as independent:
 * 1 − Π(1 − share). None named (Advantage+ placements) or every one named is everyone: 1. Unknown names are skipped.
 */
export function platformShare(platforms: readonly string[]): number {
  const known = [...new Set(platforms.filter((p) => Object.hasOwn(PLATFORM_SHARES, p)))];
  if (known.length === 0 || known.length === Object.keys(PLATFORM_SHARES).length) return 1;
  return 1 - known.reduce((missed, p) => missed * (1 - (PLATFORM_SHARES[p] ?? 0)), 1);
}

/** device_platforms: the share of people using each. */
export const DEVICE_SHARES: Readonly<Record<string, number>> = { mobile: 0.97, desktop: 0.35 };

/** One device named keeps its share; none, both or only unknown names keep everyone. */
export function deviceShare(devices: readonly string[]): number {
  const known = [...new Set(devices.filter((d) => Object.hasOwn(DEVICE_SHARES, d)))];
  return known.length === 1 ? (DEVICE_SHARES[known[0] as string] ?? 1) : 1;
}

/** geo_locations.regions: any region (state, province). */
export const REGION_PEOPLE = 5_000_000;
/** geo_locations.cities at the reference radius. */
export const CITY_PEOPLE = 1_000_000;
export const CITY_REFERENCE_RADIUS_KM = 25;
/** A wider radius reaches more people, but never more than four cities' worth (suburbs thin out). */
export const CITY_MAX_SCALE = 4;
/** geo_locations.zips: any postal code. */
export const ZIP_PEOPLE = 30_000;
export const KM_PER_MILE = 1.609344;

/** A city's people within radiusKm (null: the reference radius), scaled by the area: (radius / 25 km)², at most 4. */
export function cityPeople(radiusKm: number | null): number {
  if (radiusKm === null || !Number.isFinite(radiusKm) || radiusKm <= 0) return CITY_PEOPLE;
  return CITY_PEOPLE * Math.min(CITY_MAX_SCALE, (radiusKm / CITY_REFERENCE_RADIUS_KM) ** 2);
}

const EU = 'AT BE BG HR CY CZ DK EE FI FR DE GR HU IE IT LV LT LU MT NL PL PT RO SK SI ES SE';
/**
 * Country groups whose members are a matter of record: the European Economic Area (the EU's 27 with Iceland,
 * Liechtenstein and Norway), the Gulf Cooperation Council, and UN M49's Europe and South America.
 */
export const COUNTRY_GROUP_MEMBERS: Readonly<Record<string, readonly string[]>> = {
  eea: `${EU} IS LI NO`.split(' '),
  europe: (
    'BY BG CZ HU PL MD RO RU SK UA AX DK EE FO FI GG IS IE IM JE LV LT NO SJ SE GB AL AD BA HR GI GR VA IT MT ME MK PT SM RS SI ES ' +
    'AT BE FR DE LI LU MC NL CH'
  ).split(' '),
  gcc: ['AE', 'BH', 'KW', 'OM', 'QA', 'SA'],
  south_america: ['AR', 'BO', 'BR', 'CL', 'CO', 'EC', 'FK', 'GF', 'GY', 'PY', 'PE', 'SR', 'UY', 'VE', 'GS', 'BV'],
};
export const WORLDWIDE = 'worldwide';

/** The countries of a group (worldwide: every ISO code); null for a group the model does not break down. */
export function countryGroupMembers(group: string): readonly string[] | null {
  if (group === WORLDWIDE) return [...COUNTRY_CODES];
  return Object.hasOwn(COUNTRY_GROUP_MEMBERS, group) ? (COUNTRY_GROUP_MEMBERS[group] ?? null) : null;
}
