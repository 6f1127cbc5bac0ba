import { describe, expect, it } from 'vitest';
import { BILLING_EVENTS, OBJECTIVES, OPTIMIZATION_GOALS, type Objective } from '../../../src/ads/rules/enums.ts';
import {
  appKind,
  appViolations,
  billableBy,
  DEFAULT_GOAL,
  goalViolations,
  lookalikeExpansionViolations,
  promotedObjectViolations,
  withLookalikeExpansion,
  type GoalFields,
} from '../../../src/ads/rules/objectives.ts';

const goal = (overrides: Partial<GoalFields> = {}): GoalFields => ({
  optimizationGoal: null,
  billingEvent: null,
  destinationType: null,
  promotedObject: null,
  targeting: { geo_locations: { countries: ['US'] } },
  targetingOptimizationTypes: null,
  ...overrides,
});
const fieldsOf = (found: Array<{ field: string }>) => found.map((v) => v.field);

describe('objective, destination and goal pairing', () => {
  // The specification's "outcome-driven objectives pair with destinations and goals".
  const ALLOWED: Array<[Objective, string | null, string]> = [
    ['OUTCOME_AWARENESS', null, 'AD_RECALL_LIFT'],
    ['OUTCOME_AWARENESS', null, 'REACH'],
    ['OUTCOME_AWARENESS', null, 'IMPRESSIONS'],
    ['OUTCOME_TRAFFIC', 'WEBSITE', 'LINK_CLICKS'],
    ['OUTCOME_TRAFFIC', 'WEBSITE', 'LANDING_PAGE_VIEWS'],
    ['OUTCOME_TRAFFIC', 'APP', 'IMPRESSIONS'],
    ['OUTCOME_TRAFFIC', 'MESSENGER', 'LINK_CLICKS'],
    ['OUTCOME_TRAFFIC', 'SHOP_AUTOMATIC', 'REACH'],
    ['OUTCOME_ENGAGEMENT', 'ON_VIDEO', 'THRUPLAY'],
    ['OUTCOME_ENGAGEMENT', 'ON_POST', 'POST_ENGAGEMENT'],
    ['OUTCOME_ENGAGEMENT', 'ON_EVENT', 'EVENT_RESPONSES'],
    ['OUTCOME_ENGAGEMENT', 'WHATSAPP', 'CONVERSATIONS'],
    ['OUTCOME_ENGAGEMENT', 'MESSENGER', 'LINK_CLICKS'],
    ['OUTCOME_ENGAGEMENT', 'ON_PAGE', 'PAGE_LIKES'],
    ['OUTCOME_ENGAGEMENT', 'WEBSITE', 'OFFSITE_CONVERSIONS'],
    ['OUTCOME_ENGAGEMENT', 'APP', 'OFFSITE_CONVERSIONS'],
    ['OUTCOME_LEADS', 'WEBSITE', 'OFFSITE_CONVERSIONS'],
    ['OUTCOME_LEADS', 'ON_AD', 'LEAD_GENERATION'],
    ['OUTCOME_LEADS', 'MESSENGER', 'LEAD_GENERATION'],
    ['OUTCOME_LEADS', 'FACEBOOK', 'QUALITY_CALL'],
    ['OUTCOME_LEADS', 'APP', 'APP_INSTALLS'],
    ['OUTCOME_APP_PROMOTION', 'APP', 'APP_INSTALLS'],
    ['OUTCOME_APP_PROMOTION', null, 'OFFSITE_CONVERSIONS'],
    ['OUTCOME_APP_PROMOTION', 'APP', 'VALUE'],
    ['OUTCOME_SALES', 'WEBSITE', 'OFFSITE_CONVERSIONS'],
    ['OUTCOME_SALES', 'WEBSITE', 'VALUE'],
    ['OUTCOME_SALES', 'APP', 'IN_APP_VALUE'],
    ['OUTCOME_SALES', 'WHATSAPP', 'CONVERSATIONS'],
  ];
  it.each(ALLOWED)('%s to %s optimizes for %s', (objective, destinationType, optimizationGoal) => {
    expect(goalViolations(goal({ destinationType, optimizationGoal }), objective)).toEqual([]);
  });

  const REFUSED: Array<[Objective, string | null, string, string]> = [
    ['OUTCOME_AWARENESS', 'WEBSITE', 'REACH', 'destination_type'],
    ['OUTCOME_AWARENESS', null, 'LINK_CLICKS', 'optimization_goal'],
    ['OUTCOME_TRAFFIC', 'ON_POST', 'LINK_CLICKS', 'destination_type'],
    ['OUTCOME_TRAFFIC', 'WEBSITE', 'OFFSITE_CONVERSIONS', 'optimization_goal'],
    ['OUTCOME_ENGAGEMENT', 'ON_VIDEO', 'PAGE_LIKES', 'optimization_goal'],
    ['OUTCOME_ENGAGEMENT', 'ON_PAGE', 'THRUPLAY', 'optimization_goal'],
    ['OUTCOME_LEADS', 'ON_AD', 'LINK_CLICKS', 'optimization_goal'],
    ['OUTCOME_LEADS', 'ON_VIDEO', 'LEAD_GENERATION', 'destination_type'],
    ['OUTCOME_APP_PROMOTION', 'WEBSITE', 'APP_INSTALLS', 'destination_type'],
    ['OUTCOME_APP_PROMOTION', 'APP', 'REACH', 'optimization_goal'],
    ['OUTCOME_SALES', 'WEBSITE', 'PAGE_LIKES', 'optimization_goal'],
    ['OUTCOME_SALES', 'ON_EVENT', 'OFFSITE_CONVERSIONS', 'destination_type'],
  ];
  it.each(REFUSED)('%s to %s may not optimize for %s (%s)', (objective, destinationType, optimizationGoal, field) => {
    // A billing event that would also be wrong is not reported: the first refusal stops the rule.
    const found = goalViolations(goal({ destinationType, optimizationGoal, billingEvent: 'THRUPLAY' }), objective);
    expect(fieldsOf(found)).toEqual([field]);
    expect(found[0]?.code).toBe(100);
  });

  it('names what is allowed', () => {
    const [found] = goalViolations(goal({ destinationType: 'WHATSAPP', optimizationGoal: 'PAGE_LIKES' }), 'OUTCOME_SALES');
    expect(found).toMatchObject({
      field: 'optimization_goal',
      code: 100,
      userTitle: 'Optimization goal not available',
      message:
        'Param optimization_goal PAGE_LIKES is not available for objective OUTCOME_SALES with destination WHATSAPP; use one of {CONVERSATIONS, MESSAGING_PURCHASE_CONVERSION, LINK_CLICKS, OFFSITE_CONVERSIONS}',
      userMessage: 'A sales campaign sending people to WHATSAPP cannot optimize for PAGE_LIKES.',
    });
    const [destination] = goalViolations(goal({ destinationType: 'ON_POST' }), 'OUTCOME_SALES');
    expect(destination?.message).toBe(
      'Param destination_type ON_POST is not available for campaigns with objective OUTCOME_SALES; use one of {WEBSITE, APP, APPLINKS_AUTOMATIC, SHOP_AUTOMATIC, MESSENGER, WHATSAPP, INSTAGRAM_DIRECT, MESSAGING_MESSENGER_WHATSAPP, MESSAGING_INSTAGRAM_DIRECT_MESSENGER, MESSAGING_INSTAGRAM_DIRECT_MESSENGER_WHATSAPP, MESSAGING_INSTAGRAM_DIRECT_WHATSAPP}',
    );
  });

  it.each(OBJECTIVES.map((o) => [o, DEFAULT_GOAL[o]]))('the default goal of %s (%s) is allowed without a destination', (objective, defaultGoal) => {
    expect(goalViolations(goal({ optimizationGoal: defaultGoal }), objective)).toEqual([]);
  });

  it('checks nothing more without a goal', () => {
    expect(goalViolations(goal({ billingEvent: 'THRUPLAY' }), 'OUTCOME_SALES')).toEqual([]);
  });
});

describe('v20.0: IMPRESSIONS deprecated for post engagement and ON_POST', () => {
  it('refuses IMPRESSIONS with destination ON_POST on optimization_goal', () => {
    expect(fieldsOf(goalViolations(goal({ destinationType: 'ON_POST', optimizationGoal: 'IMPRESSIONS' }), 'OUTCOME_ENGAGEMENT'))).toEqual([
      'optimization_goal',
    ]);
  });

  it('says why: the goal is deprecated since v20.0', () => {
    const [found] = goalViolations(goal({ destinationType: 'ON_POST', optimizationGoal: 'IMPRESSIONS' }), 'OUTCOME_ENGAGEMENT');
    expect(found).toMatchObject({
      field: 'optimization_goal',
      userTitle: 'Optimization goal deprecated',
      message: expect.stringContaining('deprecated since v20.0'),
    });
  });

  it('keeps IMPRESSIONS for other engagement destinations', () => {
    expect(goalViolations(goal({ destinationType: 'ON_VIDEO', optimizationGoal: 'IMPRESSIONS' }), 'OUTCOME_ENGAGEMENT')).toEqual([]);
  });
});

describe('billing events', () => {
  it('every goal may be billed by IMPRESSIONS', () => {
    for (const g of OPTIMIZATION_GOALS) expect(billableBy(g)).toContain('IMPRESSIONS');
  });

  it('only by known billing events', () => {
    for (const g of OPTIMIZATION_GOALS) for (const e of billableBy(g)) expect(BILLING_EVENTS).toContain(e);
  });

  it.each([
    ['LINK_CLICKS', 'LINK_CLICKS', true],
    ['LINK_CLICKS', 'CLICKS', true],
    ['LINK_CLICKS', 'THRUPLAY', false],
    ['THRUPLAY', 'THRUPLAY', true],
    ['POST_ENGAGEMENT', 'POST_ENGAGEMENT', true],
    ['PAGE_LIKES', 'PAGE_LIKES', true],
    ['APP_INSTALLS', 'APP_INSTALLS', true],
    ['OFFSITE_CONVERSIONS', 'PURCHASE', true],
    ['REACH', 'LINK_CLICKS', false],
    ['REACH', 'IMPRESSIONS', true],
    ['VALUE', 'CLICKS', false],
  ])('optimizing for %s, billed by %s: %s', (optimizationGoal, billingEvent, allowed) => {
    const objective: Objective =
      optimizationGoal === 'PAGE_LIKES' || optimizationGoal === 'THRUPLAY' || optimizationGoal === 'POST_ENGAGEMENT'
        ? 'OUTCOME_ENGAGEMENT'
        : optimizationGoal === 'REACH'
          ? 'OUTCOME_AWARENESS'
          : optimizationGoal === 'LINK_CLICKS'
            ? 'OUTCOME_TRAFFIC'
            : optimizationGoal === 'APP_INSTALLS'
              ? 'OUTCOME_APP_PROMOTION'
              : 'OUTCOME_SALES';
    const destinationType =
      optimizationGoal === 'PAGE_LIKES' ? 'ON_PAGE' : optimizationGoal === 'THRUPLAY' ? 'ON_VIDEO' : optimizationGoal === 'POST_ENGAGEMENT' ? 'ON_POST' : null;
    const found = goalViolations(goal({ optimizationGoal, billingEvent, destinationType }), objective);
    expect(fieldsOf(found)).toEqual(allowed ? [] : ['billing_event']);
  });
});

describe('promoted objects', () => {
  it.each([
    ['LEAD_GENERATION needs a page', 'LEAD_GENERATION', null, 'promoted_object.page_id'],
    ['QUALITY_LEAD needs a page', 'QUALITY_LEAD', { application_id: '1' }, 'promoted_object.page_id'],
    ['a blank page is none', 'LEAD_GENERATION', { page_id: '  ' }, 'promoted_object.page_id'],
    ['a page id', 'LEAD_GENERATION', { page_id: '123' }, null],
    ['a page id as a number', 'LEAD_GENERATION', { page_id: 123 }, null],
    [
      'APP_INSTALLS needs the application',
      'APP_INSTALLS',
      { object_store_url: 'https://play.google.com/store/apps/details?id=x' },
      'promoted_object.application_id',
    ],
    ['APP_INSTALLS needs the store URL', 'APP_INSTALLS', { application_id: '55' }, 'promoted_object.object_store_url'],
    ['APP_INSTALLS_AND_OFFSITE_CONVERSIONS needs both', 'APP_INSTALLS_AND_OFFSITE_CONVERSIONS', null, 'promoted_object.application_id'],
    ['an application and its store URL', 'APP_INSTALLS', { application_id: '55', object_store_url: 'https://apps.apple.com/app/id1' }, null],
    ['other goals need nothing', 'REACH', null, null],
    ['no goal needs nothing', null, null, null],
  ])('%s', (_rule, optimizationGoal, promotedObject, blamed) => {
    expect(fieldsOf(promotedObjectViolations(goal({ optimizationGoal, promotedObject })))).toEqual(blamed === null ? [] : [blamed]);
  });
});

describe('desktop and mobile apps', () => {
  it.each([
    ['https://apps.facebook.com/my-game', 'desktop'],
    ['https://play.google.com/store/apps/details?id=x', 'mobile'],
    ['https://apps.apple.com/app/id1', 'mobile'],
    ['https://itunes.apple.com/app/id1', 'mobile'],
    ['https://example.com/app', null],
    ['not a url', null],
    [42, null],
  ])('%s is a %s app', (url, kind) => {
    expect(appKind({ object_store_url: url })).toBe(kind);
  });

  const DESKTOP = { application_id: '1', object_store_url: 'https://apps.facebook.com/my-game' };
  const MOBILE = { application_id: '1', object_store_url: 'https://play.google.com/store/apps/details?id=x' };
  it.each([
    ['a desktop app in desktop feed under app promotion', DESKTOP, { page_types: ['desktopfeed'] }, 'OUTCOME_APP_PROMOTION', null],
    ['a desktop app in the right column', DESKTOP, { page_types: ['rightcolumn', 'mobilefeed'] }, 'OUTCOME_APP_PROMOTION', null],
    ['a desktop app needs a desktop page type', DESKTOP, { page_types: ['mobilefeed'] }, 'OUTCOME_APP_PROMOTION', 'targeting.page_types'],
    ['a desktop app without page types', DESKTOP, {}, 'OUTCOME_APP_PROMOTION', 'targeting.page_types'],
    ['a desktop app needs a canvas-app objective', DESKTOP, { page_types: ['desktop'] }, 'OUTCOME_SALES', 'campaign_id'],
    ['a mobile app under app promotion', MOBILE, { page_types: ['mobilefeed'] }, 'OUTCOME_APP_PROMOTION', null],
    ['a mobile app on mobile and desktop devices', MOBILE, { device_platforms: ['mobile', 'desktop'] }, 'OUTCOME_TRAFFIC', null],
    ['a mobile app in a desktop page type', MOBILE, { page_types: ['desktopfeed'] }, 'OUTCOME_APP_PROMOTION', 'targeting.page_types'],
    ['a mobile app on desktop devices only', MOBILE, { device_platforms: ['desktop'] }, 'OUTCOME_APP_PROMOTION', 'targeting.device_platforms'],
    ['a mobile app needs a mobile-app objective', MOBILE, {}, 'OUTCOME_AWARENESS', 'campaign_id'],
    ['no app, no rule', { page_id: '1' }, { page_types: ['desktopfeed'] }, 'OUTCOME_AWARENESS', null],
  ] as const)('%s', (_rule, promotedObject, targeting, objective, blamed) => {
    expect(fieldsOf(appViolations(goal({ promotedObject, targeting }), objective))).toEqual(blamed === null ? [] : [blamed]);
  });
});

describe('v13.0: lookalike expansion', () => {
  it.each([
    ['VALUE with lookalike expansion turned off', 'VALUE', { targeting_relaxation_types: { lookalike: 0 } }, null, 'targeting.targeting_relaxation_types'],
    [
      'OFFSITE_CONVERSIONS, off as false',
      'OFFSITE_CONVERSIONS',
      { targeting_relaxation_types: { lookalike: false } },
      null,
      'targeting.targeting_relaxation_types',
    ],
    ['APP_INSTALLS, off as "0"', 'APP_INSTALLS', { targeting_relaxation_types: { lookalike: '0' } }, null, 'targeting.targeting_relaxation_types'],
    ['off through targeting_optimization_types', 'IN_APP_VALUE', {}, { lookalike: 0 }, 'targeting_optimization_types'],
    ['on', 'VALUE', { targeting_relaxation_types: { lookalike: 1 } }, { lookalike: 1 }, null],
    ['not said', 'VALUE', {}, null, null],
    ['other goals may turn it off', 'REACH', { targeting_relaxation_types: { lookalike: 0 } }, { lookalike: 0 }, null],
  ])('%s', (_rule, optimizationGoal, targeting, targetingOptimizationTypes, blamed) => {
    const found = lookalikeExpansionViolations(goal({ optimizationGoal, targeting, targetingOptimizationTypes }));
    expect(fieldsOf(found)).toEqual(blamed === null ? [] : [blamed]);
  });

  it.each([
    ['turns it on for conversions', 'OFFSITE_CONVERSIONS', null, { lookalike: 1 }],
    ['keeps the other types', 'VALUE', { detailed_targeting: 1, lookalike: 0 }, { detailed_targeting: 1, lookalike: 1 }],
    ['leaves other goals alone', 'REACH', { lookalike: 0 }, { lookalike: 0 }],
    ['leaves an ad set without a goal alone', null, null, null],
  ])('withLookalikeExpansion %s', (_rule, optimizationGoal, current, expected) => {
    expect(withLookalikeExpansion(optimizationGoal, current)).toEqual(expected);
  });
});
