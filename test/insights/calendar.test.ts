import { describe, expect, it } from 'vitest';
import { AccountCalendar, HISTORY_MONTHS, monthsBefore } from '../../src/insights/intake/calendar.ts';

/** An account's days: the day of an instant in its time zone, and the window an import may write (37 months to today). */

describe('monthsBefore', () => {
  it.each([
    ['2026-11-26', 37, '2023-10-26'],
    ['2026-03-31', 1, '2026-02-28'],
    ['2028-03-31', 1, '2028-02-29'],
    ['2028-02-29', 12, '2027-02-28'],
    ['2026-01-15', 13, '2024-12-15'],
    ['2026-12-31', 0, '2026-12-31'],
  ])('%s minus %i months is %s', (day, months, expected) => {
    expect(monthsBefore(day, months)).toBe(expected);
  });
});

describe('AccountCalendar', () => {
  const now = Date.parse('2026-11-26T06:00:00Z');

  it('knows today in the account’s zone, not UTC’s', () => {
    expect(new AccountCalendar('Etc/UTC', now).today).toBe('2026-11-26');
    expect(new AccountCalendar('America/Los_Angeles', now).today).toBe('2026-11-25');
    expect(new AccountCalendar('Pacific/Kiritimati', Date.parse('2026-11-26T12:00:00Z')).today).toBe('2026-11-27');
  });

  it(`writes from ${HISTORY_MONTHS} months back to today, both included`, () => {
    const calendar = new AccountCalendar('America/Los_Angeles', now);
    expect(calendar.earliest).toBe('2023-10-25');
    expect(calendar.refusal('2023-10-25')).toBeUndefined();
    expect(calendar.refusal('2026-11-25')).toBeUndefined();
    expect(calendar.refusal('2023-10-24')).toBe('2023-10-24 is more than 37 months back (the earliest day is 2023-10-25)');
    expect(calendar.refusal('2026-11-26')).toBe("2026-11-26 is in the future (today is 2026-11-25 in the account's time zone)");
  });

  it.each([
    // Los Angeles: PST is UTC-8, PDT UTC-7; the 2026 switches are 8 March and 1 November.
    ['America/Los_Angeles', '2026-03-08T07:59:59.999Z', '2026-03-07'],
    ['America/Los_Angeles', '2026-03-08T08:00:00Z', '2026-03-08'],
    ['America/Los_Angeles', '2026-03-09T06:59:59.999Z', '2026-03-08'],
    ['America/Los_Angeles', '2026-03-09T07:00:00Z', '2026-03-09'],
    ['America/Los_Angeles', '2026-11-01T06:59:59.999Z', '2026-10-31'],
    ['America/Los_Angeles', '2026-11-02T07:59:59.999Z', '2026-11-01'],
    ['America/Los_Angeles', '2026-11-02T08:00:00Z', '2026-11-02'],
    ['Asia/Kolkata', '2026-06-01T18:29:59.999Z', '2026-06-01'],
    ['Asia/Kolkata', '2026-06-01T18:30:00Z', '2026-06-02'],
    ['Australia/Lord_Howe', '2026-10-03T13:29:59.999Z', '2026-10-03'],
    ['Australia/Lord_Howe', '2026-10-03T13:30:00Z', '2026-10-04'],
  ])('%s: %s is %s', (zone, instant, day) => {
    const calendar = new AccountCalendar(zone, now);
    // Asked twice: the second answer comes from the quarter-hour cache.
    expect([calendar.dayOf(Date.parse(instant)), calendar.dayOf(Date.parse(instant))]).toEqual([day, day]);
  });
});
