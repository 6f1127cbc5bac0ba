/**
 * What an ad object's change history (the platform's AdActivity, `/<object>/activities`) records for a write:
 * pure, from the record before the write (null on creation) and the record after it. The caller stores the
 * events with their actor and time; this module only says which events and what they carry.
 *
 * Choices:
 * - Creation is one `create_*` event whose extraData holds the main fields the object was created with.
 * - An update is one event per family of fields that changed, in a fixed order: name, status, budget,
 *   targeting, bidding, schedule, optimization goal, creative, then one generic `update_<object>` event listing
 *   every other changed field (snake_case) so no change goes unrecorded. A family appears only when one of its
 *   fields changed; equal records give no events.
 * - Never counted: the identity and bookkeeping fields (`id`, `organizationId`, `createdTime`, `updatedTime`)
 *   and internal fields the gateway keeps for itself (`lastSignificantEditTime`, `statusChangedTime`,
 *   `activeSeconds`).
 * - Equality: Dates by their time, everything else by canonical JSON text (object keys sorted, so a stored
 *   JSON column read back with its keys in another order is not a change; array order counts).
 * - extraData holds old_value/new_value as the platform prints them: Dates as ISO strings (an invalid Date as
 *   null), money as the stored numeric strings of minor units, statuses and names as they are, JSON columns as
 *   copies (never the caller's objects). Families of several fields print objects keyed by the snake_case
 *   field names; single-field families (name, status, optimization goal, creative) print the bare values.
 * - A budget event's `type` is 'lifetime' when the object now has a lifetime budget, or has no daily budget and
 *   had a lifetime one (the budget was removed); 'daily' otherwise.
 * - A targeting event also carries the readable lines (`targetingSentences`, audiences unnamed: this module
 *   does no look-ups) and `changed_lines`: the headings whose children differ, in the order of the new lines,
 *   then headings only the old targeting had.
 * - A copy is recorded on the new object instead of its create event: `copy_<object>`, naming its source.
 */

import { targetingSentences, type TargetingSentenceLine } from './targeting-sentences.ts';
import type { AdRecord, AdSetRecord, CampaignRecord } from '../store.ts';

export const ACTIVITY_CATEGORIES = ['ACCOUNT', 'AD', 'AD_SET', 'AUDIENCE', 'BID', 'BUDGET', 'CAMPAIGN', 'DATE', 'STATUS', 'TARGETING'] as const;
export type ActivityCategory = (typeof ACTIVITY_CATEGORIES)[number];
export type ActivityObjectType = 'AD_SET' | 'CAMPAIGN' | 'AD';

export interface ActivityEvent {
  /** The platform's event_type, e.g. 'update_ad_set_budget'. */
  eventType: string;
  category: ActivityCategory;
  /** English, as Ads Manager shows it: 'Ad set budget updated'. */
  translatedEventType: string;
  /** What changed: old_value and new_value (as the platform prints them: budgets as numeric strings of minor units, statuses, names, times ISO), plus type-specific keys. */
  extraData: Record<string, unknown>;
}

/** Fields that never make an event: identity, bookkeeping and the gateway's internal columns. */
const NEVER_COUNTED: ReadonlySet<string> = new Set([
  'id',
  'organizationId',
  'createdTime',
  'updatedTime',
  'lastSignificantEditTime',
  'statusChangedTime',
  'activeSeconds',
]);

const OBJECTS = {
  AD_SET: { key: 'ad_set', label: 'Ad set' },
  CAMPAIGN: { key: 'campaign', label: 'Campaign' },
  AD: { key: 'ad', label: 'Ad' },
} as const satisfies Record<ActivityObjectType, { key: string; label: string }>;

/** `dailyBudget` -> `daily_budget`. */
const snakeCase = (field: string): string => field.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);

/** A value as extraData prints it: Dates as ISO strings, JSON deep-copied, undefined as null. */
function printed(value: unknown): unknown {
  if (value === undefined) return null;
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString();
  if (Array.isArray(value)) return value.map(printed);
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).flatMap(([key, entry]) => (entry === undefined ? [] : [[key, printed(entry)]])));
  }
  if (typeof value === 'bigint') return value.toString();
  return value;
}

/** JSON text with object keys sorted, for equality. */
function canonical(value: unknown): string {
  return JSON.stringify(printed(value), (_key, entry: unknown) =>
    typeof entry === 'object' && entry !== null && !Array.isArray(entry)
      ? Object.fromEntries(Object.entries(entry as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : entry,
  );
}

function same(a: unknown, b: unknown): boolean {
  if (a instanceof Date && b instanceof Date) return Object.is(a.getTime(), b.getTime());
  return canonical(a) === canonical(b);
}

const pick = (record: object, fields: readonly string[]): Record<string, unknown> =>
  Object.fromEntries(fields.map((field) => [snakeCase(field), printed((record as Record<string, unknown>)[field])]));

/** One family of fields and the event it makes; `extra` adds type-specific keys. */
interface Family<T> {
  fields: ReadonlyArray<keyof T & string>;
  eventType: (before: T, after: T) => string;
  category: ActivityCategory;
  translated: (before: T, after: T) => string;
  /** Print the bare value instead of an object keyed by field (single-field families). */
  bare?: boolean;
  extra?: (before: T, after: T) => Record<string, unknown>;
}

function createEvent(type: ActivityObjectType, extraData: Record<string, unknown>): ActivityEvent {
  const { key, label } = OBJECTS[type];
  return { eventType: `create_${key}`, category: type, translatedEventType: `${label} created`, extraData };
}

function updateEvents<T extends object>(type: ActivityObjectType, before: T, after: T, families: ReadonlyArray<Family<T>>): ActivityEvent[] {
  const b = before as Record<string, unknown>;
  const a = after as Record<string, unknown>;
  const changed = new Set([...Object.keys(b), ...Object.keys(a)].filter((field) => !NEVER_COUNTED.has(field) && !same(b[field], a[field])));
  const events: ActivityEvent[] = [];
  const claimed = new Set<string>();
  for (const family of families) {
    for (const field of family.fields) claimed.add(field);
    if (!family.fields.some((field) => changed.has(field))) continue;
    const [only] = family.fields;
    const values = (record: T) => (family.bare && only !== undefined ? printed((record as Record<string, unknown>)[only]) : pick(record, family.fields));
    events.push({
      eventType: family.eventType(before, after),
      category: family.category,
      translatedEventType: family.translated(before, after),
      extraData: { old_value: values(before), new_value: values(after), ...family.extra?.(before, after) },
    });
  }
  const others = [...changed].filter((field) => !claimed.has(field));
  if (others.length > 0) {
    const { key, label } = OBJECTS[type];
    events.push({
      eventType: `update_${key}`,
      category: type,
      translatedEventType: `${label} updated`,
      extraData: { fields: others.map(snakeCase), old_value: pick(before, others), new_value: pick(after, others) },
    });
  }
  return events;
}

/** The name and status families every object has. */
function nameAndStatus<T extends { name: string; status: string }>(type: ActivityObjectType): Array<Family<T>> {
  const { key, label } = OBJECTS[type];
  const deleted = (before: T, after: T) => after.status === 'DELETED' && before.status !== 'DELETED';
  return [
    { fields: ['name'], bare: true, category: type, eventType: () => `update_${key}_name`, translated: () => `${label} name updated` },
    {
      fields: ['status'],
      bare: true,
      category: 'STATUS',
      eventType: (before, after) => (deleted(before, after) ? `delete_${key}` : `update_${key}_run_status`),
      translated: (before, after) => (deleted(before, after) ? `${label} deleted` : `${label} run status updated`),
    },
  ];
}

function budgetType(before: { dailyBudget: string | null; lifetimeBudget: string | null }, after: typeof before): 'daily' | 'lifetime' {
  return after.lifetimeBudget !== null || (after.dailyBudget === null && before.lifetimeBudget !== null) ? 'lifetime' : 'daily';
}

function changedLines(before: TargetingSentenceLine[], after: TargetingSentenceLine[]): string[] {
  const children = (lines: TargetingSentenceLine[]) => new Map(lines.map((line) => [line.content, line.children]));
  const old = children(before);
  const now = children(after);
  const headings = [...new Set([...now.keys(), ...old.keys()])];
  return headings.filter((heading) => !same(old.get(heading) ?? null, now.get(heading) ?? null));
}

const sentences = (targeting: unknown) => targetingSentences(targeting, { audiences: new Map() });

const AD_SET_FAMILIES: ReadonlyArray<Family<AdSetRecord>> = [
  ...nameAndStatus<AdSetRecord>('AD_SET'),
  {
    fields: ['dailyBudget', 'lifetimeBudget'],
    category: 'BUDGET',
    eventType: () => 'update_ad_set_budget',
    translated: () => 'Ad set budget updated',
    extra: (before, after) => ({ type: budgetType(before, after) }),
  },
  {
    fields: ['targeting'],
    bare: true,
    category: 'TARGETING',
    eventType: () => 'update_ad_set_target_spec',
    translated: () => 'Ad set targeting updated',
    extra: (before, after) => {
      const old = sentences(before.targeting);
      const now = sentences(after.targeting);
      return { old_sentences: old, new_sentences: now, changed_lines: changedLines(old, now) };
    },
  },
  {
    fields: ['bidAmount', 'bidStrategy', 'bidConstraints', 'billingEvent'],
    category: 'BID',
    eventType: () => 'update_ad_set_bidding',
    translated: () => 'Ad set bidding updated',
  },
  { fields: ['startTime', 'endTime'], category: 'DATE', eventType: () => 'update_ad_set_duration', translated: () => 'Ad set schedule updated' },
  {
    fields: ['optimizationGoal'],
    bare: true,
    category: 'AD_SET',
    eventType: () => 'update_ad_set_optimization_goal',
    translated: () => 'Ad set optimization goal updated',
  },
];

const CAMPAIGN_FAMILIES: ReadonlyArray<Family<CampaignRecord>> = [
  ...nameAndStatus<CampaignRecord>('CAMPAIGN'),
  {
    fields: ['dailyBudget', 'lifetimeBudget', 'spendCap'],
    category: 'BUDGET',
    eventType: () => 'update_campaign_budget',
    translated: () => 'Campaign budget updated',
    extra: (before, after) => ({ type: budgetType(before, after) }),
  },
  { fields: ['bidStrategy'], category: 'BID', eventType: () => 'update_campaign_bidding', translated: () => 'Campaign bidding updated' },
  { fields: ['startTime', 'stopTime'], category: 'DATE', eventType: () => 'update_campaign_schedule', translated: () => 'Campaign schedule updated' },
];

const AD_FAMILIES: ReadonlyArray<Family<AdRecord>> = [
  ...nameAndStatus<AdRecord>('AD'),
  { fields: ['creativeId'], bare: true, category: 'AD', eventType: () => 'update_ad_creative', translated: () => 'Ad creative updated' },
];

export function adSetEvents(before: AdSetRecord | null, after: AdSetRecord): ActivityEvent[] {
  if (before === null) {
    return [createEvent('AD_SET', pick(after, ['name', 'status', 'dailyBudget', 'lifetimeBudget', 'optimizationGoal', 'billingEvent']))];
  }
  return updateEvents('AD_SET', before, after, AD_SET_FAMILIES);
}

export function campaignEvents(before: CampaignRecord | null, after: CampaignRecord): ActivityEvent[] {
  if (before === null) {
    return [createEvent('CAMPAIGN', pick(after, ['name', 'status', 'objective', 'dailyBudget', 'lifetimeBudget', 'spendCap']))];
  }
  return updateEvents('CAMPAIGN', before, after, CAMPAIGN_FAMILIES);
}

export function adEvents(before: AdRecord | null, after: AdRecord): ActivityEvent[] {
  if (before === null) return [createEvent('AD', pick(after, ['name', 'status', 'adsetId']))];
  return updateEvents('AD', before, after, AD_FAMILIES);
}

/** A copy: recorded on the new object, naming its source (`extraData.source_id`), instead of its create event. */
export function copiedEvent(type: ActivityObjectType, source: { id: string; name: string }, copy: { id: string; name: string }): ActivityEvent {
  const { key, label } = OBJECTS[type];
  return {
    eventType: `copy_${key}`,
    category: type,
    translatedEventType: `${label} copied`,
    extraData: { source_id: source.id, source_name: source.name, name: copy.name },
  };
}
