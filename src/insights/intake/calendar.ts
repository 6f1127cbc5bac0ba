/**
 * An ad account's days: an instant's day in the account's time zone, and the days an import may write (from 37
 * months back to today, both in that zone). Formatting a date in a time zone costs microseconds, far more than
 * the rest of an event's work, so days are cached by quarter hour of UTC: every offset in use is a multiple of
 * 15 minutes, so all instants of a quarter hour share a day, and a daylight-saving day (23 or 25 hours) is one day.
 */

const QUARTER_HOUR_MS = 15 * 60 * 1000;

/** How many months back an import may write (what `date_preset=maximum` reads). */
export const HISTORY_MONTHS = 37;

function dayFormatter(timeZone: string): Intl.DateTimeFormat {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
}

function formatDay(formatter: Intl.DateTimeFormat, ms: number): string {
  const parts = formatter.formatToParts(ms);
  const part = (type: string) => parts.find((p) => p.type === type)!.value;
  return `${part('year')}-${part('month')}-${part('day')}`;
}

/** The day `months` calendar months before `day` (the last day of a shorter month when it has no such day). */
export function monthsBefore(day: string, months: number): string {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  const index = year * 12 + (month - 1) - months;
  const targetYear = Math.floor(index / 12);
  const targetMonth = (index % 12) + 1;
  const lastDate = new Date(Date.UTC(targetYear, targetMonth, 0)).getUTCDate();
  return `${String(targetYear).padStart(4, '0')}-${String(targetMonth).padStart(2, '0')}-${String(Math.min(date, lastDate)).padStart(2, '0')}`;
}

export class AccountCalendar {
  /** Today in the account's time zone. */
  readonly today: string;
  /** The first day an import may write. */
  readonly earliest: string;
  private readonly formatter: Intl.DateTimeFormat;
  private readonly days = new Map<number, string>();

  constructor(timeZone: string, now: number = Date.now()) {
    this.formatter = dayFormatter(timeZone);
    this.today = formatDay(this.formatter, now);
    this.earliest = monthsBefore(this.today, HISTORY_MONTHS);
  }

  /** The account's day of an instant (milliseconds since the epoch). */
  dayOf(ms: number): string {
    const quarter = Math.floor(ms / QUARTER_HOUR_MS);
    let day = this.days.get(quarter);
    if (day === undefined) {
      day = formatDay(this.formatter, quarter * QUARTER_HOUR_MS);
      this.days.set(quarter, day);
    }
    return day;
  }

  /** Why a day cannot be written, or undefined when it can. */
  refusal(day: string): string | undefined {
    if (day > this.today) return `${day} is in the future (today is ${this.today} in the account's time zone)`;
    if (day < this.earliest) return `${day} is more than ${HISTORY_MONTHS} months back (the earliest day is ${this.earliest})`;
    return undefined;
  }
}
