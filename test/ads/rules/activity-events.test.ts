import { describe, expect, it } from 'vitest';
import { ACTIVITY_CATEGORIES, adEvents, adSetEvents, campaignEvents, copiedEvent, type ActivityEvent } from '../../../src/ads/rules/activity-events.ts';
import { targetingSentences } from '../../../src/ads/rules/targeting-sentences.ts';
import type { AdRecord, AdSetRecord, CampaignRecord } from '../../../src/ads/store.ts';

// What the change history (AdActivity) records for a write: one event per family of changed fields.
const CREATED = new Date('2026-03-01T12:00:00.000Z');
const LATER = new Date('2026-03-02T08:30:00.000Z');
const TARGETING = { geo_locations: { countries: ['FR'] }, age_min: 18, age_max: 65 };

// Every field spelled out, so tsc checks the factories against the records.
const adSet = (over: Partial<AdSetRecord> = {}): AdSetRecord => ({
  id: '120000000000001',
  organizationId: 'org-1',
  createdTime: CREATED,
  updatedTime: CREATED,
  accountId: 'act_1',
  campaignId: '120000000000100',
  name: 'Spring set',
  status: 'PAUSED',
  assetFeedId: null,
  bidAmount: null,
  bidStrategy: 'LOWEST_COST_WITHOUT_CAP',
  billingEvent: 'IMPRESSIONS',
  campaignAttribution: null,
  dailyBudget: '5000',
  dailyMinSpendTarget: null,
  dailySpendCap: null,
  dailyImps: null,
  destinationType: 'WEBSITE',
  dsaBeneficiary: null,
  dsaPayor: null,
  startTime: new Date('2026-03-05T00:00:00.000Z'),
  endTime: null,
  lastSignificantEditTime: CREATED,
  statusChangedTime: null,
  lifetimeBudget: null,
  lifetimeImps: null,
  lifetimeMinSpendTarget: null,
  lifetimeSpendCap: null,
  isIncrementalAttributionEnabled: null,
  isDynamicCreative: false,
  isSacCfcaTermsCertified: null,
  instagramUserId: null,
  minBudgetSpendPercentage: null,
  maxBudgetSpendPercentage: null,
  existingCustomerBudgetPercentage: null,
  anchorEventAttributionWindowDays: null,
  automaticManualState: null,
  budgetSource: null,
  budgetSplitSetId: null,
  multiOptimizationGoalWeight: null,
  optimizationGoal: 'LINK_CLICKS',
  optimizationSubEvent: null,
  recurringBudgetSemantics: null,
  reviewFeedback: null,
  rfPredictionId: null,
  sourceAdsetId: null,
  tuneForCategory: null,
  useNewAppClick: null,
  valueRuleSetId: null,
  valueRulesApplied: null,
  adlabels: [],
  adsetSchedule: null,
  attributionSpec: [{ event_type: 'CLICK_THROUGH', window_days: 7 }],
  bidAdjustments: null,
  bidConstraints: null,
  bidInfo: null,
  brandSafetyConfig: null,
  budgetScheduleSpecs: null,
  campaignSpec: null,
  contextualBundlingSpec: null,
  creativeSequence: null,
  frequencyControlSpecs: null,
  pacingType: ['standard'],
  promotedObject: { pixel_id: '42', custom_event_type: 'PURCHASE' },
  regionalRegulatedCategories: null,
  regionalRegulationIdentities: null,
  targeting: TARGETING,
  targetingOptimizationTypes: null,
  timeBasedAdRotationIdBlocks: null,
  timeBasedAdRotationIntervals: null,
  ...over,
});

const campaign = (over: Partial<CampaignRecord> = {}): CampaignRecord => ({
  id: '120000000000100',
  organizationId: 'org-1',
  createdTime: CREATED,
  updatedTime: CREATED,
  accountId: 'act_1',
  name: 'Spring campaign',
  objective: 'OUTCOME_TRAFFIC',
  status: 'ACTIVE',
  specialAdCategories: [],
  specialAdCategoryCountry: null,
  bidStrategy: null,
  buyingType: 'AUCTION',
  dailyBudget: null,
  lifetimeBudget: null,
  spendCap: null,
  startTime: null,
  stopTime: null,
  activeSeconds: '0',
  statusChangedTime: null,
  ...over,
});

const ad = (over: Partial<AdRecord> = {}): AdRecord => ({
  id: '120000000001000',
  organizationId: 'org-1',
  createdTime: CREATED,
  updatedTime: CREATED,
  accountId: 'act_1',
  campaignId: '120000000000100',
  adsetId: '120000000000001',
  name: 'Spring ad',
  status: 'ACTIVE',
  creativeId: '900',
  sourceAdId: null,
  ...over,
});

const types = (events: ActivityEvent[]) => events.map((event) => event.eventType);

describe('create events', () => {
  it('an ad set is created with its name, status, budgets, optimization goal and billing event', () => {
    expect(adSetEvents(null, adSet())).toEqual([
      {
        eventType: 'create_ad_set',
        category: 'AD_SET',
        translatedEventType: 'Ad set created',
        extraData: {
          name: 'Spring set',
          status: 'PAUSED',
          daily_budget: '5000',
          lifetime_budget: null,
          optimization_goal: 'LINK_CLICKS',
          billing_event: 'IMPRESSIONS',
        },
      },
    ]);
  });

  it('a campaign is created with its name, status, objective and budgets', () => {
    expect(campaignEvents(null, campaign({ lifetimeBudget: '100000', spendCap: '200000' }))).toEqual([
      {
        eventType: 'create_campaign',
        category: 'CAMPAIGN',
        translatedEventType: 'Campaign created',
        extraData: {
          name: 'Spring campaign',
          status: 'ACTIVE',
          objective: 'OUTCOME_TRAFFIC',
          daily_budget: null,
          lifetime_budget: '100000',
          spend_cap: '200000',
        },
      },
    ]);
  });

  it('an ad is created with its name, status and ad set', () => {
    expect(adEvents(null, ad())).toEqual([
      {
        eventType: 'create_ad',
        category: 'AD',
        translatedEventType: 'Ad created',
        extraData: { name: 'Spring ad', status: 'ACTIVE', adset_id: '120000000000001' },
      },
    ]);
  });

  it('every category used is one of ACTIVITY_CATEGORIES', () => {
    const events = [...adSetEvents(null, adSet()), ...campaignEvents(null, campaign()), ...adEvents(null, ad())];
    for (const event of events) expect(ACTIVITY_CATEGORIES).toContain(event.category);
  });
});

describe('ad set updates: each family alone gives its one event', () => {
  it('name', () => {
    expect(adSetEvents(adSet(), adSet({ name: 'Summer set' }))).toEqual([
      {
        eventType: 'update_ad_set_name',
        category: 'AD_SET',
        translatedEventType: 'Ad set name updated',
        extraData: { old_value: 'Spring set', new_value: 'Summer set' },
      },
    ]);
  });

  it('run status', () => {
    expect(adSetEvents(adSet(), adSet({ status: 'ACTIVE' }))).toEqual([
      {
        eventType: 'update_ad_set_run_status',
        category: 'STATUS',
        translatedEventType: 'Ad set run status updated',
        extraData: { old_value: 'PAUSED', new_value: 'ACTIVE' },
      },
    ]);
  });

  it('DELETED gives the delete event, not a run status update', () => {
    expect(adSetEvents(adSet(), adSet({ status: 'DELETED' }))).toEqual([
      { eventType: 'delete_ad_set', category: 'STATUS', translatedEventType: 'Ad set deleted', extraData: { old_value: 'PAUSED', new_value: 'DELETED' } },
    ]);
  });

  it('ARCHIVED is a run status update', () => {
    expect(types(adSetEvents(adSet(), adSet({ status: 'ARCHIVED' })))).toEqual(['update_ad_set_run_status']);
  });

  it('daily budget', () => {
    expect(adSetEvents(adSet(), adSet({ dailyBudget: '7500' }))).toEqual([
      {
        eventType: 'update_ad_set_budget',
        category: 'BUDGET',
        translatedEventType: 'Ad set budget updated',
        extraData: {
          old_value: { daily_budget: '5000', lifetime_budget: null },
          new_value: { daily_budget: '7500', lifetime_budget: null },
          type: 'daily',
        },
      },
    ]);
  });

  it('daily to lifetime budget is one lifetime budget event', () => {
    expect(adSetEvents(adSet(), adSet({ dailyBudget: null, lifetimeBudget: '300000' }))).toEqual([
      {
        eventType: 'update_ad_set_budget',
        category: 'BUDGET',
        translatedEventType: 'Ad set budget updated',
        extraData: {
          old_value: { daily_budget: '5000', lifetime_budget: null },
          new_value: { daily_budget: null, lifetime_budget: '300000' },
          type: 'lifetime',
        },
      },
    ]);
  });

  it('targeting, with readable lines and the changed headings', () => {
    const after = { ...TARGETING, age_min: 25, age_max: 54 };
    const names = { audiences: new Map<string, string>() };
    expect(adSetEvents(adSet(), adSet({ targeting: after }))).toEqual([
      {
        eventType: 'update_ad_set_target_spec',
        category: 'TARGETING',
        translatedEventType: 'Ad set targeting updated',
        extraData: {
          old_value: TARGETING,
          new_value: after,
          old_sentences: targetingSentences(TARGETING, names),
          new_sentences: targetingSentences(after, names),
          changed_lines: ['Age:'],
        },
      },
    ]);
  });

  it('targeting: added and removed headings are changed lines too', () => {
    const before = { ...TARGETING, genders: [1] };
    const after = { ...TARGETING, geo_locations: { countries: ['FR', 'DE'] }, publisher_platforms: ['facebook'] };
    const [event] = adSetEvents(adSet({ targeting: before }), adSet({ targeting: after }));
    expect(event?.extraData.changed_lines).toEqual(['Location:', 'Placements:', 'Gender:']);
  });

  it('targeting with the same keys in another order is no change', () => {
    expect(adSetEvents(adSet(), adSet({ targeting: { age_max: 65, age_min: 18, geo_locations: { countries: ['FR'] } } }))).toEqual([]);
  });

  it('bidding', () => {
    expect(adSetEvents(adSet(), adSet({ bidStrategy: 'LOWEST_COST_WITH_BID_CAP', bidAmount: '250' }))).toEqual([
      {
        eventType: 'update_ad_set_bidding',
        category: 'BID',
        translatedEventType: 'Ad set bidding updated',
        extraData: {
          old_value: { bid_amount: null, bid_strategy: 'LOWEST_COST_WITHOUT_CAP', bid_constraints: null, billing_event: 'IMPRESSIONS' },
          new_value: { bid_amount: '250', bid_strategy: 'LOWEST_COST_WITH_BID_CAP', bid_constraints: null, billing_event: 'IMPRESSIONS' },
        },
      },
    ]);
  });

  it('billing event alone is bidding', () => {
    expect(types(adSetEvents(adSet(), adSet({ billingEvent: 'LINK_CLICKS' })))).toEqual(['update_ad_set_bidding']);
  });

  it('schedule, times as ISO strings', () => {
    expect(adSetEvents(adSet(), adSet({ endTime: new Date('2026-04-01T00:00:00.000Z') }))).toEqual([
      {
        eventType: 'update_ad_set_duration',
        category: 'DATE',
        translatedEventType: 'Ad set schedule updated',
        extraData: {
          old_value: { start_time: '2026-03-05T00:00:00.000Z', end_time: null },
          new_value: { start_time: '2026-03-05T00:00:00.000Z', end_time: '2026-04-01T00:00:00.000Z' },
        },
      },
    ]);
  });

  it('an equal time in another Date object is no change', () => {
    expect(adSetEvents(adSet(), adSet({ startTime: new Date('2026-03-05T00:00:00.000Z') }))).toEqual([]);
  });

  it('optimization goal', () => {
    expect(adSetEvents(adSet(), adSet({ optimizationGoal: 'OFFSITE_CONVERSIONS' }))).toEqual([
      {
        eventType: 'update_ad_set_optimization_goal',
        category: 'AD_SET',
        translatedEventType: 'Ad set optimization goal updated',
        extraData: { old_value: 'LINK_CLICKS', new_value: 'OFFSITE_CONVERSIONS' },
      },
    ]);
  });

  it('any other field gives the generic event naming it', () => {
    expect(adSetEvents(adSet(), adSet({ pacingType: ['no_pacing'] }))).toEqual([
      {
        eventType: 'update_ad_set',
        category: 'AD_SET',
        translatedEventType: 'Ad set updated',
        extraData: { fields: ['pacing_type'], old_value: { pacing_type: ['standard'] }, new_value: { pacing_type: ['no_pacing'] } },
      },
    ]);
  });

  it('several other fields share the one generic event', () => {
    expect(adSetEvents(adSet(), adSet({ destinationType: 'MESSENGER', isDynamicCreative: true, lifetimeImps: 1000 }))).toEqual([
      {
        eventType: 'update_ad_set',
        category: 'AD_SET',
        translatedEventType: 'Ad set updated',
        extraData: {
          fields: ['destination_type', 'lifetime_imps', 'is_dynamic_creative'],
          old_value: { destination_type: 'WEBSITE', lifetime_imps: null, is_dynamic_creative: false },
          new_value: { destination_type: 'MESSENGER', lifetime_imps: 1000, is_dynamic_creative: true },
        },
      },
    ]);
  });
});

describe('ad set updates: order and nothing to record', () => {
  it('several families give their events in the documented order', () => {
    const before = adSet();
    const after = adSet({
      pacingType: ['no_pacing'],
      optimizationGoal: 'REACH',
      endTime: LATER,
      bidAmount: '100',
      targeting: { ...TARGETING, age_min: 30 },
      dailyBudget: '9000',
      status: 'ACTIVE',
      name: 'Renamed',
      updatedTime: LATER,
    });
    expect(types(adSetEvents(before, after))).toEqual([
      'update_ad_set_name',
      'update_ad_set_run_status',
      'update_ad_set_budget',
      'update_ad_set_target_spec',
      'update_ad_set_bidding',
      'update_ad_set_duration',
      'update_ad_set_optimization_goal',
      'update_ad_set',
    ]);
  });

  it('equal records give no events', () => {
    expect(adSetEvents(adSet(), adSet())).toEqual([]);
  });

  it('updatedTime alone gives none', () => {
    expect(adSetEvents(adSet(), adSet({ updatedTime: LATER }))).toEqual([]);
  });

  it('internal fields alone give none', () => {
    expect(adSetEvents(adSet(), adSet({ lastSignificantEditTime: LATER, statusChangedTime: LATER, updatedTime: LATER }))).toEqual([]);
    expect(campaignEvents(campaign(), campaign({ activeSeconds: '3600', statusChangedTime: LATER }))).toEqual([]);
  });

  it('internal fields never appear in the generic event', () => {
    const [event] = adSetEvents(adSet(), adSet({ destinationType: 'APP', lastSignificantEditTime: LATER }));
    expect(event?.extraData.fields).toEqual(['destination_type']);
  });

  it('extraData holds copies, not the records’ own objects', () => {
    const after = adSet({ pacingType: ['no_pacing'] });
    const [event] = adSetEvents(adSet(), after);
    expect((event?.extraData.new_value as Record<string, unknown>).pacing_type).not.toBe(after.pacingType);
  });
});

describe('campaign updates', () => {
  it('name', () => {
    expect(campaignEvents(campaign(), campaign({ name: 'Autumn' }))).toEqual([
      {
        eventType: 'update_campaign_name',
        category: 'CAMPAIGN',
        translatedEventType: 'Campaign name updated',
        extraData: { old_value: 'Spring campaign', new_value: 'Autumn' },
      },
    ]);
  });

  it('run status and delete', () => {
    expect(campaignEvents(campaign(), campaign({ status: 'PAUSED' }))).toEqual([
      {
        eventType: 'update_campaign_run_status',
        category: 'STATUS',
        translatedEventType: 'Campaign run status updated',
        extraData: { old_value: 'ACTIVE', new_value: 'PAUSED' },
      },
    ]);
    expect(campaignEvents(campaign(), campaign({ status: 'DELETED' }))).toEqual([
      { eventType: 'delete_campaign', category: 'STATUS', translatedEventType: 'Campaign deleted', extraData: { old_value: 'ACTIVE', new_value: 'DELETED' } },
    ]);
  });

  it('budget, with the spend cap', () => {
    expect(campaignEvents(campaign({ dailyBudget: '10000' }), campaign({ dailyBudget: '10000', spendCap: '500000' }))).toEqual([
      {
        eventType: 'update_campaign_budget',
        category: 'BUDGET',
        translatedEventType: 'Campaign budget updated',
        extraData: {
          old_value: { daily_budget: '10000', lifetime_budget: null, spend_cap: null },
          new_value: { daily_budget: '10000', lifetime_budget: null, spend_cap: '500000' },
          type: 'daily',
        },
      },
    ]);
  });

  it('a removed lifetime budget is a lifetime budget event', () => {
    const [event] = campaignEvents(campaign({ lifetimeBudget: '100000' }), campaign());
    expect(event?.extraData.type).toBe('lifetime');
  });

  it('bidding', () => {
    expect(campaignEvents(campaign(), campaign({ bidStrategy: 'COST_CAP' }))).toEqual([
      {
        eventType: 'update_campaign_bidding',
        category: 'BID',
        translatedEventType: 'Campaign bidding updated',
        extraData: { old_value: { bid_strategy: null }, new_value: { bid_strategy: 'COST_CAP' } },
      },
    ]);
  });

  it('schedule', () => {
    expect(campaignEvents(campaign(), campaign({ startTime: CREATED, stopTime: LATER }))).toEqual([
      {
        eventType: 'update_campaign_schedule',
        category: 'DATE',
        translatedEventType: 'Campaign schedule updated',
        extraData: {
          old_value: { start_time: null, stop_time: null },
          new_value: { start_time: '2026-03-01T12:00:00.000Z', stop_time: '2026-03-02T08:30:00.000Z' },
        },
      },
    ]);
  });

  it('other fields give the generic event', () => {
    expect(campaignEvents(campaign(), campaign({ specialAdCategories: ['HOUSING'], specialAdCategoryCountry: 'US' }))).toEqual([
      {
        eventType: 'update_campaign',
        category: 'CAMPAIGN',
        translatedEventType: 'Campaign updated',
        extraData: {
          fields: ['special_ad_categories', 'special_ad_category_country'],
          old_value: { special_ad_categories: [], special_ad_category_country: null },
          new_value: { special_ad_categories: ['HOUSING'], special_ad_category_country: 'US' },
        },
      },
    ]);
  });

  it('several families in order', () => {
    const after = campaign({ objective: 'OUTCOME_SALES', stopTime: LATER, bidStrategy: 'COST_CAP', lifetimeBudget: '1000', status: 'PAUSED', name: 'X' });
    expect(types(campaignEvents(campaign(), after))).toEqual([
      'update_campaign_name',
      'update_campaign_run_status',
      'update_campaign_budget',
      'update_campaign_bidding',
      'update_campaign_schedule',
      'update_campaign',
    ]);
  });

  it('equal records give no events', () => {
    expect(campaignEvents(campaign(), campaign({ updatedTime: LATER }))).toEqual([]);
  });
});

describe('ad updates', () => {
  it('name', () => {
    expect(adEvents(ad(), ad({ name: 'New ad' }))).toEqual([
      { eventType: 'update_ad_name', category: 'AD', translatedEventType: 'Ad name updated', extraData: { old_value: 'Spring ad', new_value: 'New ad' } },
    ]);
  });

  it('run status and delete', () => {
    expect(adEvents(ad(), ad({ status: 'PAUSED' }))).toEqual([
      {
        eventType: 'update_ad_run_status',
        category: 'STATUS',
        translatedEventType: 'Ad run status updated',
        extraData: { old_value: 'ACTIVE', new_value: 'PAUSED' },
      },
    ]);
    expect(adEvents(ad(), ad({ status: 'DELETED' }))).toEqual([
      { eventType: 'delete_ad', category: 'STATUS', translatedEventType: 'Ad deleted', extraData: { old_value: 'ACTIVE', new_value: 'DELETED' } },
    ]);
  });

  it('creative', () => {
    expect(adEvents(ad(), ad({ creativeId: '901' }))).toEqual([
      {
        eventType: 'update_ad_creative',
        category: 'AD',
        translatedEventType: 'Ad creative updated',
        extraData: { old_value: '900', new_value: '901' },
      },
    ]);
  });

  it('other fields give the generic event', () => {
    expect(adEvents(ad(), ad({ adsetId: '120000000000002' }))).toEqual([
      {
        eventType: 'update_ad',
        category: 'AD',
        translatedEventType: 'Ad updated',
        extraData: { fields: ['adset_id'], old_value: { adset_id: '120000000000001' }, new_value: { adset_id: '120000000000002' } },
      },
    ]);
  });

  it('several families in order; equal records give none', () => {
    expect(types(adEvents(ad(), ad({ sourceAdId: '5', creativeId: '902', status: 'PAUSED', name: 'Y' })))).toEqual([
      'update_ad_name',
      'update_ad_run_status',
      'update_ad_creative',
      'update_ad',
    ]);
    expect(adEvents(ad(), ad({ updatedTime: LATER }))).toEqual([]);
  });
});

describe('copiedEvent', () => {
  it('names the source on the copy', () => {
    expect(copiedEvent('AD_SET', { id: '1', name: 'Spring set' }, { id: '2', name: 'Spring set - Copy' })).toEqual({
      eventType: 'copy_ad_set',
      category: 'AD_SET',
      translatedEventType: 'Ad set copied',
      extraData: { source_id: '1', source_name: 'Spring set', name: 'Spring set - Copy' },
    });
  });

  it('for campaigns and ads too', () => {
    const campaignCopy = copiedEvent('CAMPAIGN', { id: '10', name: 'C' }, { id: '11', name: 'C - Copy' });
    expect([campaignCopy.eventType, campaignCopy.category, campaignCopy.translatedEventType, campaignCopy.extraData.source_id]).toEqual([
      'copy_campaign',
      'CAMPAIGN',
      'Campaign copied',
      '10',
    ]);
    const adCopy = copiedEvent('AD', { id: '20', name: 'A' }, { id: '21', name: 'A - Copy' });
    expect([adCopy.eventType, adCopy.category, adCopy.translatedEventType, adCopy.extraData.source_id]).toEqual(['copy_ad', 'AD', 'Ad copied', '20']);
  });
});
