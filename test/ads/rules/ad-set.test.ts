import { describe, expect, it } from 'vitest';
import { AD_SET_RULES, adSetViolations, withAdSetDefaults, type AdSetDraft, type AdSetRuleContext, type CampaignFacts } from '../../../src/ads/rules/ad-set.ts';
import { DEFAULT_HIGH_INCOME_COUNTRIES } from '../../../src/ads/rules/budgets.ts';
import { DEFAULT_RATES_PER_USD } from '../../../src/ads/rules/currencies.ts';
import type { AudienceFacts, ConversionFacts } from '../../../src/ads/rules/restrictions.ts';
import { refuseFirst } from '../../../src/ads/rules/violations.ts';
import { DomainError } from '../../../src/errors/index.ts';
import { newAdSet } from '../../../src/ads/store.ts';

const NOW = new Date('2026-03-01T12:00:00Z');
const DAY = 86_400_000;
const later = (ms: number) => new Date(NOW.getTime() + ms);

const ACCOUNT = { id: '1001', currency: 'USD', country: 'BR', defaultDsaPayor: 'Acme Payor', defaultDsaBeneficiary: 'Acme Brand' };
const NO_DEFAULTS = { ...ACCOUNT, defaultDsaPayor: null, defaultDsaBeneficiary: null };
const CAMPAIGN: CampaignFacts = {
  id: '2001',
  accountId: '1001',
  objective: 'OUTCOME_TRAFFIC',
  status: 'ACTIVE',
  specialAdCategories: [],
  bidStrategy: null,
  dailyBudget: null,
  lifetimeBudget: null,
};
const FLAGGED: AudienceFacts = { id: '502', accountId: '1001', subtype: 'CUSTOM', flaggedReason: 'health', operationStatusCode: 200 };
const CLEAN: AudienceFacts = { id: '501', accountId: '1001', subtype: 'CUSTOM', flaggedReason: null, operationStatusCode: 200 };
const FLAGGED_CONVERSION: ConversionFacts = { id: '602', accountId: '1001', flaggedReason: 'financial' };

const context = (overrides: Partial<AdSetRuleContext> = {}): AdSetRuleContext => ({
  mode: 'create',
  sent: new Set(),
  account: ACCOUNT,
  campaign: CAMPAIGN,
  audiences: new Map([
    [FLAGGED.id, FLAGGED],
    [CLEAN.id, CLEAN],
  ]),
  conversions: new Map([[FLAGGED_CONVERSION.id, FLAGGED_CONVERSION]]),
  budgets: { rates: DEFAULT_RATES_PER_USD, highIncomeCountries: DEFAULT_HIGH_INCOME_COUNTRIES },
  now: NOW,
  ...overrides,
});
const update = (sent: string[], overrides: Partial<AdSetRuleContext> = {}) =>
  context({ mode: 'update', sent: new Set(sent), currentCampaignId: CAMPAIGN.id, ...overrides });

/** An ad set every rule accepts. */
const draft = (overrides: Partial<AdSetDraft> = {}): AdSetDraft =>
  newAdSet({
    organizationId: 'org',
    accountId: '1001',
    campaignId: '2001',
    name: 'Spring',
    status: 'PAUSED',
    optimizationGoal: 'LINK_CLICKS',
    billingEvent: 'IMPRESSIONS',
    dailyBudget: '1000',
    targeting: { geo_locations: { countries: ['US'] } },
    ...overrides,
  });
const described = (found: Array<{ field: string; code: number; subcode?: number }>) =>
  found.map((v) => (v.subcode ? `${v.field} ${v.subcode}` : v.code !== 100 ? `${v.field} ${v.code}` : v.field));

/** An ad set that breaks one rule in each of the ways below (the campaign's settings are in brokenContext). */
const BROKEN = draft({
  sourceAdsetId: '9',
  startTime: later(3 * DAY),
  endTime: later(DAY),
  targeting: {
    geo_locations: { countries: ['FR', 'CU'] },
    age_min: 12,
    genders: [1],
    custom_audiences: ['999', '502'],
  },
  optimizationGoal: 'PAGE_LIKES',
  promotedObject: { application_id: '1', object_store_url: 'https://apps.facebook.com/game', object_story_id: '77' },
  bidStrategy: 'LOWEST_COST_WITHOUT_CAP',
  bidAmount: '100',
  dailyBudget: '1',
  lifetimeBudget: '500',
  minBudgetSpendPercentage: '50',
  maxBudgetSpendPercentage: '10',
  timeBasedAdRotationIntervals: [1],
});
const brokenContext = (overrides: Partial<AdSetRuleContext> = {}) =>
  context({
    account: NO_DEFAULTS,
    campaign: { ...CAMPAIGN, status: 'ARCHIVED', specialAdCategories: ['HOUSING'] },
    sourceAdSet: 'missing',
    promotedPost: 'missing',
    ...overrides,
  });

describe('composition', () => {
  it('accepts a valid ad set', () => {
    expect(adSetViolations(draft(), context())).toEqual([]);
  });

  it("reports every rule's violations in the order the platform checks them", () => {
    expect(described(adSetViolations(BROKEN, brokenContext()))).toEqual([
      'campaign_id', // the campaign is ARCHIVED
      'source_adset_id',
      'end_time', // before start_time
      'targeting.age_min', // shape
      'targeting.geo_locations.countries 2641',
      'targeting.custom_audiences[0]', // 999 names nothing
      'targeting.age_min',
      'targeting.genders', // special ad category HOUSING
      'optimization_goal', // PAGE_LIKES under traffic
      'targeting.page_types', // a desktop app
      'promoted_object.object_story_id',
      'bid_amount', // without a cap
      'lifetime_budget',
      'end_time', // two budgets; a lifetime budget of less than 24 hours
      'daily_budget 1885272',
      'min_budget_spend_percentage',
      'time_based_ad_rotation_id_blocks', // intervals without id blocks
      'dsa_payor 3858079',
      'dsa_beneficiary 3858081',
      'targeting 246003',
    ]);
  });

  it('has one rule per concern, in that order', () => {
    expect(AD_SET_RULES.map((r) => r.name)).toEqual([
      'campaign',
      'source ad set',
      'schedule',
      'targeting shape',
      'locations',
      'references',
      'special ad categories',
      'objective',
      'promoted object',
      'application',
      'app',
      'lookalike expansion',
      'promoted post',
      'bid',
      'budget',
      'minimum budget',
      'budget spend percentages',
      'time-based ad rotation',
      'payor and beneficiary',
      'regional regulations',
      'restricted audiences and conversions',
    ]);
  });

  // The first violation is what a write answers.
  it.each<[string, Partial<AdSetDraft>, Partial<AdSetRuleContext>, string]>([
    ['a missing campaign before anything', { targeting: {} }, { campaign: null }, 'campaign_id'],
    [
      'locations before the payor',
      { targeting: { geo_locations: { countries: ['FR', 'KP'] } } },
      { account: NO_DEFAULTS },
      'targeting.geo_locations.countries 2641',
    ],
    ['no countries at all', { targeting: { geo_locations: {} } }, {}, 'targeting.geo_locations.countries'],
    ['the goal before the budget', { optimizationGoal: 'THRUPLAY', dailyBudget: '1' }, {}, 'optimization_goal'],
    [
      'the budget minimum before the payor',
      { dailyBudget: '49', targeting: { geo_locations: { countries: ['DE'] } } },
      { account: NO_DEFAULTS },
      'daily_budget 1885272',
    ],
    ['the payor before the beneficiary', { targeting: { geo_locations: { countries: ['DE'] } } }, { account: NO_DEFAULTS }, 'dsa_payor 3858079'],
    [
      'the beneficiary before a flagged audience',
      { dsaPayor: 'P', targeting: { geo_locations: { countries: ['DE'] }, custom_audiences: ['502'] } },
      { account: NO_DEFAULTS },
      'dsa_beneficiary 3858081',
    ],
    [
      'a flagged audience before a flagged conversion',
      { targeting: { geo_locations: { countries: ['US'] }, custom_audiences: ['502'] }, promotedObject: { custom_conversion_id: '602' } },
      {},
      'targeting 246003',
    ],
    ['a flagged conversion', { promotedObject: { custom_conversion_id: '602' } }, {}, 'promoted_object 246004'],
    [
      'an unknown audience before a flagged one',
      { targeting: { geo_locations: { countries: ['US'] }, custom_audiences: ['502', '999'] } },
      {},
      'targeting.custom_audiences[1]',
    ],
  ])('%s', (_rule, overrides, ctx, first) => {
    const found = adSetViolations(draft(overrides), context(ctx));
    expect(described(found)[0]).toBe(first);
    try {
      refuseFirst(found);
      expect.unreachable('refuseFirst must throw');
    } catch (error) {
      expect(error).toBeInstanceOf(DomainError);
      expect((error as DomainError).field).toBe(found[0]!.field);
      expect((error as DomainError).graph).toMatchObject({ code: found[0]!.code, subcode: found[0]!.subcode });
    }
  });

  it('refuses nothing when there is nothing to refuse', () => {
    expect(() => refuseFirst([])).not.toThrow();
  });
});

describe('on update only the rules whose inputs changed run', () => {
  // (Without its flagged audience: whether such an ad set may change at all is the case further down.)
  const BROKEN_UNFLAGGED: AdSetDraft = { ...BROKEN, targeting: { ...(BROKEN.targeting as object), custom_audiences: ['999'] } };
  it.each([['name'], ['status'], ['adlabels'], ['name', 'status']])('a broken ad set may still change %s', (...sent) => {
    expect(adSetViolations(BROKEN_UNFLAGGED, brokenContext({ mode: 'create' })).length).toBeGreaterThan(15);
    expect(adSetViolations(BROKEN_UNFLAGGED, brokenContext({ mode: 'update', sent: new Set(sent), currentCampaignId: CAMPAIGN.id }))).toEqual([]);
  });

  it('the same ad set is refused on create and on copy', () => {
    const onCreate = adSetViolations(BROKEN, brokenContext());
    expect(onCreate).toHaveLength(20);
    expect(adSetViolations(BROKEN, brokenContext({ mode: 'copy' }))).toEqual(onCreate);
  });

  const WITH_FLAGGED = { targeting: { geo_locations: { countries: ['US'] }, custom_audiences: ['502'] } };
  const FR = { targeting: { geo_locations: { countries: ['FR'] } } };
  it.each<[string, string[], Partial<AdSetDraft>, Partial<AdSetRuleContext>, string[]]>([
    ['retargeting to a flagged audience', ['targeting'], WITH_FLAGGED, {}, ['targeting 246003']],
    [
      'changing the promoted conversion to a flagged one',
      ['promoted_object'],
      { promotedObject: { custom_conversion_id: '602' } },
      {},
      ['promoted_object 246004'],
    ],
    // "creating or changing such ad sets fails" (specification), "Creating or updating an ad set that uses a
    // flagged audience fails" (DECISIONS 5): the audience may have been flagged after the ad set was made.
    ['changing the budget of an ad set that uses a flagged audience', ['daily_budget'], WITH_FLAGGED, {}, ['targeting 246003']],
    [
      'changing the bid of an ad set optimizing for a flagged conversion',
      ['bid_strategy', 'bid_amount'],
      { bidStrategy: 'COST_CAP', bidAmount: '50', promotedObject: { custom_conversion_id: '602' } },
      {},
      ['promoted_object 246004'],
    ],
    ['renaming an ad set whose budget is below the minimum', ['name'], { dailyBudget: '10' }, {}, []],
    ['lowering the budget below the minimum', ['daily_budget'], { dailyBudget: '10' }, {}, ['daily_budget 1885272']],
    [
      'changing the billing event: the minimum is asked again',
      ['billing_event'],
      { dailyBudget: '100', billingEvent: 'LINK_CLICKS' },
      {},
      ['daily_budget 1885272'],
    ],
    [
      'raising the bid cap above what the budget allows',
      ['bid_amount'],
      { bidStrategy: 'LOWEST_COST_WITH_BID_CAP', bidAmount: '300', billingEvent: 'LINK_CLICKS', dailyBudget: '1000' },
      {},
      ['daily_budget 1885272'],
    ],
    ['a payor-less EU ad set renamed', ['name'], FR, { account: NO_DEFAULTS }, []],
    ['a payor-less ad set retargeted to the EU', ['targeting'], FR, { account: NO_DEFAULTS }, ['dsa_payor 3858079', 'dsa_beneficiary 3858081']],
    ['removing the beneficiary of an EU ad set', ['dsa_beneficiary'], { ...FR, dsaPayor: 'P' }, { account: NO_DEFAULTS }, ['dsa_beneficiary 3858081']],
    [
      'an end in the past, not changed, while the start changes',
      ['start_time'],
      { startTime: later(-3 * DAY), endTime: later(-DAY), dailyBudget: null, lifetimeBudget: '100000' },
      {},
      [],
    ],
    ['an end moved into the past', ['end_time'], { endTime: later(-DAY), dailyBudget: null, lifetimeBudget: '100000' }, {}, ['end_time']],
    ['moving to another campaign', ['campaign_id'], { campaignId: '2002' }, {}, ['campaign_id']],
    ['repeating the campaign of an ad set under an ARCHIVED campaign', ['campaign_id'], {}, { campaign: { ...CAMPAIGN, status: 'ARCHIVED' } }, []],
    ['a goal the campaign does not allow', ['optimization_goal'], { optimizationGoal: 'PAGE_LIKES' }, {}, ['optimization_goal']],
    ['a bid under the cap-less strategy', ['bid_amount'], { bidStrategy: 'LOWEST_COST_WITHOUT_CAP', bidAmount: '100' }, {}, ['bid_amount']],
    [
      'a lead goal without a page',
      ['optimization_goal'],
      { optimizationGoal: 'LEAD_GENERATION' },
      { campaign: { ...CAMPAIGN, objective: 'OUTCOME_LEADS' } },
      ['promoted_object.page_id'],
    ],
    ['the campaign repeated: its bid strategy asks for a bid', ['campaign_id'], {}, { campaign: { ...CAMPAIGN, bidStrategy: 'COST_CAP' } }, ['bid_amount']],
    [
      'turning lookalike expansion off for conversions',
      ['targeting'],
      { optimizationGoal: 'OFFSITE_CONVERSIONS', targeting: { geo_locations: { countries: ['US'] }, targeting_relaxation_types: { lookalike: 0 } } },
      { campaign: { ...CAMPAIGN, objective: 'OUTCOME_SALES' } },
      ['targeting.targeting_relaxation_types'],
    ],
    [
      'a rotation without an end',
      ['time_based_ad_rotation_intervals', 'time_based_ad_rotation_id_blocks'],
      {
        startTime: later(DAY),
        timeBasedAdRotationIntervals: [NOW.getTime() / 1000 + 86_400, NOW.getTime() / 1000 + 2 * 86_400],
        timeBasedAdRotationIdBlocks: [[1], [2]],
      },
      {},
      ['end_time'],
    ],
  ])('%s (sent %j)', (_rule, sent, overrides, ctx, expected) => {
    expect(described(adSetViolations(draft(overrides), update(sent, ctx)))).toEqual(expected);
  });

  it('runs every rule when every parameter is sent (an ARCHIVED campaign is refused on create only)', () => {
    const every = new Set(AD_SET_RULES.flatMap((r) => r.inputs));
    const onCreate = adSetViolations(BROKEN, brokenContext());
    expect(onCreate[0]?.field).toBe('campaign_id');
    expect(adSetViolations(BROKEN, brokenContext({ mode: 'update', sent: every, currentCampaignId: CAMPAIGN.id }))).toEqual(onCreate.slice(1));
  });
});

describe('withAdSetDefaults', () => {
  it.each<[string, AdSetRuleContext, string | null]>([
    ['create: the objective default goal (traffic)', context(), 'LINK_CLICKS'],
    ['create: the objective default goal (awareness)', context({ campaign: { ...CAMPAIGN, objective: 'OUTCOME_AWARENESS' } }), 'REACH'],
    ['create: the objective default goal (sales)', context({ campaign: { ...CAMPAIGN, objective: 'OUTCOME_SALES' } }), 'OFFSITE_CONVERSIONS'],
    ['create without a campaign: none', context({ campaign: null }), null],
    ['update: none', update(['optimization_goal']), null],
    ['copy: none', context({ mode: 'copy' }), null],
  ])('%s', (_rule, ctx, expected) => {
    expect(withAdSetDefaults(draft({ optimizationGoal: null }), ctx).optimizationGoal).toBe(expected);
  });

  it('keeps a goal given', () => {
    expect(withAdSetDefaults(draft({ optimizationGoal: 'REACH' }), context()).optimizationGoal).toBe('REACH');
  });

  const FR = { targeting: { geo_locations: { countries: ['FR'] } } };
  it.each<[string, Partial<AdSetDraft>, AdSetRuleContext, [string | null, string | null]]>([
    ['create in the EU: both from the account', FR, context(), ['Acme Payor', 'Acme Brand']],
    [
      'create in the EU with a payor only: the beneficiary from the account, not the payor',
      { ...FR, dsaPayor: 'Sent Payor' },
      context(),
      ['Sent Payor', 'Acme Brand'],
    ],
    ['create outside the EU: nothing', {}, context(), [null, null]],
    ['copy in the EU: both from the account', FR, context({ mode: 'copy' }), ['Acme Payor', 'Acme Brand']],
    ['update retargeting to the EU: both from the account', FR, update(['targeting']), ['Acme Payor', 'Acme Brand']],
    ['update sending only a payor in the EU: the beneficiary from the account', { ...FR, dsaPayor: 'New' }, update(['dsa_payor']), ['New', 'Acme Brand']],
    ['update of something else: nothing', FR, update(['name', 'daily_budget']), [null, null]],
  ])('%s', (_rule, overrides, ctx, [payor, beneficiary]) => {
    const out = withAdSetDefaults(draft(overrides), ctx);
    expect([out.dsaPayor, out.dsaBeneficiary]).toEqual([payor, beneficiary]);
  });

  it('makes a payor-only EU create valid with the default beneficiary', () => {
    const filled = withAdSetDefaults(draft({ targeting: { geo_locations: { countries: ['IE'] } }, dsaPayor: 'Sent Payor' }), context());
    expect(adSetViolations(filled, context())).toEqual([]);
  });

  it.each<[string, Partial<AdSetDraft>, AdSetRuleContext, unknown]>([
    [
      'turns lookalike expansion on for conversions',
      { optimizationGoal: 'OFFSITE_CONVERSIONS' },
      context({ campaign: { ...CAMPAIGN, objective: 'OUTCOME_SALES' } }),
      { lookalike: 1 },
    ],
    ['also for the default goal', { optimizationGoal: null }, context({ campaign: { ...CAMPAIGN, objective: 'OUTCOME_SALES' } }), { lookalike: 1 }],
    [
      'keeping other types',
      { optimizationGoal: 'VALUE', targetingOptimizationTypes: { detailed_targeting: 1 } },
      context(),
      { detailed_targeting: 1, lookalike: 1 },
    ],
    ['also on update', { optimizationGoal: 'APP_INSTALLS' }, update(['name']), { lookalike: 1 }],
    ['not for other goals', { optimizationGoal: 'REACH', targetingOptimizationTypes: { lookalike: 0 } }, context(), { lookalike: 0 }],
  ])('%s', (_rule, overrides, ctx, expected) => {
    expect(withAdSetDefaults(draft(overrides), ctx).targetingOptimizationTypes).toEqual(expected);
  });

  it('does not change the draft it was given', () => {
    const given = draft({ optimizationGoal: null, targeting: { geo_locations: { countries: ['FR'] } } });
    const copy = structuredClone(given);
    withAdSetDefaults(given, context({ campaign: { ...CAMPAIGN, objective: 'OUTCOME_SALES' } }));
    expect(given).toEqual(copy);
  });
});
