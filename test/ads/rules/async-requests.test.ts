import { describe, expect, it } from 'vitest';
import { asyncRequestSetProgress } from '../../../src/ads/rules/async-requests.ts';

/** An asynchronous request set's progress, read off its requests counted by status (the rule the set's event and its reads share). */
describe('asyncRequestSetProgress', () => {
  it('counts each status and the total, and is complete only when none waits or runs', () => {
    const progress = asyncRequestSetProgress(
      new Map([
        ['SUCCESS', 3],
        ['ERROR', 1],
        ['IN_PROGRESS', 1],
      ]),
    );
    expect(progress).toEqual({
      totalCount: 5,
      initialCount: 0,
      inProgressCount: 1,
      successCount: 3,
      errorCount: 1,
      canceledCount: 0,
      isCompleted: false,
    });
    expect(asyncRequestSetProgress(new Map([['INITIAL', 2]])).isCompleted).toBe(false);
    expect(
      asyncRequestSetProgress(
        new Map([
          ['SUCCESS', 1],
          ['ERROR', 1],
          ['CANCELED', 2],
        ]),
      ),
    ).toMatchObject({ totalCount: 4, isCompleted: true });
  });

  it('reads a set with no requests as empty and complete', () => {
    expect(asyncRequestSetProgress(new Map())).toMatchObject({ totalCount: 0, isCompleted: true });
  });
});
