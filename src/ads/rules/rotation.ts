import { violation, type Violation } from './violations.ts';

/**
 * Time-based ad rotation (the specification's rule): at least two date ranges; the first starts when the ad set
 * starts; the last starts at least an hour before it ends; together they cover the whole schedule (ranges are
 * contiguous by construction: each runs until the next one starts, so they must be in increasing order, and the
 * ad set needs an end). `time_based_ad_rotation_id_blocks` holds one list of ad ids per range.
 * "The campaign" of the rule is the ad set's own schedule, which is what the ranges rotate within.
 */
export interface RotationFields {
  timeBasedAdRotationIntervals: unknown;
  timeBasedAdRotationIdBlocks: unknown;
  startTime: Date | null;
  endTime: Date | null;
}

const FIELD = 'time_based_ad_rotation_intervals';

export function rotationViolations(adSet: RotationFields, now: Date): Violation[] {
  const intervals = adSet.timeBasedAdRotationIntervals;
  const blocks = adSet.timeBasedAdRotationIdBlocks;
  if (intervals == null && blocks == null) return [];
  if (!Array.isArray(intervals) || !Array.isArray(blocks)) {
    const missing = Array.isArray(intervals) ? 'time_based_ad_rotation_id_blocks' : FIELD;
    return [violation(missing, `The parameter ${missing} is required with time-based ad rotation: send both the intervals and the id blocks`)];
  }
  const out: Violation[] = [];
  const user = { userTitle: 'Rotation schedule incomplete' };
  if (intervals.length < 2) out.push(violation(FIELD, `Param ${FIELD} must have at least two date ranges`, user));
  if (blocks.length !== intervals.length) {
    out.push(
      violation(
        'time_based_ad_rotation_id_blocks',
        `Param time_based_ad_rotation_id_blocks must have one block of ad ids per interval (${intervals.length}), got ${blocks.length}`,
        user,
      ),
    );
  }
  const seconds = intervals.map(Number);
  for (let i = 1; i < seconds.length; i++) {
    if (!(seconds[i]! > seconds[i - 1]!))
      out.push(violation(FIELD, `Param ${FIELD} must be in increasing order: ${FIELD}[${i}] is not after ${FIELD}[${i - 1}]`, user));
  }
  const start = Math.floor((adSet.startTime ?? now).getTime() / 1000);
  if (seconds.length > 0 && seconds[0] !== start) {
    out.push(
      violation(FIELD, `Param ${FIELD}[0] must equal the ad set's start time (${start}), so the ranges cover the whole schedule`, {
        ...user,
        userMessage: 'The first rotation range must start when the ad set starts.',
      }),
    );
  }
  if (adSet.endTime === null) {
    out.push(violation('end_time', 'The parameter end_time is required with time-based ad rotation, so the ranges can cover the whole schedule', user));
  } else if (seconds.length > 0) {
    const end = Math.floor(adSet.endTime.getTime() / 1000);
    const last = seconds.at(-1)!;
    if (last > end - 3600) {
      out.push(
        violation(FIELD, `Param ${FIELD}: the last range must start at least one hour before the ad set ends (${end - 3600} at the latest)`, {
          ...user,
          userMessage: 'The last rotation range must start at least an hour before the ad set ends.',
        }),
      );
    }
  }
  return out;
}
