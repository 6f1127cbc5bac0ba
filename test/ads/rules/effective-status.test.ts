import { describe, expect, it } from 'vitest';
import {
  AD_EFFECTIVE_STATUSES,
  AD_SET_EFFECTIVE_STATUSES,
  adEffectiveStatus,
  adSetEffectiveStatus,
  BOOLEAN_DOMAIN,
  CAMPAIGN_EFFECTIVE_STATUSES,
  campaignEffectiveStatus,
  HIDDEN_BY_DEFAULT,
  STATUS_DOMAIN,
  type EffectiveStatus,
} from '../../../src/ads/rules/effective-status.ts';
import type { ObjectStatus } from '../../../src/ads/rules/enums.ts';

const STATUSES: ObjectStatus[] = ['ACTIVE', 'PAUSED', 'DELETED', 'ARCHIVED'];
const NOT_ACTIVE: ObjectStatus[] = ['PAUSED', 'DELETED', 'ARCHIVED'];

const adSetInputs = STATUSES.flatMap((own) => STATUSES.flatMap((campaign) => [false, true].map((hasIssues) => ({ own, campaign, hasIssues }))));
const adInputs = STATUSES.flatMap((own) =>
  STATUSES.flatMap((campaign) => STATUSES.flatMap((adSet) => [false, true].map((adSetHasIssues) => ({ own, campaign, adSet, adSetHasIssues })))),
);

describe('the inputs', () => {
  it('are the four statuses and two booleans', () => {
    expect([...STATUS_DOMAIN].sort()).toEqual([...STATUSES].sort());
    expect([...BOOLEAN_DOMAIN]).toEqual([false, true]);
    expect([...HIDDEN_BY_DEFAULT].sort()).toEqual(['ARCHIVED', 'DELETED']);
  });
});

describe('campaign effective status', () => {
  it.each(STATUSES.map((s) => [s]))('%s reads as its own status', (own) => {
    expect(campaignEffectiveStatus({ own })).toBe(own);
  });
  it('stays within the values a campaign reports', () => {
    for (const own of STATUSES) expect(CAMPAIGN_EFFECTIVE_STATUSES).toContain(campaignEffectiveStatus({ own }));
  });
});

describe('ad set effective status', () => {
  it.each([
    ['active everywhere', 'ACTIVE', 'ACTIVE', false, 'ACTIVE'],
    ['own PAUSED', 'PAUSED', 'ACTIVE', false, 'PAUSED'],
    ['own PAUSED wins over a PAUSED campaign', 'PAUSED', 'PAUSED', true, 'PAUSED'],
    ['an ARCHIVED campaign wins over own PAUSED', 'PAUSED', 'ARCHIVED', false, 'ARCHIVED'],
    ['own ARCHIVED wins over a DELETED campaign', 'ARCHIVED', 'DELETED', false, 'ARCHIVED'],
    ['own DELETED wins over issues', 'DELETED', 'ACTIVE', true, 'DELETED'],
    ['a PAUSED campaign', 'ACTIVE', 'PAUSED', false, 'CAMPAIGN_PAUSED'],
    ['a PAUSED campaign wins over issues', 'ACTIVE', 'PAUSED', true, 'CAMPAIGN_PAUSED'],
    ['a DELETED campaign passes DELETED down', 'ACTIVE', 'DELETED', true, 'DELETED'],
    ['an ARCHIVED campaign passes ARCHIVED down', 'ACTIVE', 'ARCHIVED', false, 'ARCHIVED'],
    ['issues', 'ACTIVE', 'ACTIVE', true, 'WITH_ISSUES'],
  ] as const)('%s: %s under %s, issues %s -> %s', (_rule, own, campaign, hasIssues, expected) => {
    expect(adSetEffectiveStatus({ own, campaign, hasIssues })).toBe(expected);
  });

  it("is its own DELETED or ARCHIVED first, then a DELETED or ARCHIVED campaign's, then its own PAUSED", () => {
    for (const input of adSetInputs) {
      const result = adSetEffectiveStatus(input);
      if (input.own === 'DELETED' || input.own === 'ARCHIVED') expect(result).toBe(input.own);
      else if (input.campaign === 'DELETED' || input.campaign === 'ARCHIVED') expect(result).toBe(input.campaign);
      else if (input.own === 'PAUSED') expect(result).toBe('PAUSED');
    }
  });

  it('otherwise, ACTIVE itself, follows a PAUSED campaign', () => {
    for (const input of adSetInputs.filter((i) => i.own === 'ACTIVE' && i.campaign === 'PAUSED')) {
      expect(adSetEffectiveStatus(input)).toBe('CAMPAIGN_PAUSED');
    }
  });

  it('is WITH_ISSUES exactly when everything is ACTIVE and it has issues', () => {
    for (const input of adSetInputs) {
      expect(adSetEffectiveStatus(input) === 'WITH_ISSUES').toBe(input.own === 'ACTIVE' && input.campaign === 'ACTIVE' && input.hasIssues);
      expect(adSetEffectiveStatus(input) === 'ACTIVE').toBe(input.own === 'ACTIVE' && input.campaign === 'ACTIVE' && !input.hasIssues);
    }
  });

  it('stays within the values an ad set reports, and never IN_PROCESS or ADSET_PAUSED', () => {
    const seen = new Set(adSetInputs.map(adSetEffectiveStatus));
    for (const status of seen) expect(AD_SET_EFFECTIVE_STATUSES).toContain(status);
    expect([...seen].sort()).toEqual(['ACTIVE', 'ARCHIVED', 'CAMPAIGN_PAUSED', 'DELETED', 'PAUSED', 'WITH_ISSUES']);
  });

  it('hides by default everything under a DELETED or ARCHIVED campaign, whatever its own status', () => {
    for (const input of adSetInputs.filter((i) => NOT_ACTIVE.includes(i.campaign) && i.campaign !== 'PAUSED')) {
      expect(HIDDEN_BY_DEFAULT).toContain(adSetEffectiveStatus(input));
    }
  });
});

describe('ad effective status', () => {
  it.each([
    ['active everywhere', 'ACTIVE', 'ACTIVE', 'ACTIVE', false, 'ACTIVE'],
    ['a DELETED campaign wins over own PAUSED', 'PAUSED', 'DELETED', 'PAUSED', true, 'DELETED'],
    ['own PAUSED wins over paused parents and issues', 'PAUSED', 'PAUSED', 'PAUSED', true, 'PAUSED'],
    ['own ARCHIVED', 'ARCHIVED', 'ACTIVE', 'ACTIVE', false, 'ARCHIVED'],
    ['own DELETED', 'DELETED', 'PAUSED', 'ACTIVE', true, 'DELETED'],
    ['a PAUSED campaign', 'ACTIVE', 'PAUSED', 'ACTIVE', false, 'CAMPAIGN_PAUSED'],
    ['a DELETED ad set wins over a PAUSED campaign', 'ACTIVE', 'PAUSED', 'DELETED', true, 'DELETED'],
    ['the campaign is asked before the ad set', 'ACTIVE', 'PAUSED', 'PAUSED', true, 'CAMPAIGN_PAUSED'],
    ['a DELETED campaign before a PAUSED ad set', 'ACTIVE', 'DELETED', 'PAUSED', false, 'DELETED'],
    ['an ARCHIVED campaign', 'ACTIVE', 'ARCHIVED', 'ACTIVE', true, 'ARCHIVED'],
    ['a PAUSED ad set', 'ACTIVE', 'ACTIVE', 'PAUSED', false, 'ADSET_PAUSED'],
    ['a PAUSED ad set wins over its issues', 'ACTIVE', 'ACTIVE', 'PAUSED', true, 'ADSET_PAUSED'],
    ['a DELETED ad set passes DELETED down', 'ACTIVE', 'ACTIVE', 'DELETED', false, 'DELETED'],
    ['an ARCHIVED ad set passes ARCHIVED down', 'ACTIVE', 'ACTIVE', 'ARCHIVED', true, 'ARCHIVED'],
    ["the ad set's issues", 'ACTIVE', 'ACTIVE', 'ACTIVE', true, 'WITH_ISSUES'],
  ] as const)('%s: %s, campaign %s, ad set %s, issues %s -> %s', (_rule, own, campaign, adSet, adSetHasIssues, expected) => {
    expect(adEffectiveStatus({ own, campaign, adSet, adSetHasIssues })).toBe(expected);
  });

  it("is its own DELETED or ARCHIVED first, then the campaign's, then the ad set's, then its own PAUSED", () => {
    const ended = (s: ObjectStatus) => s === 'DELETED' || s === 'ARCHIVED';
    for (const input of adInputs) {
      const result = adEffectiveStatus(input);
      if (ended(input.own)) expect(result).toBe(input.own);
      else if (ended(input.campaign)) expect(result).toBe(input.campaign);
      else if (ended(input.adSet)) expect(result).toBe(input.adSet);
      else if (input.own === 'PAUSED') expect(result).toBe('PAUSED');
      else if (input.campaign === 'PAUSED') expect(result).toBe('CAMPAIGN_PAUSED');
    }
  });

  it('then follows an ad set that is not ACTIVE', () => {
    const expected: Record<ObjectStatus, EffectiveStatus | null> = { ACTIVE: null, PAUSED: 'ADSET_PAUSED', DELETED: 'DELETED', ARCHIVED: 'ARCHIVED' };
    for (const input of adInputs.filter((i) => i.own === 'ACTIVE' && i.campaign === 'ACTIVE' && i.adSet !== 'ACTIVE')) {
      expect(adEffectiveStatus(input)).toBe(expected[input.adSet]);
    }
  });

  it('is WITH_ISSUES exactly when everything is ACTIVE and its ad set has issues', () => {
    for (const input of adInputs) {
      const allActive = input.own === 'ACTIVE' && input.campaign === 'ACTIVE' && input.adSet === 'ACTIVE';
      expect(adEffectiveStatus(input) === 'ACTIVE').toBe(allActive && !input.adSetHasIssues);
      expect(adEffectiveStatus(input) === 'WITH_ISSUES').toBe(allActive && input.adSetHasIssues);
    }
  });

  it("under an ACTIVE campaign, reads as its ad set's effective status (PAUSED as ADSET_PAUSED)", () => {
    for (const input of adInputs.filter((i) => i.own === 'ACTIVE' && i.campaign === 'ACTIVE')) {
      const ofAdSet = adSetEffectiveStatus({ own: input.adSet, campaign: input.campaign, hasIssues: input.adSetHasIssues });
      expect(adEffectiveStatus(input)).toBe(ofAdSet === 'PAUSED' ? 'ADSET_PAUSED' : ofAdSet);
    }
  });

  it('stays within the values an ad reports, and never IN_PROCESS', () => {
    const seen = new Set(adInputs.map(adEffectiveStatus));
    for (const status of seen) expect(AD_EFFECTIVE_STATUSES).toContain(status);
    expect([...seen].sort()).toEqual(['ACTIVE', 'ADSET_PAUSED', 'ARCHIVED', 'CAMPAIGN_PAUSED', 'DELETED', 'PAUSED', 'WITH_ISSUES']);
  });
});
