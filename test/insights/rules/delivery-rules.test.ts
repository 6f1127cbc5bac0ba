import { describe, expect, it } from 'vitest';
import { budgetPeriod, budgetRemaining, type BudgetHolder } from '../../../src/insights/rules/budget-period.ts';
import { todayIn } from '../../../src/insights/rules/windows.ts';
import { afterStatusChange, campaignActiveSeconds, type CampaignActivity } from '../../../src/insights/rules/active-time.ts';
import {
  attributionWindows,
  countEvents,
  learningDays,
  learningStatus,
  optimizationEventOf,
  type LearningDay,
} from '../../../src/insights/rules/learning-stage.ts';
import { amountChangedSignificantly, campaignSignificantEdits, significantEdits, type LearningFields } from '../../../src/insights/rules/significant-edits.ts';

const at = (iso: string) => new Date(iso);
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

describe('the account day of an instant (what today, budgets and learning read)', () => {
  it.each([
    ['UTC midnight is the new day in UTC', '2026-03-10T00:00:00Z', 'Etc/UTC', '2026-03-10'],
    ['06:59 UTC is still yesterday in Los Angeles (PDT, UTC-7)', '2026-03-10T06:59:59Z', 'America/Los_Angeles', '2026-03-09'],
    ['07:00 UTC is the new day in Los Angeles (PDT)', '2026-03-10T07:00:00Z', 'America/Los_Angeles', '2026-03-10'],
    ['08:00 UTC is the new day in Los Angeles in winter (PST, UTC-8)', '2026-01-10T08:00:00Z', 'America/Los_Angeles', '2026-01-10'],
    ['15:00 UTC is already tomorrow in Tokyo', '2026-03-10T15:00:00Z', 'Asia/Tokyo', '2026-03-11'],
    ['the 23-hour day of spring forward (03-08) begins at 08:00 UTC', '2026-03-08T07:30:00Z', 'America/Los_Angeles', '2026-03-07'],
    ['the 23-hour day ends at 07:00 UTC on the 9th (PDT)', '2026-03-09T06:30:00Z', 'America/Los_Angeles', '2026-03-08'],
    ['the 25-hour day of fall back, its last hour', '2026-11-02T07:30:00Z', 'America/Los_Angeles', '2026-11-01'],
  ])('%s', (_rule, instant, zone, day) => {
    expect(todayIn(zone, at(instant))).toBe(day);
  });
});

describe('budgetPeriod and budgetRemaining', () => {
  const created = at('2026-03-01T12:00:00Z');
  const holder = (fields: Partial<BudgetHolder>): BudgetHolder => ({
    dailyBudget: null,
    lifetimeBudget: null,
    startTime: null,
    createdTime: created,
    ...fields,
  });
  const now = at('2026-03-10T06:30:00Z');

  it.each([
    [
      'a daily budget counts today in the account time zone',
      { dailyBudget: '5000' },
      'Etc/UTC',
      { budget: 5000, days: { since: '2026-03-10', until: '2026-03-10' } },
    ],
    [
      'today in Los Angeles is still the 9th at 06:30 UTC',
      { dailyBudget: '5000' },
      'America/Los_Angeles',
      { budget: 5000, days: { since: '2026-03-09', until: '2026-03-09' } },
    ],
    [
      'a lifetime budget counts from the schedule start',
      { lifetimeBudget: '900000', startTime: at('2026-03-05T10:00:00Z') },
      'Etc/UTC',
      { budget: 900000, days: { since: '2026-03-05', until: '2026-03-10' } },
    ],
    [
      'a lifetime budget without a start counts from its creation',
      { lifetimeBudget: '900000' },
      'Etc/UTC',
      { budget: 900000, days: { since: '2026-03-01', until: '2026-03-10' } },
    ],
    [
      'a schedule that starts later has no days yet',
      { lifetimeBudget: '900000', startTime: at('2026-04-01T00:00:00Z') },
      'Etc/UTC',
      { budget: 900000, days: { since: '2026-04-01', until: '2026-03-10' } },
    ],
    ['no budget of its own: none', {}, 'Etc/UTC', null],
  ] as const)('%s', (_rule, fields, zone, period) => {
    expect(budgetPeriod(holder(fields), now, zone)).toEqual(period);
  });

  it.each([
    ['budget less spend', 5000, 1234, 3766],
    ['spent exactly', 5000, 5000, 0],
    ['overspent reads 0, never negative', 5000, 6100, 0],
    ['JPY has no minor unit: yen', 3000, 1, 2999],
  ])('%s', (_rule, budget, spent, left) => {
    expect(budgetRemaining({ budget, days: { since: '2026-03-10', until: '2026-03-10' } }, spent)).toBe(left);
  });

  it('holding no budget leaves 0', () => expect(budgetRemaining(null, 100)).toBe(0));
});

describe('campaign running length', () => {
  const created = at('2026-03-01T00:00:00Z');
  const campaign = (fields: Partial<CampaignActivity>): CampaignActivity => ({
    status: 'ACTIVE',
    activeSeconds: '0',
    statusChangedTime: null,
    createdTime: created,
    startTime: null,
    stopTime: null,
    ...fields,
  });
  const now = at('2026-03-03T00:00:00Z');

  it.each([
    ['ACTIVE since creation', {}, 2 * 86400],
    ['PAUSED since creation: never ran', { status: 'PAUSED' }, 0],
    ['ended spells only while PAUSED', { status: 'PAUSED', activeSeconds: '3600', statusChangedTime: at('2026-03-02T00:00:00Z') }, 3600],
    ['ended spells and the current one', { activeSeconds: '3600', statusChangedTime: at('2026-03-02T12:00:00Z') }, 3600 + 12 * 3600],
    ['the schedule starts later than the spell', { startTime: at('2026-03-02T00:00:00Z') }, 86400],
    ['the schedule stopped before now', { stopTime: at('2026-03-01T06:00:00Z') }, 6 * 3600],
    ['a schedule not started yet', { startTime: at('2026-04-01T00:00:00Z') }, 0],
  ] as const)('%s', (_rule, fields, seconds) => {
    expect(campaignActiveSeconds(campaign(fields), now)).toBe(seconds);
  });

  it('a pause keeps the spell that ends; activating again starts a new one', () => {
    const paused = { ...campaign({}), ...afterStatusChange(campaign({}), at('2026-03-02T00:00:00Z')), status: 'PAUSED' };
    expect(paused.activeSeconds).toBe(String(86400));
    const again = { ...paused, ...afterStatusChange(paused, at('2026-03-02T18:00:00Z')), status: 'ACTIVE' };
    expect(again.activeSeconds).toBe(String(86400));
    expect(campaignActiveSeconds(again, now)).toBe(86400 + 6 * 3600);
  });
});

describe('learning stage', () => {
  it.each([
    ['LINK_CLICKS', null, { kind: 'action', actionType: 'link_click' }],
    ['LANDING_PAGE_VIEWS', null, { kind: 'action', actionType: 'landing_page_view' }],
    ['LEAD_GENERATION', null, { kind: 'action', actionType: 'lead' }],
    ['OFFSITE_CONVERSIONS', null, { kind: 'action', actionType: 'purchase' }],
    ['OFFSITE_CONVERSIONS', { pixel_id: '1', custom_event_type: 'COMPLETE_REGISTRATION' }, { kind: 'action', actionType: 'complete_registration' }],
    ['VALUE', { pixel_id: '1', custom_event_type: 'PURCHASE' }, { kind: 'action', actionType: 'purchase' }],
    ['THRUPLAY', null, { kind: 'action', actionType: 'video_view' }],
    ['POST_ENGAGEMENT', null, { kind: 'action', actionType: 'post_engagement' }],
    ['IMPRESSIONS', null, { kind: 'impressions' }],
    ['REACH', null, { kind: 'impressions' }],
    ['NONE', null, null],
    [null, null, null],
  ] as const)('%s (%j) optimizes for %j', (goal, promotedObject, event) => {
    expect(optimizationEventOf(goal, promotedObject)).toEqual(event);
  });

  const days: LearningDay[] = [
    { impressions: 1000, actions: { link_click: 20, lead: 1 } },
    { impressions: 500, actions: { link_click: 31 } },
  ];
  it('counts the goal event over the days', () => {
    expect(countEvents({ kind: 'action', actionType: 'link_click' }, days)).toBe(51);
    expect(countEvents({ kind: 'action', actionType: 'lead' }, days)).toBe(1);
    expect(countEvents({ kind: 'action', actionType: 'purchase' }, days)).toBe(0);
    expect(countEvents({ kind: 'impressions' }, days)).toBe(1500);
  });

  it('counts the account days that the 7 days after the edit touch', () => {
    expect(learningDays(at('2026-03-10T20:00:00Z'), 'Etc/UTC')).toEqual({ since: '2026-03-10', until: '2026-03-17' });
    // 20:00 UTC is 13:00 in Los Angeles, the same day there; 04:00 UTC is the day before.
    expect(learningDays(at('2026-03-10T04:00:00Z'), 'America/Los_Angeles')).toEqual({ since: '2026-03-09', until: '2026-03-16' });
  });

  const edit = at('2026-03-10T12:00:00Z');
  it.each([
    ['no events yet, just edited', 0, 1 * HOUR, 'LEARNING'],
    ['49 events within the 7 days', 49, 6 * DAY, 'LEARNING'],
    ['50 events: learned', 50, 2 * DAY, 'SUCCESS'],
    ['50 events, read long after: still learned', 50, 30 * DAY, 'SUCCESS'],
    ['7 days without 50', 49, 7 * DAY, 'FAIL'],
    ['a moment before the 7 days end', 10, 7 * DAY - 1000, 'LEARNING'],
  ] as const)('%s: %s', (_rule, events, after, status) => {
    expect(learningStatus(events, edit, new Date(edit.getTime() + after))).toBe(status);
  });

  it.each([
    ['the platform default without a spec', null, ['7d_click', '1d_view']],
    ['an empty spec', [], ['7d_click', '1d_view']],
    [
      'click and view windows',
      [
        { event_type: 'CLICK_THROUGH', window_days: 1 },
        { event_type: 'VIEW_THROUGH', window_days: 1 },
      ],
      ['1d_click', '1d_view'],
    ],
    ['engaged video views', [{ event_type: 'ENGAGED_VIDEO_VIEW', window_days: 1 }], ['1d_ev']],
  ])('attribution windows: %s', (_rule, spec, windows) => {
    expect(attributionWindows(spec)).toEqual(windows);
  });
});

describe('significant edits', () => {
  const created = at('2026-03-01T00:00:00Z');
  const base: LearningFields = {
    status: 'ACTIVE',
    statusChangedTime: null,
    createdTime: created,
    targeting: { geo_locations: { countries: ['US'] } },
    optimizationGoal: 'LINK_CLICKS',
    promotedObject: null,
    billingEvent: 'IMPRESSIONS',
    bidStrategy: 'LOWEST_COST_WITHOUT_CAP',
    bidAmount: null,
    dailyBudget: '10000',
    lifetimeBudget: null,
  };
  const now = at('2026-03-20T00:00:00Z');

  it.each([
    ['targeting changed', {}, { targeting: { geo_locations: { countries: ['CA'] } } }, ['targeting']],
    ['optimization goal changed', {}, { optimizationGoal: 'LANDING_PAGE_VIEWS' }, ['optimization_goal']],
    ['the conversion event changed', {}, { promotedObject: { pixel_id: '1', custom_event_type: 'LEAD' } }, ['promoted_object']],
    ['billing event changed', {}, { billingEvent: 'LINK_CLICKS' }, ['billing_event']],
    ['bid strategy changed', {}, { bidStrategy: 'COST_CAP', bidAmount: '300' }, ['bid_strategy', 'bid_amount']],
    ['bid amount +20%', { bidAmount: '500' }, { bidAmount: '600' }, ['bid_amount']],
    ['bid amount +10%: not significant', { bidAmount: '500' }, { bidAmount: '550' }, []],
    ['budget +20%', {}, { dailyBudget: '12000' }, ['budget']],
    ['budget -25%', {}, { dailyBudget: '7500' }, ['budget']],
    ['budget +19.99%: not significant', {}, { dailyBudget: '11999' }, []],
    ['daily to lifetime', {}, { dailyBudget: null, lifetimeBudget: '700000' }, ['budget']],
    ['ACTIVE again after 7 days paused', { status: 'PAUSED', statusChangedTime: at('2026-03-13T00:00:00Z') }, { status: 'ACTIVE' }, ['status']],
    ['ACTIVE again after 6 days paused: not significant', { status: 'PAUSED', statusChangedTime: at('2026-03-14T00:00:00Z') }, { status: 'ACTIVE' }, []],
    ['created PAUSED, ACTIVE 19 days later', { status: 'PAUSED' }, { status: 'ACTIVE' }, ['status']],
    ['a pause itself: not significant', {}, { status: 'PAUSED' }, []],
    ['the same targeting written again: not significant', {}, { targeting: { geo_locations: { countries: ['US'] } } }, []],
  ] as const)('%s', (_rule, before, after, edits) => {
    const old = { ...base, ...before } as LearningFields;
    expect(significantEdits(old, { ...old, ...after } as LearningFields, now)).toEqual(edits);
  });

  it.each([
    ['500 to 600', '500', '600', true],
    ['500 to 599', '500', '599', false],
    ['none to some', null, '100', true],
    ['some to none', '100', null, true],
    ['none to none', null, null, false],
  ] as const)('amounts: %s', (_rule, before, after, significant) => {
    expect(amountChangedSignificantly(before, after)).toBe(significant);
  });

  it('a campaign budget or bid strategy change restarts its ad sets; a small budget change does not', () => {
    const campaign = { bidStrategy: null, dailyBudget: '50000', lifetimeBudget: null };
    expect(campaignSignificantEdits(campaign, { ...campaign, dailyBudget: '70000' })).toEqual(['budget']);
    expect(campaignSignificantEdits(campaign, { ...campaign, bidStrategy: 'COST_CAP' })).toEqual(['bid_strategy']);
    expect(campaignSignificantEdits(campaign, { ...campaign, dailyBudget: '55000' })).toEqual([]);
  });
});
