import type { AdRecord } from '../../src/ads/store.ts';
import type { Breakdown, InsightsLevel } from '../../src/insights/query.ts';
import { deliveryEvent, type DeliveryEvent } from '../helpers/insights.ts';

/**
 * Delivery for the report tests, and the exact answers computed from the raw events (not from facts): sums,
 * and reach as the exact number of distinct people, so the engine's sketches are checked against the truth.
 */

export { random } from '../helpers/insights.ts';

/** An event with the day it falls on in the account's calendar, as the test wrote it (the local date of its time). */
export interface DayEvent extends DeliveryEvent {
  day: string;
  campaign_id: string;
  adset_id: string;
}

const AGES = ['18-24', '25-34', '35-44', '45-54'];
const GENDERS = ['male', 'female', 'unknown'];
const COUNTRIES = ['US', 'CA', 'MX'];
const PLACEMENTS: Array<[string, string]> = [
  ['facebook', 'feed'],
  ['facebook', 'story'],
  ['instagram', 'instagram_reels'],
  ['instagram', 'instagram_stories'],
  ['audience_network', 'an_classic'],
];
const DEVICES = ['mobile', 'desktop'];

export interface Person {
  key: string;
  age: string;
  gender: string;
  country: string;
}

export const peoplePool = (prefix: string, count: number, rand: () => number): Person[] =>
  Array.from({ length: count }, (_, i) => ({
    key: `${prefix}-${i}`,
    age: AGES[Math.floor(rand() * AGES.length)]!,
    gender: GENDERS[Math.floor(rand() * GENDERS.length)]!,
    country: COUNTRIES[Math.floor(rand() * COUNTRIES.length)]!,
  }));

/**
 * One person's delivery on a day: an impression (with spend), maybe a click (maybe on the link) and maybe an
 * action, all at `time` (an ISO time with the account's offset; its date is the account's day).
 */
export function personDelivery(ad: AdRecord, person: Person, time: string, rand: () => number, spendCents = 1 + Math.floor(rand() * 40)): DayEvent[] {
  const [publisher, position] = PLACEMENTS[Math.floor(rand() * PLACEMENTS.length)]!;
  const base = {
    ad_id: ad.id,
    campaign_id: ad.campaignId,
    adset_id: ad.adsetId,
    time,
    day: time.slice(0, 10),
    person: person.key,
    age: person.age,
    gender: person.gender,
    country: person.country,
    publisher_platform: publisher,
    platform_position: position,
    device_platform: DEVICES[Math.floor(rand() * DEVICES.length)]!,
  };
  const events: DayEvent[] = [
    { ...deliveryEvent({ ...base, type: 'impression', spend: spendCents }), day: base.day, campaign_id: base.campaign_id, adset_id: base.adset_id },
  ];
  const roll = rand();
  if (roll < 0.08)
    events.push({ ...deliveryEvent({ ...base, type: 'click', link: roll < 0.05 }), day: base.day, campaign_id: base.campaign_id, adset_id: base.adset_id });
  if (roll < 0.02) {
    events.push({
      ...deliveryEvent({ ...base, type: 'action', action_type: 'purchase', value: 1999 }),
      day: base.day,
      campaign_id: base.campaign_id,
      adset_id: base.adset_id,
    });
  }
  return events;
}

/** Strips the test's own bookkeeping, leaving the import line. */
export const importLine = ({ day: _day, campaign_id: _c, adset_id: _a, ...event }: DayEvent): DeliveryEvent => event;

export interface Expected {
  impressions: number;
  clicks: number;
  inlineLinkClicks: number;
  spend: number;
  reach: number;
  uniqueClicks: number;
  actions: Record<string, number>;
  actionValues: Record<string, number>;
}

const OBJECT_OF: Record<InsightsLevel, (event: DayEvent, accountId: string) => string> = {
  account: (_e, accountId) => accountId,
  campaign: (e) => e.campaign_id,
  adset: (e) => e.adset_id,
  ad: (e) => e.ad_id,
};

/** Exact totals of events grouped by a key (the report level's object, a bucket, breakdown values...). */
export function expectedBy(events: readonly DayEvent[], keyOf: (event: DayEvent) => string | null): Map<string, Expected> {
  const totals = new Map<string, Expected & { people: Set<string>; clickers: Set<string> }>();
  for (const event of events) {
    const key = keyOf(event);
    if (key === null) continue;
    let entry = totals.get(key);
    if (!entry) {
      entry = {
        impressions: 0,
        clicks: 0,
        inlineLinkClicks: 0,
        spend: 0,
        reach: 0,
        uniqueClicks: 0,
        actions: {},
        actionValues: {},
        people: new Set(),
        clickers: new Set(),
      };
      totals.set(key, entry);
    }
    entry.spend += event.spend ?? 0;
    if (event.type === 'impression') {
      entry.impressions += 1;
      entry.people.add(event.person);
    }
    if (event.type === 'click') {
      entry.clicks += 1;
      entry.clickers.add(event.person);
      if (event.link) {
        entry.inlineLinkClicks += 1;
        entry.actions.link_click = (entry.actions.link_click ?? 0) + 1;
      }
    }
    if (event.type === 'action') {
      entry.actions[event.action_type!] = (entry.actions[event.action_type!] ?? 0) + 1;
      if (event.value !== undefined) entry.actionValues[event.action_type!] = (entry.actionValues[event.action_type!] ?? 0) + event.value;
    }
  }
  return new Map([...totals].map(([key, { people, clickers, ...rest }]) => [key, { ...rest, reach: people.size, uniqueClicks: clickers.size }]));
}

/** The key of an event's report row: its object at `level`, and its breakdown values. */
export const rowKey =
  (level: InsightsLevel, accountId: string, breakdowns: readonly Breakdown[] = []) =>
  (event: DayEvent) =>
    [OBJECT_OF[level](event, accountId), ...breakdowns.map((b) => event[b] ?? '')].join('|');
