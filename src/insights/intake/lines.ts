import { personHash, ReachSketch } from '../sketch.ts';
import { BREAKDOWN_VALUES } from '../rules/breakdowns.ts';
import { NO_COUNTS, type DeliveryCell } from './aggregate.ts';

/**
 * Reading one line of an import file (NDJSON) into a delivery cell, as far as the line alone can tell: its
 * account (the time zone that decides the day, the currency that decides what a whole amount is) is looked up
 * afterwards, for many lines at once (./import.ts). The formats are documented in the README ("Statistics").
 */

export type ImportFormat = 'events' | 'daily';
export const IMPORT_FORMATS: readonly ImportFormat[] = ['events', 'daily'];

/**
 * A line read: its cell (day still empty for an event) with, for an event, its instant (one object per line:
 * the import reads hundreds of thousands a second); or why the line is refused.
 */
export interface ReadCell extends DeliveryCell {
  /** The event's instant in milliseconds; null for a daily row. */
  time: number | null;
}
export type ReadLine = ReadCell | { problem: string };

export const EVENT_TYPES = ['impression', 'click', 'action'] as const;

/** Action types the intake knows, besides the namespaced conversions matched by CUSTOM_ACTION_TYPE. */
export const ACTION_TYPES = new Set([
  'link_click',
  'landing_page_view',
  'lead',
  'purchase',
  'add_to_cart',
  'add_to_wishlist',
  'initiate_checkout',
  'add_payment_info',
  'complete_registration',
  'contact',
  'subscribe',
  'search',
  'view_content',
  'app_install',
  'mobile_app_install',
  'video_view',
  'post_engagement',
  'page_engagement',
  'post_reaction',
  'comment',
  'post',
  'like',
  'onsite_conversion.messaging_conversation_started_7d',
  'omni_purchase',
]);
const CUSTOM_ACTION_TYPE = /^(offsite_conversion|onsite_conversion|app_custom_event)\.[a-z0-9_.]{1,100}$/;

const PERSON_KEY_MAX = 256;
const MAX_ACTION_KEYS = 100;
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})$/;
const DAY = /^\d{4}-\d{2}-\d{2}$/;
const DIGITS = /^[1-9]\d{0,19}$/;

const EVENT_FIELDS = new Set([
  'type',
  'ad_id',
  'time',
  'person',
  'age',
  'gender',
  'country',
  'publisher_platform',
  'platform_position',
  'device_platform',
  'spend',
  'link',
  'action_type',
  'value',
]);
const DAILY_FIELDS = new Set([
  'ad_id',
  'date',
  'age',
  'gender',
  'country',
  'publisher_platform',
  'platform_position',
  'device_platform',
  'impressions',
  'clicks',
  'inline_link_clicks',
  'spend',
  'actions',
  'action_values',
  'reach_sketch',
  'clicker_sketch',
]);

/** A refusal of the line, thrown inside the readers below and caught once per line. */
class LineProblem extends Error {}
const refuse = (message: string): never => {
  throw new LineProblem(message);
};

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function checkFields(line: Record<string, unknown>, known: ReadonlySet<string>): void {
  for (const field in line) if (!known.has(field)) refuse(`unknown field "${field}"`);
}

function adIdOf(line: Record<string, unknown>): string {
  const adId = line.ad_id;
  if (adId === undefined) refuse('ad_id is missing');
  if (typeof adId !== 'string' || !DIGITS.test(adId)) refuse(`ad_id must be an ad id (a string of digits), got ${JSON.stringify(adId)}`);
  return adId as string;
}

type BreakdownField = 'age' | 'gender' | 'country' | 'publisher_platform' | 'platform_position' | 'device_platform';

/**
 * A breakdown value of a line, one of `allowed` (BREAKDOWN_VALUES[field], passed in: looking the set up by the
 * field's name, six times an event, was a fifth of the checks' cost).
 */
function breakdownValue(value: unknown, field: BreakdownField, allowed: ReadonlySet<string>): string {
  if (value === undefined) refuse(`${field} is missing`);
  if (typeof value !== 'string' || !allowed.has(value)) refuse(`${field} ${JSON.stringify(value)} is not a known value`);
  return value as string;
}
const {
  age: AGES,
  gender: GENDERS,
  country: COUNTRIES,
  publisher_platform: PUBLISHERS,
  platform_position: POSITIONS,
  device_platform: DEVICES,
} = BREAKDOWN_VALUES;

/** A count: a non-negative whole number (0 when absent). */
function count(value: unknown, field: string): number {
  if (value === undefined) return 0;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0)
    refuse(`${field} must be a whole number of at least 0, got ${JSON.stringify(value)}`);
  return value as number;
}

/**
 * Money: a non-negative number (0 when absent); whether it is whole is checked once the account's currency is
 * known, so the error can name it.
 */
function money(value: unknown, field: string): number {
  if (value === undefined) return 0;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > Number.MAX_SAFE_INTEGER) {
    refuse(`${field} must be an amount in minor units of the account currency (at least 0), got ${JSON.stringify(value)}`);
  }
  return value as number;
}

function actionType(value: unknown, field: string): string {
  if (typeof value !== 'string' || !(ACTION_TYPES.has(value) || CUSTOM_ACTION_TYPE.test(value)))
    refuse(`${field} ${JSON.stringify(value)} is not a known action type`);
  return value as string;
}

/**
 * A cell with the line's breakdown values and nothing counted yet, for the reader to fill in. The object is
 * written whole here, in one shape: spreading the values into a literal (as this once did) cost a tenth of
 * an event's checks.
 */
function emptyCell(line: Record<string, unknown>, adId: string, day: string, time: number | null): ReadCell {
  return {
    adId,
    day,
    age: breakdownValue(line.age, 'age', AGES),
    gender: breakdownValue(line.gender, 'gender', GENDERS),
    country: breakdownValue(line.country, 'country', COUNTRIES),
    publisherPlatform: breakdownValue(line.publisher_platform, 'publisher_platform', PUBLISHERS),
    platformPosition: breakdownValue(line.platform_position, 'platform_position', POSITIONS),
    devicePlatform: breakdownValue(line.device_platform, 'device_platform', DEVICES),
    impressions: 0,
    clicks: 0,
    inlineLinkClicks: 0,
    spend: 0,
    actions: NO_COUNTS,
    actionValues: NO_COUNTS,
    people: null,
    clickers: null,
    time,
  };
}

/** The instant of an event, in milliseconds: ISO 8601 with an offset (or Z), or seconds since the epoch. */
function instant(value: unknown): number {
  if (value === undefined) refuse('time is missing');
  if (typeof value === 'number') {
    if (!Number.isFinite(value) || value < 0) refuse(`time ${JSON.stringify(value)} is not a time (seconds since 1970)`);
    return Math.floor(value * 1000);
  }
  if (typeof value !== 'string' || !ISO_INSTANT.test(value)) {
    refuse(`time ${JSON.stringify(value)} is not a time: ISO 8601 with an offset (2026-11-02T08:15:00-08:00, ...Z) or seconds since 1970`);
  }
  const ms = Date.parse((value as string).replace(/(\.\d{3})\d+/, '$1'));
  if (Number.isNaN(ms)) refuse(`time ${JSON.stringify(value)} is not a valid date`);
  return ms;
}

/** Shared by the many events without people of a kind (never written to). */
const NOBODY: readonly number[] = Object.freeze([]);

function readEvent(line: Record<string, unknown>): ReadCell {
  checkFields(line, EVENT_FIELDS);
  const type = line.type;
  if (type === undefined) refuse('type is missing');
  if (type !== 'impression' && type !== 'click' && type !== 'action') refuse(`type ${JSON.stringify(type)} is not an event type (${EVENT_TYPES.join(', ')})`);
  const adId = adIdOf(line);
  const time = instant(line.time);
  const person = line.person;
  if (person === undefined || person === null || person === '') refuse('person is missing (the key of the person the ad reached)');
  if (typeof person !== 'string' || person.length > PERSON_KEY_MAX) refuse(`person must be a string of at most ${PERSON_KEY_MAX} characters`);
  const hash = personHash(person as string);
  const spend = money(line.spend, 'spend');
  if (line.link !== undefined && (type !== 'click' || typeof line.link !== 'boolean')) refuse('link is a boolean of click events only');
  if (type !== 'action' && (line.action_type !== undefined || line.value !== undefined))
    refuse(`action_type and value belong to action events, not ${type as string}`);
  let actions = NO_COUNTS;
  let actionValues = NO_COUNTS;
  if (type === 'action') {
    if (line.action_type === undefined) refuse('action_type is missing');
    const action = actionType(line.action_type, 'action_type');
    actions = { [action]: 1 };
    if (line.value !== undefined) actionValues = { [action]: money(line.value, 'value') };
  }
  const link = line.link === true;
  if (link) actions = { link_click: 1 };
  const cell = emptyCell(line, adId, '', time);
  cell.impressions = type === 'impression' ? 1 : 0;
  cell.clicks = type === 'click' ? 1 : 0;
  cell.inlineLinkClicks = link ? 1 : 0;
  cell.spend = spend;
  cell.actions = actions;
  cell.actionValues = actionValues;
  cell.people = type === 'impression' ? hash : NOBODY;
  cell.clickers = type === 'click' ? hash : NOBODY;
  return cell;
}

function counts(value: unknown, field: string, valueOf: (v: unknown, f: string) => number): Record<string, number> {
  if (value === undefined) return {};
  if (!isObject(value)) refuse(`${field} must be an object of action type to number`);
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length > MAX_ACTION_KEYS) refuse(`${field} has more than ${MAX_ACTION_KEYS} action types`);
  const result: Record<string, number> = {};
  for (const [type, n] of entries) result[actionType(type, `${field} key`)] = valueOf(n, `${field}.${type}`);
  return result;
}

function sketch(value: unknown, field: string): ReachSketch | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string' || !/^[A-Za-z0-9+/]*={0,2}$/.test(value)) refuse(`${field} must be base64 of a reach sketch`);
  try {
    return ReachSketch.deserialize(Buffer.from(value as string, 'base64'));
  } catch {
    return refuse(`${field} is not a reach sketch (base64 of ReachSketch.serialize())`);
  }
}

function readDaily(line: Record<string, unknown>): ReadCell {
  checkFields(line, DAILY_FIELDS);
  const adId = adIdOf(line);
  const day = line.date;
  if (day === undefined) refuse('date is missing');
  if (
    typeof day !== 'string' ||
    !DAY.test(day) ||
    Number.isNaN(Date.parse(`${day}T00:00:00Z`)) ||
    new Date(`${day}T00:00:00Z`).toISOString().slice(0, 10) !== day
  ) {
    refuse(`date ${JSON.stringify(day)} is not a day (YYYY-MM-DD)`);
  }
  const cell = emptyCell(line, adId, day as string, null);
  cell.impressions = count(line.impressions, 'impressions');
  cell.clicks = count(line.clicks, 'clicks');
  cell.inlineLinkClicks = count(line.inline_link_clicks, 'inline_link_clicks');
  cell.spend = money(line.spend, 'spend');
  cell.actions = counts(line.actions, 'actions', count);
  cell.actionValues = counts(line.action_values, 'action_values', money);
  cell.people = sketch(line.reach_sketch, 'reach_sketch');
  cell.clickers = sketch(line.clicker_sketch, 'clicker_sketch');
  return cell;
}

/** Reads one line of the given format (already known to be within the length bound and not blank). */
export function readLine(text: string, format: ImportFormat): ReadLine {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { problem: 'not valid JSON' };
  }
  if (!isObject(value)) return { problem: 'not a JSON object' };
  try {
    return format === 'events' ? readEvent(value) : readDaily(value);
  } catch (error) {
    if (error instanceof LineProblem) return { problem: error.message };
    throw error;
  }
}

/** Why an amount of the account's currency is not whole, or undefined (run for every line: it builds no string unless it refuses). */
export function wholeMoneyProblem(cell: DeliveryCell, currency: string, digits: number): string | undefined {
  if (!Number.isInteger(cell.spend)) return hasDecimals(`spend ${cell.spend}`, currency, digits);
  if (cell.actionValues === NO_COUNTS) return undefined;
  for (const type in cell.actionValues) {
    const value = cell.actionValues[type]!;
    if (!Number.isInteger(value)) return hasDecimals(`the value ${value} of ${type}`, currency, digits);
  }
  return undefined;
}

function hasDecimals(amount: string, currency: string, digits: number): string {
  const unit = digits === 0 ? `${currency} has no minor unit` : `minor units of ${currency}, 1/${10 ** digits} of its major unit`;
  return `${amount} has decimals: amounts are whole ${digits === 0 ? currency : 'minor units'} (${unit})`;
}
