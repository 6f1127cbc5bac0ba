import { COUNTRY_CODES } from './enums.ts';
import { violation, type Violation } from './violations.ts';
import { audienceIdsOf, type AudienceFacts } from './restrictions.ts';

/**
 * Targeting rules: the geo locations every ad set needs, locations no ad may reach (2641), what special ad
 * categories forbid, and locale targeting of a promoted page post.
 */

/** Locations under comprehensive sanctions: an ad may neither include nor exclude them (error 2641). */
export const RESTRICTED_LOCATIONS = ['CU', 'IR', 'KP', 'SY'] as const;
export const RESTRICTED_LOCATIONS_CODE = 2641;

/** Special ad categories that restrict targeting (housing, employment, credit, and financial products). */
export const RESTRICTING_CATEGORIES = ['HOUSING', 'EMPLOYMENT', 'CREDIT', 'FINANCIAL_PRODUCTS_SERVICES'] as const;

type Targeting = Record<string, unknown>;

const asObject = (value: unknown): Record<string, unknown> | null =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;

/** targeting.geo_locations.countries: required, a non-empty list of ISO codes, none restricted. */
export function geoViolations(targeting: unknown): Violation[] {
  const geo = asObject(asObject(targeting)?.geo_locations);
  if (!geo) {
    return [
      violation(
        'targeting.geo_locations',
        'The parameter targeting.geo_locations is required: name the countries to reach in targeting.geo_locations.countries',
        {
          userTitle: 'Location required',
          userMessage: 'Choose at least one country to show your ads in.',
        },
      ),
    ];
  }
  const countries = geo.countries;
  if (!Array.isArray(countries) || countries.length === 0) {
    return [
      violation('targeting.geo_locations.countries', 'The parameter targeting.geo_locations.countries is required (a list of ISO 3166-1 alpha-2 codes)', {
        userTitle: 'Location required',
        userMessage: 'Choose at least one country to show your ads in.',
      }),
    ];
  }
  const bad = countries.findIndex((c) => typeof c !== 'string' || !COUNTRY_CODES.has(c));
  if (bad >= 0) {
    return [
      violation(
        'targeting.geo_locations.countries',
        `Param targeting.geo_locations.countries[${bad}] must be an ISO 3166-1 alpha-2 country code in upper case, got ${JSON.stringify(countries[bad])}`,
      ),
    ];
  }
  const excluded = asObject(asObject(targeting)?.excluded_geo_locations)?.countries;
  const named = [...countries, ...(Array.isArray(excluded) ? excluded : [])].filter((c): c is string => typeof c === 'string');
  const restricted = [...new Set(named.filter((c) => (RESTRICTED_LOCATIONS as readonly string[]).includes(c)))];
  if (restricted.length > 0) {
    return [
      violation('targeting.geo_locations.countries', `Your ad includes or excludes locations that are restricted: ${restricted.join(', ')}`, {
        code: RESTRICTED_LOCATIONS_CODE,
        userTitle: 'Restricted locations',
        userMessage: `Ads cannot include or exclude ${restricted.join(', ')}. Remove ${restricted.length > 1 ? 'these locations' : 'this location'} from the targeting.`,
      }),
    ];
  }
  return [];
}

/**
 * Campaigns in housing, employment, credit or financial products: no age limits other than 18-65, no gender,
 * no postal codes, no excluded audiences or exclusions by detailed targeting, no lookalike audiences
 * (the platform's "special ad category" restrictions).
 */
export function specialCategoryViolations(targeting: unknown, categories: readonly string[], audiences: ReadonlyMap<string, AudienceFacts>): Violation[] {
  const restricting = categories.filter((c) => (RESTRICTING_CATEGORIES as readonly string[]).includes(c));
  if (restricting.length === 0) return [];
  const t = asObject(targeting) ?? {};
  const out: Violation[] = [];
  const because = `the campaign's special ad category ${restricting.join(', ')}`;
  /** `what` completes "Ads about housing cannot …". */
  const refuse = (field: string, what: string) =>
    out.push(
      violation(field, `Param ${field} cannot be used under ${because}: ads in it cannot ${what}`, {
        userTitle: 'Targeting not available for this category',
        userMessage: `Ads about ${restricting.map((c) => c.toLowerCase().replace(/_/g, ' ')).join(', ')} cannot ${what}. Remove this targeting option.`,
      }),
    );
  if (t.age_min !== undefined && Number(t.age_min) !== 18) refuse('targeting.age_min', 'raise the minimum age above 18');
  if (t.age_max !== undefined && Number(t.age_max) !== 65) refuse('targeting.age_max', 'lower the maximum age below 65');
  if (Array.isArray(t.genders) && t.genders.length > 0 && !(t.genders.length === 2)) refuse('targeting.genders', 'target by gender');
  const geo = asObject(t.geo_locations) ?? {};
  if (Array.isArray(geo.zips) && geo.zips.length > 0) refuse('targeting.geo_locations.zips', 'target by postal code');
  if (Array.isArray(t.excluded_custom_audiences) && t.excluded_custom_audiences.length > 0) refuse('targeting.excluded_custom_audiences', 'exclude audiences');
  if (t.exclusions !== undefined) refuse('targeting.exclusions', 'exclude people by detailed targeting');
  for (const key of ['income', 'life_events', 'family_statuses', 'relationship_statuses', 'industries', 'education_statuses', 'work_positions'] as const) {
    if (t[key] !== undefined) refuse(`targeting.${key}`, 'target by demographics');
  }
  const lookalikes = audienceIdsOf(targeting).filter((id) => audiences.get(id)?.subtype === 'LOOKALIKE');
  if (lookalikes.length > 0) refuse('targeting.custom_audiences', `use lookalike audiences (${lookalikes.join(', ')})`);
  return out;
}

/** targeting.locales as numbers (the platform's locale keys). */
export function localesOf(targeting: unknown): number[] | null {
  const locales = asObject(targeting)?.locales;
  if (!Array.isArray(locales)) return null;
  return locales.map(Number);
}

/**
 * An ad set promoting a page post that was targeted by locale targets the same locales or a subset
 * (promoted_object.object_story_id names the post).
 */
export function promotedPostLocaleViolations(targeting: unknown, postLocales: readonly number[] | null): Violation[] {
  if (!postLocales || postLocales.length === 0) return [];
  const locales = localesOf(targeting);
  const outside = locales === null || locales.length === 0 ? null : locales.filter((l) => !postLocales.includes(l));
  if (outside !== null && outside.length === 0) return [];
  const allowed = `{${postLocales.join(', ')}}`;
  return [
    violation(
      'targeting.locales',
      outside === null
        ? `The promoted post is targeted to locales ${allowed}: targeting.locales must name the same locales or a subset`
        : `The promoted post is targeted to locales ${allowed}: targeting.locales may not add ${outside.join(', ')}`,
      {
        userTitle: 'Locales must match the post',
        userMessage: `The post you promote is shown only in some languages. Target the same locales (${postLocales.join(', ')}) or fewer.`,
      },
    ),
  ];
}

/** Shape checks of the keys the specification names (lists where lists are expected). */
export function targetingShapeViolations(targeting: unknown): Violation[] {
  const t: Targeting = asObject(targeting) ?? {};
  const out: Violation[] = [];
  for (const key of [
    'facebook_positions',
    'publisher_platforms',
    'device_platforms',
    'user_os',
    'page_types',
    'locales',
    'genders',
    'custom_audiences',
    'excluded_custom_audiences',
    'flexible_spec',
  ] as const) {
    if (t[key] !== undefined && !Array.isArray(t[key])) out.push(violation(`targeting.${key}`, `Param targeting.${key} must be an array`));
  }
  for (const key of ['age_min', 'age_max'] as const) {
    const value = t[key];
    if (value !== undefined && (typeof value !== 'number' || !Number.isInteger(value) || value < 13 || value > 65)) {
      out.push(violation(`targeting.${key}`, `Param targeting.${key} must be an integer from 13 to 65`));
    }
  }
  if (typeof t.age_min === 'number' && typeof t.age_max === 'number' && t.age_min > t.age_max) {
    out.push(violation('targeting.age_max', 'Param targeting.age_max must not be below targeting.age_min'));
  }
  if (Array.isArray(t.locales) && t.locales.some((l) => !Number.isInteger(Number(l)) || typeof l === 'boolean')) {
    out.push(violation('targeting.locales', 'Param targeting.locales must be a list of locale keys (integers)'));
  }
  return out;
}
