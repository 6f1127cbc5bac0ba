import { describe, expect, it } from 'vitest';
import type { ObjectStatus } from '../../../src/ads/rules/enums.ts';
import { stateViolations } from '../../../src/ads/rules/state.ts';

// The specification's state table: ARCHIVED accepts only name and campaign_status (only to DELETED);
// DELETED accepts only name. Other states accept anything.
type Statuses = Record<string, ObjectStatus | undefined>;
const ROWS: Array<[string, ObjectStatus, string[], Statuses, string[]]> = [
  ['ACTIVE accepts anything', 'ACTIVE', ['daily_budget', 'targeting', 'status'], { status: 'ARCHIVED' }, []],
  ['PAUSED accepts anything', 'PAUSED', ['bid_amount', 'campaign_status'], { campaign_status: 'DELETED' }, []],
  ['ARCHIVED accepts a new name', 'ARCHIVED', ['name'], {}, []],
  ['ARCHIVED accepts campaign_status DELETED', 'ARCHIVED', ['campaign_status'], { campaign_status: 'DELETED' }, []],
  ['ARCHIVED accepts status DELETED', 'ARCHIVED', ['status'], { status: 'DELETED' }, []],
  ['ARCHIVED accepts the name and DELETED together', 'ARCHIVED', ['name', 'campaign_status'], { campaign_status: 'DELETED' }, []],
  ['ARCHIVED accepts ARCHIVED repeated', 'ARCHIVED', ['status'], { status: 'ARCHIVED' }, []],
  ['ARCHIVED refuses campaign_status ACTIVE', 'ARCHIVED', ['campaign_status'], { campaign_status: 'ACTIVE' }, ['campaign_status']],
  ['ARCHIVED refuses status PAUSED', 'ARCHIVED', ['status'], { status: 'PAUSED' }, ['status']],
  ['ARCHIVED refuses a status it was not told the value of', 'ARCHIVED', ['status'], {}, ['status']],
  ['ARCHIVED refuses a budget', 'ARCHIVED', ['name', 'daily_budget'], {}, ['daily_budget']],
  ['ARCHIVED refuses targeting and bid, each', 'ARCHIVED', ['targeting', 'name', 'bid_amount'], {}, ['targeting', 'bid_amount']],
  ['DELETED accepts a new name', 'DELETED', ['name'], {}, []],
  ['DELETED refuses campaign_status ACTIVE', 'DELETED', ['campaign_status'], { campaign_status: 'ACTIVE' }, ['campaign_status']],
  ['DELETED refuses ARCHIVED', 'DELETED', ['status'], { status: 'ARCHIVED' }, ['status']],
  ['DELETED refuses a budget', 'DELETED', ['lifetime_budget', 'end_time'], {}, ['lifetime_budget', 'end_time']],
  // Decided: repeating DELETED changes nothing, so it is not refused.
  ['DELETED accepts DELETED repeated', 'DELETED', ['status'], { status: 'DELETED' }, []],
];

describe('state table', () => {
  it.each(ROWS)('%s', (_rule, current, sent, statuses, refused) => {
    const found = stateViolations('ad set', '42', current, sent, statuses);
    expect(found.map((v) => v.field)).toEqual(refused);
    for (const v of found) expect(v.code).toBe(100);
  });

  it('explains an archived object', () => {
    expect(stateViolations('ad set', '42', 'ARCHIVED', ['daily_budget'], {})).toEqual([
      {
        field: 'daily_budget',
        code: 100,
        message: 'Param daily_budget cannot be changed: ad set 42 is ARCHIVED, and only name may be changed, and the status only to DELETED',
        userTitle: 'Ad set is archived',
        userMessage: 'This ad set is archived. You can only change its name or delete it.',
      },
    ]);
  });

  it('explains a deleted object, for any kind', () => {
    expect(stateViolations('campaign', '7', 'DELETED', ['objective'], {})).toEqual([
      {
        field: 'objective',
        code: 100,
        message: 'Param objective cannot be changed: campaign 7 is DELETED, and only name may be changed',
        userTitle: 'Campaign is deleted',
        userMessage: 'This campaign is deleted. You can only change its name.',
      },
    ]);
  });
});
