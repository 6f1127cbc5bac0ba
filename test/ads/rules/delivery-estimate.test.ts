import { describe, expect, it } from 'vitest';
import {
  AUDIENCE_SIZES,
  dailyOutcomesCurve,
  DEFAULT_AUDIENCE_SIZE,
  DEFAULT_RESULTS_PER_IMPRESSION,
  deliveryRates,
  estimateAudience,
  OTHER_RESULTS_PER_IMPRESSION,
  PRIVACY_FLOOR,
  roundSignificant,
  type AudienceEstimate,
  type AudienceFacts,
  type DeliveryRates,
  type RecentDelivery,
} from '../../../src/ads/rules/delivery-estimate.ts';
import {
  AGE_BRACKETS,
  ageShare,
  CITY_PEOPLE,
  COUNTRY_GROUP_MEMBERS,
  countryPeople,
  DEFAULT_MONTHLY_ACTIVE_PEOPLE,
  GENDER_SHARES,
  MONTHLY_ACTIVE_PEOPLE,
  platformShare,
  PLATFORM_SHARES,
} from '../../../src/ads/rules/population.ts';
import { COUNTRY_CODES } from '../../../src/ads/rules/enums.ts';
import { GEO_LOCATION_KEYS, TARGETING_KEYS } from '../../../src/ads/rules/targeting-sentences.ts';

const NONE: ReadonlyMap<string, AudienceFacts> = new Map();
const US = { geo_locations: { countries: ['US'] } };
const estimate = (targeting: unknown, audiences: ReadonlyMap<string, AudienceFacts> = NONE) => estimateAudience(targeting, audiences);
const withUs = (extra: Record<string, unknown>) => ({ ...US, ...extra });
const people = (code: string) => MONTHLY_ACTIVE_PEOPLE[code] as number;

/** The estimate the model gives for a MAU, worked out here rather than by the module. */
const expected = (mau: number): AudienceEstimate => {
  const round2 = (n: number) => {
    if (n <= 0) return PRIVACY_FLOOR;
    const unit = 10 ** (Math.floor(Math.log10(n)) - 1);
    return Math.max(PRIVACY_FLOOR, Math.round(n / unit) * unit);
  };
  return { mauLowerBound: round2(mau * 0.85), mauUpperBound: round2(mau * 1.15), dau: round2(mau * 0.6) };
};
/** The default ages (18 to 65+): every bracket but 13-17. */
const ADULTS = AGE_BRACKETS.filter((b) => b.from >= 18).reduce((sum, b) => sum + b.share, 0);

/** At most two significant digits: 190,000,000 and 1,000 are, 1,234 is not. */
const isTwoDigits = (n: number) => Number.isInteger(n / 10 ** Math.max(0, Math.floor(Math.log10(n)) - 1));

describe('population', () => {
  it('age brackets sum to 1 and ageShare spreads each bracket evenly by year', () => {
    expect(AGE_BRACKETS.reduce((sum, b) => sum + b.share, 0)).toBeCloseTo(1, 12);
    expect(ageShare()).toBeCloseTo(ADULTS, 12);
    expect(ageShare(13, 65)).toBeCloseTo(1, 12);
    expect(ageShare(18, 20)).toBeCloseTo((0.2 * 3) / 7, 12);
    expect(ageShare(65, 65)).toBeCloseTo(0.07, 12);
    expect(ageShare(30, 20)).toBe(0);
  });

  it('counts listed countries, the default for other ISO codes and no one for other strings', () => {
    expect(countryPeople('US')).toBe(people('US'));
    expect(countryPeople('LU')).toBe(DEFAULT_MONTHLY_ACTIVE_PEOPLE);
    expect(countryPeople('XX')).toBe(0);
    expect(countryPeople('constructor')).toBe(0);
    for (const code of Object.keys(MONTHLY_ACTIVE_PEOPLE)) expect(COUNTRY_CODES.has(code)).toBe(true);
  });

  it('country groups name ISO codes only', () => {
    for (const members of Object.values(COUNTRY_GROUP_MEMBERS)) for (const code of members) expect(COUNTRY_CODES.has(code)).toBe(true);
    expect(COUNTRY_GROUP_MEMBERS.eea).toHaveLength(30);
  });

  it('a set of platforms reaches 1 − Π(1 − share); none or all reach everyone', () => {
    expect(platformShare(['facebook'])).toBe(PLATFORM_SHARES.facebook);
    expect(platformShare(['facebook', 'instagram'])).toBeCloseTo(1 - 0.15 * 0.4, 12);
    expect(platformShare([])).toBe(1);
    expect(platformShare(Object.keys(PLATFORM_SHARES))).toBe(1);
    expect(platformShare(['myspace'])).toBe(1);
  });
});

describe('roundSignificant', () => {
  it.each([
    [193_800_000, 190_000_000],
    [262_200_000, 260_000_000],
    [136_800_000, 140_000_000],
    [1_049, 1_000],
    [1_050, 1_100],
    [99_600, 100_000],
    [8.76, 8.8],
    [0.0123, 0.012],
    [0, 0],
    [-5, 0],
  ])('%d -> %d', (n, rounded) => expect(roundSignificant(n, 2)).toBe(rounded));
});

describe('estimateAudience', () => {
  it('gives the model exactly for the US with the defaults', () => {
    const mau = people('US') * ADULTS;
    expect(estimate(US)).toEqual(expected(mau));
    // Literally, with today's table (240 M people, 95% of them 18+).
    expect(estimate(US)).toEqual({ mauLowerBound: 190_000_000, mauUpperBound: 260_000_000, dau: 140_000_000 });
  });

  it('sums countries, regions, cities and zips beside them', () => {
    const geo = { countries: ['US', 'CA'], regions: [{ key: '1' }], cities: [{ key: '2' }], zips: [{ key: 'US:94304' }, 'US:10001'] };
    const mau = (people('US') + people('CA') + 5_000_000 + CITY_PEOPLE + 2 * 30_000) * ADULTS;
    expect(estimate({ geo_locations: geo })).toEqual(expected(mau));
  });

  it('scales a city by its radius squared, at most four times', () => {
    const city = (radius: number, unit?: string) => estimate({ geo_locations: { cities: [{ key: '1', radius, distance_unit: unit }] } });
    expect(city(50, 'kilometer')).toEqual(expected(4 * CITY_PEOPLE * ADULTS));
    expect(city(10, 'kilometer')).toEqual(expected(0.16 * CITY_PEOPLE * ADULTS));
    // Without a unit the radius is in miles: 10 mi is 16.09 km.
    expect(city(10)).toEqual(expected((16.09344 / 25) ** 2 * CITY_PEOPLE * ADULTS));
    expect(city(5, 'kilometer').mauUpperBound).toBeLessThan(city(10, 'kilometer').mauUpperBound);
  });

  it('sizes country groups from their members, worldwide as every country, unknown groups as the default', () => {
    const eea = COUNTRY_GROUP_MEMBERS.eea!.reduce((sum, code) => sum + countryPeople(code), 0);
    expect(estimate({ geo_locations: { country_groups: ['eea'] } })).toEqual(expected(eea * ADULTS));
    const worldwide = [...COUNTRY_CODES].reduce((sum, code) => sum + countryPeople(code), 0);
    expect(estimate({ geo_locations: { country_groups: ['worldwide'] } })).toEqual(expected(worldwide * ADULTS));
    // A country inside a group is not counted twice.
    expect(estimate({ geo_locations: { country_groups: ['worldwide'], countries: ['US'] } })).toEqual(expected(worldwide * ADULTS));
    expect(estimate({ geo_locations: { country_groups: ['atlantis'] } })).toEqual(expected(DEFAULT_MONTHLY_ACTIVE_PEOPLE * ADULTS));
  });

  const NARROWER: Array<[string, Record<string, unknown>]> = [
    ['an age range', { age_min: 25, age_max: 44 }],
    ['a minimum age', { age_min: 30 }],
    ['one gender', { genders: [2] }],
    ['one platform', { publisher_platforms: ['instagram'] }],
    ['one device', { device_platforms: ['desktop'] }],
    ['top-level interests', { interests: [{ id: '1', name: 'Hiking' }] }],
    ['a flexible_spec group', { flexible_spec: [{ behaviors: [{ id: '2' }], interests: [{ id: '3' }] }] }],
    ['exclusions', { exclusions: { interests: [{ id: '4' }] } }],
    ['locales', { locales: [6] }],
    ['relationship statuses', { relationship_statuses: [1] }],
    ['education statuses', { education_statuses: [2] }],
    ['an excluded region', { excluded_geo_locations: { regions: [{ key: '3847' }] } }],
    ['an excluded city', { excluded_geo_locations: { cities: [{ key: '2420605', radius: 40, distance_unit: 'kilometer' }] } }],
    ['an excluded audience', { excluded_custom_audiences: [{ id: 'lal' }] }],
  ];
  const LOOKALIKE = new Map<string, AudienceFacts>([['lal', { subtype: 'LOOKALIKE', lookalikeSpec: { ratio: 0.1, country: 'GB' } }]]);
  // A market small enough that a region or a city shows through the rounding to two digits.
  const GB = { geo_locations: { countries: ['GB'] } };

  it.each(NARROWER)('%s narrows the estimate', (_name, extra) => {
    const wide = estimate(GB, LOOKALIKE);
    const narrow = estimate({ ...GB, ...extra }, LOOKALIKE);
    expect(narrow.mauUpperBound).toBeLessThan(wide.mauUpperBound);
    expect(narrow.mauLowerBound).toBeLessThan(wide.mauLowerBound);
    expect(narrow.dau).toBeLessThan(wide.dau);
  });

  it('applies the documented shares', () => {
    expect(estimate(withUs({ genders: [1] }))).toEqual(expected(people('US') * ADULTS * GENDER_SHARES[1]!));
    expect(estimate(withUs({ genders: [1, 2] }))).toEqual(estimate(US));
    expect(estimate(withUs({ device_platforms: ['mobile', 'desktop'] }))).toEqual(estimate(US));
    expect(estimate(withUs({ interests: [{ id: '1' }, { id: '2' }] }))).toEqual(expected(people('US') * ADULTS * (1 - 0.81)));
    // Many items: the group's share stops at 60%; an empty group narrows nothing.
    const many = Array.from({ length: 40 }, (_, i) => ({ id: String(i) }));
    expect(estimate(withUs({ interests: many }))).toEqual(expected(people('US') * ADULTS * 0.6));
    expect(estimate(withUs({ flexible_spec: [{}], interests: [] }))).toEqual(estimate(US));
    expect(estimate(withUs({ exclusions: { interests: many } }))).toEqual(expected(people('US') * ADULTS * 0.5));
    expect(estimate(withUs({ locales: [6, 24], relationship_statuses: [1], education_statuses: [2] }))).toEqual(
      expected(people('US') * ADULTS * 0.6 * 0.4 * 0.4),
    );
  });

  it('more detailed-targeting items in one group reach more people, more groups fewer', () => {
    const one = estimate(withUs({ interests: [{ id: '1' }] }));
    const two = estimate(withUs({ interests: [{ id: '1' }, { id: '2' }] }));
    const twoGroups = estimate(withUs({ interests: [{ id: '1' }], flexible_spec: [{ interests: [{ id: '2' }] }] }));
    expect(two.mauUpperBound).toBeGreaterThan(one.mauUpperBound);
    expect(twoGroups.mauUpperBound).toBeLessThan(one.mauUpperBound);
  });

  it('an excluded country subtracts its people when it is included, and changes nothing otherwise', () => {
    const both = { geo_locations: { countries: ['GB', 'FR'] } };
    expect(estimate({ ...both, excluded_geo_locations: { countries: ['FR'] } })).toEqual(expected(people('GB') * ADULTS));
    expect(estimate({ ...both, excluded_geo_locations: { countries: ['FR'] } }).mauUpperBound).toBeLessThan(estimate(both).mauUpperBound);
    const worldwide = { geo_locations: { country_groups: ['worldwide'] } };
    expect(estimate({ ...worldwide, excluded_geo_locations: { countries: ['US'] } }).mauUpperBound).toBeLessThan(estimate(worldwide).mauUpperBound);
    expect(estimate(withUs({ excluded_geo_locations: { countries: ['FR'] } }))).toEqual(estimate(US));
    expect(estimate({ geo_locations: { countries: ['FR'] }, excluded_geo_locations: { countries: ['FR'] } })).toEqual(expected(0));
  });

  describe('custom audiences', () => {
    const audiences = new Map<string, AudienceFacts>([
      ['lal1', { subtype: 'LOOKALIKE', lookalikeSpec: { ratio: 0.01, country: 'US' } }],
      ['lal5', { subtype: 'LOOKALIKE', lookalikeSpec: { ratio: 0.05, location_spec: { geo_locations: { countries: ['GB', 'FR'] } } } }],
      ['band', { subtype: 'LOOKALIKE', lookalikeSpec: { ratio: 0.03, starting_ratio: 0.01, country: 'US' } }],
      ['noratio', { subtype: 'LOOKALIKE', lookalikeSpec: { country: 'DE' } }],
      ['toobig', { subtype: 'LOOKALIKE', lookalikeSpec: { ratio: 0.9, country: 'DE' } }],
      ['specOnly', { subtype: 'CUSTOM', lookalikeSpec: { ratio: 0.02, country: 'FR' } }],
      ['in20', { subtype: 'LOOKALIKE', lookalikeSpec: { ratio: 0.2, country: 'IN' } }],
      ['web', { subtype: 'WEBSITE', lookalikeSpec: null }],
      ['eng', { subtype: 'ENGAGEMENT', lookalikeSpec: null }],
      ['app', { subtype: 'APP', lookalikeSpec: null }],
    ]);
    const of = (ids: string[], geo: string[] = ['US', 'GB', 'FR', 'DE', 'IN']) =>
      estimate({ geo_locations: { countries: geo }, custom_audiences: ids.map((id) => ({ id })) }, audiences);

    it('sizes a lookalike as ratio × its country', () => {
      expect(of(['lal1'])).toEqual(expected(0.01 * people('US') * ADULTS));
      expect(of(['lal5'])).toEqual(expected(0.05 * (people('GB') + people('FR')) * ADULTS));
      expect(of(['band'])).toEqual(expected((0.03 - 0.01) * people('US') * ADULTS));
      expect(of(['noratio'])).toEqual(expected(0.01 * people('DE') * ADULTS));
      expect(of(['toobig'])).toEqual(expected(0.2 * people('DE') * ADULTS));
      // A spec with a ratio and a country is a lookalike whatever the subtype says.
      expect(of(['specOnly'])).toEqual(expected(0.02 * people('FR') * ADULTS));
    });

    it('sizes other audiences by subtype, and unknown ids as the default', () => {
      expect(of(['web'])).toEqual(expected(AUDIENCE_SIZES.WEBSITE! * ADULTS));
      expect(of(['eng'])).toEqual(expected(AUDIENCE_SIZES.ENGAGEMENT! * ADULTS));
      expect(of(['app'])).toEqual(expected(DEFAULT_AUDIENCE_SIZE * ADULTS));
      expect(of(['missing'])).toEqual(expected(DEFAULT_AUDIENCE_SIZE * ADULTS));
      expect(of(['web', 'eng', 'web'])).toEqual(expected((100_000 + 80_000) * ADULTS));
      expect(estimate({ ...US, custom_audiences: ['web', 12] }, audiences)).toEqual(expected((100_000 + 50_000) * ADULTS));
    });

    it('caps the audiences at the people of the locations', () => {
      expect(of(['in20'], ['LU'])).toEqual(estimate({ geo_locations: { countries: ['LU'] } }));
      expect(of(['in20'], [])).toEqual(expected(0));
    });

    it('excluded audiences subtract their narrowed sizes, never below 0', () => {
      const narrowed = { ...US, genders: [2], custom_audiences: [{ id: 'web' }], excluded_custom_audiences: [{ id: 'eng' }] };
      expect(estimate(narrowed, audiences)).toEqual(expected((100_000 - 80_000) * ADULTS * GENDER_SHARES[2]!));
      expect(estimate({ ...US, custom_audiences: [{ id: 'eng' }], excluded_custom_audiences: [{ id: 'web' }] }, audiences)).toEqual(expected(0));
    });
  });

  it('never answers below the privacy floor', () => {
    const tiny = { geo_locations: { zips: ['US:94304'] }, age_min: 60, age_max: 62, genders: [2], publisher_platforms: ['threads'], locales: [6] };
    expect(estimate(tiny)).toEqual({ mauLowerBound: PRIVACY_FLOOR, mauUpperBound: PRIVACY_FLOOR, dau: PRIVACY_FLOOR });
    expect(estimate({})).toEqual({ mauLowerBound: PRIVACY_FLOOR, mauUpperBound: PRIVACY_FLOOR, dau: PRIVACY_FLOOR });
  });

  it('answers a range straddling the MAU, in two significant digits', () => {
    const cases: Array<[unknown, number]> = [
      [US, people('US') * ADULTS],
      [withUs({ age_min: 21, age_max: 23, genders: [1], interests: [{ id: '1' }] }), people('US') * ageShare(21, 23) * 0.52 * 0.1],
      [
        { geo_locations: { countries: ['IS', 'NZ'], cities: [{ key: '1', radius: 7 }] }, device_platforms: ['desktop'] },
        (DEFAULT_MONTHLY_ACTIVE_PEOPLE + people('NZ') + ((7 * 1.609344) / 25) ** 2 * CITY_PEOPLE) * ADULTS * 0.35,
      ],
      [{ geo_locations: { zips: ['1', '2', '3'] }, publisher_platforms: ['facebook', 'messenger'] }, 90_000 * ADULTS * (1 - 0.15 * 0.5)],
    ];
    for (const [targeting, mau] of cases) {
      const answer = estimate(targeting);
      expect(answer).toEqual(expected(mau));
      expect(answer.mauLowerBound).toBeLessThan(mau);
      expect(answer.mauUpperBound).toBeGreaterThan(mau);
      for (const n of Object.values(answer)) {
        expect(Number.isInteger(n)).toBe(true);
        expect(isTwoDigits(n)).toBe(true);
      }
    }
  });

  it('never throws on malformed targeting and answers at least the floor', () => {
    const BAD: unknown[] = [null, undefined, 'US', 42, true, [], {}, ['US', null, 7, { id: null }, [[]], NaN], { id: {} }, -1, 1e308, Infinity];
    const atLeastFloor = (targeting: unknown, audiences: ReadonlyMap<string, AudienceFacts> = NONE) => {
      const answer = estimate(targeting, audiences);
      for (const n of Object.values(answer)) {
        expect(Number.isFinite(n)).toBe(true);
        expect(n).toBeGreaterThanOrEqual(PRIVACY_FLOOR);
      }
    };
    for (const bad of BAD) {
      atLeastFloor(bad);
      for (const key of [...TARGETING_KEYS, 'unknown_key']) atLeastFloor({ ...US, [key]: bad });
      for (const key of GEO_LOCATION_KEYS) {
        atLeastFloor({ geo_locations: { countries: ['US'], [key]: bad } });
        atLeastFloor({ ...US, excluded_geo_locations: { [key]: bad } });
      }
      atLeastFloor({ ...US, flexible_spec: [bad, { interests: bad }] });
      atLeastFloor({ ...US, exclusions: { interests: bad } });
      atLeastFloor({ ...US, geo_locations: { countries: ['US'], cities: [{ key: '1', radius: bad, distance_unit: bad }] } });
      const odd = new Map<string, AudienceFacts>([
        ['a', { subtype: 'LOOKALIKE', lookalikeSpec: bad }],
        ['b', { subtype: 'CUSTOM', lookalikeSpec: { ratio: bad, country: bad, location_spec: bad, starting_ratio: bad } }],
        ['c', { subtype: bad as string, lookalikeSpec: { ratio: 0.05, location_spec: { geo_locations: bad } } }],
      ]);
      atLeastFloor({ ...US, custom_audiences: ['a', 'b', 'c'], excluded_custom_audiences: ['a'] }, odd);
    }
  });
});

describe('deliveryRates', () => {
  const LINK = { kind: 'action', actionType: 'link_click' } as const;
  const recent = (impressions: number, spend: number, actions: Record<string, number> = {}): RecentDelivery => ({ impressions, clicks: 0, spend, actions });

  it("uses the account's own CPM and results from 1,000 impressions", () => {
    expect(deliveryRates(recent(10_000, 50_000, { link_click: 150 }), LINK, 700)).toEqual({
      cpm: 5_000,
      resultsPerImpression: 0.015,
      source: 'account',
      results: 'events',
    });
    expect(deliveryRates(recent(1_000, 800), { kind: 'impressions' }, 700)).toEqual({ cpm: 800, resultsPerImpression: 1, source: 'account', results: 'reach' });
    expect(deliveryRates(recent(2_000, 800), null, 700)).toMatchObject({ cpm: 400, resultsPerImpression: 0, source: 'account' });
  });

  it('uses the defaults below 1,000 impressions or without spend', () => {
    expect(deliveryRates(recent(999, 50_000, { link_click: 150 }), LINK, 700)).toEqual({
      cpm: 700,
      resultsPerImpression: DEFAULT_RESULTS_PER_IMPRESSION.link_click,
      source: 'defaults',
      results: 'events',
    });
    expect(deliveryRates(recent(5_000, 0), LINK, 700).source).toBe('defaults');
    expect(deliveryRates(null, { kind: 'action', actionType: 'lead' }, 700).resultsPerImpression).toBe(0.001);
    expect(deliveryRates(null, { kind: 'action', actionType: 'rsvp' }, 700).resultsPerImpression).toBe(OTHER_RESULTS_PER_IMPRESSION);
    expect(deliveryRates(null, { kind: 'action', actionType: 'constructor' }, 700).resultsPerImpression).toBe(OTHER_RESULTS_PER_IMPRESSION);
    expect(deliveryRates(null, { kind: 'impressions' }, 700)).toEqual({ cpm: 700, resultsPerImpression: 1, source: 'defaults', results: 'reach' });
    expect(deliveryRates(null, null, 700).resultsPerImpression).toBe(0);
  });
});

describe('dailyOutcomesCurve', () => {
  const AUDIENCE: AudienceEstimate = { mauLowerBound: 14_000, mauUpperBound: 19_000, dau: 10_000 };
  const RATES: DeliveryRates = { cpm: 500, resultsPerImpression: 0.01, source: 'defaults', results: 'events' };

  const shapeOf = (curve: ReturnType<typeof dailyOutcomesCurve>, dau: number) => {
    expect(curve).toHaveLength(13);
    expect(curve[0]).toEqual({ spend: 0, reach: 0, impressions: 0, actions: 0 });
    for (const [i, point] of curve.entries()) {
      for (const n of Object.values(point)) expect(Number.isInteger(n)).toBe(true);
      expect(point.reach).toBeLessThanOrEqual(point.impressions);
      expect(point.reach).toBeLessThanOrEqual(dau);
      const before = curve[i - 1];
      if (!before) continue;
      expect(point.spend).toBeGreaterThan(before.spend);
      expect(point.impressions).toBeGreaterThanOrEqual(before.impressions);
      expect(point.reach).toBeGreaterThanOrEqual(before.reach);
      expect(point.actions).toBeGreaterThanOrEqual(before.actions);
    }
  };

  it('spends 0 to 3 × the budget in 12 equal steps, reach saturating at the daily actives', () => {
    const curve = dailyOutcomesCurve(AUDIENCE, RATES, 5_000);
    shapeOf(curve, AUDIENCE.dau);
    expect(curve.map((p) => p.spend)).toEqual(Array.from({ length: 13 }, (_, i) => i * 1_250));
    expect(curve[4]).toEqual({ spend: 5_000, impressions: 10_000, reach: Math.round(10_000 * (1 - Math.exp(-0.5))), actions: 100 });
    const gain = (i: number) => curve[i]!.reach - curve[i - 1]!.reach;
    expect(gain(12)).toBeLessThan(gain(1));
  });

  it('counts people reached as the results of goals optimizing for impressions', () => {
    const curve = dailyOutcomesCurve(AUDIENCE, { ...RATES, resultsPerImpression: 1, results: 'reach' }, 5_000);
    shapeOf(curve, AUDIENCE.dau);
    for (const point of curve) expect(point.actions).toBe(point.reach);
  });

  it('without a budget spans 3 × the CPM, so it is never empty', () => {
    const curve = dailyOutcomesCurve(AUDIENCE, RATES, 0);
    shapeOf(curve, AUDIENCE.dau);
    expect(curve[12]!.spend).toBe(4_500);
    expect(curve[12]!.impressions).toBe(9_000);
  });

  it('keeps its shape for a large audience and stays finite on odd rates', () => {
    const us = estimateAudience(US, NONE);
    shapeOf(dailyOutcomesCurve(us, RATES, 1_000_000), us.dau);
    for (const curve of [
      dailyOutcomesCurve(AUDIENCE, { ...RATES, cpm: 0 }, 5_000),
      dailyOutcomesCurve(AUDIENCE, { ...RATES, cpm: NaN, resultsPerImpression: NaN }, NaN),
      dailyOutcomesCurve({ ...AUDIENCE, dau: 0 }, RATES, 5_000),
    ]) {
      expect(curve).toHaveLength(13);
      for (const point of curve) for (const n of Object.values(point)) expect(Number.isFinite(n)).toBe(true);
    }
  });
});
