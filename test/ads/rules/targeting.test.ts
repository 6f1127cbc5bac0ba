import { describe, expect, it } from 'vitest';
import type { AudienceFacts } from '../../../src/ads/rules/restrictions.ts';
import {
  geoViolations,
  localesOf,
  promotedPostLocaleViolations,
  RESTRICTED_LOCATIONS_CODE,
  specialCategoryViolations,
  targetingShapeViolations,
} from '../../../src/ads/rules/targeting.ts';

const fieldsOf = (found: Array<{ field: string }>) => found.map((v) => v.field);
const US = { geo_locations: { countries: ['US'] } };

describe('geo locations', () => {
  it.each([
    ['no targeting', undefined, 'targeting.geo_locations', 100],
    ['no geo_locations', { age_min: 18 }, 'targeting.geo_locations', 100],
    ['geo_locations not an object', { geo_locations: ['US'] }, 'targeting.geo_locations', 100],
    ['no countries', { geo_locations: { cities: [{ key: '1' }] } }, 'targeting.geo_locations.countries', 100],
    ['an empty list', { geo_locations: { countries: [] } }, 'targeting.geo_locations.countries', 100],
    ['countries not a list', { geo_locations: { countries: 'US' } }, 'targeting.geo_locations.countries', 100],
    ['a lower-case code', { geo_locations: { countries: ['us'] } }, 'targeting.geo_locations.countries', 100],
    ['an unassigned code', { geo_locations: { countries: ['US', 'XX'] } }, 'targeting.geo_locations.countries', 100],
    ['a number', { geo_locations: { countries: [1] } }, 'targeting.geo_locations.countries', 100],
    ['a restricted location (2641)', { geo_locations: { countries: ['US', 'CU'] } }, 'targeting.geo_locations.countries', 2641],
    [
      'a restricted location excluded (2641)',
      { geo_locations: { countries: ['US'] }, excluded_geo_locations: { countries: ['IR'] } },
      'targeting.geo_locations.countries',
      2641,
    ],
    ['countries of the specification', { geo_locations: { countries: ['US', 'FR', 'GP'] } }, null, null],
  ])('%s', (_rule, targeting, field, code) => {
    const found = geoViolations(targeting);
    expect(found.map((v) => [v.field, v.code])).toEqual(field === null ? [] : [[field, code]]);
  });

  it('names the bad entry', () => {
    expect(geoViolations({ geo_locations: { countries: ['US', 'XX'] } })[0]?.message).toBe(
      'Param targeting.geo_locations.countries[1] must be an ISO 3166-1 alpha-2 country code in upper case, got "XX"',
    );
  });

  it('names every restricted location once, with code 2641', () => {
    const [found] = geoViolations({ geo_locations: { countries: ['KP', 'SY', 'US'] }, excluded_geo_locations: { countries: ['KP', 'IR'] } });
    expect(RESTRICTED_LOCATIONS_CODE).toBe(2641);
    expect(found).toEqual({
      field: 'targeting.geo_locations.countries',
      code: 2641,
      message: 'Your ad includes or excludes locations that are restricted: KP, SY, IR',
      userTitle: 'Restricted locations',
      userMessage: 'Ads cannot include or exclude KP, SY, IR. Remove these locations from the targeting.',
    });
  });
});

describe('special ad categories', () => {
  const lookalike: AudienceFacts = { id: '71', accountId: '1', subtype: 'LOOKALIKE', flaggedReason: null, operationStatusCode: 200 };
  const custom: AudienceFacts = { id: '72', accountId: '1', subtype: 'CUSTOM', flaggedReason: null, operationStatusCode: 200 };
  const audiences = new Map([
    [lookalike.id, lookalike],
    [custom.id, custom],
  ]);

  it.each([
    ['clean targeting', ['HOUSING'], { ...US, age_min: 18, age_max: 65, genders: [1, 2], custom_audiences: ['72'] }, []],
    ['a minimum age above 18', ['HOUSING'], { ...US, age_min: 25 }, ['targeting.age_min']],
    ['a maximum age below 65', ['EMPLOYMENT'], { ...US, age_max: 50 }, ['targeting.age_max']],
    ['one gender', ['CREDIT'], { ...US, genders: [1] }, ['targeting.genders']],
    ['postal codes', ['HOUSING'], { geo_locations: { countries: ['US'], zips: [{ key: 'US:94304' }] } }, ['targeting.geo_locations.zips']],
    ['excluded audiences', ['FINANCIAL_PRODUCTS_SERVICES'], { ...US, excluded_custom_audiences: ['72'] }, ['targeting.excluded_custom_audiences']],
    ['exclusions', ['HOUSING'], { ...US, exclusions: { interests: [{ id: '6003' }] } }, ['targeting.exclusions']],
    ['demographics', ['CREDIT'], { ...US, income: [{ id: '1' }], life_events: [{ id: '2' }] }, ['targeting.income', 'targeting.life_events']],
    ['a lookalike audience', ['HOUSING'], { ...US, custom_audiences: ['72', '71'] }, ['targeting.custom_audiences']],
    [
      'every problem at once, in order',
      ['HOUSING', 'CREDIT'],
      { ...US, age_min: 21, genders: [2], custom_audiences: [{ id: '71' }] },
      ['targeting.age_min', 'targeting.genders', 'targeting.custom_audiences'],
    ],
    ['no category', [], { ...US, age_min: 25, genders: [1] }, []],
    ['NONE', ['NONE'], { ...US, age_min: 25, genders: [1] }, []],
    ['a category that does not restrict targeting', ['ISSUES_ELECTIONS_POLITICS'], { ...US, age_min: 25, custom_audiences: ['71'] }, []],
  ])('%s under %j', (_rule, categories, targeting, blamed) => {
    const found = specialCategoryViolations(targeting, categories, audiences);
    expect(fieldsOf(found)).toEqual(blamed);
    for (const v of found) expect(v.code).toBe(100);
  });

  it('names the category and what it forbids', () => {
    expect(specialCategoryViolations({ ...US, genders: [1] }, ['HOUSING'], audiences)[0]).toMatchObject({
      message: "Param targeting.genders cannot be used under the campaign's special ad category HOUSING: ads in it cannot target by gender",
      userTitle: 'Targeting not available for this category',
      userMessage: 'Ads about housing cannot target by gender. Remove this targeting option.',
    });
  });
});

describe('promoted page post targeted by locale', () => {
  it.each([
    ['the post has no locales', null, { ...US, locales: [1001] }, null],
    ['the post has an empty locale list', [], US, null],
    ['the same locales', [6, 24], { ...US, locales: [24, 6] }, null],
    ['a subset', [6, 24], { ...US, locales: [6] }, null],
    ['locales as strings', [6, 24], { ...US, locales: ['6'] }, null],
    ['an added locale', [6, 24], { ...US, locales: [6, 7] }, 'The promoted post is targeted to locales {6, 24}: targeting.locales may not add 7'],
    ['no locales', [6, 24], US, 'The promoted post is targeted to locales {6, 24}: targeting.locales must name the same locales or a subset'],
    ['an empty list', [6], { ...US, locales: [] }, 'The promoted post is targeted to locales {6}: targeting.locales must name the same locales or a subset'],
  ])('%s', (_rule, postLocales, targeting, message) => {
    const found = promotedPostLocaleViolations(targeting, postLocales);
    expect(found.map((v) => [v.field, v.message])).toEqual(message === null ? [] : [['targeting.locales', message]]);
  });

  it('reads targeting.locales as numbers', () => {
    expect(localesOf({ locales: ['6', 24] })).toEqual([6, 24]);
    expect(localesOf({})).toBeNull();
    expect(localesOf(null)).toBeNull();
  });
});

describe('targeting shape', () => {
  it.each([
    ['a valid targeting', { ...US, age_min: 18, age_max: 65, locales: [6], publisher_platforms: ['facebook'] }, []],
    [
      'lists that are not lists',
      { ...US, publisher_platforms: 'facebook', device_platforms: 'mobile', page_types: 'feed' },
      ['targeting.publisher_platforms', 'targeting.device_platforms', 'targeting.page_types'],
    ],
    [
      'facebook_positions, user_os, genders, audiences, flexible_spec as objects',
      { facebook_positions: {}, user_os: 'iOS', genders: 1, custom_audiences: '1', excluded_custom_audiences: {}, flexible_spec: {} },
      [
        'targeting.facebook_positions',
        'targeting.user_os',
        'targeting.genders',
        'targeting.custom_audiences',
        'targeting.excluded_custom_audiences',
        'targeting.flexible_spec',
      ],
    ],
    ['an age below 13', { age_min: 12 }, ['targeting.age_min']],
    ['an age above 65', { age_max: 66 }, ['targeting.age_max']],
    ['a fractional age', { age_min: 20.5 }, ['targeting.age_min']],
    ['an age as a string', { age_min: '20' }, ['targeting.age_min']],
    ['ages the wrong way round', { age_min: 40, age_max: 30 }, ['targeting.age_max']],
    ['equal ages', { age_min: 30, age_max: 30 }, []],
    ['locales that are not keys', { locales: ['en_US'] }, ['targeting.locales']],
    ['locales as booleans', { locales: [true] }, ['targeting.locales']],
    ['no targeting', null, []],
  ])('%s', (_rule, targeting, blamed) => {
    const found = targetingShapeViolations(targeting);
    expect(fieldsOf(found)).toEqual(blamed);
    for (const v of found) expect(v.code).toBe(100);
  });
});
