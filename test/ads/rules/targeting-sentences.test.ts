import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  audienceIdsNamed,
  DETAILED_TARGETING_KEYS,
  GEO_LOCATION_KEYS,
  TARGETING_KEYS,
  targetingSentences,
  type TargetingNames,
} from '../../../src/ads/rules/targeting-sentences.ts';

const NO_NAMES: TargetingNames = { audiences: new Map() };
const US = { geo_locations: { countries: ['US'] } };
const ADVANTAGE = { content: 'Placements:', children: ['Advantage+ placements (all platforms and positions)'] };
/** The lines of a targeting as [heading, children] pairs, easier to read in a failure. */
const linesOf = (targeting: unknown, names: TargetingNames = NO_NAMES) => targetingSentences(targeting, names).map((l) => [l.content, l.children]);
const lineOf = (targeting: unknown, heading: string, names: TargetingNames = NO_NAMES) =>
  targetingSentences(targeting, names).find((l) => l.content === heading)?.children;

const FULL = {
  geo_locations: {
    countries: ['FR', 'DE'],
    country_groups: ['europe'],
    regions: [{ key: '3847', name: 'California' }],
    cities: [{ key: '2420605', name: 'Paris', radius: 10, distance_unit: 'kilometer' }],
    zips: [{ key: 'US:94304' }],
    location_types: ['home', 'recent'],
  },
  excluded_geo_locations: { cities: [{ key: '2418956', name: 'Lyon', radius: 5, distance_unit: 'mile' }], location_types: ['home'] },
  age_min: 25,
  age_max: 54,
  genders: [1],
  locales: [6, 24, 9999],
  custom_audiences: [{ id: '123' }, { id: '124', name: 'Own name' }, { id: '125' }],
  excluded_custom_audiences: [{ id: '456', name: 'Buyers' }],
  flexible_spec: [
    {
      interests: [
        { id: '6003', name: 'Hiking' },
        { id: '6004', name: 'Camping' },
      ],
      behaviors: [{ id: '7001', name: 'Frequent travelers' }],
    },
    { life_events: [{ id: '8001', name: 'Recently moved' }], custom_audiences: [{ id: '127' }], relationship_statuses: [4] },
  ],
  exclusions: { interests: [{ id: '6010', name: 'Golf' }], education_statuses: [9] },
  interests: [{ id: '6020', name: 'Cooking' }],
  behaviors: [{ id: '7020' }],
  life_events: [{ id: '8020', name: 'New job' }],
  industries: [{ id: '9020', name: 'Accounting' }],
  income: [{ id: '9030', name: 'Top 10%' }],
  family_statuses: [{ id: '9040', name: 'Parents' }],
  work_positions: [{ id: '9050', name: 'Engineer' }],
  relationship_statuses: [1, 3, 5],
  education_statuses: [2, 99],
  publisher_platforms: ['facebook', 'instagram', 'audience_network', 'messenger', 'threads'],
  facebook_positions: ['feed', 'story', 'facebook_reels', 'marketplace', 'right_hand_column', 'video_feeds', 'search', 'groups_feed'],
  instagram_positions: ['stream', 'story', 'explore', 'reels'],
  audience_network_positions: ['classic', 'rewarded_video'],
  messenger_positions: ['messenger_home', 'story'],
  device_platforms: ['mobile', 'desktop'],
  user_os: ['iOS', 'Android_ver_8.0_and_above'],
  page_types: ['desktopfeed', 'rightcolumn'],
};

describe('targetingSentences', () => {
  it('phrases every key of a full targeting, in order', () => {
    const names: TargetingNames = { audiences: new Map([['123', 'Site visitors']]) };
    expect(targetingSentences(FULL, names)).toEqual([
      { content: 'Location:', children: ['Living in or recently in: Europe, France, Germany, California, Paris (+10 km), US:94304'] },
      { content: 'Excluded location:', children: ['Living in: Lyon (+5 mi)'] },
      { content: 'Age:', children: ['25 - 54'] },
      { content: 'Gender:', children: ['Men'] },
      { content: 'Language:', children: ['English (US), English (UK), locale 9999'] },
      { content: 'Custom audience:', children: ['Site visitors, Own name, audience 125'] },
      { content: 'Excluded custom audience:', children: ['Buyers'] },
      {
        content: 'People who match:',
        children: [
          'Interests: Cooking, Behaviors: behavior 7020, Life events: New job, Industries: Accounting, Income: Top 10%, Family statuses: Parents, Job titles: Engineer',
          'Interests: Hiking or Camping, Behaviors: Frequent travelers',
          'Life events: Recently moved, Custom audiences: audience 127, Relationship status: Engaged',
        ],
      },
      { content: 'Exclude:', children: ["Interests: Golf, Education: Master's degree"] },
      { content: 'Relationship status:', children: ['Single, Married, status 5'] },
      { content: 'Education:', children: ['Undergraduate, status 99'] },
      {
        content: 'Placements:',
        children: [
          'Facebook: Feed, Stories, Reels, Marketplace, Right column, Video feeds, Search results, Groups feed',
          'Instagram: Feed, Stories, Explore, Reels',
          'Audience Network: Native, banner and interstitial, Rewarded videos',
          'Messenger: Inbox, Stories',
          'Threads: all positions',
          'Page types: Desktop feed, Right column',
        ],
      },
      { content: 'Devices:', children: ['Mobile, Desktop'] },
      { content: 'Operating systems:', children: ['iOS, Android 8.0 and above'] },
    ]);
  });

  it('gives Location, Age and Placements with their defaults for a minimal targeting', () => {
    expect(targetingSentences(US, NO_NAMES)).toEqual([
      { content: 'Location:', children: ['Living in or recently in: United States'] },
      { content: 'Age:', children: ['18 - 65+'] },
      ADVANTAGE,
    ]);
  });

  it.each([
    [['home'], 'Living in: Germany'],
    [['recent'], 'Recently in: Germany'],
    [['travel_in'], 'Traveling in: Germany'],
    [['home', 'recent'], 'Living in or recently in: Germany'],
    [[], 'Living in or recently in: Germany'],
    [undefined, 'Living in or recently in: Germany'],
    [['home', 'home'], 'Living in: Germany'],
    [['somewhere_new'], 'Somewhere new: Germany'],
  ])('location types %j', (locationTypes, child) => {
    expect(lineOf({ geo_locations: { countries: ['DE'], location_types: locationTypes } }, 'Location:')).toEqual([child]);
  });

  it('names places: countries as given, groups by name or key, a key for an unnamed place, a radius in miles by default', () => {
    const geo = {
      country_groups: ['worldwide', 'gcc', 'some_group'],
      countries: ['JP', 'BR'],
      regions: [{ key: '3847' }],
      cities: [
        { key: '1', name: 'Austin', radius: 25 },
        { key: '2', name: 'Lille', radius: 0 },
      ],
    };
    expect(lineOf({ geo_locations: geo }, 'Location:')).toEqual([
      'Living in or recently in: Worldwide, Gulf Cooperation Council, some_group, Japan, Brazil, 3847, Austin (+25 mi), Lille',
    ]);
  });

  it('shows geo keys the gateway does not name among the places', () => {
    const geo = {
      countries: ['US'],
      custom_locations: [{ address_string: '1 Hacker Way', radius: 2, distance_unit: 'mile' }],
      geo_markets: [{ key: 'DMA:501', name: 'New York' }],
    };
    expect(lineOf({ geo_locations: geo }, 'Location:')).toEqual(['Living in or recently in: United States, 1 Hacker Way (+2 mi), New York']);
  });

  it('leaves out an excluded location that names no place', () => {
    expect(lineOf({ ...US, excluded_geo_locations: { location_types: ['home'] } }, 'Excluded location:')).toBeUndefined();
    expect(lineOf({ ...US, excluded_geo_locations: { countries: ['CA'] } }, 'Excluded location:')).toEqual(['Living in or recently in: Canada']);
  });

  it.each([
    [{}, '18 - 65+'],
    [{ age_min: 25 }, '25 - 65+'],
    [{ age_min: 25, age_max: 65 }, '25 - 65+'],
    [{ age_min: 21, age_max: 64 }, '21 - 64'],
    [{ age_max: 30 }, '18 - 30'],
    [{ age_min: '25', age_max: 'old' }, '18 - 65+'],
  ])('age %j', (ages, child) => {
    expect(lineOf({ ...US, ...ages }, 'Age:')).toEqual([child]);
  });

  it.each([
    [[1], 'Men'],
    [[2], 'Women'],
    [[1, 2], 'All'],
    [[], 'All'],
    [['male'], 'All'],
  ])('genders %j', (genders, child) => {
    expect(lineOf({ ...US, genders }, 'Gender:')).toEqual([child]);
  });

  it('has no gender line without genders', () => {
    expect(lineOf(US, 'Gender:')).toBeUndefined();
  });

  it('names audiences from the map first, then by the entry name, then by id', () => {
    const names: TargetingNames = { audiences: new Map([['1', 'From the map']]) };
    const targeting = { ...US, custom_audiences: [{ id: '1', name: 'Stored name' }, { id: '2', name: 'Stored name' }, { id: '3' }, '4', 5, { name: 'no id' }] };
    expect(lineOf(targeting, 'Custom audience:', names)).toEqual(['From the map, Stored name, audience 3, audience 4, audience 5']);
    expect(lineOf({ ...US, excluded_custom_audiences: [{ id: '1' }] }, 'Excluded custom audience:', names)).toEqual(['From the map']);
  });

  it('makes each flexible_spec group its own sentence, skipping empty groups', () => {
    const targeting = { ...US, flexible_spec: [{ interests: [{ id: '1', name: 'A' }] }, {}, 'junk', { behaviors: [{ id: '2', name: 'B' }] }] };
    expect(lineOf(targeting, 'People who match:')).toEqual(['Interests: A', 'Behaviors: B']);
  });

  it('phrases detailed-targeting keys it does not know in their group', () => {
    const targeting = { ...US, flexible_spec: [{ interests: [{ id: '1', name: 'A' }], user_adclusters: [{ id: '9', name: 'Cluster' }], interested_in: [1] }] };
    expect(lineOf(targeting, 'People who match:')).toEqual(['Interests: A, User adclusters: Cluster, Interested in: 1']);
  });

  describe('placements', () => {
    it('gives a platform without positions all positions', () => {
      expect(lineOf({ ...US, publisher_platforms: ['facebook', 'instagram'], facebook_positions: ['feed'] }, 'Placements:')).toEqual([
        'Facebook: Feed',
        'Instagram: all positions',
      ]);
    });

    it('reads positions without publisher_platforms as all platforms', () => {
      expect(lineOf({ ...US, instagram_positions: ['instagram_stories', 'instagram_reels'] }, 'Placements:')).toEqual([
        'All platforms',
        'Instagram: Stories, Reels',
      ]);
    });

    it('says so of positions of a platform not selected', () => {
      expect(lineOf({ ...US, publisher_platforms: ['facebook'], messenger_positions: ['messenger_inbox'] }, 'Placements:')).toEqual([
        'Facebook: all positions',
        'Messenger (platform not selected): Inbox',
      ]);
    });

    it('names unknown platforms and positions in sentence case', () => {
      expect(lineOf({ ...US, publisher_platforms: ['whats_app'], facebook_positions: ['profile_feed'] }, 'Placements:')).toEqual([
        'Whats app: all positions',
        'Facebook (platform not selected): Profile feed',
      ]);
    });

    it('is Advantage+ placements for an empty or malformed publisher_platforms', () => {
      expect(lineOf({ ...US, publisher_platforms: [] }, 'Placements:')).toEqual(ADVANTAGE.children);
      expect(lineOf({ ...US, publisher_platforms: 'facebook' }, 'Placements:')).toEqual(ADVANTAGE.children);
    });
  });

  it.each([
    ['iOS', 'iOS'],
    ['Android', 'Android'],
    ['iOS_ver_14.0_and_above', 'iOS 14.0 and above'],
    ['iOS_ver_11.0_to_14.0', 'iOS 11.0 to 14.0'],
    ['Android_ver_8.0_and_above', 'Android 8.0 and above'],
    ['Windows_Phone', 'Windows Phone'],
  ])('operating system %s', (os, shown) => {
    expect(lineOf({ ...US, user_os: [os] }, 'Operating systems:')).toEqual([shown]);
  });

  it('prints every locale key it knows by name and others by key', () => {
    expect(lineOf({ ...US, locales: [1001, 5, '24', 7, 23, 4242, 'x'] }, 'Language:')).toEqual([
      'English (All), German, English (UK), Spanish, Spanish (Spain), locale 4242',
    ]);
  });

  it('keeps top-level keys the gateway does not name, under Other targeting', () => {
    const targeting = { ...US, targeting_automation: { advantage_audience: 1 }, brand_safety_content_filter_levels: ['FACEBOOK_STANDARD'], empty: null };
    expect(lineOf(targeting, 'Other targeting:')).toEqual([
      'Targeting automation: {"advantage_audience":1}',
      'Brand safety content filter levels: FACEBOOK_STANDARD',
    ]);
    expect(linesOf(targeting).at(-1)?.[0]).toBe('Other targeting:');
  });

  it('shortens a long unknown value', () => {
    const [child] = lineOf({ ...US, blob: { text: 'x'.repeat(500) } }, 'Other targeting:') ?? [];
    expect(child?.length).toBeLessThan(140);
    expect(child?.endsWith('…')).toBe(true);
  });

  describe('malformed input never throws', () => {
    it.each([
      ['null', null],
      ['undefined', undefined],
      ['a string', 'US'],
      ['a number', 7],
      ['an array', [US]],
      ['geo_locations a string', { geo_locations: 'US' }],
      ['countries not an array', { geo_locations: { countries: 'US' } }],
      ['countries of numbers and bad codes', { geo_locations: { countries: [1, null, 'not a code', 'XX'] } }],
      ['cities of junk', { geo_locations: { countries: ['US'], cities: [null, 3, { radius: 'far' }, { key: 'k', radius: 'far' }] } }],
      ['genders of strings', { ...US, genders: ['male', 'female'] }],
      ['flexible_spec an object', { ...US, flexible_spec: { interests: [] } }],
      ['exclusions an array', { ...US, exclusions: [{ interests: [] }] }],
      ['lists of nulls', Object.fromEntries(TARGETING_KEYS.map((key) => [key, [null]]))],
      ['scalars everywhere', Object.fromEntries(TARGETING_KEYS.map((key) => [key, 1]))],
      [
        'a prototype key',
        { ...US, publisher_platforms: ['constructor'], geo_locations: { countries: ['US'], country_groups: ['toString'], location_types: ['__proto__'] } },
      ],
    ])('%s', (_case, targeting) => {
      const lines = targetingSentences(targeting, NO_NAMES);
      expect(lines[0]?.content).toBe('Location:');
      expect(lines.map((l) => l.content)).toContain('Age:');
      expect(lines.map((l) => l.content)).toContain('Placements:');
      for (const line of lines) expect(line.children.every((c) => typeof c === 'string' && c !== '')).toBe(true);
      expect(() => audienceIdsNamed(targeting)).not.toThrow();
    });

    it('says so when no location can be read', () => {
      expect(lineOf({ geo_locations: { countries: 'US' } }, 'Location:')).toEqual(['No location chosen']);
    });

    it('reads unknown prototype-named values as unknown', () => {
      const targeting = { geo_locations: { country_groups: ['toString'], countries: ['US'] }, publisher_platforms: ['constructor'] };
      expect(lineOf(targeting, 'Location:')).toEqual(['Living in or recently in: toString, United States']);
      expect(lineOf(targeting, 'Placements:')).toEqual(['Constructor: all positions']);
    });
  });
});

/** A usable value for each accepted key, added to the minimal targeting. */
const SAMPLES: Record<(typeof TARGETING_KEYS)[number], unknown> = {
  geo_locations: { countries: ['FR'] },
  excluded_geo_locations: { countries: ['CA'] },
  age_min: 30,
  age_max: 40,
  genders: [2],
  locales: [6],
  custom_audiences: [{ id: '1' }],
  excluded_custom_audiences: [{ id: '2' }],
  flexible_spec: [{ interests: [{ id: '3', name: 'Hiking' }] }],
  exclusions: { interests: [{ id: '4', name: 'Golf' }] },
  interests: [{ id: '5', name: 'Cooking' }],
  behaviors: [{ id: '6', name: 'Travelers' }],
  life_events: [{ id: '7', name: 'New job' }],
  industries: [{ id: '8', name: 'Accounting' }],
  income: [{ id: '9', name: 'Top 10%' }],
  family_statuses: [{ id: '10', name: 'Parents' }],
  work_positions: [{ id: '11', name: 'Engineer' }],
  relationship_statuses: [1],
  education_statuses: [2],
  publisher_platforms: ['facebook'],
  facebook_positions: ['feed'],
  instagram_positions: ['stream'],
  audience_network_positions: ['classic'],
  messenger_positions: ['story'],
  device_platforms: ['mobile'],
  user_os: ['iOS'],
  page_types: ['desktopfeed'],
};

const camelToSnake = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
/** The field names of a GraphQL input type, in snake_case. */
function inputFields(type: string): string[] {
  const schema = readFileSync(new URL('../../../schema/ads.graphql', import.meta.url), 'utf8');
  const body = new RegExp(`input ${type} \\{([^}]*)\\}`).exec(schema)?.[1] ?? '';
  return [...body.matchAll(/^\s*(\w+)\s*:/gm)].map((m) => camelToSnake(m[1] ?? ''));
}

describe('coverage of the keys the gateway accepts', () => {
  it('names the keys of schema/ads.graphql', () => {
    expect([...TARGETING_KEYS].sort()).toEqual(inputFields('TargetingInput').sort());
    expect([...GEO_LOCATION_KEYS].sort()).toEqual(inputFields('GeoLocationsInput').sort());
    expect([...DETAILED_TARGETING_KEYS].sort()).toEqual(inputFields('FlexibleSpecInput').sort());
  });

  it.each(TARGETING_KEYS.map((key) => [key]))('%s changes the summary', (key) => {
    const base = { geo_locations: { countries: ['US'] } };
    expect(linesOf({ ...base, [key]: SAMPLES[key] })).not.toEqual(linesOf(base));
  });

  it.each(GEO_LOCATION_KEYS.map((key) => [key]))('geo_locations.%s changes the summary', (key) => {
    const samples: Record<(typeof GEO_LOCATION_KEYS)[number], unknown> = {
      countries: ['DE'],
      country_groups: ['europe'],
      regions: [{ key: '3847', name: 'California' }],
      cities: [{ key: '1', name: 'Paris' }],
      zips: [{ key: 'US:94304' }],
      location_types: ['home'],
    };
    const base = { geo_locations: { countries: ['US'] } };
    expect(linesOf({ geo_locations: { ...base.geo_locations, [key]: samples[key] } })).not.toEqual(linesOf(base));
  });

  it.each(DETAILED_TARGETING_KEYS.map((key) => [key]))('flexible_spec and exclusions %s change the summary', (key) => {
    const value = key === 'relationship_statuses' || key === 'education_statuses' ? [1] : [{ id: '42', name: 'Something' }];
    const base = { ...US, flexible_spec: [{ interests: [{ id: '1', name: 'A' }] }], exclusions: { interests: [{ id: '2', name: 'B' }] } };
    const withKey = { ...base, flexible_spec: [{ ...base.flexible_spec[0], [key]: value }], exclusions: { ...base.exclusions, [key]: value } };
    const before = targetingSentences(base, NO_NAMES);
    const after = targetingSentences(withKey, NO_NAMES);
    for (const heading of ['People who match:', 'Exclude:']) {
      expect(after.find((l) => l.content === heading)).not.toEqual(before.find((l) => l.content === heading));
    }
  });
});

describe('audienceIdsNamed', () => {
  it('lists every audience id once, included, excluded and inside detailed targeting', () => {
    expect(audienceIdsNamed(FULL)).toEqual(['123', '124', '125', '456', '127']);
    expect(
      audienceIdsNamed({
        custom_audiences: [{ id: '1' }, '2', 3, { id: '1' }],
        excluded_custom_audiences: [{ id: ' 4 ' }],
        flexible_spec: [{ custom_audiences: [{ id: '5' }] }],
        exclusions: { custom_audiences: [{ id: '6' }] },
      }),
    ).toEqual(['1', '2', '3', '4', '5', '6']);
  });

  it.each([null, undefined, 'x', [], { custom_audiences: 'x' }, { custom_audiences: [null, {}, { id: '' }, { id: 1.5 }, true] }])(
    'names nothing in %j',
    (targeting) => {
      expect(audienceIdsNamed(targeting)).toEqual([]);
    },
  );
});
