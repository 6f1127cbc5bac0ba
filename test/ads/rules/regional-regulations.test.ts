import { describe, expect, it } from 'vitest';
import { regionalRegulationViolations, REGULATION_IDENTITY_KEYS } from '../../../src/ads/rules/regional-regulations.ts';

const fields = (categories: unknown, identities: unknown) => regionalRegulationViolations(categories, identities).map((v) => v.field);
const PAIR = { taiwan_finserv_beneficiary: '1', taiwan_finserv_payer: '2' };

describe('regionalRegulationViolations', () => {
  it('asks nothing of an ad set in no regulated category', () => {
    expect(fields(null, null)).toEqual([]);
    expect(fields([], {})).toEqual([]);
  });

  it('takes one complete pair per declared category (the same id may be both)', () => {
    expect(fields(['1'], PAIR)).toEqual([]);
    expect(fields(['1'], { india_finserv_beneficiary: '7', india_finserv_payer: '7' })).toEqual([]);
    expect(fields(['1', '4'], { ...PAIR, singapore_universal_beneficiary: '3', singapore_universal_payer: '4' })).toEqual([]);
  });

  it('refuses categories without identities, half a pair, and fewer pairs than categories', () => {
    expect(fields(['1'], null)).toEqual(['regional_regulation_identities']);
    expect(fields(['1'], { taiwan_finserv_beneficiary: '1' })).toEqual(['regional_regulation_identities.taiwan_finserv_payer']);
    expect(fields(['1'], { australia_finserv_payer: '1' })).toEqual(['regional_regulation_identities.australia_finserv_beneficiary']);
    expect(fields(['1', '2'], PAIR)).toEqual(['regional_regulation_identities']);
  });

  it('refuses identities without categories', () => {
    expect(fields([], PAIR)).toEqual(['regional_regulation_identities']);
  });

  it('knows a beneficiary and a payer key for each of the SDK regulations', () => {
    expect(REGULATION_IDENTITY_KEYS).toHaveLength(10);
    expect(REGULATION_IDENTITY_KEYS.filter((key) => key.endsWith('_beneficiary'))).toHaveLength(5);
  });
});
