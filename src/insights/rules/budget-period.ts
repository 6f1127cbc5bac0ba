import type { Day, DayRange } from '../query.ts';

/**
 * The period a budget is spent in, and what is left of it (budget_remaining). Pure: the clock and the account's
 * time zone are passed in. A day is the ad account's day (IANA time zone), as every statistic's.
 */

const dayFormats = new Map<string, Intl.DateTimeFormat>();

/** The day of the account's calendar an instant falls on, YYYY-MM-DD. */
export function accountDay(instant: Date, timeZone: string): Day {
  let format = dayFormats.get(timeZone);
  if (!format) {
    // en-CA writes dates as YYYY-MM-DD.
    format = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    dayFormats.set(timeZone, format);
  }
  return format.format(instant);
}

/** The day `count` days after `day` (before, when negative), on the calendar (daylight saving does not matter). */
export function addDays(day: Day, count: number): Day {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + count);
  return date.toISOString().slice(0, 10);
}

/** What holds a budget: a campaign (campaign budget) or an ad set. Amounts in minor units, as stored. */
export interface BudgetHolder {
  dailyBudget: string | null;
  lifetimeBudget: string | null;
  startTime: Date | null;
  createdTime: Date;
}

export interface BudgetPeriod {
  /** Minor units of the account currency. */
  budget: number;
  /** The account days whose spend counts against it (empty when since > until: a schedule not started yet). */
  days: DayRange;
}

/**
 * The budget an object holds and the days its spend counts: a daily budget against today's spend (the account's
 * today), a lifetime budget against the spend since its schedule started (its start_time, else its creation).
 * Null when the object holds no budget (an ad set under a campaign budget, a campaign whose ad sets hold theirs).
 */
export function budgetPeriod(holder: BudgetHolder, now: Date, timeZone: string): BudgetPeriod | null {
  const today = accountDay(now, timeZone);
  if (holder.dailyBudget !== null) return { budget: Number(holder.dailyBudget), days: { since: today, until: today } };
  if (holder.lifetimeBudget !== null) {
    return { budget: Number(holder.lifetimeBudget), days: { since: accountDay(holder.startTime ?? holder.createdTime, timeZone), until: today } };
  }
  return null;
}

/** What is left: never below zero (delivery may overshoot a day's budget, as the platform's may). */
export function budgetRemaining(period: BudgetPeriod | null, spent: number): number {
  return period === null ? 0 : Math.max(0, period.budget - spent);
}
