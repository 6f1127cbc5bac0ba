import type { DayRange } from '../query.ts';
import { todayIn } from './windows.ts';

/**
 * An ad set's learning stage (learning_stage_info), as the platform reports it: delivery learns until the ad set
 * has had LEARNING_EVENTS optimization events within LEARNING_DAYS of its last significant edit (SUCCESS); when
 * those days pass without them it is FAIL (the platform's "learning limited"); LEARNING before that. Statistics
 * are daily, so the events counted are those of the account days that the LEARNING_DAYS after the edit touch.
 * Pure: the clock, the time zone and the counts are passed in.
 */
export const LEARNING_EVENTS = 50;
export const LEARNING_DAYS = 7;
const DAY_MS = 86_400_000;

export const LEARNING_STATUSES = ['LEARNING', 'SUCCESS', 'FAIL'] as const;
export type LearningStatus = (typeof LEARNING_STATUSES)[number];

/** What an optimization goal counts: an action type of the statistics, or impressions. */
export type OptimizationEvent = { kind: 'impressions' } | { kind: 'action'; actionType: string };

const action = (actionType: string): OptimizationEvent => ({ kind: 'action', actionType });
const IMPRESSIONS: OptimizationEvent = { kind: 'impressions' };

/** The event each optimization goal optimizes for. Goals missing here have no learning stage (NONE, automatic ones). */
export const OPTIMIZATION_EVENTS: Readonly<Record<string, OptimizationEvent>> = {
  IMPRESSIONS,
  REACH: IMPRESSIONS,
  AD_RECALL_LIFT: IMPRESSIONS,
  LINK_CLICKS: action('link_click'),
  LANDING_PAGE_VIEWS: action('landing_page_view'),
  LEAD_GENERATION: action('lead'),
  QUALITY_LEAD: action('lead'),
  OFFSITE_CONVERSIONS: action('purchase'),
  VALUE: action('purchase'),
  MESSAGING_PURCHASE_CONVERSION: action('purchase'),
  THRUPLAY: action('video_view'),
  POST_ENGAGEMENT: action('post_engagement'),
  ENGAGED_USERS: action('post_engagement'),
  PROFILE_AND_PAGE_ENGAGEMENT: action('post_engagement'),
  PAGE_LIKES: action('like'),
  APP_INSTALLS: action('mobile_app_install'),
  APP_INSTALLS_AND_OFFSITE_CONVERSIONS: action('mobile_app_install'),
  EVENT_RESPONSES: action('rsvp'),
  CONVERSATIONS: action('onsite_conversion.messaging_conversation_started_7d'),
  VISIT_INSTAGRAM_PROFILE: action('profile_visit'),
  PROFILE_VISIT: action('profile_visit'),
};

/** A website conversion goal optimizes for the promoted object's event (custom_event_type), PURCHASE when none. */
const CONVERSION_EVENTS: Readonly<Record<string, string>> = {
  PURCHASE: 'purchase',
  LEAD: 'lead',
  COMPLETE_REGISTRATION: 'complete_registration',
  ADD_TO_CART: 'add_to_cart',
  INITIATED_CHECKOUT: 'initiate_checkout',
  ADD_PAYMENT_INFO: 'add_payment_info',
  CONTENT_VIEW: 'view_content',
  SEARCH: 'search',
  CONTACT: 'contact',
  SUBSCRIBE: 'subscribe',
  START_TRIAL: 'start_trial',
};
const WEBSITE_CONVERSION_GOALS = new Set(['OFFSITE_CONVERSIONS', 'VALUE']);

export function optimizationEventOf(goal: string | null, promotedObject: unknown): OptimizationEvent | null {
  if (goal === null) return null;
  if (WEBSITE_CONVERSION_GOALS.has(goal)) {
    const eventType = (promotedObject as { custom_event_type?: unknown } | null)?.custom_event_type;
    const actionType = typeof eventType === 'string' ? CONVERSION_EVENTS[eventType] : undefined;
    if (actionType) return action(actionType);
  }
  return OPTIMIZATION_EVENTS[goal] ?? null;
}

/** A day of an ad set's statistics, as far as learning needs it. */
export interface LearningDay {
  impressions: number;
  actions: Record<string, number>;
}

export function countEvents(event: OptimizationEvent, days: readonly LearningDay[]): number {
  let count = 0;
  for (const day of days) count += event.kind === 'impressions' ? day.impressions : (day.actions[event.actionType] ?? 0);
  return count;
}

/** The account days whose events count towards learning after an edit at `editedAt`. */
export function learningDays(editedAt: Date, timeZone: string): DayRange {
  return { since: todayIn(timeZone, editedAt), until: todayIn(timeZone, new Date(editedAt.getTime() + LEARNING_DAYS * DAY_MS)) };
}

export function learningStatus(events: number, editedAt: Date, now: Date): LearningStatus {
  if (events >= LEARNING_EVENTS) return 'SUCCESS';
  return now.getTime() - editedAt.getTime() >= LEARNING_DAYS * DAY_MS ? 'FAIL' : 'LEARNING';
}

const WINDOW_SUFFIX: Readonly<Record<string, string>> = { CLICK_THROUGH: 'click', VIEW_THROUGH: 'view', ENGAGED_VIDEO_VIEW: 'ev' };
/** The platform's default attribution setting: 7-day click, 1-day view. */
export const DEFAULT_ATTRIBUTION_WINDOWS = ['7d_click', '1d_view'];

/** The ad set's attribution windows as the platform names them (`7d_click`, `1d_view`, `1d_ev`). */
export function attributionWindows(attributionSpec: unknown): string[] {
  if (!Array.isArray(attributionSpec) || attributionSpec.length === 0) return DEFAULT_ATTRIBUTION_WINDOWS;
  const windows: string[] = [];
  for (const spec of attributionSpec as Array<{ event_type?: unknown; window_days?: unknown }>) {
    const suffix = typeof spec?.event_type === 'string' ? WINDOW_SUFFIX[spec.event_type] : undefined;
    if (suffix && Number.isInteger(spec.window_days)) windows.push(`${String(spec.window_days)}d_${suffix}`);
  }
  return windows.length > 0 ? windows : DEFAULT_ATTRIBUTION_WINDOWS;
}

export interface LearningStageInfo {
  status: LearningStatus;
  /** Optimization events counted since the last significant edit. */
  conversions: number;
  lastSignificantEdit: Date;
  attributionWindows: string[];
}
