import { badInput } from '../../errors/index.ts';
import { BREAKDOWNS, type Breakdown } from '../query.ts';

/**
 * Breakdown families: facts are kept per family (insight_facts.family), every event counted once in each, and a
 * report's breakdowns pick the family holding them all, summing and merging over the family's other columns.
 * The key of a family is its columns joined by commas ('' for no breakdown).
 */
export const BREAKDOWN_FAMILIES = {
  '': [],
  'age,gender': ['age', 'gender'],
  country: ['country'],
  'publisher_platform,platform_position,device_platform': ['publisher_platform', 'platform_position', 'device_platform'],
} as const satisfies Record<string, readonly Breakdown[]>;
export type BreakdownFamily = keyof typeof BREAKDOWN_FAMILIES;

/**
 * The combinations the platform allows, each as its columns in the family's order. Placement breakdowns need
 * publisher_platform beside platform_position (a position is a position of one platform); device_platform
 * combines with publisher_platform, with both placement columns, or stands alone.
 */
const ALLOWED_COMBINATIONS: ReadonlyArray<{ family: BreakdownFamily; breakdowns: readonly Breakdown[] }> = [
  { family: '', breakdowns: [] },
  { family: 'age,gender', breakdowns: ['age'] },
  { family: 'age,gender', breakdowns: ['gender'] },
  { family: 'age,gender', breakdowns: ['age', 'gender'] },
  { family: 'country', breakdowns: ['country'] },
  { family: 'publisher_platform,platform_position,device_platform', breakdowns: ['publisher_platform'] },
  { family: 'publisher_platform,platform_position,device_platform', breakdowns: ['publisher_platform', 'platform_position'] },
  { family: 'publisher_platform,platform_position,device_platform', breakdowns: ['publisher_platform', 'platform_position', 'device_platform'] },
  { family: 'publisher_platform,platform_position,device_platform', breakdowns: ['device_platform'] },
  { family: 'publisher_platform,platform_position,device_platform', breakdowns: ['publisher_platform', 'device_platform'] },
];

const keyOf = (breakdowns: readonly string[]) => [...breakdowns].sort().join(',');
const BY_KEY = new Map(ALLOWED_COMBINATIONS.map((combination) => [keyOf(combination.breakdowns), combination]));

export const AGE_BRACKETS = ['13-17', '18-24', '25-34', '35-44', '45-54', '55-64', '65+'] as const;
export const GENDERS = ['male', 'female', 'unknown'] as const;
export const PUBLISHER_PLATFORMS = ['facebook', 'instagram', 'audience_network', 'messenger', 'threads'] as const;
export const PLATFORM_POSITIONS = [
  'feed',
  'right_hand_column',
  'marketplace',
  'video_feeds',
  'story',
  'search',
  'instream_video',
  'facebook_reels',
  'facebook_reels_overlay',
  'profile_feed',
  'notification',
  'instagram_explore',
  'instagram_explore_grid_home',
  'instagram_stories',
  'instagram_reels',
  'instagram_profile_feed',
  'instagram_search',
  'messenger_inbox',
  'messenger_stories',
  'an_classic',
  'rewarded_video',
  'threads_feed',
] as const;
export const DEVICE_PLATFORMS = ['mobile', 'desktop'] as const;

/** ISO 3166-1 alpha-2 shape (two capital letters); the intake checks the code itself. */
export const isCountryCode = (value: string) => /^[A-Z]{2}$/.test(value);

/** The values each breakdown column may hold (country: any ISO 3166-1 alpha-2 code, see isCountryCode). */
export const BREAKDOWN_VALUES: Record<Exclude<Breakdown, 'country'>, readonly string[]> = {
  age: AGE_BRACKETS,
  gender: GENDERS,
  publisher_platform: PUBLISHER_PLATFORMS,
  platform_position: PLATFORM_POSITIONS,
  device_platform: DEVICE_PLATFORMS,
};

export interface BreakdownSelection {
  family: BreakdownFamily;
  /** The breakdowns asked for, in the family's column order (rows carry these values). */
  breakdowns: readonly Breakdown[];
}

/** The family that serves these breakdowns, or error 100 naming `breakdowns`. */
export function familyFor(breakdowns: readonly string[]): BreakdownSelection {
  for (const breakdown of breakdowns) {
    if (!(BREAKDOWNS as readonly string[]).includes(breakdown)) {
      throw badInput('breakdowns', `Param breakdowns[] must be one of {${BREAKDOWNS.join(', ')}}: ${breakdown} is not a breakdown.`);
    }
  }
  if (new Set(breakdowns).size !== breakdowns.length) throw badInput('breakdowns', 'Param breakdowns names a breakdown twice.');
  const combination = BY_KEY.get(keyOf(breakdowns));
  if (!combination) {
    const allowed = ALLOWED_COMBINATIONS.filter((c) => c.breakdowns.length > 0).map((c) => `[${c.breakdowns.join(', ')}]`);
    throw badInput('breakdowns', `Current combination of data breakdown columns (${breakdowns.join(', ')}) is invalid. Allowed: ${allowed.join(', ')}.`);
  }
  return combination;
}
