import { describe, expect, it } from 'vitest';
import { DATE_PRESETS, type DatePreset } from '../../../src/insights/query.ts';
import { addMonths, bucketsOf, checkIncrement, checkRange, presetRange, reportRanges, todayIn } from '../../../src/insights/rules/windows.ts';
import { DomainError } from '../../../src/errors/index.ts';

// Today is Wednesday 2026-05-13 in these tables (a Wednesday in the second quarter).
const TODAY = '2026-05-13';
const SPAN = { since: '2025-01-02', until: '2026-05-12' };

const PRESETS: Record<DatePreset, [string, string] | null> = {
  today: ['2026-05-13', '2026-05-13'],
  yesterday: ['2026-05-12', '2026-05-12'],
  last_3d: ['2026-05-10', '2026-05-12'],
  last_7d: ['2026-05-06', '2026-05-12'],
  last_14d: ['2026-04-29', '2026-05-12'],
  last_28d: ['2026-04-15', '2026-05-12'],
  last_30d: ['2026-04-13', '2026-05-12'],
  last_90d: ['2026-02-12', '2026-05-12'],
  this_week_mon_today: ['2026-05-11', '2026-05-13'],
  this_week_sun_today: ['2026-05-10', '2026-05-13'],
  last_week_mon_sun: ['2026-05-04', '2026-05-10'],
  last_week_sun_sat: ['2026-05-03', '2026-05-09'],
  this_month: ['2026-05-01', '2026-05-13'],
  last_month: ['2026-04-01', '2026-04-30'],
  this_quarter: ['2026-04-01', '2026-05-13'],
  last_quarter: ['2026-01-01', '2026-03-31'],
  this_year: ['2026-01-01', '2026-05-13'],
  last_year: ['2025-01-01', '2025-12-31'],
  maximum: ['2023-04-13', '2026-05-13'],
  data_maximum: ['2025-01-02', '2026-05-12'],
};

const refusal = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    if (error instanceof DomainError) return { code: error.code, field: error.field, message: error.message };
    throw error;
  }
  throw new Error('expected a refusal');
};

describe('date presets in the account calendar', () => {
  it('covers all 20 presets', () => expect(Object.keys(PRESETS).sort()).toEqual([...DATE_PRESETS].sort()));
  it.each(Object.entries(PRESETS))('%s', (preset, days) => {
    const range = presetRange(preset as DatePreset, TODAY, SPAN);
    expect(range && [range.since, range.until]).toEqual(days);
  });
  it('data_maximum of an account without data is nothing', () => expect(presetRange('data_maximum', TODAY, null)).toBeNull());
  it('weeks on a Sunday and a Monday', () => {
    expect(presetRange('this_week_mon_today', '2026-05-17', null)).toEqual({ since: '2026-05-11', until: '2026-05-17' });
    expect(presetRange('this_week_sun_today', '2026-05-17', null)).toEqual({ since: '2026-05-17', until: '2026-05-17' });
    expect(presetRange('last_week_mon_sun', '2026-05-11', null)).toEqual({ since: '2026-05-04', until: '2026-05-10' });
    expect(presetRange('last_quarter', '2026-01-05', null)).toEqual({ since: '2025-10-01', until: '2025-12-31' });
    expect(presetRange('last_month', '2026-03-31', null)).toEqual({ since: '2026-02-01', until: '2026-02-28' });
  });
  it('months shorter than the date keep to their last day', () => {
    expect(addMonths('2026-03-31', -1)).toEqual('2026-02-28');
    expect(addMonths('2024-02-29', -37)).toEqual('2021-01-29');
    expect(addMonths('2026-01-15', -13)).toEqual('2024-12-15');
  });
});

describe('today in a time zone', () => {
  it.each([
    ['2026-03-08T07:30:00Z', 'America/Los_Angeles', '2026-03-07'],
    ['2026-03-08T08:30:00Z', 'America/Los_Angeles', '2026-03-08'],
    ['2026-03-08T23:30:00Z', 'Etc/UTC', '2026-03-08'],
    ['2026-03-08T23:30:00Z', 'Asia/Tokyo', '2026-03-09'],
    ['2026-11-01T07:59:00Z', 'America/Los_Angeles', '2026-11-01'],
  ])('%s in %s is %s', (instant, zone, day) => expect(todayIn(zone, new Date(instant))).toBe(day));
});

describe('time ranges', () => {
  const facts = { today: TODAY, firstDay: '2025-01-02', dataSpan: SPAN };
  it.each([
    [{ since: '2026-05-02', until: '2026-05-01' }, 'since (2026-05-02) is after until (2026-05-01)'],
    [{ since: '2026-02-30', until: '2026-03-01' }, 'is not a day of the calendar'],
    [{ since: '2026-5-1', until: '2026-05-02' }, 'must be a day written YYYY-MM-DD'],
    [{ since: '2026-05-01' }, 'until must be a day'],
  ])('%j is error 100 naming time_range', (range, message) => {
    const error = refusal(() => reportRanges({ timeRange: range as never }, facts));
    expect(error).toMatchObject({ code: 'BAD_USER_INPUT', field: 'time_range' });
    expect(error.message).toContain(message);
  });
  it('a range ending before the account began is refused; one starting before keeps its start', () => {
    expect(refusal(() => reportRanges({ timeRange: { since: '2024-01-01', until: '2025-01-01' } }, facts))).toMatchObject({ field: 'time_range' });
    expect(reportRanges({ timeRange: { since: '2024-01-01', until: '2025-01-05' } }, facts)).toEqual([{ since: '2024-01-01', until: '2025-01-05' }]);
  });
  it('more than 37 months back is clipped to where maximum starts', () => {
    const old = { ...facts, firstDay: '2019-01-01' };
    expect(reportRanges({ timeRange: { since: '2020-01-01', until: '2024-01-01' } }, old)).toEqual([{ since: '2023-04-13', until: '2024-01-01' }]);
    expect(refusal(() => reportRanges({ timeRanges: [{ since: '2020-01-01', until: '2021-01-01' }] }, old))).toMatchObject({ field: 'time_ranges' });
  });
  it('days after today are cut off; a range wholly after today reads nothing', () => {
    expect(reportRanges({ timeRange: { since: '2026-05-01', until: '2099-12-31' } }, facts)).toEqual([{ since: '2026-05-01', until: TODAY }]);
    expect(reportRanges({ timeRange: { since: '2026-05-14', until: '2026-06-01' } }, facts)).toEqual([]);
    expect(
      reportRanges(
        {
          timeRanges: [
            { since: '2026-05-14', until: '2026-06-01' },
            { since: '2026-05-01', until: '2026-05-02' },
          ],
        },
        facts,
      ),
    ).toEqual([{ since: '2026-05-01', until: '2026-05-02' }]);
  });
  it('time_ranges beat time_range, which beats date_preset; nothing is last_30d', () => {
    const both = { datePreset: 'today' as const, timeRange: { since: '2026-05-01', until: '2026-05-02' } };
    expect(reportRanges(both, facts)).toEqual([{ since: '2026-05-01', until: '2026-05-02' }]);
    expect(reportRanges({ ...both, timeRanges: [{ since: '2026-05-03', until: '2026-05-04' }] }, facts)).toEqual([
      { since: '2026-05-03', until: '2026-05-04' },
    ]);
    expect(reportRanges({}, facts)).toEqual([{ since: '2026-04-13', until: '2026-05-12' }]);
    expect(checkRange({ since: '2026-05-01', until: '2026-05-01' }, 'time_range')).toEqual({ since: '2026-05-01', until: '2026-05-01' });
  });
});

describe('time increments', () => {
  it.each([0, 91, -1, 1.5, 'weekly', '0', null])('%j is error 100 naming time_increment', (value) =>
    expect(refusal(() => checkIncrement(value))).toMatchObject({ code: 'BAD_USER_INPUT', field: 'time_increment' }),
  );
  it.each([
    [1, 1],
    [90, 90],
    ['7', 7],
    ['monthly', 'monthly'],
    ['all_days', 'all_days'],
    [undefined, 'all_days'],
  ])('%j reads as %j', (value, expected) => expect(checkIncrement(value)).toEqual(expected));

  const range = [{ since: '2026-01-30', until: '2026-03-02' }];
  it('days cut from the first day, the last bucket shorter', () => {
    expect(bucketsOf(range, 14, false)).toEqual([
      { since: '2026-01-30', until: '2026-02-12' },
      { since: '2026-02-13', until: '2026-02-26' },
      { since: '2026-02-27', until: '2026-03-02' },
    ]);
    expect(bucketsOf(range, 1, false)).toHaveLength(32);
  });
  it('calendar months, cut at the range ends', () =>
    expect(bucketsOf(range, 'monthly', false)).toEqual([
      { since: '2026-01-30', until: '2026-01-31' },
      { since: '2026-02-01', until: '2026-02-28' },
      { since: '2026-03-01', until: '2026-03-02' },
    ]));
  it('all days is one bucket; several time ranges are one bucket each whatever the increment', () => {
    expect(bucketsOf(range, 'all_days', false)).toEqual(range);
    const several = [range[0]!, { since: '2026-02-01', until: '2026-02-03' }];
    expect(bucketsOf(several, 1, true)).toEqual(several);
  });
});
