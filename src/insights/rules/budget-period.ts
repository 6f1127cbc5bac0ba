import type { DayRange } from '../query.ts';
import { todayIn } from './windows.ts';

/**
 * The period a budget is spent in, and what is left of it (budget_remaining). Pure: the clock and the account's
 * time zone are passed in. A day is the ad account's day (IANA time zone, windows.ts todayIn), as every statistic's.
 */

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
  const today = todayIn(timeZone, now);
  if (holder.dailyBudget !== null) return { budget: Number(holder.dailyBudget), days: { since: today, until: today } };
  if (holder.lifetimeBudget !== null) {
    return { budget: Number(holder.lifetimeBudget), days: { since: todayIn(timeZone, holder.startTime ?? holder.createdTime), until: today } };
  }
  return null;
}

/** What is left: never below zero (delivery may overshoot a day's budget, as the platform's may). */
export function budgetRemaining(period: BudgetPeriod | null, spent: number): number {
  return period === null ? 0 : Math.max(0, period.budget - spent);
}
