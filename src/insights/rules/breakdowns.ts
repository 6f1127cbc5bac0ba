import { COUNTRY_CODES } from '../../ads/rules/enums.ts';
import { badInput } from '../../errors/index.ts';
import { BREAKDOWNS, type Breakdown } from '../query.ts';

/**
 * Breakdown families (issue 19's shared design). Facts are kept per family: every delivered cell is counted once
 * in each family, with that family's columns holding its values and the other breakdown columns ''. A report's
 * breakdowns pick the family that holds them all and sum (counts) or merge (sketches) over its other columns.
 */
export const BREAKDOWN_FAMILIES = {
  '': [],
  'age,gender': ['age', 'gender'],
  country: ['country'],
  'publisher_platform,platform_position,device_platform': ['publisher_platform', 'platform_position', 'device_platform'],
} as const satisfies Record<string, readonly Breakdown[]>;
export type BreakdownFamily = keyof typeof BREAKDOWN_FAMILIES;
export const FAMILY_NAMES = Object.keys(BREAKDOWN_FAMILIES) as BreakdownFamily[];

/**
 * The breakdown combinations a report may ask for (comma-joined in this order), each with the family serving it.
 * Placement breakdowns need publisher_platform beside platform_position (a position is a position of one
 * platform); device_platform combines with publisher_platform, with both placement columns, or stands alone.
 */
export const SERVED_BREAKDOWNS: Readonly<Record<string, BreakdownFamily>> = {
  age: 'age,gender',
  gender: 'age,gender',
  'age,gender': 'age,gender',
  country: 'country',
  publisher_platform: 'publisher_platform,platform_position,device_platform',
  'publisher_platform,platform_position': 'publisher_platform,platform_position,device_platform',
  'publisher_platform,platform_position,device_platform': 'publisher_platform,platform_position,device_platform',
  device_platform: 'publisher_platform,platform_position,device_platform',
  'publisher_platform,device_platform': 'publisher_platform,platform_position,device_platform',
};

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

/** The values each breakdown takes (country: ISO 3166-1 alpha-2, upper case). */
export const BREAKDOWN_VALUES: Readonly<Record<Breakdown, ReadonlySet<string>>> = {
  age: new Set(AGE_BRACKETS),
  gender: new Set(GENDERS),
  country: COUNTRY_CODES,
  publisher_platform: new Set(PUBLISHER_PLATFORMS),
  platform_position: new Set(PLATFORM_POSITIONS),
  device_platform: new Set(DEVICE_PLATFORMS),
};

export interface BreakdownSelection {
  family: BreakdownFamily;
  /** The breakdowns asked for, in the family's column order (rows carry these values). */
  breakdowns: readonly Breakdown[];
}

const ORDER = BREAKDOWNS as readonly string[];
const inOrder = (breakdowns: readonly string[]) => [...breakdowns].sort((a, b) => ORDER.indexOf(a) - ORDER.indexOf(b));

/** The family that serves these breakdowns (in any order), or error 100 naming `breakdowns`. */
export function familyFor(breakdowns: readonly string[]): BreakdownSelection {
  for (const breakdown of breakdowns) {
    if (!ORDER.includes(breakdown)) {
      throw badInput('breakdowns', `Param breakdowns[] must be one of {${BREAKDOWNS.join(', ')}}: ${breakdown} is not a breakdown.`);
    }
  }
  if (new Set(breakdowns).size !== breakdowns.length) throw badInput('breakdowns', 'Param breakdowns names a breakdown twice.');
  const ordered = inOrder(breakdowns);
  const family = breakdowns.length === 0 ? '' : SERVED_BREAKDOWNS[ordered.join(',')];
  if (family === undefined) {
    const allowed = Object.keys(SERVED_BREAKDOWNS).map((combination) => `[${combination.split(',').join(', ')}]`);
    throw badInput('breakdowns', `Current combination of data breakdown columns (${breakdowns.join(', ')}) is invalid. Allowed: ${allowed.join(', ')}.`);
  }
  return { family, breakdowns: ordered as Breakdown[] };
}
