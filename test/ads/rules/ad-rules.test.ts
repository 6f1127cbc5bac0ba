import { describe, expect, it } from 'vitest';
import {
  actionAllowed,
  budgetAfterChange,
  checkRule,
  ENTITY_TYPES,
  EVALUATION_TYPES,
  EXECUTION_TYPES,
  FILTER_FIELDS,
  filterPasses,
  isDue,
  latestRunAt,
  METRIC_FIELDS,
  metricsOf,
  objectMatches,
  presetDays,
  RULE_STATUSES,
  runScheduleOf,
  SCHEDULE_TYPES,
  specsOf,
  TIME_PRESETS,
  TRIGGER_SCHEDULE,
  type BudgetChange,
  type CheckedRule,
  type CheckedSchedule,
  type MetricFilter,
  type Metrics,
  type RuleFacts,
  type RuleInput,
  type RuleObject,
  type TimePreset,
} from '../../../src/ads/rules/ad-rules.ts';

// The account: ads 101-103, ad sets 201-202, campaigns 301-302. Ad 104, ad set 203 and campaign 303 are another account's.
const FACTS: RuleFacts = { objectIds: { AD: new Set(['101', '102', '103']), ADSET: new Set(['201', '202']), CAMPAIGN: new Set(['301', '302']) } };

const filter = (field: string, operator: string, value: unknown) => ({ field, value, operator });
const entity = (value: string) => filter('entity_type', 'EQUAL', value);
const preset = (value: string) => filter('time_preset', 'EQUAL', value);
const AD = entity('AD');
const WEEK = preset('LAST_7_DAYS');

/** A SCHEDULE rule pausing ads daily, with the given filters. */
const scheduled = (filters: unknown, overrides: Partial<RuleInput> = {}): RuleInput => ({
  name: 'Pause costly ads',
  evaluationSpec: { evaluation_type: 'SCHEDULE', filters },
  executionSpec: { execution_type: 'PAUSE' },
  scheduleSpec: { schedule_type: 'DAILY' },
  ...overrides,
});
/** A TRIGGER rule on ads, pausing them when today's spend passes 100.00. */
const triggered = (overrides: { filters?: unknown; trigger?: unknown; executionSpec?: unknown; scheduleSpec?: unknown } = {}): RuleInput => ({
  name: 'Stop at 100',
  evaluationSpec: {
    evaluation_type: 'TRIGGER',
    filters: overrides.filters ?? [AD, preset('TODAY')],
    trigger: 'trigger' in overrides ? overrides.trigger : { type: 'STATS_CHANGE', ...filter('spent', 'GREATER_THAN', 10000) },
  },
  executionSpec: overrides.executionSpec ?? { execution_type: 'PAUSE' },
  scheduleSpec: overrides.scheduleSpec,
});
/** A rule on ad sets with the given execution_spec. */
const executing = (executionSpec: unknown, entityType = 'ADSET'): RuleInput => scheduled([entity(entityType), WEEK], { executionSpec });
const budget = (change: unknown, extra: unknown[] = []): RuleInput =>
  executing({ execution_type: 'CHANGE_BUDGET', execution_options: [filter('change_spec', 'EQUAL', change), ...extra] });
const timed = (scheduleSpec: unknown): RuleInput => scheduled([AD], { scheduleSpec });

const found = (input: RuleInput, mode: 'create' | 'update' = 'create') => checkRule(input, FACTS, mode).violations.map((v) => [v.field, v.message]);
const ruleOf = (input: RuleInput): CheckedRule => {
  const { rule, violations } = checkRule(input, FACTS, 'create');
  expect(violations).toEqual([]);
  return rule!;
};

/** specsOf through JSON and back through checkRule, as a stored rule is read and updated. */
const roundTrip = (rule: CheckedRule) => {
  const specs = JSON.parse(JSON.stringify(specsOf(rule)));
  return checkRule(
    { name: rule.name, status: rule.status, evaluationSpec: specs.evaluation_spec, executionSpec: specs.execution_spec, scheduleSpec: specs.schedule_spec },
    FACTS,
    'update',
  );
};

describe('the constants', () => {
  it('list the values of the platform', () => {
    expect(RULE_STATUSES).toEqual(['ENABLED', 'DISABLED', 'DELETED']);
    expect(EVALUATION_TYPES).toEqual(['SCHEDULE', 'TRIGGER']);
    expect(ENTITY_TYPES).toEqual(['AD', 'ADSET', 'CAMPAIGN']);
    expect(EXECUTION_TYPES).toEqual(['PAUSE', 'UNPAUSE', 'NOTIFICATION', 'CHANGE_BUDGET', 'CHANGE_CAMPAIGN_BUDGET']);
    expect(SCHEDULE_TYPES).toEqual(['DAILY', 'HOURLY', 'SEMI_HOURLY', 'CUSTOM']);
    expect(TIME_PRESETS).toHaveLength(10);
    expect(METRIC_FIELDS).toEqual(['spent', 'impressions', 'clicks', 'results', 'cpc', 'cpm', 'cost_per_result', 'ctr']);
    expect(FILTER_FIELDS).toEqual(['entity_type', 'time_preset', 'id', 'campaign.id', 'adset.id', 'name', 'effective_status', ...METRIC_FIELDS]);
  });
});

describe('checkRule', () => {
  describe('valid rules', () => {
    const PAUSE = scheduled([
      AD,
      filter('id', 'IN', ['101', 102]),
      filter('adset.id', 'IN', ['201']),
      filter('campaign.id', 'NOT_IN', [302]),
      filter('name', 'CONTAIN', 'Summer'),
      filter('effective_status', 'IN', ['ACTIVE', 'WITH_ISSUES']),
      WEEK,
      filter('spent', 'GREATER_THAN', 500),
      filter('cpc', 'IN_RANGE', [10, 200]),
    ]);
    const UNPAUSE = scheduled(
      [entity('ADSET'), filter('effective_status', 'IN', ['PAUSED']), preset('YESTERDAY'), filter('cost_per_result', 'LESS_THAN', 300)],
      {
        name: 'Wake cheap ad sets',
        status: 'DISABLED',
        executionSpec: { execution_type: 'UNPAUSE', execution_options: [filter('action_frequency', 'EQUAL', 60)] },
        scheduleSpec: { schedule_type: 'HOURLY' },
      },
    );
    const NOTIFICATION = scheduled([entity('CAMPAIGN'), preset('LIFETIME'), filter('ctr', 'NOT_IN_RANGE', [1, 3.5])], {
      name: 'Odd CTR',
      executionSpec: {
        execution_type: 'NOTIFICATION',
        execution_options: [
          filter('user_ids', 'EQUAL', ['6f1c2d3e-0000-4000-8000-000000009001', '6F1C2D3E-0000-4000-8000-000000009002', '6f1c2d3e-0000-4000-8000-000000009001']),
        ],
      },
      scheduleSpec: {
        schedule_type: 'CUSTOM',
        schedule: [{ days: [5, 1], start_minute: 540, end_minute: 600 }, { start_minute: 0 }, { days: [0] }],
      },
    });
    const CHANGE_BUDGET = scheduled([entity('ADSET'), filter('campaign.id', 'IN', ['301']), preset('LAST_3_DAYS'), filter('results', 'GREATER_THAN', 10)], {
      name: 'Scale winners',
      executionSpec: {
        execution_type: 'CHANGE_BUDGET',
        execution_options: [filter('change_spec', 'EQUAL', { amount: 20, unit: 'PERCENTAGE', limit: 100000 }), filter('action_frequency', 'EQUAL', 1440)],
      },
      scheduleSpec: { schedule_type: 'SEMI_HOURLY' },
    });
    const CHANGE_CAMPAIGN_BUDGET = scheduled([entity('CAMPAIGN'), filter('id', 'EQUAL', '301'), preset('TODAY'), filter('cpm', 'GREATER_THAN', 2000)], {
      name: 'Cut expensive campaigns',
      executionSpec: {
        execution_type: 'CHANGE_CAMPAIGN_BUDGET',
        execution_options: [filter('change_spec', 'EQUAL', { amount: -1000, unit: 'ACCOUNT_CURRENCY' })],
      },
    });
    const STATS_TRIGGER = triggered();
    const METADATA_TRIGGER = triggered({
      filters: [entity('ADSET'), preset('TODAY')],
      trigger: { type: 'METADATA_CHANGE', ...filter('effective_status', 'IN', ['WITH_ISSUES']) },
      executionSpec: { execution_type: 'NOTIFICATION' },
    });

    it('reads a rule into its normalized form', () => {
      expect(checkRule(PAUSE, FACTS, 'create')).toEqual({
        rule: {
          name: 'Pause costly ads',
          status: 'ENABLED',
          evaluation: {
            type: 'SCHEDULE',
            entityType: 'AD',
            ids: ['101', '102'],
            campaignIds: { operator: 'NOT_IN', ids: ['302'] },
            adSetIds: { operator: 'IN', ids: ['201'] },
            timePreset: 'LAST_7_DAYS',
            nameFilters: [{ field: 'name', operator: 'CONTAIN', value: 'Summer' }],
            statusFilters: [{ field: 'effective_status', operator: 'IN', value: ['ACTIVE', 'WITH_ISSUES'] }],
            metricFilters: [
              { field: 'spent', operator: 'GREATER_THAN', value: 500 },
              { field: 'cpc', operator: 'IN_RANGE', value: [10, 200] },
            ],
            trigger: null,
          },
          execution: { type: 'PAUSE', change: null, actionFrequencyMinutes: null, userIds: [] },
          schedule: { type: 'DAILY', entries: [] },
        },
        violations: [],
      });
    });

    it('reads the execution options and a CUSTOM schedule', () => {
      expect(ruleOf(CHANGE_BUDGET).execution).toEqual({
        type: 'CHANGE_BUDGET',
        change: { amount: 20, unit: 'PERCENTAGE', limit: 100000 },
        actionFrequencyMinutes: 1440,
        userIds: [],
      });
      expect(ruleOf(CHANGE_CAMPAIGN_BUDGET).execution.change).toEqual({ amount: -1000, unit: 'ACCOUNT_CURRENCY', limit: null });
      expect(ruleOf(CHANGE_CAMPAIGN_BUDGET).evaluation.ids).toEqual(['301']);
      expect(ruleOf(NOTIFICATION).execution.userIds).toEqual(['6f1c2d3e-0000-4000-8000-000000009001', '6f1c2d3e-0000-4000-8000-000000009002']);
      expect(ruleOf(NOTIFICATION).schedule).toEqual({
        type: 'CUSTOM',
        entries: [
          { days: [1, 5], startMinute: 540, endMinute: 600 },
          { days: null, startMinute: 0, endMinute: null },
          { days: [0], startMinute: null, endMinute: null },
        ],
      });
      expect(ruleOf(UNPAUSE)).toMatchObject({ status: 'DISABLED', execution: { type: 'UNPAUSE', actionFrequencyMinutes: 60 } });
    });

    it('reads TRIGGER rules: the trigger, no schedule', () => {
      expect(ruleOf(STATS_TRIGGER)).toMatchObject({
        evaluation: { type: 'TRIGGER', timePreset: 'TODAY', trigger: { field: 'spent', operator: 'GREATER_THAN', value: 10000 } },
        schedule: null,
      });
      expect(ruleOf(METADATA_TRIGGER).evaluation.trigger).toEqual({ field: 'effective_status', operator: 'IN', value: ['WITH_ISSUES'] });
    });

    it.each([
      ['PAUSE', PAUSE],
      ['UNPAUSE', UNPAUSE],
      ['NOTIFICATION', NOTIFICATION],
      ['CHANGE_BUDGET', CHANGE_BUDGET],
      ['CHANGE_CAMPAIGN_BUDGET', CHANGE_CAMPAIGN_BUDGET],
      ['a STATS_CHANGE trigger', STATS_TRIGGER],
      ['a METADATA_CHANGE trigger', METADATA_TRIGGER],
    ])('round-trips a %s rule through specsOf', (_rule, input) => {
      const rule = ruleOf(input);
      expect(roundTrip(rule)).toEqual({ rule, violations: [] });
    });

    it('writes the Graph JSON: the platform key names, ids as strings, the id filter as IN', () => {
      expect(specsOf(ruleOf(CHANGE_CAMPAIGN_BUDGET))).toEqual({
        evaluation_spec: {
          evaluation_type: 'SCHEDULE',
          filters: [
            { field: 'entity_type', value: 'CAMPAIGN', operator: 'EQUAL' },
            { field: 'id', value: ['301'], operator: 'IN' },
            { field: 'time_preset', value: 'TODAY', operator: 'EQUAL' },
            { field: 'cpm', value: 2000, operator: 'GREATER_THAN' },
          ],
        },
        execution_spec: {
          execution_type: 'CHANGE_CAMPAIGN_BUDGET',
          execution_options: [{ field: 'change_spec', value: { amount: -1000, unit: 'ACCOUNT_CURRENCY' }, operator: 'EQUAL' }],
        },
        schedule_spec: { schedule_type: 'DAILY' },
      });
      expect(specsOf(ruleOf(NOTIFICATION))).toMatchObject({
        execution_spec: {
          execution_options: [
            { field: 'user_ids', value: ['6f1c2d3e-0000-4000-8000-000000009001', '6f1c2d3e-0000-4000-8000-000000009002'], operator: 'EQUAL' },
          ],
        },
        schedule_spec: { schedule_type: 'CUSTOM', schedule: [{ days: [1, 5], start_minute: 540, end_minute: 600 }, { start_minute: 0 }, { days: [0] }] },
      });
      expect(specsOf(ruleOf(STATS_TRIGGER))).toEqual({
        evaluation_spec: {
          evaluation_type: 'TRIGGER',
          filters: [
            { field: 'entity_type', value: 'AD', operator: 'EQUAL' },
            { field: 'time_preset', value: 'TODAY', operator: 'EQUAL' },
          ],
          trigger: { type: 'STATS_CHANGE', field: 'spent', value: 10000, operator: 'GREATER_THAN' },
        },
        execution_spec: { execution_type: 'PAUSE' },
        schedule_spec: null,
      });
    });

    it('reports violations with Graph code 100 and no rule', () => {
      expect(checkRule(scheduled([AD], { name: '' }), FACTS, 'create')).toEqual({
        rule: null,
        violations: [{ field: 'name', message: 'The parameter name is required', code: 100 }],
      });
    });

    it('reads numeric ids as strings and drops repeated ones', () => {
      expect(ruleOf(scheduled([AD, filter('id', 'IN', [101, '101', '103'])])).evaluation.ids).toEqual(['101', '103']);
    });

    it('needs no time_preset without metric filters', () => {
      expect(ruleOf(scheduled([AD, filter('name', 'NOT_CONTAIN', 'test')])).evaluation).toMatchObject({
        timePreset: null,
        nameFilters: [{ field: 'name', operator: 'NOT_CONTAIN', value: 'test' }],
      });
    });
  });

  it.each<[string, Partial<RuleInput>, 'create' | 'update', string[][]]>([
    ['no name', { name: undefined }, 'create', [['name', 'The parameter name is required']]],
    ['a blank name', { name: '  ' }, 'create', [['name', 'The parameter name is required']]],
    ['a name that is no string', { name: 7 }, 'create', [['name', 'Param name must be a string']]],
    ['a name of 100 emoji (characters, not UTF-16 units)', { name: '🙂'.repeat(100) }, 'create', []],
    ['a name of 101 characters', { name: 'n'.repeat(101) }, 'create', [['name', 'Param name must be at most 100 characters long']]],
    ['status DISABLED', { status: 'DISABLED' }, 'create', []],
    ['status ENABLED on update', { status: 'ENABLED' }, 'update', []],
    [
      'status DELETED on create',
      { status: 'DELETED' },
      'create',
      [['status', 'Param status: a rule is created ENABLED or DISABLED; DELETED is set by deleting the rule']],
    ],
    [
      'status DELETED on update',
      { status: 'DELETED' },
      'update',
      [['status', 'Param status: a rule is updated to ENABLED or DISABLED; DELETED is set by deleting the rule']],
    ],
    ['status in lower case', { status: 'enabled' }, 'create', [['status', 'Param status must be ENABLED or DISABLED, got "enabled"']]],
    ['a status that is no string', { status: 1 }, 'create', [['status', 'Param status must be ENABLED or DISABLED, got 1']]],
  ])('name and status: %s', (_rule, overrides, mode, expected) => {
    expect(found(scheduled([AD], overrides), mode)).toEqual(expected);
  });

  it('reads a missing status as ENABLED', () => {
    expect(ruleOf(scheduled([AD])).status).toBe('ENABLED');
  });

  const FILTERS = 'evaluation_spec.filters';
  const ENTITY_MISSING = [
    FILTERS,
    `Param ${FILTERS} must hold an entity_type filter (operator EQUAL, value AD, ADSET, CAMPAIGN): the objects the rule acts on`,
  ];
  const PRESET_MISSING = [
    FILTERS,
    `Param ${FILTERS} must hold a time_preset filter (operator EQUAL): metric filters and triggers read the statistics of a time preset`,
  ];

  it.each<[string, unknown, string[][]]>([
    ['no evaluation_spec', undefined, [['evaluation_spec', 'The parameter evaluation_spec is required']]],
    ['an evaluation_spec that is no object', [AD], [['evaluation_spec', 'Param evaluation_spec must be an object with evaluation_type and filters']]],
    ['no evaluation_type', { filters: [AD] }, [['evaluation_spec.evaluation_type', 'The parameter evaluation_spec.evaluation_type is required']]],
    [
      'an unknown evaluation_type',
      { evaluation_type: 'CRON', filters: [AD] },
      [['evaluation_spec.evaluation_type', 'Param evaluation_spec.evaluation_type must be one of SCHEDULE, TRIGGER, got "CRON"']],
    ],
    ['no filters', { evaluation_type: 'SCHEDULE' }, [[FILTERS, `The parameter ${FILTERS} is required`]]],
    [
      'filters that are no list',
      { evaluation_type: 'SCHEDULE', filters: AD },
      [[FILTERS, `Param ${FILTERS} must be a list of filters {field, value, operator}`]],
    ],
    ['no filter at all', { evaluation_type: 'SCHEDULE', filters: [] }, [ENTITY_MISSING]],
  ])('evaluation_spec: %s', (_rule, evaluationSpec, expected) => {
    expect(found(scheduled([], { evaluationSpec }))).toEqual(expected);
  });

  it.each<[string, unknown[], string[][]]>([
    // The shape of a filter.
    ['a filter that is no object', [AD, 'spent'], [[`${FILTERS}[1]`, `Param ${FILTERS}[1] must be an object with field, value and operator`]]],
    ['a filter without field', [AD, { value: 1, operator: 'EQUAL' }], [[`${FILTERS}[1].field`, `The parameter ${FILTERS}[1].field is required`]]],
    [
      'an unknown field',
      [AD, filter('cost', 'GREATER_THAN', 1)],
      [
        [
          `${FILTERS}[1].field`,
          `Param ${FILTERS}[1].field: unknown filter field "cost"; the fields are entity_type, time_preset, id, campaign.id, adset.id, name, effective_status, ${METRIC_FIELDS.join(', ')}`,
        ],
      ],
    ],
    ['a filter without operator', [AD, { field: 'name', value: 'x' }], [[`${FILTERS}[1].operator`, `The parameter ${FILTERS}[1].operator is required`]]],
    ['a filter without value', [AD, { field: 'name', operator: 'CONTAIN' }], [[`${FILTERS}[1].value`, `The parameter ${FILTERS}[1].value is required`]]],
    [
      'an operator the field does not take',
      [AD, WEEK, filter('spent', 'CONTAIN', 5)],
      [
        [
          `${FILTERS}[2].operator`,
          `Param ${FILTERS}[2].operator: the field spent takes the operators GREATER_THAN, LESS_THAN, EQUAL, NOT_EQUAL, IN_RANGE, NOT_IN_RANGE, got "CONTAIN"`,
        ],
      ],
    ],
    // entity_type.
    ['no entity_type', [filter('name', 'CONTAIN', 'x')], [ENTITY_MISSING]],
    [
      'two entity_type filters',
      [AD, entity('ADSET')],
      [[`${FILTERS}[1].field`, `Param ${FILTERS}[1].field: a rule has one entity_type filter, ${FILTERS}[0] is one already`]],
    ],
    ['an unknown entity_type', [entity('ACCOUNT')], [[`${FILTERS}[0].value`, `Param ${FILTERS}[0].value must be one of AD, ADSET, CAMPAIGN, got "ACCOUNT"`]]],
    [
      'entity_type with IN',
      [filter('entity_type', 'IN', ['AD'])],
      [[`${FILTERS}[0].operator`, `Param ${FILTERS}[0].operator: the field entity_type takes the operators EQUAL, got "IN"`]],
    ],
    // id.
    [
      'an id of another account',
      [AD, filter('id', 'IN', ['101', '104'])],
      [[`${FILTERS}[1].value`, `Param ${FILTERS}[1].value: 104 is not an ad of this ad account`]],
    ],
    [
      'ids of another kind and unknown ids, named together',
      [AD, filter('id', 'IN', ['201', '999', '101'])],
      [[`${FILTERS}[1].value`, `Param ${FILTERS}[1].value: 201, 999 are not ads of this ad account`]],
    ],
    [
      'ad ids for entity_type ADSET',
      [entity('ADSET'), filter('id', 'IN', ['101'])],
      [[`${FILTERS}[1].value`, `Param ${FILTERS}[1].value: 101 is not an ad set of this ad account`]],
    ],
    [
      'more than ten unknown ids',
      [
        AD,
        filter(
          'id',
          'IN',
          Array.from({ length: 12 }, (_, i) => String(900 + i)),
        ),
      ],
      [[`${FILTERS}[1].value`, `Param ${FILTERS}[1].value: 900, 901, 902, 903, 904, 905, 906, 907, 908, 909 and 2 more are not ads of this ad account`]],
    ],
    ['an id filter that is no list', [AD, filter('id', 'IN', '101')], [[`${FILTERS}[1].value`, `Param ${FILTERS}[1].value must be a list of ids`]]],
    ['an empty id list', [AD, filter('id', 'IN', [])], [[`${FILTERS}[1].value`, `Param ${FILTERS}[1].value must list at least one id`]]],
    [
      'ids that are no ids',
      [AD, filter('id', 'IN', ['101', 'act_1', 1.5])],
      [
        [`${FILTERS}[1].value[1]`, `Param ${FILTERS}[1].value[1] must be an id (a string of digits)`],
        [`${FILTERS}[1].value[2]`, `Param ${FILTERS}[1].value[2] must be an id (a string of digits)`],
      ],
    ],
    ['id EQUAL with one id in a list', [AD, filter('id', 'EQUAL', [101])], []],
    [
      'id EQUAL with two ids',
      [AD, filter('id', 'EQUAL', ['101', '102'])],
      [[`${FILTERS}[1].value`, `Param ${FILTERS}[1].value: with the operator EQUAL an id filter names one object; use IN for several`]],
    ],
    ['id EQUAL with no id', [AD, filter('id', 'EQUAL', 'x')], [[`${FILTERS}[1].value`, `Param ${FILTERS}[1].value must be an id (a string of digits)`]]],
    [
      'id with NOT_IN',
      [AD, filter('id', 'NOT_IN', ['101'])],
      [[`${FILTERS}[1].operator`, `Param ${FILTERS}[1].operator: the field id takes the operators IN, EQUAL, got "NOT_IN"`]],
    ],
    [
      'two id filters',
      [AD, filter('id', 'IN', ['101']), filter('id', 'IN', ['102'])],
      [[`${FILTERS}[2].field`, `Param ${FILTERS}[2].field: a rule has one id filter, ${FILTERS}[1] is one already`]],
    ],
    // campaign.id and adset.id.
    ['campaign.id for ads', [AD, filter('campaign.id', 'IN', ['301'])], []],
    ['campaign.id for ad sets', [entity('ADSET'), filter('campaign.id', 'NOT_IN', ['301'])], []],
    [
      'campaign.id for campaigns',
      [entity('CAMPAIGN'), filter('campaign.id', 'IN', ['301'])],
      [[`${FILTERS}[1].field`, `Param ${FILTERS}[1].field: campaign.id narrows the ads or ad sets of campaigns, the rule's entity_type is CAMPAIGN (use id)`]],
    ],
    [
      'campaign.id naming an ad set',
      [AD, filter('campaign.id', 'IN', ['201'])],
      [[`${FILTERS}[1].value`, `Param ${FILTERS}[1].value: 201 is not a campaign of this ad account`]],
    ],
    [
      'adset.id for ad sets',
      [entity('ADSET'), filter('adset.id', 'IN', ['201'])],
      [[`${FILTERS}[1].field`, `Param ${FILTERS}[1].field: adset.id narrows the ads of ad sets, the rule's entity_type is ADSET`]],
    ],
    [
      'adset.id naming another account ad set',
      [AD, filter('adset.id', 'NOT_IN', ['203'])],
      [[`${FILTERS}[1].value`, `Param ${FILTERS}[1].value: 203 is not an ad set of this ad account`]],
    ],
    [
      'adset.id with EQUAL',
      [AD, filter('adset.id', 'EQUAL', '201')],
      [[`${FILTERS}[1].operator`, `Param ${FILTERS}[1].operator: the field adset.id takes the operators IN, NOT_IN, got "EQUAL"`]],
    ],
    // time_preset.
    ['a metric filter without time_preset', [AD, filter('spent', 'GREATER_THAN', 1)], [PRESET_MISSING]],
    [
      'two time_preset filters',
      [AD, WEEK, preset('TODAY')],
      [[`${FILTERS}[2].field`, `Param ${FILTERS}[2].field: a rule has one time_preset filter, ${FILTERS}[1] is one already`]],
    ],
    [
      'an unknown time_preset',
      [AD, preset('LAST_90_DAYS')],
      [[`${FILTERS}[1].value`, `Param ${FILTERS}[1].value must be one of ${TIME_PRESETS.join(', ')}, got "LAST_90_DAYS"`]],
    ],
    // Metadata filters.
    ['an empty name', [AD, filter('name', 'CONTAIN', '')], [[`${FILTERS}[1].value`, `Param ${FILTERS}[1].value must be a non-empty string`]]],
    ['a name that is no string', [AD, filter('name', 'NOT_CONTAIN', 5)], [[`${FILTERS}[1].value`, `Param ${FILTERS}[1].value must be a non-empty string`]]],
    [
      'name with EQUAL',
      [AD, filter('name', 'EQUAL', 'x')],
      [[`${FILTERS}[1].operator`, `Param ${FILTERS}[1].operator: the field name takes the operators CONTAIN, NOT_CONTAIN, got "EQUAL"`]],
    ],
    [
      'an effective_status that is no list',
      [AD, filter('effective_status', 'IN', 'ACTIVE')],
      [
        [
          `${FILTERS}[1].value`,
          `Param ${FILTERS}[1].value must be a non-empty list of effective statuses: ACTIVE, PAUSED, DELETED, ARCHIVED, CAMPAIGN_PAUSED, ADSET_PAUSED, IN_PROCESS, WITH_ISSUES`,
        ],
      ],
    ],
    [
      'an unknown effective_status',
      [AD, filter('effective_status', 'NOT_IN', ['ACTIVE', 'RUNNING'])],
      [
        [
          `${FILTERS}[1].value[1]`,
          `Param ${FILTERS}[1].value[1] must be one of ACTIVE, PAUSED, DELETED, ARCHIVED, CAMPAIGN_PAUSED, ADSET_PAUSED, IN_PROCESS, WITH_ISSUES, got "RUNNING"`,
        ],
      ],
    ],
    // Metric filters.
    ['a metric filter of each operator', [AD, WEEK, ...['GREATER_THAN', 'LESS_THAN', 'EQUAL', 'NOT_EQUAL'].map((op) => filter('clicks', op, 0))], []],
    [
      'a negative threshold',
      [AD, WEEK, filter('spent', 'GREATER_THAN', -1)],
      [[`${FILTERS}[2].value`, `Param ${FILTERS}[2].value must be a number of at least 0 (spent: minor units of the account currency, 500 is 5.00)`]],
    ],
    [
      'a threshold written as a string',
      [AD, WEEK, filter('ctr', 'LESS_THAN', '1.5')],
      [[`${FILTERS}[2].value`, `Param ${FILTERS}[2].value must be a number of at least 0 (ctr: percent, 1.5 is 1.5%)`]],
    ],
    [
      'a range that is a number',
      [AD, WEEK, filter('impressions', 'IN_RANGE', 100)],
      [[`${FILTERS}[2].value`, `Param ${FILTERS}[2].value must be a pair [low, high] of numbers of at least 0 (impressions: a count)`]],
    ],
    [
      'a range of three',
      [AD, WEEK, filter('impressions', 'NOT_IN_RANGE', [1, 2, 3])],
      [[`${FILTERS}[2].value`, `Param ${FILTERS}[2].value must be a pair [low, high] of numbers of at least 0 (impressions: a count)`]],
    ],
    [
      'a range with a negative end',
      [AD, WEEK, filter('cpm', 'IN_RANGE', [-1, 2])],
      [
        [
          `${FILTERS}[2].value`,
          `Param ${FILTERS}[2].value must be a pair [low, high] of numbers of at least 0 (cpm: minor units of the account currency, 500 is 5.00)`,
        ],
      ],
    ],
    [
      'a range upside down',
      [AD, WEEK, filter('cpc', 'IN_RANGE', [200, 100])],
      [[`${FILTERS}[2].value`, `Param ${FILTERS}[2].value: the low end 200 is above the high end 100`]],
    ],
    ['a range of one point', [AD, WEEK, filter('cpc', 'IN_RANGE', [100, 100])], []],
    [
      'several violations, in filter order after the missing filters',
      [filter('spent', 'GREATER_THAN', -1), filter('cost', 'EQUAL', 1)],
      [
        ENTITY_MISSING,
        PRESET_MISSING,
        [`${FILTERS}[0].value`, `Param ${FILTERS}[0].value must be a number of at least 0 (spent: minor units of the account currency, 500 is 5.00)`],
        [`${FILTERS}[1].field`, expect.stringContaining('unknown filter field "cost"') as unknown as string],
      ],
    ],
  ])('filters: %s', (_rule, filters, expected) => {
    expect(found(scheduled(filters))).toEqual(expected);
  });

  it('takes up to 50 filters', () => {
    const names = (count: number) => Array.from({ length: count }, (_, i) => filter('name', 'NOT_CONTAIN', `x${i}`));
    expect(found(scheduled([AD, ...names(49)]))).toEqual([]);
    expect(found(scheduled([AD, ...names(50)]))).toEqual([[FILTERS, `Param ${FILTERS} may hold at most 50 filters, got 51`]]);
  });

  it('takes up to 1,000 ids in a filter', () => {
    const ids = (count: number) => Array.from({ length: count }, () => '101');
    expect(found(scheduled([AD, filter('id', 'IN', ids(1000))]))).toEqual([]);
    expect(found(scheduled([AD, filter('id', 'IN', ids(1001))]))).toEqual([
      [`${FILTERS}[1].value`, `Param ${FILTERS}[1].value may list at most 1000 ids, got 1001`],
    ]);
  });

  const TRIGGER = 'evaluation_spec.trigger';
  it.each<[string, Parameters<typeof triggered>[0], string[][]]>([
    ['no trigger', { trigger: undefined }, [[TRIGGER, `The parameter ${TRIGGER} is required: a TRIGGER rule acts when its trigger fires`]]],
    ['a trigger that is no object', { trigger: 'spent' }, [[TRIGGER, `Param ${TRIGGER} must be an object with type, field, value and operator`]]],
    ['a trigger without type', { trigger: filter('spent', 'GREATER_THAN', 1) }, [[`${TRIGGER}.type`, `The parameter ${TRIGGER}.type is required`]]],
    [
      'an unknown trigger type',
      { trigger: { type: 'CHANGE', ...filter('spent', 'GREATER_THAN', 1) } },
      [[`${TRIGGER}.type`, `Param ${TRIGGER}.type must be one of STATS_CHANGE, METADATA_CHANGE, got "CHANGE"`]],
    ],
    [
      'a STATS_CHANGE trigger on the name',
      { trigger: { type: 'STATS_CHANGE', ...filter('name', 'CONTAIN', 'x') } },
      [[`${TRIGGER}.field`, `Param ${TRIGGER}.field: a STATS_CHANGE trigger watches one of ${METRIC_FIELDS.join(', ')}, got "name"`]],
    ],
    [
      'a METADATA_CHANGE trigger on spent',
      { trigger: { type: 'METADATA_CHANGE', ...filter('spent', 'GREATER_THAN', 1) } },
      [[`${TRIGGER}.field`, `Param ${TRIGGER}.field: a METADATA_CHANGE trigger watches one of name, effective_status, got "spent"`]],
    ],
    [
      'a STATS_CHANGE trigger with a bad threshold',
      { trigger: { type: 'STATS_CHANGE', ...filter('cpc', 'IN_RANGE', [3, 1]) } },
      [[`${TRIGGER}.value`, `Param ${TRIGGER}.value: the low end 3 is above the high end 1`]],
    ],
    [
      'a STATS_CHANGE trigger with a metadata operator',
      { trigger: { type: 'STATS_CHANGE', ...filter('clicks', 'IN', [1]) } },
      [
        [
          `${TRIGGER}.operator`,
          `Param ${TRIGGER}.operator: the field clicks takes the operators GREATER_THAN, LESS_THAN, EQUAL, NOT_EQUAL, IN_RANGE, NOT_IN_RANGE, got "IN"`,
        ],
      ],
    ],
    ['a METADATA_CHANGE trigger on the name', { trigger: { type: 'METADATA_CHANGE', ...filter('name', 'NOT_CONTAIN', 'draft') } }, []],
    [
      'a time_preset other than TODAY',
      { filters: [AD, preset('YESTERDAY')] },
      [[`${FILTERS}[1].value`, `Param ${FILTERS}[1].value: a TRIGGER rule reads today's statistics, its time_preset must be TODAY, got YESTERDAY`]],
    ],
    ['no time_preset', { filters: [AD] }, [PRESET_MISSING]],
    [
      'a budget change',
      { filters: [entity('ADSET'), preset('TODAY')], executionSpec: budget({ amount: 10, unit: 'PERCENTAGE' }).executionSpec },
      [['execution_spec.execution_type', 'Param execution_spec.execution_type: a TRIGGER rule may PAUSE, UNPAUSE, NOTIFICATION, not CHANGE_BUDGET']],
    ],
    [
      'a schedule',
      { scheduleSpec: { schedule_type: 'DAILY' } },
      [['schedule_spec', 'Param schedule_spec: a TRIGGER rule has no schedule, it runs when its trigger fires']],
    ],
  ])('TRIGGER rules: %s', (_rule, overrides, expected) => {
    expect(found(triggered(overrides))).toEqual(expected);
  });

  it('refuses a trigger on a SCHEDULE rule', () => {
    const input = scheduled([AD, preset('TODAY')]);
    (input.evaluationSpec as Record<string, unknown>).trigger = { type: 'STATS_CHANGE', ...filter('spent', 'GREATER_THAN', 1) };
    expect(found(input)).toEqual([[TRIGGER, `Param ${TRIGGER}: a SCHEDULE rule has no trigger (a rule with a trigger has evaluation_type TRIGGER)`]]);
  });

  const EXECUTION_TYPE = 'execution_spec.execution_type';
  const OPTIONS = 'execution_spec.execution_options';
  it.each<[string, RuleInput, string[][]]>([
    ['no execution_spec', executing(undefined), [['execution_spec', 'The parameter execution_spec is required']]],
    [
      'an execution_spec that is no object',
      executing('PAUSE'),
      [['execution_spec', 'Param execution_spec must be an object with execution_type and, as needed, execution_options']],
    ],
    ['no execution_type', executing({}), [[EXECUTION_TYPE, `The parameter ${EXECUTION_TYPE} is required`]]],
    [
      'an unknown execution_type',
      executing({ execution_type: 'DELETE' }),
      [[EXECUTION_TYPE, `Param ${EXECUTION_TYPE} must be one of ${EXECUTION_TYPES.join(', ')}, got "DELETE"`]],
    ],
    ['PAUSE on campaigns', executing({ execution_type: 'PAUSE' }, 'CAMPAIGN'), []],
    [
      'CHANGE_BUDGET on ads',
      { ...budget({ amount: 10, unit: 'PERCENTAGE' }), evaluationSpec: { evaluation_type: 'SCHEDULE', filters: [AD] } },
      [[EXECUTION_TYPE, `Param ${EXECUTION_TYPE}: CHANGE_BUDGET changes the budgets of ad sets, so the rule's entity_type must be ADSET, not AD`]],
    ],
    [
      'CHANGE_CAMPAIGN_BUDGET on ad sets',
      executing({ execution_type: 'CHANGE_CAMPAIGN_BUDGET', execution_options: [filter('change_spec', 'EQUAL', { amount: 10, unit: 'PERCENTAGE' })] }),
      [
        [
          EXECUTION_TYPE,
          `Param ${EXECUTION_TYPE}: CHANGE_CAMPAIGN_BUDGET changes the budgets of campaigns, so the rule's entity_type must be CAMPAIGN, not ADSET`,
        ],
      ],
    ],
    [
      'CHANGE_BUDGET without change_spec',
      executing({ execution_type: 'CHANGE_BUDGET', execution_options: [filter('action_frequency', 'EQUAL', 60)] }),
      [[OPTIONS, `The parameter ${OPTIONS} must hold a change_spec option (operator EQUAL): how CHANGE_BUDGET changes the budget`]],
    ],
    [
      'CHANGE_BUDGET without options',
      executing({ execution_type: 'CHANGE_BUDGET' }),
      [[OPTIONS, `The parameter ${OPTIONS} must hold a change_spec option (operator EQUAL): how CHANGE_BUDGET changes the budget`]],
    ],
    [
      'a change_spec on PAUSE',
      executing({ execution_type: 'PAUSE', execution_options: [filter('change_spec', 'EQUAL', { amount: 10, unit: 'PERCENTAGE' })] }),
      [[`${OPTIONS}[0].field`, `Param ${OPTIONS}[0].field: change_spec goes with CHANGE_BUDGET or CHANGE_CAMPAIGN_BUDGET, not PAUSE`]],
    ],
    [
      'options that are no list',
      executing({ execution_type: 'PAUSE', execution_options: {} }),
      [[OPTIONS, `Param ${OPTIONS} must be a list of options {field, value, operator}`]],
    ],
    [
      'an option that is no object',
      executing({ execution_type: 'PAUSE', execution_options: [1] }),
      [[`${OPTIONS}[0]`, `Param ${OPTIONS}[0] must be an object with field, value and operator`]],
    ],
    [
      'an unknown option',
      executing({ execution_type: 'PAUSE', execution_options: [filter('webhook', 'EQUAL', 'x')] }),
      [[`${OPTIONS}[0].field`, `Param ${OPTIONS}[0].field: unknown execution option "webhook"; the options are change_spec, action_frequency, user_ids`]],
    ],
    [
      'an option twice',
      executing({ execution_type: 'PAUSE', execution_options: [filter('action_frequency', 'EQUAL', 60), filter('action_frequency', 'EQUAL', 90)] }),
      [[`${OPTIONS}[1].field`, `Param ${OPTIONS}[1].field: the option action_frequency is given twice, ${OPTIONS}[0] is one already`]],
    ],
    [
      'an option with IN',
      executing({ execution_type: 'NOTIFICATION', execution_options: [filter('user_ids', 'IN', ['6f1c2d3e-0000-4000-8000-000000009001'])] }),
      [[`${OPTIONS}[0].operator`, `Param ${OPTIONS}[0].operator: execution options take the operator EQUAL, got "IN"`]],
    ],
    [
      'an option without value',
      executing({ execution_type: 'PAUSE', execution_options: [{ field: 'action_frequency', operator: 'EQUAL' }] }),
      [[`${OPTIONS}[0].value`, `The parameter ${OPTIONS}[0].value is required`]],
    ],
    // action_frequency.
    ['action_frequency 30', executing({ execution_type: 'PAUSE', execution_options: [filter('action_frequency', 'EQUAL', 30)] }), []],
    [
      'action_frequency 45 (no multiple of 30 needed)',
      executing({ execution_type: 'PAUSE', execution_options: [filter('action_frequency', 'EQUAL', 45)] }),
      [],
    ],
    ...[29, 30.5, '60', 0].map((bad): [string, RuleInput, string[][]] => [
      `action_frequency ${JSON.stringify(bad)}`,
      executing({ execution_type: 'PAUSE', execution_options: [filter('action_frequency', 'EQUAL', bad)] }),
      [[`${OPTIONS}[0].value`, `Param ${OPTIONS}[0].value must be a whole number of minutes, at least 30`]],
    ]),
    // user_ids.
    [
      'user_ids on PAUSE',
      executing({ execution_type: 'PAUSE', execution_options: [filter('user_ids', 'EQUAL', ['6f1c2d3e-0000-4000-8000-000000009001'])] }),
      [],
    ],
    [
      'user_ids that are no list',
      executing({ execution_type: 'NOTIFICATION', execution_options: [filter('user_ids', 'EQUAL', '5')] }),
      [[`${OPTIONS}[0].value`, `Param ${OPTIONS}[0].value must be a list of 1 to 50 user ids`]],
    ],
    [
      'empty user_ids',
      executing({ execution_type: 'NOTIFICATION', execution_options: [filter('user_ids', 'EQUAL', [])] }),
      [[`${OPTIONS}[0].value`, `Param ${OPTIONS}[0].value must be a list of 1 to 50 user ids`]],
    ],
    [
      'a user id that is no id',
      executing({ execution_type: 'NOTIFICATION', execution_options: [filter('user_ids', 'EQUAL', ['6f1c2d3e-0000-4000-8000-000000009001', 'me'])] }),
      [[`${OPTIONS}[0].value[1]`, `Param ${OPTIONS}[0].value[1] must be a user id (a UUID)`]],
    ],
  ])('execution_spec: %s', (_rule, input, expected) => {
    expect(found(input)).toEqual(expected);
  });

  const CHANGE = `${OPTIONS}[0].value`;
  it.each<[string, unknown, string[][]]>([
    ['a change_spec that is no object', 20, [[CHANGE, `Param ${CHANGE} must be an object {amount, unit, limit}`]]],
    [
      'a misspelled key',
      { amount: 20, unit: 'PERCENTAGE', limt: 500 },
      [[`${CHANGE}.limt`, `Param ${CHANGE}.limt: unknown key; a change_spec takes amount, unit, limit`]],
    ],
    ['no unit', { amount: 20 }, [[`${CHANGE}.unit`, `The parameter ${CHANGE}.unit is required`]]],
    [
      'an unknown unit',
      { amount: 20, unit: 'PERCENT' },
      [[`${CHANGE}.unit`, `Param ${CHANGE}.unit must be one of PERCENTAGE, ACCOUNT_CURRENCY, got "PERCENT"`]],
    ],
    ['no amount', { unit: 'PERCENTAGE' }, [[`${CHANGE}.amount`, `The parameter ${CHANGE}.amount is required`]]],
    ...[0, '20'].map((bad): [string, unknown, string[][]] => [
      `an amount of ${JSON.stringify(bad)}`,
      { amount: bad, unit: 'PERCENTAGE' },
      [[`${CHANGE}.amount`, `Param ${CHANGE}.amount must be a number other than 0 (below 0 lowers the budget)`]],
    ]),
    ['-90 percent', { amount: -90, unit: 'PERCENTAGE' }, []],
    ['1000 percent', { amount: 1000, unit: 'PERCENTAGE' }, []],
    ['2.5 percent', { amount: 2.5, unit: 'PERCENTAGE' }, []],
    ...[-91, 1000.5].map((bad): [string, unknown, string[][]] => [
      `${bad} percent`,
      { amount: bad, unit: 'PERCENTAGE' },
      [[`${CHANGE}.amount`, `Param ${CHANGE}.amount: a PERCENTAGE change is from -90 to 1000 (percent), got ${bad}`]],
    ]),
    ['5000 in currency (more than 1000 is fine)', { amount: 5000, unit: 'ACCOUNT_CURRENCY' }, []],
    [
      'a currency amount that is no whole number',
      { amount: 2.5, unit: 'ACCOUNT_CURRENCY' },
      [
        [
          `${CHANGE}.amount`,
          `Param ${CHANGE}.amount: an ACCOUNT_CURRENCY change is a whole number of minor units of the account currency (500 is 5.00), got 2.5`,
        ],
      ],
    ],
    ['a limit', { amount: -20, unit: 'PERCENTAGE', limit: 1000 }, []],
    ...[0, -100, 10.5, '1000'].map((bad): [string, unknown, string[][]] => [
      `a limit of ${JSON.stringify(bad)}`,
      { amount: 20, unit: 'PERCENTAGE', limit: bad },
      [[`${CHANGE}.limit`, `Param ${CHANGE}.limit must be a whole number above 0 (minor units of the account currency, 500 is 5.00)`]],
    ]),
  ])('change_spec: %s', (_rule, change, expected) => {
    expect(found(budget(change))).toEqual(expected);
  });

  const SCHEDULE = 'schedule_spec.schedule';
  it.each<[string, unknown, string[][]]>([
    ['no schedule_spec', undefined, [['schedule_spec', 'The parameter schedule_spec is required: a SCHEDULE rule runs on its schedule']]],
    ['a schedule_spec that is no object', 'DAILY', [['schedule_spec', 'Param schedule_spec must be an object with schedule_type']]],
    ['no schedule_type', {}, [['schedule_spec.schedule_type', 'The parameter schedule_spec.schedule_type is required']]],
    [
      'an unknown schedule_type',
      { schedule_type: 'WEEKLY' },
      [['schedule_spec.schedule_type', 'Param schedule_spec.schedule_type must be one of DAILY, HOURLY, SEMI_HOURLY, CUSTOM, got "WEEKLY"']],
    ],
    [
      'CUSTOM without schedule',
      { schedule_type: 'CUSTOM' },
      [[SCHEDULE, `The parameter ${SCHEDULE} is required for the CUSTOM schedule_type: the times the rule runs`]],
    ],
    [
      'a schedule with DAILY',
      { schedule_type: 'DAILY', schedule: [{ start_minute: 0 }] },
      [[SCHEDULE, `Param ${SCHEDULE}: only the CUSTOM schedule_type lists times, this one is DAILY`]],
    ],
    [
      'an empty schedule',
      { schedule_type: 'CUSTOM', schedule: [] },
      [[SCHEDULE, `Param ${SCHEDULE} must be a list of 1 to 48 entries {days, start_minute, end_minute}`]],
    ],
    [
      'a schedule that is no list',
      { schedule_type: 'CUSTOM', schedule: { start_minute: 0 } },
      [[SCHEDULE, `Param ${SCHEDULE} must be a list of 1 to 48 entries {days, start_minute, end_minute}`]],
    ],
    [
      '49 entries',
      { schedule_type: 'CUSTOM', schedule: Array.from({ length: 49 }, (_, i) => ({ start_minute: (i % 48) * 30 })) },
      [[SCHEDULE, `Param ${SCHEDULE} may list at most 48 entries, got 49`]],
    ],
    ['48 entries', { schedule_type: 'CUSTOM', schedule: Array.from({ length: 48 }, (_, i) => ({ start_minute: i * 30 })) }, []],
    [
      'an entry that is no object',
      { schedule_type: 'CUSTOM', schedule: [540] },
      [[`${SCHEDULE}[0]`, `Param ${SCHEDULE}[0] must be an object with days, start_minute or end_minute`]],
    ],
    [
      'an entry with neither start_minute nor days',
      { schedule_type: 'CUSTOM', schedule: [{ start_minute: 0 }, {}] },
      [[`${SCHEDULE}[1]`, `Param ${SCHEDULE}[1] must have start_minute or days`]],
    ],
    [
      'a misspelled key',
      { schedule_type: 'CUSTOM', schedule: [{ days: [1], start_minutes: 540 }] },
      [[`${SCHEDULE}[0].start_minutes`, `Param ${SCHEDULE}[0].start_minutes: unknown key; a schedule entry takes days, start_minute, end_minute`]],
    ],
    [
      'days that are no list',
      { schedule_type: 'CUSTOM', schedule: [{ days: 1 }] },
      [[`${SCHEDULE}[0].days`, `Param ${SCHEDULE}[0].days must be a non-empty list of days of the week, 0 (Sunday) to 6 (Saturday)`]],
    ],
    [
      'no days',
      { schedule_type: 'CUSTOM', schedule: [{ days: [], start_minute: 0 }] },
      [[`${SCHEDULE}[0].days`, `Param ${SCHEDULE}[0].days must be a non-empty list of days of the week, 0 (Sunday) to 6 (Saturday)`]],
    ],
    [
      'day 7 and day 1.5',
      { schedule_type: 'CUSTOM', schedule: [{ days: [6, 7, 1.5] }] },
      [
        [`${SCHEDULE}[0].days[1]`, `Param ${SCHEDULE}[0].days[1] must be a day of the week, 0 (Sunday) to 6 (Saturday), got 7`],
        [`${SCHEDULE}[0].days[2]`, `Param ${SCHEDULE}[0].days[2] must be a day of the week, 0 (Sunday) to 6 (Saturday), got 1.5`],
      ],
    ],
    [
      'a day twice',
      { schedule_type: 'CUSTOM', schedule: [{ days: [1, 3, 1] }] },
      [[`${SCHEDULE}[0].days[2]`, `Param ${SCHEDULE}[0].days[2]: day 1 is listed twice`]],
    ],
    ...[45, 1440, -30, '60'].map((bad): [string, unknown, string[][]] => [
      `start_minute ${JSON.stringify(bad)}`,
      { schedule_type: 'CUSTOM', schedule: [{ start_minute: bad }] },
      [
        [
          `${SCHEDULE}[0].start_minute`,
          `Param ${SCHEDULE}[0].start_minute must be a whole number of minutes after local midnight from 0 to 1439, a multiple of 30`,
        ],
      ],
    ]),
    [
      'end_minute 1439',
      { schedule_type: 'CUSTOM', schedule: [{ start_minute: 0, end_minute: 1439 }] },
      [
        [
          `${SCHEDULE}[0].end_minute`,
          `Param ${SCHEDULE}[0].end_minute must be a whole number of minutes after local midnight from 0 to 1439, a multiple of 30`,
        ],
      ],
    ],
    ['end_minute 1410', { schedule_type: 'CUSTOM', schedule: [{ start_minute: 0, end_minute: 1410 }] }, []],
    [
      'end_minute without start_minute',
      { schedule_type: 'CUSTOM', schedule: [{ days: [1], end_minute: 600 }] },
      [[`${SCHEDULE}[0].end_minute`, `Param ${SCHEDULE}[0].end_minute needs start_minute: an entry runs from start_minute to end_minute`]],
    ],
    [
      'end_minute at start_minute',
      { schedule_type: 'CUSTOM', schedule: [{ start_minute: 600, end_minute: 600 }] },
      [[`${SCHEDULE}[0].end_minute`, `Param ${SCHEDULE}[0].end_minute must be after start_minute (600), got 600`]],
    ],
  ])('schedule_spec: %s', (_rule, scheduleSpec, expected) => {
    expect(found(timed(scheduleSpec))).toEqual(expected);
  });

  it('reports every violation, in field order', () => {
    const input: RuleInput = {
      name: '',
      status: 'DELETED',
      evaluationSpec: { evaluation_type: 'SCHEDULE', filters: [AD, filter('id', 'IN', ['999'])] },
      executionSpec: { execution_type: 'CHANGE_BUDGET' },
      scheduleSpec: { schedule_type: 'CUSTOM' },
    };
    expect(found(input).map(([field]) => field)).toEqual(['name', 'status', `${FILTERS}[1].value`, EXECUTION_TYPE, OPTIONS, SCHEDULE]);
  });
});

describe('presetDays', () => {
  const TODAY = '2026-03-10';
  it.each<[TimePreset, string, string]>([
    ['TODAY', '2026-03-10', '2026-03-10'],
    ['YESTERDAY', '2026-03-09', '2026-03-09'],
    ['LAST_2_DAYS', '2026-03-08', '2026-03-09'],
    ['LAST_3_DAYS', '2026-03-07', '2026-03-09'],
    ['LAST_7_DAYS', '2026-03-03', '2026-03-09'],
    ['LAST_14_DAYS', '2026-02-24', '2026-03-09'],
    ['LAST_28_DAYS', '2026-02-10', '2026-03-09'],
    ['LAST_30_DAYS', '2026-02-08', '2026-03-09'],
    ['THIS_MONTH', '2026-03-01', '2026-03-10'],
    ['LIFETIME', '2025-11-20', '2026-03-10'],
  ])('%s', (preset, since, until) => {
    expect(presetDays(preset, TODAY, '2025-11-20')).toEqual({ since, until });
  });

  it('crosses months and years, and starts LIFETIME no later than today', () => {
    expect(presetDays('LAST_7_DAYS', '2026-01-02', '2020-01-01')).toEqual({ since: '2025-12-26', until: '2026-01-01' });
    expect(presetDays('THIS_MONTH', '2026-01-01', '2020-01-01')).toEqual({ since: '2026-01-01', until: '2026-01-01' });
    expect(presetDays('LIFETIME', '2026-03-10', '2026-03-12')).toEqual({ since: '2026-03-10', until: '2026-03-10' });
  });
});

describe('metricsOf', () => {
  it('gives the metrics in the filters units', () => {
    expect(metricsOf({ impressions: 2000, clicks: 40, spend: 10000, results: 8 })).toEqual({
      spent: 10000,
      impressions: 2000,
      clicks: 40,
      results: 8,
      cpc: 250,
      cpm: 5000,
      cost_per_result: 1250,
      ctr: 2,
    });
  });

  it('answers null for a ratio without its denominator', () => {
    expect(metricsOf({ impressions: 0, clicks: 0, spend: 0, results: 0 })).toEqual({
      spent: 0,
      impressions: 0,
      clicks: 0,
      results: 0,
      cpc: null,
      cpm: null,
      cost_per_result: null,
      ctr: null,
    });
    expect(metricsOf({ impressions: 500, clicks: 0, spend: 300, results: 0 })).toMatchObject({ cpc: null, cost_per_result: null, ctr: 0, cpm: 600 });
  });
});

describe('filterPasses', () => {
  const passes = (operator: string, value: unknown, metric: number | null) => filterPasses({ field: 'cpc', operator, value } as MetricFilter, metric);

  it.each<[string, unknown, number, boolean]>([
    ['GREATER_THAN', 100, 101, true],
    ['GREATER_THAN', 100, 100, false],
    ['LESS_THAN', 100, 99.5, true],
    ['LESS_THAN', 100, 100, false],
    ['EQUAL', 100, 100, true],
    ['EQUAL', 100, 100.01, false],
    ['NOT_EQUAL', 100, 100.01, true],
    ['NOT_EQUAL', 100, 100, false],
    ['IN_RANGE', [100, 200], 100, true],
    ['IN_RANGE', [100, 200], 200, true],
    ['IN_RANGE', [100, 200], 99, false],
    ['IN_RANGE', [100, 200], 201, false],
    ['NOT_IN_RANGE', [100, 200], 99, true],
    ['NOT_IN_RANGE', [100, 200], 201, true],
    ['NOT_IN_RANGE', [100, 200], 100, false],
    ['NOT_IN_RANGE', [100, 200], 150, false],
  ])('%s %j with %s: %s', (operator, value, metric, expected) => {
    expect(passes(operator, value, metric)).toBe(expected);
  });

  it.each([
    ['GREATER_THAN', 0],
    ['LESS_THAN', 100],
    ['EQUAL', 0],
    ['NOT_EQUAL', 100],
    ['IN_RANGE', [0, 100]],
    ['NOT_IN_RANGE', [10, 100]],
  ])('never passes a null metric: %s', (operator, value) => {
    expect(passes(operator, value, null)).toBe(false);
  });
});

describe('objectMatches', () => {
  const rule = ruleOf(
    scheduled([
      AD,
      filter('campaign.id', 'IN', ['301']),
      filter('adset.id', 'NOT_IN', ['202']),
      filter('name', 'CONTAIN', 'sale'),
      filter('name', 'NOT_CONTAIN', 'draft'),
      filter('effective_status', 'IN', ['ACTIVE']),
      WEEK,
      filter('spent', 'GREATER_THAN', 1000),
      filter('cpc', 'LESS_THAN', 300),
    ]),
  );
  const OBJECT: RuleObject = { id: '101', name: 'Summer SALE', effectiveStatus: 'ACTIVE', campaignId: '301', adSetId: '201' };
  const METRICS: Metrics = metricsOf({ impressions: 10000, clicks: 10, spend: 2000, results: 1 });

  it('matches when every filter passes, names ignoring case', () => {
    expect(objectMatches(rule, OBJECT, METRICS)).toBe(true);
  });

  it.each<[string, Partial<RuleObject>, Partial<Metrics>]>([
    ['another campaign', { campaignId: '302' }, {}],
    ['an excluded ad set', { adSetId: '202' }, {}],
    ['a name without "sale"', { name: 'Summer' }, {}],
    ['a draft', { name: 'Sale draft' }, {}],
    ['a paused ad', { effectiveStatus: 'PAUSED' }, {}],
    ['spent too low', {}, { spent: 1000 }],
    ['cpc too high', {}, { cpc: 300 }],
    ['no cpc (no clicks)', {}, { cpc: null }],
  ])('does not match %s', (_case, object, metrics) => {
    expect(objectMatches(rule, { ...OBJECT, ...object }, { ...METRICS, ...metrics })).toBe(false);
  });

  it('keeps to the ids of an id filter', () => {
    const named = ruleOf(scheduled([AD, filter('id', 'IN', ['102', '103'])]));
    expect(objectMatches(named, OBJECT, METRICS)).toBe(false);
    expect(objectMatches(named, { ...OBJECT, id: '103' }, METRICS)).toBe(true);
  });

  it('counts the trigger as one more filter', () => {
    const stats = ruleOf(triggered());
    expect(objectMatches(stats, OBJECT, { ...METRICS, spent: 10000 })).toBe(false);
    expect(objectMatches(stats, OBJECT, { ...METRICS, spent: 10001 })).toBe(true);
    const metadata = ruleOf(triggered({ trigger: { type: 'METADATA_CHANGE', ...filter('effective_status', 'IN', ['WITH_ISSUES']) } }));
    expect(objectMatches(metadata, OBJECT, METRICS)).toBe(false);
    expect(objectMatches(metadata, { ...OBJECT, effectiveStatus: 'WITH_ISSUES' }, METRICS)).toBe(true);
  });
});

describe('budgetAfterChange', () => {
  const percent = (amount: number, limit: number | null = null): BudgetChange => ({ amount, unit: 'PERCENTAGE', limit });
  const currency = (amount: number, limit: number | null = null): BudgetChange => ({ amount, unit: 'ACCOUNT_CURRENCY', limit });

  it.each<[string, number, BudgetChange, number | null]>([
    ['+20%', 1000, percent(20), 1200],
    ['-20%', 1000, percent(-20), 800],
    ['+1000%', 1000, percent(1000), 11000],
    ['+1% of 250 rounds the change half away from zero', 250, percent(1), 253],
    ['-1% of 250 rounds the change half away from zero', 250, percent(-1), 247],
    ['+1% of 249 rounds the change down', 249, percent(1), 251],
    ['+10.2% of 750 rounds 76.5 up, despite float noise (76.49999999999999)', 750, percent(10.2), 827],
    ['-10.2% of 750 rounds -76.5 down, despite float noise', 750, percent(-10.2), 673],
    ['+1% of 40 changes nothing', 40, percent(1), null],
    ['the limit is a ceiling for increases', 1000, percent(50, 1200), 1200],
    ['an increase below the ceiling', 1000, percent(10, 1200), 1100],
    ['at the ceiling', 1200, percent(50, 1200), null],
    ['above the ceiling an increase does not lower the budget', 1500, percent(10, 1200), null],
    ['the limit is a floor for decreases', 1000, percent(-50, 800), 800],
    ['at the floor', 800, percent(-50, 800), null],
    ['below the floor a decrease does not raise the budget', 700, percent(-10, 800), null],
    ['never below 1', 5, percent(-90), 1],
    ['at 1', 1, percent(-90), null],
    ['+500 in currency', 1000, currency(500), 1500],
    ['-300 in currency', 1000, currency(-300), 700],
    ['-2000 in currency stops at 1', 1000, currency(-2000), 1],
    ['a currency increase up to its ceiling', 1000, currency(500, 1300), 1300],
    ['a currency decrease down to its floor', 1000, currency(-500, 900), 900],
  ])('%s', (_case, current, change, expected) => {
    expect(budgetAfterChange(current, change)).toBe(expected);
  });
});

describe('actionAllowed', () => {
  const NOW = new Date('2026-03-10T12:00:00Z');
  const minutesAgo = (minutes: number) => new Date(NOW.getTime() - minutes * 60_000);

  it.each<[string, Date | null, number | null, boolean]>([
    ['never acted on', null, 60, true],
    ['no action_frequency', minutesAgo(1), null, true],
    ['59 minutes ago, every 60', minutesAgo(59), 60, false],
    ['60 minutes ago, every 60', minutesAgo(60), 60, true],
    ['a day ago, every 1440', minutesAgo(1440), 1440, true],
  ])('%s', (_case, last, frequency, expected) => {
    expect(actionAllowed(last, NOW, frequency)).toBe(expected);
  });
});

describe('latestRunAt', () => {
  const DAILY: CheckedSchedule = { type: 'DAILY', entries: [] };
  const HOURLY: CheckedSchedule = { type: 'HOURLY', entries: [] };
  const SEMI_HOURLY: CheckedSchedule = { type: 'SEMI_HOURLY', entries: [] };
  const custom = (...entries: Array<Partial<CheckedSchedule['entries'][number]>>): CheckedSchedule => ({
    type: 'CUSTOM',
    entries: entries.map((entry) => ({ days: null, startMinute: null, endMinute: null, ...entry })),
  });
  const latest = (schedule: CheckedSchedule | null, timeZone: string, now: string) => latestRunAt(schedule, timeZone, new Date(now))?.toISOString() ?? null;

  // 2026-03-10 is a Tuesday.
  it.each<[string, CheckedSchedule, string, string]>([
    ['DAILY: the last midnight', DAILY, '2026-03-10T15:20:00.000Z', '2026-03-10T00:00:00.000Z'],
    ['DAILY: at midnight itself', DAILY, '2026-03-10T00:00:00.000Z', '2026-03-10T00:00:00.000Z'],
    ['DAILY: just before midnight', DAILY, '2026-03-09T23:59:59.999Z', '2026-03-09T00:00:00.000Z'],
    ['HOURLY: the start of the hour', HOURLY, '2026-03-10T15:20:00.000Z', '2026-03-10T15:00:00.000Z'],
    ['SEMI_HOURLY: the last :30', SEMI_HOURLY, '2026-03-10T15:45:00.000Z', '2026-03-10T15:30:00.000Z'],
    ['SEMI_HOURLY: the last :00', SEMI_HOURLY, '2026-03-10T15:29:59.999Z', '2026-03-10T15:00:00.000Z'],
    ['CUSTOM days only: every half hour of the day', custom({ days: [2] }), '2026-03-10T15:40:00.000Z', '2026-03-10T15:30:00.000Z'],
    ['CUSTOM days only: the last half hour of the last such day', custom({ days: [2] }), '2026-03-12T10:00:00.000Z', '2026-03-10T23:30:00.000Z'],
    ['CUSTOM start only, every day: today', custom({ startMinute: 540 }), '2026-03-10T10:00:00.000Z', '2026-03-10T09:00:00.000Z'],
    ['CUSTOM start only, every day: yesterday', custom({ startMinute: 540 }), '2026-03-10T08:59:00.000Z', '2026-03-09T09:00:00.000Z'],
    ['CUSTOM start only, on Fridays', custom({ days: [5], startMinute: 540 }), '2026-03-10T10:00:00.000Z', '2026-03-06T09:00:00.000Z'],
    ['CUSTOM start only, a week back', custom({ days: [2], startMinute: 540 }), '2026-03-10T08:00:00.000Z', '2026-03-03T09:00:00.000Z'],
    [
      'CUSTOM start to end: a half hour inside',
      custom({ days: [1, 2, 3, 4, 5], startMinute: 540, endMinute: 660 }),
      '2026-03-10T10:45:00.000Z',
      '2026-03-10T10:30:00.000Z',
    ],
    [
      'CUSTOM start to end: the end included',
      custom({ days: [1, 2, 3, 4, 5], startMinute: 540, endMinute: 660 }),
      '2026-03-10T16:00:00.000Z',
      '2026-03-10T11:00:00.000Z',
    ],
    [
      'CUSTOM start to end: over the weekend',
      custom({ days: [1, 2, 3, 4, 5], startMinute: 540, endMinute: 660 }),
      '2026-03-15T12:00:00.000Z',
      '2026-03-13T11:00:00.000Z',
    ],
    [
      'CUSTOM entries together: the latest of them',
      custom({ days: [0], startMinute: 0 }, { startMinute: 720 }, { days: [2], startMinute: 1380 }),
      '2026-03-10T23:40:00.000Z',
      '2026-03-10T23:00:00.000Z',
    ],
  ])('in UTC, %s', (_case, schedule, now, expected) => {
    expect(latest(schedule, 'UTC', now)).toBe(expected);
  });

  // Paris: CET (+1) until 2026-03-29 01:00Z, when 02:00 jumps to 03:00 CEST (+2); on 2026-10-25 at 01:00Z 03:00 CEST goes back to 02:00 CET.
  it.each<[string, CheckedSchedule, string, string]>([
    ['DAILY on the day of the change', DAILY, '2026-03-29T12:00:00.000Z', '2026-03-28T23:00:00.000Z'],
    ['DAILY the day after', DAILY, '2026-03-30T12:00:00.000Z', '2026-03-29T22:00:00.000Z'],
    ['HOURLY before the jump', HOURLY, '2026-03-29T00:59:00.000Z', '2026-03-29T00:00:00.000Z'],
    ['HOURLY after the jump: 03:00 CEST, 02:00 never was', HOURLY, '2026-03-29T01:30:00.000Z', '2026-03-29T01:00:00.000Z'],
    ['SEMI_HOURLY before the jump', SEMI_HOURLY, '2026-03-29T00:59:00.000Z', '2026-03-29T00:30:00.000Z'],
    ['SEMI_HOURLY at the jump', SEMI_HOURLY, '2026-03-29T01:10:00.000Z', '2026-03-29T01:00:00.000Z'],
    ['CUSTOM 02:30 is skipped on the day it does not exist', custom({ startMinute: 150 }), '2026-03-29T12:00:00.000Z', '2026-03-28T01:30:00.000Z'],
    ['CUSTOM 02:30 the day after, in CEST', custom({ startMinute: 150 }), '2026-03-30T12:00:00.000Z', '2026-03-30T00:30:00.000Z'],
  ])('in Europe/Paris in spring, %s', (_case, schedule, now, expected) => {
    expect(latest(schedule, 'Europe/Paris', now)).toBe(expected);
  });

  it.each<[string, CheckedSchedule, string, string]>([
    ['DAILY on the day of the change', DAILY, '2026-10-25T12:00:00.000Z', '2026-10-24T22:00:00.000Z'],
    ['DAILY the day after', DAILY, '2026-10-26T12:00:00.000Z', '2026-10-25T23:00:00.000Z'],
    ['HOURLY in the first 02:00 hour', HOURLY, '2026-10-25T00:45:00.000Z', '2026-10-25T00:00:00.000Z'],
    ['HOURLY in the repeated 02:00 hour: its first occurrence', HOURLY, '2026-10-25T01:30:00.000Z', '2026-10-25T00:00:00.000Z'],
    ['HOURLY at 03:00 CET', HOURLY, '2026-10-25T02:05:00.000Z', '2026-10-25T02:00:00.000Z'],
    ['SEMI_HOURLY in the repeated hour', SEMI_HOURLY, '2026-10-25T01:45:00.000Z', '2026-10-25T00:30:00.000Z'],
    ['CUSTOM 02:30 runs at its first occurrence only', custom({ startMinute: 150 }), '2026-10-25T12:00:00.000Z', '2026-10-25T00:30:00.000Z'],
  ])('in Europe/Paris in autumn, %s', (_case, schedule, now, expected) => {
    expect(latest(schedule, 'Europe/Paris', now)).toBe(expected);
  });

  // New York: EST (-5) until 2026-03-08 07:00Z (02:00 jumps to 03:00 EDT, -4); on 2026-11-01 at 06:00Z 02:00 EDT goes back to 01:00 EST.
  it.each<[string, CheckedSchedule, string, string]>([
    ['DAILY in EST', DAILY, '2026-03-08T12:00:00.000Z', '2026-03-08T05:00:00.000Z'],
    ['DAILY in EDT', DAILY, '2026-03-09T12:00:00.000Z', '2026-03-09T04:00:00.000Z'],
    ['HOURLY before the jump', HOURLY, '2026-03-08T06:59:00.000Z', '2026-03-08T06:00:00.000Z'],
    ['HOURLY after the jump', HOURLY, '2026-03-08T07:30:00.000Z', '2026-03-08T07:00:00.000Z'],
    ['HOURLY in the repeated 01:00 hour: its first occurrence', HOURLY, '2026-11-01T06:30:00.000Z', '2026-11-01T05:00:00.000Z'],
    ['HOURLY at 02:00 EST', HOURLY, '2026-11-01T07:10:00.000Z', '2026-11-01T07:00:00.000Z'],
    ['CUSTOM Mondays 09:00, in EDT', custom({ days: [1], startMinute: 540 }), '2026-03-11T15:00:00.000Z', '2026-03-09T13:00:00.000Z'],
    ['CUSTOM Mondays 09:00, the week before in EST', custom({ days: [1], startMinute: 540 }), '2026-03-09T12:59:00.000Z', '2026-03-02T14:00:00.000Z'],
  ])('in America/New_York, %s', (_case, schedule, now, expected) => {
    expect(latest(schedule, 'America/New_York', now)).toBe(expected);
  });

  it.each<[string, string, CheckedSchedule, string, string]>([
    ['Asia/Kolkata (+5:30)', 'DAILY', DAILY, '2026-03-10T10:00:00.000Z', '2026-03-09T18:30:00.000Z'],
    ['Asia/Kolkata (+5:30)', 'HOURLY', HOURLY, '2026-03-10T10:00:00.000Z', '2026-03-10T09:30:00.000Z'],
    ['Asia/Kolkata (+5:30)', 'SEMI_HOURLY', SEMI_HOURLY, '2026-03-10T10:10:00.000Z', '2026-03-10T10:00:00.000Z'],
    ['Asia/Kolkata (+5:30)', 'CUSTOM 09:00', custom({ startMinute: 540 }), '2026-03-10T10:00:00.000Z', '2026-03-10T03:30:00.000Z'],
    ['Asia/Kathmandu (+5:45)', 'DAILY', DAILY, '2026-03-10T10:00:00.000Z', '2026-03-09T18:15:00.000Z'],
    ['Asia/Kathmandu (+5:45)', 'HOURLY', HOURLY, '2026-03-10T10:00:00.000Z', '2026-03-10T09:15:00.000Z'],
    ['Asia/Kathmandu (+5:45)', 'SEMI_HOURLY', SEMI_HOURLY, '2026-03-10T10:00:00.000Z', '2026-03-10T09:45:00.000Z'],
    [
      'Asia/Kathmandu (+5:45)',
      'CUSTOM Tuesdays 00:00 to 01:00',
      custom({ days: [2], startMinute: 0, endMinute: 60 }),
      '2026-03-10T10:00:00.000Z',
      '2026-03-09T19:15:00.000Z',
    ],
  ])('in %s, %s', (_zone, _case, schedule, now, expected) => {
    expect(latest(schedule, _zone.split(' ')[0]!, now)).toBe(expected);
  });

  // Santiago springs forward at midnight (2026-09-06 00:00 -04 is 01:00 -03): that day has no midnight, so DAILY skips it.
  it.each<[string, CheckedSchedule, string, string]>([
    ['DAILY on the day without midnight: the day before', DAILY, '2026-09-06T12:00:00.000Z', '2026-09-05T04:00:00.000Z'],
    ['DAILY the day after', DAILY, '2026-09-07T12:00:00.000Z', '2026-09-07T03:00:00.000Z'],
    ['HOURLY on the day without midnight: 01:00 -03', HOURLY, '2026-09-06T04:30:00.000Z', '2026-09-06T04:00:00.000Z'],
    // It falls back at midnight too (2026-04-05 00:00 -03 is 2026-04-04 23:00 -04): 23:00 comes twice, midnight once.
    ['HOURLY in the repeated 23:00 hour: its first occurrence', HOURLY, '2026-04-05T03:30:00.000Z', '2026-04-05T02:00:00.000Z'],
    ['DAILY after the repeated hour', DAILY, '2026-04-05T04:30:00.000Z', '2026-04-05T04:00:00.000Z'],
  ])('in America/Santiago, %s', (_case, schedule, now, expected) => {
    expect(latest(schedule, 'America/Santiago', now)).toBe(expected);
  });

  it('answers null without a schedule or without any time to run', () => {
    expect(latest(null, 'UTC', '2026-03-10T10:00:00.000Z')).toBeNull();
    expect(latest(custom(), 'UTC', '2026-03-10T10:00:00.000Z')).toBeNull();
  });

  it('runs TRIGGER rules every half hour', () => {
    const rule = ruleOf(triggered());
    expect(runScheduleOf(rule)).toBe(TRIGGER_SCHEDULE);
    expect(latest(runScheduleOf(rule), 'Asia/Kathmandu', '2026-03-10T10:00:00.000Z')).toBe('2026-03-10T09:45:00.000Z');
    const daily = ruleOf(scheduled([AD]));
    expect(runScheduleOf(daily)).toEqual({ type: 'DAILY', entries: [] });
  });
});

describe('isDue', () => {
  const at = (iso: string) => new Date(iso);

  it.each<[string, Date | null, Date | null, boolean]>([
    ['never ran', null, at('2026-03-10T10:00:00Z'), true],
    ['nothing scheduled', null, null, false],
    ['ran for the latest period', at('2026-03-10T10:00:00Z'), at('2026-03-10T10:00:00Z'), false],
    ['a later period', at('2026-03-10T10:00:00Z'), at('2026-03-10T11:00:00Z'), true],
  ])('%s', (_case, last, latest, expected) => {
    expect(isDue(last, latest)).toBe(expected);
  });

  it('runs a rule missed during downtime once, not once per missed period', () => {
    const HOURLY: CheckedSchedule = { type: 'HOURLY', entries: [] };
    // Last ran for 10:00; the service was down until 13:45 (three periods missed).
    let ranFor: Date | null = at('2026-03-10T10:00:00Z');
    const runs: string[] = [];
    for (const now of ['2026-03-10T13:45:00Z', '2026-03-10T13:50:00Z', '2026-03-10T13:59:00Z', '2026-03-10T14:00:00Z']) {
      const latest = latestRunAt(HOURLY, 'UTC', at(now));
      if (isDue(ranFor, latest)) {
        runs.push(now);
        ranFor = latest;
      }
    }
    expect(runs).toEqual(['2026-03-10T13:45:00Z', '2026-03-10T14:00:00Z']);
  });
});
