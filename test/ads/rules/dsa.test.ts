import { describe, expect, it } from 'vitest';
import {
  dsaViolations,
  MISSING_BENEFICIARY_SUBCODE,
  MISSING_PAYOR_SUBCODE,
  REGULATED_COUNTRIES,
  targetsRegulatedRegion,
  withDsaDefaults,
} from '../../../src/ads/rules/dsa.ts';

// DECISIONS section 5: the 27 EU member states and their outermost regions with country codes of their own.
const EU = [
  'AT',
  'BE',
  'BG',
  'HR',
  'CY',
  'CZ',
  'DK',
  'EE',
  'FI',
  'FR',
  'DE',
  'GR',
  'HU',
  'IE',
  'IT',
  'LV',
  'LT',
  'LU',
  'MT',
  'NL',
  'PL',
  'PT',
  'RO',
  'SK',
  'SI',
  'ES',
  'SE',
];
const OUTERMOST = ['GP', 'MQ', 'GF', 'RE', 'YT', 'MF'];
const NOT_REGULATED = ['NO', 'CH', 'IS', 'LI', 'GB', 'US', 'TR', 'AD', 'MC', 'SM', 'VA', 'NC', 'PF', 'PM', 'BL', 'GL', 'FO'];

const geo = (...countries: string[]) => ({ geo_locations: { countries } });

describe('regulated regions', () => {
  it('are exactly the 27 member states and the 6 outermost regions', () => {
    expect(EU).toHaveLength(27);
    expect([...REGULATED_COUNTRIES].sort()).toEqual([...EU, ...OUTERMOST].sort());
  });

  it.each([...EU, ...OUTERMOST].map((c) => [c]))('%s is regulated', (country) => {
    expect(targetsRegulatedRegion(geo(country))).toBe(true);
  });

  it.each(NOT_REGULATED.map((c) => [c]))('%s is not', (country) => {
    expect(targetsRegulatedRegion(geo(country))).toBe(false);
  });

  it.each([
    ['one regulated country among others', geo('US', 'NO', 'FR'), true],
    ['no geo_locations', {}, false],
    ['no targeting', null, false],
    ['countries not a list', { geo_locations: { countries: 'FR' } }, false],
    ['lower-case codes are not codes', geo('fr'), false],
    ['regions are named by country code only', { geo_locations: { regions: [{ key: 'FR' }] } }, false],
  ])('%s', (_rule, targeting, expected) => {
    expect(targetsRegulatedRegion(targeting)).toBe(expected);
  });
});

describe('rules 2 and 3: defaults from the account', () => {
  const ACCOUNT = { defaultDsaPayor: 'Account Payor Ltd', defaultDsaBeneficiary: 'Account Brand' };
  const NO_DEFAULTS = { defaultDsaPayor: null, defaultDsaBeneficiary: null };
  // [rule, targeting, payor sent, beneficiary sent, account, payor after, beneficiary after]
  const ROWS: Array<[string, unknown, string | null, string | null, typeof ACCOUNT | typeof NO_DEFAULTS, string | null, string | null]> = [
    ['neither given: both from the account', geo('FR'), null, null, ACCOUNT, 'Account Payor Ltd', 'Account Brand'],
    ['payor only: the beneficiary from the account default, not from the payor', geo('DE'), 'Payor Sent', null, ACCOUNT, 'Payor Sent', 'Account Brand'],
    ['payor only, no account default: the beneficiary stays missing', geo('DE'), 'Payor Sent', null, NO_DEFAULTS, 'Payor Sent', null],
    ['beneficiary only: the payor from the account default', geo('GP'), null, 'Brand Sent', ACCOUNT, 'Account Payor Ltd', 'Brand Sent'],
    ['both given: kept', geo('IT'), 'Payor Sent', 'Brand Sent', ACCOUNT, 'Payor Sent', 'Brand Sent'],
    ['no defaults, nothing given: nothing', geo('IT'), null, null, NO_DEFAULTS, null, null],
    ['rule 4: outside the regions no default applies', geo('US', 'NO'), null, null, ACCOUNT, null, null],
    ['rule 4: outside the regions the fields stay as given', geo('CH'), 'Payor Sent', null, ACCOUNT, 'Payor Sent', null],
  ];

  it.each(ROWS)('%s', (_rule, targeting, dsaPayor, dsaBeneficiary, account, payor, beneficiary) => {
    const adSet = { name: 'kept', targeting, dsaPayor, dsaBeneficiary };
    expect(withDsaDefaults(adSet, account)).toEqual({ name: 'kept', targeting, dsaPayor: payor, dsaBeneficiary: beneficiary });
  });
});

describe('rule 1: 3858079 then 3858081', () => {
  const payorMissing = (regions: string) => ({
    field: 'dsa_payor',
    code: 100,
    subcode: MISSING_PAYOR_SUBCODE,
    message: `The parameter dsa_payor is required for ad sets targeting the European Union (${regions})`,
    userTitle: 'Payor required',
    userMessage: expect.stringContaining('set a default payor on the ad account'),
    data: { blame_field_specs: [['dsa_payor']] },
  });
  const beneficiaryMissing = (regions: string) => ({
    field: 'dsa_beneficiary',
    code: 100,
    subcode: MISSING_BENEFICIARY_SUBCODE,
    message: `The parameter dsa_beneficiary is required for ad sets targeting the European Union (${regions})`,
    userTitle: 'Beneficiary required',
    userMessage: expect.stringContaining('set a default beneficiary on the ad account'),
    data: { blame_field_specs: [['dsa_beneficiary']] },
  });

  it('uses the subcodes of the specification', () => {
    expect([MISSING_PAYOR_SUBCODE, MISSING_BENEFICIARY_SUBCODE]).toEqual([3858079, 3858081]);
  });

  it.each([
    ['both missing: the payor first', geo('US', 'FR', 'RE'), null, null, [payorMissing('FR, RE'), beneficiaryMissing('FR, RE')]],
    ['payor missing', geo('FR'), null, 'Brand', [payorMissing('FR')]],
    ['beneficiary missing', geo('FR'), 'Payor', null, [beneficiaryMissing('FR')]],
    ['an empty payor is missing', geo('FR'), '', 'Brand', [payorMissing('FR')]],
    ['both given', geo('FR'), 'Payor', 'Brand', []],
    ['rule 4: nothing applies outside the regions', geo('US', 'NO', 'CH'), null, null, []],
  ])('%s', (_rule, targeting, dsaPayor, dsaBeneficiary, expected) => {
    expect(dsaViolations({ targeting, dsaPayor, dsaBeneficiary })).toEqual(expected);
  });

  it('reports no violation once the account defaults filled both fields', () => {
    const filled = withDsaDefaults({ targeting: geo('ES'), dsaPayor: null, dsaBeneficiary: null }, { defaultDsaPayor: 'P', defaultDsaBeneficiary: 'B' });
    expect(dsaViolations(filled)).toEqual([]);
  });

  it('blames the beneficiary when only the payor was sent and the account has no default beneficiary (never the payor)', () => {
    const filled = withDsaDefaults(
      { targeting: geo('ES'), dsaPayor: 'P', dsaBeneficiary: null },
      { defaultDsaPayor: 'Default P', defaultDsaBeneficiary: null },
    );
    expect(dsaViolations(filled).map((v) => v.subcode)).toEqual([MISSING_BENEFICIARY_SUBCODE]);
  });
});
