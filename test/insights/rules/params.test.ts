import { describe, expect, it } from 'vitest';
import { checkQuery, passesMetric, type MetricFilter } from '../../../src/insights/rules/params.ts';
import type { InsightsQuery, InsightsTargetKind } from '../../../src/insights/query.ts';
import { DomainError } from '../../../src/errors/index.ts';

const query = (fields: Partial<InsightsQuery> = {}): InsightsQuery => ({
  fields: [],
  breakdowns: [],
  actionBreakdowns: [],
  filtering: [],
  sort: [],
  ...fields,
});

function refusal(run: () => unknown) {
  try {
    run();
  } catch (error) {
    if (error instanceof DomainError) return { code: error.code, field: error.field, message: error.message };
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('checked queries', () => {
  it('defaults: the target level, no breakdowns, all days, the default fields', () => {
    expect(checkQuery(query(), 'adset')).toMatchObject({
      fields: ['impressions', 'spend', 'date_start', 'date_stop'],
      level: 'adset',
      breakdowns: { family: '', breakdowns: [] },
      increment: 'all_days',
      filters: [],
      sort: [],
    });
  });

  it.each<[InsightsTargetKind, InsightsQuery['level'], string | null]>([
    ['account', 'ad', null],
    ['campaign', 'adset', null],
    ['ad', 'ad', null],
    ['adset', 'adset', null],
    ['ad', 'adset', 'level'],
    ['adset', 'campaign', 'level'],
    ['campaign', 'account', 'level'],
    ['account', 'creative' as never, 'level'],
  ])('level on a %s: %s', (target, level, field) => {
    if (field === null) expect(checkQuery(query({ level }), target).level).toBe(level);
    else expect(refusal(() => checkQuery(query({ level }), target))).toMatchObject({ code: 'BAD_USER_INPUT', field });
  });

  it.each<[Partial<InsightsQuery>, string, string]>([
    [{ fields: ['impressions', 'frobs'] }, 'fields', 'frobs'],
    [{ breakdowns: ['age', 'country'] }, 'breakdowns', 'invalid'],
    [{ actionBreakdowns: ['action_device' as never] }, 'action_breakdowns', 'action_device'],
    [{ sort: [{ field: 'campaign_name', direction: 'ascending' }] }, 'sort', 'campaign_name'],
    [{ sort: [{ field: 'spend', direction: 'sideways' as never }] }, 'sort', '_ascending'],
    [{ timeIncrement: 0 }, 'time_increment', '1 to 90'],
    [{ timeIncrement: 91 }, 'time_increment', '1 to 90'],
    [{ filtering: [{ field: 'campaign.id', operator: 'GREATER_THAN', value: '1' }] }, 'filtering', 'operators'],
    [{ filtering: [{ field: 'campaign.id', operator: 'IN', value: '1' }] }, 'filtering', 'a list'],
    [{ filtering: [{ field: 'campaign.id', operator: 'IN', value: ['abc'] }] }, 'filtering', 'not an id'],
    [{ filtering: [{ field: 'ad.effective_status', operator: 'IN', value: ['SLEEPING'] }] }, 'filtering', 'SLEEPING'],
    [{ filtering: [{ field: 'campaign.effective_status', operator: 'IN', value: ['ADSET_PAUSED'] }] }, 'filtering', 'ADSET_PAUSED'],
    [{ filtering: [{ field: 'spend', operator: 'GREATER_THAN', value: 'lots' }] }, 'filtering', 'not a number'],
    [{ filtering: [{ field: 'spend', operator: 'IN_RANGE', value: [1] }] }, 'filtering', '[low, high]'],
    [{ filtering: [{ field: 'account.name', operator: 'EQUAL', value: 'x' }] }, 'filtering', 'cannot be filtered'],
    [{ filtering: [{ field: 'spend', operator: 'LIKE', value: 1 }] }, 'filtering', 'LIKE'],
    [{ filtering: [{ field: 'ad.id', value: 1 } as never] }, 'filtering', 'operator'],
    [{ filtering: 'campaign.id=1' as never }, 'filtering', 'list'],
    [{ filtering: [{ field: 'ad.id', operator: 'IN', value: Array.from({ length: 1001 }, (_, i) => String(i + 1)) }] }, 'filtering', '1000'],
  ])('%j is error 100 naming %s', (fields, field, message) => {
    const error = refusal(() => checkQuery(query(fields), 'account'));
    expect(error).toMatchObject({ code: 'BAD_USER_INPUT', field });
    expect(error.message).toContain(message);
  });

  it('filters read: ids and statuses by level, numbers with their operator', () => {
    const checked = checkQuery(
      query({
        filtering: [
          { field: 'campaign.id', operator: 'EQUAL', value: 12 },
          { field: 'ad.effective_status', operator: 'NOT_IN', value: ['PAUSED', 'ADSET_PAUSED'] },
          { field: 'spend', operator: 'GREATER_THAN', value: '10.5' },
        ],
        sort: [{ field: 'spend', direction: 'descending' }],
      }),
      'account',
    );
    expect(checked.filters).toEqual([
      { kind: 'id', level: 'campaign', exclude: false, values: ['12'] },
      { kind: 'effective_status', level: 'ad', exclude: true, values: ['PAUSED', 'ADSET_PAUSED'] },
      { kind: 'metric', field: 'spend', operator: 'GREATER_THAN', values: [10.5] },
    ]);
    expect(checked.sort).toEqual([{ field: 'spend', direction: 'descending' }]);
  });

  it.each<[MetricFilter['operator'], number[], number | undefined, boolean]>([
    ['EQUAL', [5], 5, true],
    ['NOT_EQUAL', [5], 5, false],
    ['GREATER_THAN', [5], 5, false],
    ['GREATER_THAN_OR_EQUAL', [5], 5, true],
    ['LESS_THAN', [5], 4.99, true],
    ['LESS_THAN_OR_EQUAL', [5], 6, false],
    ['IN_RANGE', [1, 5], 5, true],
    ['NOT_IN_RANGE', [1, 5], 3, false],
    ['GREATER_THAN', [0], undefined, false],
  ])('%s %j of %s passes: %s', (operator, values, value, passes) =>
    expect(passesMetric({ kind: 'metric', field: 'spend', operator, values }, value)).toBe(passes),
  );
});
