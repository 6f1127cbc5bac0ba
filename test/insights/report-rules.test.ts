import { describe, expect, it } from 'vitest';
import { ASYNC_STATUS, expiresAt, isLive, reportSpan } from '../../src/insights/reports/rules.ts';
import { REPORT_RUN_STATUSES } from '../../src/insights/reports/store.ts';

/** The pure rules of asynchronous reports (src/insights/reports/rules.ts), as tables. */
describe('report run rules', () => {
  it('names every state by the platform async_status', () => {
    expect(REPORT_RUN_STATUSES.map((status) => ASYNC_STATUS[status])).toEqual(['Job Not Started', 'Job Started', 'Job Running', 'Job Completed', 'Job Failed']);
  });

  const row = (dateStart: string, dateStop: string) => ({ dateStart, dateStop });
  it.each([
    [
      'an explicit range, whatever the rows',
      { timeRange: { since: '2026-01-01', until: '2026-01-31' } },
      [row('2026-01-05', '2026-01-05')],
      { since: '2026-01-01', until: '2026-01-31' },
    ],
    [
      'several ranges: from the first day of any to the last',
      {
        timeRanges: [
          { since: '2026-02-01', until: '2026-02-07' },
          { since: '2026-01-10', until: '2026-01-12' },
        ],
      },
      [],
      { since: '2026-01-10', until: '2026-02-07' },
    ],
    [
      'a preset: the span of the rows',
      {},
      [row('2026-03-02', '2026-03-02'), row('2026-03-01', '2026-03-01'), row('2026-03-04', '2026-03-04')],
      { since: '2026-03-01', until: '2026-03-04' },
    ],
    ['a preset without rows: unknown', {}, [], null],
  ])('date_start and date_stop of %s', (_, query, rows, span) => {
    expect(reportSpan(query, rows)).toEqual(span);
  });

  it('a finished run lives its time, then answers as missing', () => {
    const ended = new Date('2026-05-01T00:00:00Z');
    const run = { expiresAt: expiresAt(ended, 3600) };
    expect(run.expiresAt.toISOString()).toBe('2026-05-01T01:00:00.000Z');
    expect(isLive(run, new Date('2026-05-01T00:59:59Z'))).toBe(true);
    expect(isLive(run, new Date('2026-05-01T01:00:00Z'))).toBe(false);
    expect(isLive({ expiresAt: null }, new Date('2100-01-01T00:00:00Z'))).toBe(true);
  });
});
