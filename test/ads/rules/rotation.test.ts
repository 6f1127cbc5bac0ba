import { describe, expect, it } from 'vitest';
import { rotationViolations, type RotationFields } from '../../../src/ads/rules/rotation.ts';

// The specification: at least two date ranges; the first timestamp equals the start; the last is at least one
// hour before the end; together they cover the whole schedule.
const NOW = new Date('2026-03-01T12:00:00Z');
const START = 1_772_409_600; // 2026-03-02T00:00:00Z
const HOUR = 3600;
const DAY = 24 * HOUR;
const at = (seconds: number) => new Date(seconds * 1000);
const INTERVALS = 'time_based_ad_rotation_intervals';
const BLOCKS = 'time_based_ad_rotation_id_blocks';

const rotation = (overrides: Partial<RotationFields> = {}): RotationFields => ({
  timeBasedAdRotationIntervals: [START, START + DAY],
  timeBasedAdRotationIdBlocks: [['11'], ['12']],
  startTime: at(START),
  endTime: at(START + 2 * DAY),
  ...overrides,
});

describe('time-based ad rotation', () => {
  it.each<[string, Partial<RotationFields>, string[]]>([
    ['no rotation', { timeBasedAdRotationIntervals: null, timeBasedAdRotationIdBlocks: null }, []],
    ['two ranges covering the schedule', {}, []],
    ['three ranges', { timeBasedAdRotationIntervals: [START, START + HOUR, START + DAY], timeBasedAdRotationIdBlocks: [[1], [2], [3]] }, []],
    ['the last range starting exactly one hour before the end', { timeBasedAdRotationIntervals: [START, START + 2 * DAY - HOUR] }, []],
    ['intervals as numeric strings', { timeBasedAdRotationIntervals: [String(START), String(START + DAY)] }, []],
    ['intervals without id blocks', { timeBasedAdRotationIdBlocks: null }, [BLOCKS]],
    ['id blocks without intervals', { timeBasedAdRotationIntervals: null }, [INTERVALS]],
    ['intervals not a list', { timeBasedAdRotationIntervals: START }, [INTERVALS]],
    ['a single range', { timeBasedAdRotationIntervals: [START], timeBasedAdRotationIdBlocks: [[1]] }, [INTERVALS]],
    ['one id block per range', { timeBasedAdRotationIdBlocks: [[1]] }, [BLOCKS]],
    [
      'ranges in decreasing order',
      { timeBasedAdRotationIntervals: [START, START + DAY, START + HOUR], timeBasedAdRotationIdBlocks: [[1], [2], [3]] },
      [INTERVALS],
    ],
    ['the same start twice', { timeBasedAdRotationIntervals: [START, START] }, [INTERVALS]],
    ['the first range after the start', { timeBasedAdRotationIntervals: [START + 60, START + DAY] }, [INTERVALS]],
    ['the first range before the start', { timeBasedAdRotationIntervals: [START - 60, START + DAY] }, [INTERVALS]],
    ['the last range less than an hour before the end', { timeBasedAdRotationIntervals: [START, START + 2 * DAY - HOUR + 1] }, [INTERVALS]],
    ['the last range after the end', { timeBasedAdRotationIntervals: [START, START + 3 * DAY] }, [INTERVALS]],
    ['no end, so the ranges cannot cover the schedule', { endTime: null }, ['end_time']],
  ])('%s', (_rule, overrides, blamed) => {
    const found = rotationViolations(rotation(overrides), NOW);
    expect(found.map((v) => v.field)).toEqual(blamed);
    for (const v of found) expect(v.code).toBe(100);
  });

  it('starts from now when the ad set has no start time', () => {
    const now = Math.floor(NOW.getTime() / 1000);
    expect(rotationViolations(rotation({ startTime: null, timeBasedAdRotationIntervals: [now, now + DAY] }), NOW)).toEqual([]);
    expect(rotationViolations(rotation({ startTime: null }), NOW).map((v) => v.message)).toEqual([
      `Param ${INTERVALS}[0] must equal the ad set's start time (${now}), so the ranges cover the whole schedule`,
    ]);
  });

  it('reports every problem of a schedule', () => {
    const found = rotationViolations(rotation({ timeBasedAdRotationIntervals: [START + 60], timeBasedAdRotationIdBlocks: [[1], [2]], endTime: null }), NOW);
    expect(found.map((v) => v.field)).toEqual([INTERVALS, BLOCKS, INTERVALS, 'end_time']);
  });

  it('tells a person what to fix', () => {
    expect(rotationViolations(rotation({ timeBasedAdRotationIntervals: [START, START + 2 * DAY - 60] }), NOW)).toEqual([
      {
        field: INTERVALS,
        code: 100,
        userTitle: 'Rotation schedule incomplete',
        message: `Param ${INTERVALS}: the last range must start at least one hour before the ad set ends (${START + 2 * DAY - HOUR} at the latest)`,
        userMessage: 'The last rotation range must start at least an hour before the ad set ends.',
      },
    ]);
  });
});
