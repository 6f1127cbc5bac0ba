import { describe, expect, it } from 'vitest';
import {
  AUDIENCE_ISSUE_CODE,
  audienceIdsOf,
  audienceReferences,
  CONVERSION_ISSUE_CODE,
  conversionReferences,
  issuesOf,
  referenceViolations,
  RESTRICTED_AUDIENCE_SUBCODE,
  RESTRICTED_CONVERSION_SUBCODE,
  restrictionViolations,
  type AudienceFacts,
  type ConversionFacts,
} from '../../../src/ads/rules/restrictions.ts';

const ACCOUNT = '1001';
const OTHER_ACCOUNT = '2002';

const audience = (id: string, extra: Partial<AudienceFacts> = {}): AudienceFacts => ({
  id,
  accountId: ACCOUNT,
  subtype: 'CUSTOM',
  flaggedReason: null,
  operationStatusCode: 200,
  ...extra,
});
const conversion = (id: string, extra: Partial<ConversionFacts> = {}): ConversionFacts => ({ id, accountId: ACCOUNT, flaggedReason: null, ...extra });

const CLEAN = audience('501');
const HEALTH = audience('502', { flaggedReason: 'health' });
const FINANCIAL = audience('503', { flaggedReason: 'financial' });
const LOOKALIKE_471 = audience('504', { subtype: 'LOOKALIKE', operationStatusCode: 471 });
const LOOKALIKE_OK = audience('505', { subtype: 'LOOKALIKE', operationStatusCode: 200 });
const LOOKALIKE_471_B = audience('506', { subtype: 'LOOKALIKE', operationStatusCode: 471 });
const ELSEWHERE = audience('507', { accountId: OTHER_ACCOUNT });
const AUDIENCES = new Map([CLEAN, HEALTH, FINANCIAL, LOOKALIKE_471, LOOKALIKE_OK, LOOKALIKE_471_B, ELSEWHERE].map((a) => [a.id, a]));

const CONVERSION_CLEAN = conversion('601');
const CONVERSION_HEALTH = conversion('602', { flaggedReason: 'health' });
const CONVERSION_FINANCIAL = conversion('603', { flaggedReason: 'financial' });
const CONVERSION_ELSEWHERE = conversion('604', { accountId: OTHER_ACCOUNT });
const CONVERSIONS = new Map([CONVERSION_CLEAN, CONVERSION_HEALTH, CONVERSION_FINANCIAL, CONVERSION_ELSEWHERE].map((c) => [c.id, c]));

const usingAudiences = (...ids: string[]) => ({
  targeting: { geo_locations: { countries: ['US'] }, custom_audiences: ids.map((id) => ({ id })) },
  promotedObject: null,
});
const usingConversion = (id: unknown) => ({ targeting: { geo_locations: { countries: ['US'] } }, promotedObject: { pixel_id: '1', custom_conversion_id: id } });

describe('audienceReferences', () => {
  it('finds audiences included and excluded, also inside flexible_spec and exclusions, in order', () => {
    const targeting = {
      geo_locations: { countries: ['US'] },
      custom_audiences: ['11', 12, { id: '13', name: 'kept' }, { id: 14 }],
      excluded_custom_audiences: [{ id: '15' }],
      flexible_spec: [{ custom_audiences: ['16'], interests: [{ id: '999' }] }, { excluded_custom_audiences: [17] }],
      exclusions: { custom_audiences: [{ id: '18' }] },
      interests: [{ id: '998' }],
    };
    expect(audienceReferences(targeting)).toEqual([
      { path: 'targeting.custom_audiences[0]', id: '11' },
      { path: 'targeting.custom_audiences[1]', id: '12' },
      { path: 'targeting.custom_audiences[2]', id: '13' },
      { path: 'targeting.custom_audiences[3]', id: '14' },
      { path: 'targeting.excluded_custom_audiences[0]', id: '15' },
      { path: 'targeting.flexible_spec[0].custom_audiences[0]', id: '16' },
      { path: 'targeting.flexible_spec[1].excluded_custom_audiences[0]', id: '17' },
      { path: 'targeting.exclusions.custom_audiences[0]', id: '18' },
    ]);
  });

  it.each([
    ['a word', 'abc', null],
    ['a leading zero', '012', null],
    ['zero', 0, null],
    ['a negative number', -3, null],
    ['a fraction', 1.5, null],
    ['an unsafe integer', 2 ** 60, null],
    ['null', null, null],
    ['an object without id', { name: 'x' }, null],
    ['an object with a bad id', { id: 'x' }, null],
    ['a list', ['11'], null],
    ['a boolean', true, null],
    ['a string with spaces around', ' 19 ', '19'],
    ['a number', 20, '20'],
    ['an object with a number', { id: 21 }, '21'],
  ])('reads %s as id %s', (_rule, entry, id) => {
    expect(audienceReferences({ custom_audiences: [entry] })).toEqual([{ path: 'targeting.custom_audiences[0]', id }]);
  });

  it.each([
    ['no targeting', null],
    ['not an object', 'x'],
    ['lists that are not lists', { custom_audiences: '11', flexible_spec: { custom_audiences: ['12'] } }],
    ['exclusions as a list', { exclusions: [{ custom_audiences: ['12'] }] }],
  ])('finds nothing in %s', (_rule, targeting) => {
    expect(audienceReferences(targeting)).toEqual([]);
  });

  it('lists each id once for lookups', () => {
    expect(audienceIdsOf({ custom_audiences: ['11', { id: 11 }, 'bad'], exclusions: { custom_audiences: ['12', '11'] } })).toEqual(['11', '12']);
  });

  it('finds the custom conversion of a promoted object', () => {
    expect(conversionReferences({ custom_conversion_id: 601 })).toEqual([{ path: 'promoted_object.custom_conversion_id', id: '601' }]);
    expect(conversionReferences({ custom_conversion_id: 'x' })).toEqual([{ path: 'promoted_object.custom_conversion_id', id: null }]);
    expect(conversionReferences({ pixel_id: '1' })).toEqual([]);
    expect(conversionReferences(null)).toEqual([]);
  });
});

describe('referenceViolations', () => {
  it.each([
    ['audiences of the account', usingAudiences('501', '502'), []],
    [
      'a malformed audience',
      { targeting: { custom_audiences: ['501', 'abc'] }, promotedObject: null },
      [['targeting.custom_audiences[1]', 'Param targeting.custom_audiences[1] must be a custom audience id or {"id": ...}']],
    ],
    [
      'an audience that does not exist',
      { targeting: { flexible_spec: [{ custom_audiences: ['999'] }] }, promotedObject: null },
      [
        [
          'targeting.flexible_spec[0].custom_audiences[0]',
          'Param targeting.flexible_spec[0].custom_audiences[0] names 999, which is not a custom audience of ad account act_1001',
        ],
      ],
    ],
    [
      "another account's audience",
      { targeting: { exclusions: { custom_audiences: ['507'] } }, promotedObject: null },
      [
        [
          'targeting.exclusions.custom_audiences[0]',
          'Param targeting.exclusions.custom_audiences[0] names 507, which is not a custom audience of ad account act_1001',
        ],
      ],
    ],
    ['a conversion of the account', usingConversion('601'), []],
    [
      'a malformed conversion',
      usingConversion('six'),
      [['promoted_object.custom_conversion_id', 'Param promoted_object.custom_conversion_id must be a custom conversion id']],
    ],
    [
      'a conversion that does not exist',
      usingConversion('999'),
      [
        [
          'promoted_object.custom_conversion_id',
          'Param promoted_object.custom_conversion_id names 999, which is not a custom conversion of ad account act_1001',
        ],
      ],
    ],
    [
      "another account's conversion",
      usingConversion(604),
      [
        [
          'promoted_object.custom_conversion_id',
          'Param promoted_object.custom_conversion_id names 604, which is not a custom conversion of ad account act_1001',
        ],
      ],
    ],
  ])('%s', (_rule, adSet, expected) => {
    const found = referenceViolations(adSet, ACCOUNT, AUDIENCES, CONVERSIONS);
    expect(found.map((v) => [v.field, v.message])).toEqual(expected);
    for (const v of found) expect([v.code, v.subcode]).toEqual([100, undefined]);
  });

  it('reports every bad reference, audiences first', () => {
    const adSet = { targeting: { custom_audiences: ['bad'], excluded_custom_audiences: ['999'] }, promotedObject: { custom_conversion_id: '999' } };
    expect(referenceViolations(adSet, ACCOUNT, AUDIENCES, CONVERSIONS).map((v) => v.field)).toEqual([
      'targeting.custom_audiences[0]',
      'targeting.excluded_custom_audiences[0]',
      'promoted_object.custom_conversion_id',
    ]);
  });
});

describe('restrictionViolations', () => {
  const audienceViolation = (ids: string[]) => ({
    field: 'targeting',
    code: 100,
    subcode: RESTRICTED_AUDIENCE_SUBCODE,
    message: expect.stringContaining(ids.join(', ')),
    userTitle: 'Restricted audience',
    userMessage: expect.stringContaining(ids.join(', ')),
    data: { restricted_custom_audience_ids: ids },
  });
  const conversionViolation = (id: string) => ({
    field: 'promoted_object',
    code: 100,
    subcode: RESTRICTED_CONVERSION_SUBCODE,
    message: expect.stringContaining(id),
    userTitle: 'Restricted custom conversion',
    userMessage: expect.stringContaining(id),
    data: { restricted_custom_conversion_id: id },
  });

  it('uses the subcodes of the specification', () => {
    expect([RESTRICTED_AUDIENCE_SUBCODE, RESTRICTED_CONVERSION_SUBCODE]).toEqual([246003, 246004]);
  });

  it.each([
    ['clean audiences and lookalikes', usingAudiences('501', '505'), []],
    ['one flagged audience', usingAudiences('501', '502'), [audienceViolation(['502'])]],
    ['a lookalike at 471', usingAudiences('504'), [audienceViolation(['504'])]],
    [
      'every restricted audience, flagged and 471 lookalikes, in one error',
      usingAudiences('502', '501', '504', '503', '505', '506'),
      [audienceViolation(['502', '504', '503', '506'])],
    ],
    ['a restricted audience named twice is listed once', usingAudiences('502', '502'), [audienceViolation(['502'])]],
    [
      'restricted audiences wherever targeting names them',
      {
        targeting: { excluded_custom_audiences: ['502'], flexible_spec: [{ custom_audiences: [503] }], exclusions: { custom_audiences: [{ id: '504' }] } },
        promotedObject: null,
      },
      [audienceViolation(['502', '503', '504'])],
    ],
    ['a clean conversion', usingConversion('601'), []],
    ['a flagged conversion', usingConversion('602'), [conversionViolation('602')]],
    ['a flagged conversion named by number', usingConversion(603), [conversionViolation('603')]],
    [
      'audiences first, then the conversion',
      { targeting: { custom_audiences: ['503'] }, promotedObject: { custom_conversion_id: '602' } },
      [audienceViolation(['503']), conversionViolation('602')],
    ],
    ["unknown ids are the reference rule's business", { targeting: { custom_audiences: ['999'] }, promotedObject: { custom_conversion_id: '999' } }, []],
  ])('%s', (_rule, adSet, expected) => {
    expect(restrictionViolations(adSet, AUDIENCES, CONVERSIONS)).toEqual(expected);
  });
});

describe('issuesOf', () => {
  const issue = (code: number, info: string, summary: string, message: string) => ({
    level: 'AD_SET',
    errorCode: code,
    errorType: 'SOFT_ERROR',
    additionalInfo: info,
    errorSummary: summary,
    errorMessage: expect.stringContaining(message),
  });

  it('uses the error codes of the specification', () => {
    expect([AUDIENCE_ISSUE_CODE, CONVERSION_ISSUE_CODE]).toEqual([2460003, 2460004]);
  });

  it.each([
    [
      'none for clean audiences, lookalikes and conversions',
      { targeting: { custom_audiences: ['501', '505'] }, promotedObject: { custom_conversion_id: '601' } },
      [],
    ],
    ['none for unknown ids', { targeting: { custom_audiences: ['999'] }, promotedObject: { custom_conversion_id: '999' } }, []],
    [
      'one per flagged audience',
      usingAudiences('502', '501', '503'),
      [
        issue(2460003, 'custom_audience_id: 502', 'Custom audience blocked', 'may suggest health conditions'),
        issue(2460003, 'custom_audience_id: 503', 'Custom audience blocked', 'may suggest financial status'),
      ],
    ],
    [
      'one warning per lookalike at 471',
      usingAudiences('504', '505', '506'),
      [
        issue(2460003, 'custom_audience_id: 504', 'Lookalike audience restricted (warning)', 'operation status 471'),
        issue(2460003, 'custom_audience_id: 506', 'Lookalike audience restricted (warning)', 'operation status 471'),
      ],
    ],
    [
      'one per flagged conversion',
      usingConversion('603'),
      [issue(2460004, 'custom_conversion_id: 603', 'Custom conversion blocked', 'may suggest financial status')],
    ],
    [
      'one per item, however often it is named, in the order named',
      { targeting: { custom_audiences: ['504', '502'], exclusions: { custom_audiences: ['502'] } }, promotedObject: { custom_conversion_id: 602 } },
      [
        issue(2460003, 'custom_audience_id: 504', 'Lookalike audience restricted (warning)', 'Lookalike audience 504'),
        issue(2460003, 'custom_audience_id: 502', 'Custom audience blocked', 'Custom audience 502'),
        issue(2460004, 'custom_conversion_id: 602', 'Custom conversion blocked', 'Custom conversion 602 may suggest health conditions'),
      ],
    ],
  ])('%s', (_rule, adSet, expected) => {
    expect(issuesOf(adSet, AUDIENCES, CONVERSIONS)).toEqual(expected);
  });

  it('reports a flagged lookalike once, as flagged', () => {
    const flaggedLookalike = audience('508', { subtype: 'LOOKALIKE', flaggedReason: 'health', operationStatusCode: 471 });
    const issues = issuesOf(usingAudiences('508'), new Map([['508', flaggedLookalike]]), CONVERSIONS);
    expect(issues.map((i) => i.errorSummary)).toEqual(['Custom audience blocked']);
  });
});
