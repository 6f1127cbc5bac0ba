import { badInput } from '../../errors/index.ts';
import type { DatePreset, Day, DayRange, TimeIncrement } from '../query.ts';

/**
 * Report windows: the 20 date presets, time ranges and time increments, as days of the ad account's calendar.
 * A day is a calendar date (YYYY-MM-DD), so day arithmetic is done on UTC midnights and daylight-saving changes
 * cannot move a boundary: a 23- or 25-hour day is still one day. Only `todayIn` looks at an instant.
 */

/** Statistics reach at most 37 months back from today (the platform's `maximum`). */
export const MAXIMUM_MONTHS = 37;
/** time_increment in days: 1 to 90. */
export const MAX_INCREMENT_DAYS = 90;
/** time_ranges in one report (each is a row group of its own). */
export const MAX_TIME_RANGES = 37;

const DAY_MS = 86_400_000;
const DAY_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;

const toUtc = (day: Day) => Date.parse(`${day}T00:00:00Z`);
const fromUtc = (ms: number): Day => new Date(ms).toISOString().slice(0, 10);

export const addDays = (day: Day, days: number): Day => fromUtc(toUtc(day) + days * DAY_MS);
export const daysBetween = (from: Day, to: Day) => Math.round((toUtc(to) - toUtc(from)) / DAY_MS);
/** 0 Sunday ... 6 Saturday. */
const weekday = (day: Day) => new Date(toUtc(day)).getUTCDay();
const parts = (day: Day) => day.split('-').map(Number) as [number, number, number];
const dayOf = (year: number, month: number, date: number): Day => fromUtc(Date.UTC(year, month - 1, date));
const lastDateOfMonth = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate();

/** The same date `months` months away, on the month's last day when it is shorter (2026-03-31 - 1 month = 2026-02-28). */
export function addMonths(day: Day, months: number): Day {
  const [year, month, date] = parts(day);
  const index = year * 12 + (month - 1) + months;
  const targetYear = Math.floor(index / 12);
  const targetMonth = (index % 12) + 1;
  return dayOf(targetYear, targetMonth, Math.min(date, lastDateOfMonth(targetYear, targetMonth)));
}

const monthStart = (day: Day) => `${day.slice(0, 8)}01`;
const monthEnd = (day: Day) => {
  const [year, month] = parts(day);
  return dayOf(year, month, lastDateOfMonth(year, month));
};
const quarterStart = (day: Day) => {
  const [year, month] = parts(day);
  return dayOf(year, month - ((month - 1) % 3), 1);
};

/** A formatter per time zone: building one costs about 0.15 ms, formatting with it a few microseconds. */
const dayFormatters = new Map<string, Intl.DateTimeFormat>();

/** The calendar day an instant falls on in an IANA time zone. */
export function todayIn(timeZone: string, now: Date): Day {
  let formatter = dayFormatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    dayFormatters.set(timeZone, formatter);
  }
  const formatted = formatter.formatToParts(now);
  const part = (type: string) => formatted.find((p) => p.type === type)!.value;
  return `${part('year')}-${part('month')}-${part('day')}`;
}

/** The first day `maximum` reads: 37 months before today. */
export const maximumSince = (today: Day) => addMonths(today, -MAXIMUM_MONTHS);

/**
 * A preset's days, given today in the account's time zone. The `last_Nd` presets end yesterday (today is not over);
 * `this_*` ones end today; `last_week_*`, `last_month`, `last_quarter` and `last_year` are whole periods. `maximum`
 * is 37 months back to today; `data_maximum` the account's first to last day with data (null: it has none).
 */
export function presetRange(preset: DatePreset, today: Day, dataSpan: DayRange | null): DayRange | null {
  const yesterday = addDays(today, -1);
  const lastDays = (n: number): DayRange => ({ since: addDays(today, -n), until: yesterday });
  const [year] = parts(today);
  switch (preset) {
    case 'today':
      return { since: today, until: today };
    case 'yesterday':
      return { since: yesterday, until: yesterday };
    case 'last_3d':
      return lastDays(3);
    case 'last_7d':
      return lastDays(7);
    case 'last_14d':
      return lastDays(14);
    case 'last_28d':
      return lastDays(28);
    case 'last_30d':
      return lastDays(30);
    case 'last_90d':
      return lastDays(90);
    case 'this_week_mon_today':
      return { since: addDays(today, -((weekday(today) + 6) % 7)), until: today };
    case 'this_week_sun_today':
      return { since: addDays(today, -weekday(today)), until: today };
    case 'last_week_mon_sun': {
      const monday = addDays(today, -((weekday(today) + 6) % 7) - 7);
      return { since: monday, until: addDays(monday, 6) };
    }
    case 'last_week_sun_sat': {
      const sunday = addDays(today, -weekday(today) - 7);
      return { since: sunday, until: addDays(sunday, 6) };
    }
    case 'this_month':
      return { since: monthStart(today), until: today };
    case 'last_month': {
      const previous = addMonths(monthStart(today), -1);
      return { since: previous, until: monthEnd(previous) };
    }
    case 'this_quarter':
      return { since: quarterStart(today), until: today };
    case 'last_quarter': {
      const since = addMonths(quarterStart(today), -3);
      return { since, until: addDays(quarterStart(today), -1) };
    }
    case 'this_year':
      return { since: `${year}-01-01`, until: today };
    case 'last_year':
      return { since: `${year - 1}-01-01`, until: `${year - 1}-12-31` };
    case 'maximum':
      return { since: maximumSince(today), until: today };
    case 'data_maximum':
      return dataSpan;
  }
}

/** A calendar day in YYYY-MM-DD, or error 100 naming the parameter. */
export function checkDay(value: unknown, field: string, what: string): Day {
  const match = typeof value === 'string' ? DAY_PATTERN.exec(value) : null;
  if (!match) throw badInput(field, `Param ${field}: ${what} must be a day written YYYY-MM-DD, got ${JSON.stringify(value)}.`);
  const [, year, month, date] = match.map(Number) as [number, number, number, number];
  if (month < 1 || month > 12 || date < 1 || date > lastDateOfMonth(year, month)) {
    throw badInput(field, `Param ${field}: ${what} ${String(value)} is not a day of the calendar.`);
  }
  return value as Day;
}

/** A time range checked: both days real, `since` not after `until`. */
export function checkRange(range: { since?: unknown; until?: unknown }, field: string): DayRange {
  const since = checkDay(range?.since, field, 'since');
  const until = checkDay(range?.until, field, 'until');
  if (since > until) throw badInput(field, `Param ${field}: since (${since}) is after until (${until}).`);
  return { since, until };
}

export interface WindowFacts {
  /** Today in the account's time zone. */
  today: Day;
  /** The account's first day: the earlier of the day it was created and its first day with data. */
  firstDay: Day;
  /** The account's first and last day with data (null: none), for data_maximum. */
  dataSpan: DayRange | null;
}

/**
 * A range within what can be read: days more than 37 months back are cut off (as `maximum` reads), and so are days
 * after today (they have no data yet; cutting them also bounds the buckets of a far `until`). A range that ends
 * before the account's first day (or before those 37 months) is error 100 naming the parameter; one wholly after
 * today has nothing to read (null). A range that starts before the account's first day keeps its start, so its
 * buckets (time_increment=7, ...) start where the caller asked; the days before simply have no rows.
 */
export function clipRange(range: DayRange, field: string, facts: WindowFacts): DayRange | null {
  const oldest = maximumSince(facts.today);
  const earliest = oldest > facts.firstDay ? oldest : facts.firstDay;
  if (range.until < earliest) {
    const reason =
      earliest === facts.firstDay ? `the ad account's first day (${earliest})` : `${MAXIMUM_MONTHS} months back (${earliest}), the oldest statistics kept`;
    throw badInput(field, `Param ${field}: the range ${range.since} to ${range.until} ends before ${reason}.`);
  }
  if (range.since > facts.today) return null;
  return { since: range.since < oldest ? oldest : range.since, until: range.until > facts.today ? facts.today : range.until };
}

const present = (range: DayRange | null): range is DayRange => range !== null;

export interface WindowQuery {
  datePreset?: DatePreset;
  timeRange?: DayRange;
  timeRanges?: DayRange[];
}

/**
 * The ranges a report covers, checked and clipped. Precedence as on the platform: time_ranges over time_range
 * over date_preset; none is last_30d. An empty list: nothing to read (data_maximum on an account without data,
 * ranges wholly after today).
 */
export function reportRanges(query: WindowQuery, facts: WindowFacts): DayRange[] {
  if (query.timeRanges !== undefined) {
    if (query.timeRanges.length === 0) throw badInput('time_ranges', 'Param time_ranges must list at least one range.');
    if (query.timeRanges.length > MAX_TIME_RANGES) throw badInput('time_ranges', `Param time_ranges may list at most ${MAX_TIME_RANGES} ranges.`);
    return query.timeRanges.map((range) => clipRange(checkRange(range, 'time_ranges'), 'time_ranges', facts)).filter(present);
  }
  if (query.timeRange !== undefined) return [clipRange(checkRange(query.timeRange, 'time_range'), 'time_range', facts)].filter(present);
  const range = presetRange(query.datePreset ?? 'last_30d', facts.today, facts.dataSpan);
  if (!range) return [];
  // A preset is never an error: one that lies wholly before the account's first day simply has no rows.
  const oldest = maximumSince(facts.today);
  return [{ since: range.since < oldest ? oldest : range.since, until: range.until }];
}

/** time_increment checked: 1-90 days, `monthly` or `all_days`; otherwise error 100 naming it. */
export function checkIncrement(value: unknown): TimeIncrement {
  if (value === undefined || value === 'all_days' || value === 'monthly') return value ?? 'all_days';
  const days = typeof value === 'string' && /^\d{1,3}$/.test(value) ? Number(value) : value;
  if (typeof days === 'number' && Number.isInteger(days) && days >= 1 && days <= MAX_INCREMENT_DAYS) return days;
  throw badInput(
    'time_increment',
    `Param time_increment must be a number of days from 1 to ${MAX_INCREMENT_DAYS}, monthly or all_days, got ${JSON.stringify(value)}.`,
  );
}

/**
 * The buckets (rows' date_start/date_stop) of a report: each range cut by the increment (N days from its first
 * day, the last bucket shorter; calendar months cut at the range's ends; all_days one bucket). Several
 * time_ranges give one bucket each: the increment does not apply to them, as on the platform.
 */
export function bucketsOf(ranges: readonly DayRange[], increment: TimeIncrement, several: boolean): DayRange[] {
  if (several || increment === 'all_days') return ranges.map((range) => ({ ...range }));
  const buckets: DayRange[] = [];
  for (const range of ranges) {
    let since = range.since;
    while (since <= range.until) {
      const end = increment === 'monthly' ? monthEnd(since) : addDays(since, increment - 1);
      const until = end < range.until ? end : range.until;
      buckets.push({ since, until });
      since = addDays(until, 1);
    }
  }
  return buckets;
}
