import type { BillingEvent, DestinationType, Objective, OptimizationGoal } from './enums.ts';
import { violation, type Violation } from './violations.ts';

/**
 * What an ad set may optimize for and where it may send people, by its campaign's objective (the
 * specification's "outcome-driven objectives pair with destinations and goals"), with the billing events each
 * goal may be billed by, the promoted objects some goals need, the v20.0 IMPRESSIONS deprecation and the
 * v13.0 lookalike expansion. Every goal, destination and billing event of the specification is in a row
 * (test/ads/rules/enum-coverage.test.ts); the rows the platform's mapping table lacks were decided for issue 22.
 */
export const MESSAGING_DESTINATIONS: readonly DestinationType[] = [
  'MESSENGER',
  'WHATSAPP',
  'INSTAGRAM_DIRECT',
  'MESSAGING_MESSENGER_WHATSAPP',
  'MESSAGING_INSTAGRAM_DIRECT_MESSENGER',
  'MESSAGING_INSTAGRAM_DIRECT_MESSENGER_WHATSAPP',
  'MESSAGING_INSTAGRAM_DIRECT_WHATSAPP',
];
const APP_EVENTS: OptimizationGoal[] = ['APP_INSTALLS', 'APP_INSTALLS_AND_OFFSITE_CONVERSIONS', 'OFFSITE_CONVERSIONS', 'IN_APP_VALUE', 'VALUE'];

/** One row: these destinations (null: none given) pair with these goals. */
export interface Pairing {
  destinations: ReadonlyArray<DestinationType | null>;
  goals: readonly OptimizationGoal[];
}

export const PAIRINGS: Record<Objective, readonly Pairing[]> = {
  OUTCOME_AWARENESS: [{ destinations: [null, 'ON_AD', 'FACEBOOK', 'INSTAGRAM_PROFILE'], goals: ['REACH', 'AD_RECALL_LIFT', 'IMPRESSIONS', 'THRUPLAY'] }],
  OUTCOME_TRAFFIC: [
    {
      destinations: [
        null,
        'WEBSITE',
        'APP',
        'APPLINKS_AUTOMATIC',
        'SHOP_AUTOMATIC',
        'FACEBOOK_PAGE',
        'INSTAGRAM_PROFILE',
        'INSTAGRAM_PROFILE_AND_FACEBOOK_PAGE',
      ],
      goals: ['LINK_CLICKS', 'LANDING_PAGE_VIEWS', 'IMPRESSIONS', 'REACH', 'VISIT_INSTAGRAM_PROFILE', 'PROFILE_VISIT'],
    },
    { destinations: MESSAGING_DESTINATIONS, goals: ['LINK_CLICKS', 'CONVERSATIONS', 'IMPRESSIONS', 'REACH'] },
    // Engagement in an Instant Experiences app: the legacy LINK_CLICKS objective's default goal, which is traffic now.
    { destinations: [null, 'APP'], goals: ['ENGAGED_USERS'] },
  ],
  OUTCOME_ENGAGEMENT: [
    { destinations: ['ON_VIDEO'], goals: ['THRUPLAY', 'IMPRESSIONS', 'REACH'] },
    { destinations: ['ON_POST'], goals: ['POST_ENGAGEMENT', 'REACH'] },
    { destinations: ['ON_EVENT'], goals: ['EVENT_RESPONSES', 'POST_ENGAGEMENT', 'REACH'] },
    { destinations: ['ON_PAGE', 'FACEBOOK_PAGE'], goals: ['PAGE_LIKES', 'PROFILE_AND_PAGE_ENGAGEMENT', 'SUBSCRIBERS'] },
    { destinations: MESSAGING_DESTINATIONS, goals: ['CONVERSATIONS', 'LINK_CLICKS'] },
    {
      destinations: ['WEBSITE', null],
      goals: ['OFFSITE_CONVERSIONS', 'LANDING_PAGE_VIEWS', 'LINK_CLICKS', 'POST_ENGAGEMENT', 'IMPRESSIONS', 'REACH', 'THRUPLAY'],
    },
    { destinations: ['APP'], goals: ['APP_INSTALLS', 'OFFSITE_CONVERSIONS', 'LINK_CLICKS'] },
    {
      destinations: ['INSTAGRAM_PROFILE', 'INSTAGRAM_LIVE', 'FACEBOOK_LIVE'],
      goals: ['VISIT_INSTAGRAM_PROFILE', 'PROFILE_VISIT', 'THRUPLAY', 'POST_ENGAGEMENT'],
    },
    // Reminder ads: people set a reminder on the ad for an upcoming (live) event; the platform's ON_REMINDER
    // destination is not among the specification's, so on the ad, or no destination.
    { destinations: [null, 'ON_AD'], goals: ['REMINDERS_SET'] },
    { destinations: ['IMAGINE'], goals: ['POST_ENGAGEMENT', 'REACH'] },
    // No optimization: delivered, and billed, as impressions.
    { destinations: [null], goals: ['NONE'] },
  ],
  OUTCOME_LEADS: [
    { destinations: ['WEBSITE', null], goals: ['OFFSITE_CONVERSIONS', 'LINK_CLICKS', 'LANDING_PAGE_VIEWS', 'LEAD_GENERATION', 'QUALITY_LEAD'] },
    { destinations: ['ON_AD'], goals: ['LEAD_GENERATION', 'QUALITY_LEAD'] },
    { destinations: MESSAGING_DESTINATIONS, goals: ['LEAD_GENERATION', 'CONVERSATIONS', 'MESSAGING_APPOINTMENT_CONVERSION'] },
    { destinations: ['FACEBOOK'], goals: ['QUALITY_CALL', 'MEANINGFUL_CALL_ATTEMPT'] },
    { destinations: ['APP'], goals: APP_EVENTS },
  ],
  OUTCOME_APP_PROMOTION: [
    { destinations: [null, 'APP', 'APPLINKS_AUTOMATIC'], goals: [...APP_EVENTS, 'LINK_CLICKS', 'DERIVED_EVENTS'] },
    // Automated (Advantage+) campaigns choose what to optimize for themselves.
    { destinations: [null], goals: ['AUTOMATIC_OBJECTIVE'] },
  ],
  OUTCOME_SALES: [
    {
      destinations: [null, 'WEBSITE', 'APP', 'APPLINKS_AUTOMATIC', 'SHOP_AUTOMATIC'],
      goals: [
        'OFFSITE_CONVERSIONS',
        'VALUE',
        'LINK_CLICKS',
        'LANDING_PAGE_VIEWS',
        'IMPRESSIONS',
        'REACH',
        'APP_INSTALLS_AND_OFFSITE_CONVERSIONS',
        'IN_APP_VALUE',
        'ADVERTISER_SILOED_VALUE',
      ],
    },
    { destinations: MESSAGING_DESTINATIONS, goals: ['CONVERSATIONS', 'MESSAGING_PURCHASE_CONVERSION', 'LINK_CLICKS', 'OFFSITE_CONVERSIONS'] },
    { destinations: [null], goals: ['AUTOMATIC_OBJECTIVE'] },
  ],
};

/** Without an optimization_goal, an ad set optimizes for its objective's first goal. */
export const DEFAULT_GOAL: Record<Objective, OptimizationGoal> = {
  OUTCOME_AWARENESS: 'REACH',
  OUTCOME_TRAFFIC: 'LINK_CLICKS',
  OUTCOME_ENGAGEMENT: 'POST_ENGAGEMENT',
  OUTCOME_LEADS: 'LEAD_GENERATION',
  OUTCOME_APP_PROMOTION: 'APP_INSTALLS',
  OUTCOME_SALES: 'OFFSITE_CONVERSIONS',
};

/** Billing events each goal may be billed by, beyond IMPRESSIONS (which every goal may be billed by). */
const BILLED_BY: Partial<Record<OptimizationGoal, readonly BillingEvent[]>> = {
  LINK_CLICKS: ['LINK_CLICKS', 'CLICKS'],
  LANDING_PAGE_VIEWS: ['LINK_CLICKS'],
  THRUPLAY: ['THRUPLAY'],
  PAGE_LIKES: ['PAGE_LIKES'],
  // Offers are claimed on a Page post (cost per action: OFFER_CLAIMS).
  POST_ENGAGEMENT: ['POST_ENGAGEMENT', 'OFFER_CLAIMS'],
  APP_INSTALLS: ['APP_INSTALLS', 'LINK_CLICKS'],
  // LISTING_INTERACTION is also a conversion event of promoted_object.custom_event_type.
  OFFSITE_CONVERSIONS: ['PURCHASE', 'LINK_CLICKS', 'LISTING_INTERACTION'],
  VALUE: ['PURCHASE'],
  EVENT_RESPONSES: ['POST_ENGAGEMENT'],
  LEAD_GENERATION: ['LINK_CLICKS'],
  NONE: ['NONE'],
};

export function billableBy(goal: OptimizationGoal): readonly BillingEvent[] {
  return ['IMPRESSIONS', ...(BILLED_BY[goal] ?? [])];
}

/** Goals that optimize for value, conversions or app events: lookalike expansion is always on for them (v13.0). */
export const LOOKALIKE_EXPANSION_GOALS: readonly OptimizationGoal[] = [
  'VALUE',
  'OFFSITE_CONVERSIONS',
  'APP_INSTALLS',
  'APP_INSTALLS_AND_OFFSITE_CONVERSIONS',
  'IN_APP_VALUE',
  'DERIVED_EVENTS',
  'ADVERTISER_SILOED_VALUE',
  'MESSAGING_PURCHASE_CONVERSION',
];

export interface GoalFields {
  optimizationGoal: string | null;
  billingEvent: string | null;
  destinationType: string | null;
  promotedObject: unknown;
  targeting: unknown;
  targetingOptimizationTypes: unknown;
}

const objectiveName = (objective: Objective) => objective.replace('OUTCOME_', '').toLowerCase().replace('_', ' ');
/** "an engagement campaign", "a sales campaign". */
const aCampaignOf = (objective: Objective) => `${/^[aeiou]/.test(objectiveName(objective)) ? 'an' : 'a'} ${objectiveName(objective)} campaign`;

/** The pairing rows an objective allows, as a sentence for messages. */
function allowedSentence(objective: Objective, destination: string | null): string {
  const rows = PAIRINGS[objective].filter((row) => row.destinations.includes(destination as DestinationType | null));
  const goals = [...new Set(rows.flatMap((row) => row.goals))];
  return goals.length > 0 ? `{${goals.join(', ')}}` : '{}';
}

/** Objective, destination and goal pairing; the billing event for the goal; the v20.0 IMPRESSIONS deprecation. */
export function goalViolations(adSet: GoalFields, objective: Objective): Violation[] {
  const out: Violation[] = [];
  const goal = adSet.optimizationGoal as OptimizationGoal | null;
  const destination = adSet.destinationType as DestinationType | null;
  const rows = PAIRINGS[objective];
  if (destination !== null && !rows.some((row) => row.destinations.includes(destination))) {
    const allowed = [...new Set(rows.flatMap((row) => row.destinations).filter((d): d is DestinationType => d !== null))];
    out.push(
      violation(
        'destination_type',
        `Param destination_type ${destination} is not available for campaigns with objective ${objective}; use one of {${allowed.join(', ')}}`,
        {
          userTitle: 'Destination not available',
          userMessage: `Ads of ${aCampaignOf(objective)} cannot send people to ${destination}.`,
        },
      ),
    );
    return out;
  }
  if (goal === 'IMPRESSIONS' && destination === 'ON_POST') {
    return [
      violation(
        'optimization_goal',
        'The IMPRESSIONS optimization goal is deprecated since v20.0 for post engagement and for destination type ON_POST; use POST_ENGAGEMENT or REACH',
        {
          userTitle: 'Optimization goal deprecated',
          userMessage: 'Ads that promote post engagement can no longer optimize for impressions. Choose post engagement or reach.',
        },
      ),
    ];
  }
  if (goal !== null && !rows.some((row) => row.destinations.includes(destination) && row.goals.includes(goal))) {
    out.push(
      violation(
        'optimization_goal',
        `Param optimization_goal ${goal} is not available for objective ${objective}${destination ? ` with destination ${destination}` : ''}; use one of ${allowedSentence(objective, destination)}`,
        {
          userTitle: 'Optimization goal not available',
          userMessage: `${aCampaignOf(objective).replace(/^a/, 'A')}${destination ? ` sending people to ${destination}` : ''} cannot optimize for ${goal}.`,
        },
      ),
    );
    return out;
  }
  if (goal !== null && adSet.billingEvent !== null && !billableBy(goal).includes(adSet.billingEvent as BillingEvent)) {
    out.push(
      violation(
        'billing_event',
        `Param billing_event ${adSet.billingEvent} cannot be used with optimization goal ${goal}; use one of {${billableBy(goal).join(', ')}}`,
        {
          userTitle: 'Billing event not available',
          userMessage: `An ad set optimizing for ${goal} cannot be billed by ${adSet.billingEvent}.`,
        },
      ),
    );
  }
  return out;
}

const LEAD_GOALS: readonly OptimizationGoal[] = ['LEAD_GENERATION', 'QUALITY_LEAD'];
const INSTALL_GOALS: readonly OptimizationGoal[] = ['APP_INSTALLS', 'APP_INSTALLS_AND_OFFSITE_CONVERSIONS'];

/** Promoted objects the specification requires: a page for lead goals; an application and its store URL for installs. */
export function promotedObjectViolations(adSet: GoalFields): Violation[] {
  const goal = adSet.optimizationGoal as OptimizationGoal | null;
  const promoted = (adSet.promotedObject ?? {}) as Record<string, unknown>;
  if (goal !== null && LEAD_GOALS.includes(goal) && !present(promoted.page_id)) {
    return [
      violation('promoted_object.page_id', `The parameter promoted_object.page_id is required with optimization goal ${goal}`, {
        userTitle: 'Page required',
        userMessage: 'Lead ads collect leads for a Page: choose the Page in promoted_object.page_id.',
      }),
    ];
  }
  if (goal !== null && INSTALL_GOALS.includes(goal)) {
    for (const key of ['application_id', 'object_store_url'] as const) {
      if (!present(promoted[key])) {
        return [
          violation(`promoted_object.${key}`, `The parameter promoted_object.${key} is required with optimization goal ${goal}`, {
            userTitle: 'App required',
            userMessage: 'App install ads need the application id and its store URL in promoted_object.',
          }),
        ];
      }
    }
  }
  return [];
}

const present = (value: unknown) => (typeof value === 'string' && value.trim() !== '') || (typeof value === 'number' && Number.isFinite(value));

/** Desktop (canvas) apps are stored at apps.facebook.com; mobile apps in the mobile stores. */
export function appKind(promotedObject: unknown): 'desktop' | 'mobile' | null {
  const url = (promotedObject as { object_store_url?: unknown } | null)?.object_store_url;
  if (typeof url !== 'string') return null;
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase();
  } catch {
    return null;
  }
  if (host === 'apps.facebook.com') return 'desktop';
  if (['play.google.com', 'apps.apple.com', 'itunes.apple.com', 'www.amazon.com', 'appgallery.huawei.com'].includes(host)) return 'mobile';
  return null;
}

export const DESKTOP_PAGE_TYPES = ['desktopfeed', 'rightcolumn', 'desktop'] as const;
const MOBILE_APP_OBJECTIVES: readonly Objective[] = ['OUTCOME_APP_PROMOTION', 'OUTCOME_ENGAGEMENT', 'OUTCOME_SALES', 'OUTCOME_LEADS', 'OUTCOME_TRAFFIC'];

/**
 * Desktop app ad sets include a desktop page type (desktopfeed, rightcolumn, desktop) and promote a canvas app
 * under an app promotion objective; mobile app ad sets use no desktop page type nor desktop devices.
 */
export function appViolations(adSet: GoalFields, objective: Objective): Violation[] {
  const kind = appKind(adSet.promotedObject);
  if (kind === null) return [];
  const targeting = (adSet.targeting ?? {}) as { page_types?: unknown; device_platforms?: unknown };
  const pageTypes = Array.isArray(targeting.page_types) ? targeting.page_types.map(String) : [];
  const devices = Array.isArray(targeting.device_platforms) ? targeting.device_platforms.map(String) : [];
  if (kind === 'desktop') {
    if (!pageTypes.some((t) => (DESKTOP_PAGE_TYPES as readonly string[]).includes(t))) {
      return [
        violation('targeting.page_types', `Desktop app ad sets must include one of the page types {${DESKTOP_PAGE_TYPES.join(', ')}} in targeting.page_types`, {
          userTitle: 'Desktop placement required',
          userMessage: 'Ads for a Facebook canvas app run on desktop: add desktopfeed, rightcolumn or desktop to the page types.',
        }),
      ];
    }
    if (objective !== 'OUTCOME_APP_PROMOTION') {
      return [
        violation('campaign_id', `Desktop (canvas) app ad sets need a campaign with the app promotion objective, not ${objective}`, {
          userTitle: 'App promotion objective required',
          userMessage: 'Promote a canvas app from an app promotion campaign.',
        }),
      ];
    }
    return [];
  }
  const desktop = pageTypes.filter((t) => (DESKTOP_PAGE_TYPES as readonly string[]).includes(t));
  if (desktop.length > 0 || (devices.length > 0 && devices.includes('desktop') && !devices.includes('mobile'))) {
    return [
      violation(
        desktop.length > 0 ? 'targeting.page_types' : 'targeting.device_platforms',
        `Mobile app ad sets cannot target desktop placements (${desktop.join(', ') || 'device_platforms desktop'})`,
        {
          userTitle: 'Mobile placement required',
          userMessage: 'Ads for a mobile app run on mobile devices: remove the desktop placements.',
        },
      ),
    ];
  }
  if (!MOBILE_APP_OBJECTIVES.includes(objective)) {
    return [violation('campaign_id', `Mobile app ad sets need a campaign with a mobile app objective, not ${objective}`)];
  }
  return [];
}

/**
 * v13.0: ad sets optimizing for value, conversions or app events have lookalike expansion on, and it cannot be
 * turned off (targeting.targeting_relaxation_types.lookalike = 0 is refused).
 */
export function lookalikeExpansionViolations(adSet: GoalFields): Violation[] {
  const goal = adSet.optimizationGoal as OptimizationGoal | null;
  if (goal === null || !LOOKALIKE_EXPANSION_GOALS.includes(goal)) return [];
  const relaxation = (adSet.targeting as { targeting_relaxation_types?: { lookalike?: unknown } } | null)?.targeting_relaxation_types;
  const off = relaxation?.lookalike === 0 || relaxation?.lookalike === false || relaxation?.lookalike === '0';
  const types = adSet.targetingOptimizationTypes as { lookalike?: unknown } | null;
  const offToo = types?.lookalike === 0 || types?.lookalike === false;
  if (!off && !offToo) return [];
  return [
    violation(
      off ? 'targeting.targeting_relaxation_types' : 'targeting_optimization_types',
      `Lookalike expansion is always on for ad sets optimizing for ${goal} (since v13.0) and cannot be turned off`,
      {
        userTitle: 'Lookalike expansion is on',
        userMessage: 'Ad sets that optimize for conversions, value or app events always expand to similar people. Remove the lookalike setting of 0.',
      },
    ),
  ];
}

/** The targeting_optimization_types an ad set reads with: lookalike on for the goals above. */
export function withLookalikeExpansion(goal: string | null, current: unknown): unknown {
  if (goal === null || !LOOKALIKE_EXPANSION_GOALS.includes(goal as OptimizationGoal)) return current;
  return { ...((current ?? {}) as Record<string, unknown>), lookalike: 1 };
}
