import { describe, expect, it } from 'vitest';
import {
  checkStudy,
  compareCells,
  erf,
  MAX_CELLS,
  normalCdf,
  SIGNIFICANCE_LEVEL,
  twoProportionZTest,
  type CellDelivery,
  type StudyFacts,
  type StudyInput,
} from '../../../src/ads/rules/studies.ts';

// The account: campaign 5 holds ad sets 11 and 12, campaign 6 holds 21 and 22, campaign 7 holds 31.
const NOW = new Date('2026-03-01T12:00:00Z');
const START = new Date('2026-03-02T00:00:00Z');
const DAY = 24 * 60 * 60 * 1000;
const after = (date: Date, days: number) => new Date(date.getTime() + days * DAY);
const END = after(START, 14);

const facts = (overrides: Partial<StudyFacts> = {}): StudyFacts => ({
  now: NOW,
  adSets: new Map([
    ['11', '5'],
    ['12', '5'],
    ['21', '6'],
    ['22', '6'],
    ['31', '7'],
  ]),
  campaigns: new Set(['5', '6', '7']),
  overlapping: [],
  ...overrides,
});

const study = (overrides: Partial<StudyInput> = {}): StudyInput => ({
  name: 'Creative test',
  description: 'Video against image',
  type: 'SPLIT_TEST',
  startTime: START,
  endTime: END,
  cells: [
    { name: 'Video', treatment_percentage: 50, adsets: ['11'] },
    { name: 'Image', treatment_percentage: 50, adsets: ['21'] },
  ],
  ...overrides,
});

const found = (input: StudyInput, given: StudyFacts = facts()) => checkStudy(input, given).violations.map((v) => [v.field, v.message]);
const cells = (...list: unknown[]) => study({ cells: list });

describe('checkStudy', () => {
  it('gives the cells of a valid study and no violations', () => {
    expect(checkStudy(study(), facts())).toEqual({
      cells: [
        { name: 'Video', treatmentPercentage: 50, adSetIds: ['11'], campaignIds: [] },
        { name: 'Image', treatmentPercentage: 50, adSetIds: ['21'], campaignIds: [] },
      ],
      violations: [],
    });
  });

  it('reads ids sent as numbers or digit strings, names cells by default, and takes campaign cells', () => {
    const input = study({
      description: undefined,
      type: undefined,
      cells: [
        { treatment_percentage: 30, campaigns: [5] },
        { treatment_percentage: 30, campaigns: ['6'] },
        { name: null, treatment_percentage: 40, adsets: [31] },
      ],
    });
    expect(checkStudy(input, facts())).toEqual({
      cells: [
        { name: 'Cell 1', treatmentPercentage: 30, adSetIds: [], campaignIds: ['5'] },
        { name: 'Cell 2', treatmentPercentage: 30, adSetIds: [], campaignIds: ['6'] },
        { name: 'Cell 3', treatmentPercentage: 40, adSetIds: ['31'], campaignIds: [] },
      ],
      violations: [],
    });
  });

  it('reports violations with Graph code 100', () => {
    expect(checkStudy(study({ name: '' }), facts()).violations).toEqual([{ field: 'name', message: 'The parameter name is required', code: 100 }]);
  });

  it.each<[string, Partial<StudyInput>, string[][]]>([
    ['no name', { name: undefined }, [['name', 'The parameter name is required']]],
    ['a blank name', { name: '   ' }, [['name', 'The parameter name is required']]],
    ['a name that is no string', { name: 42 }, [['name', 'Param name must be a string']]],
    ['a name of 400 characters', { name: 'n'.repeat(400) }, []],
    ['a name of 401 characters', { name: 'n'.repeat(401) }, [['name', 'Param name must be at most 400 characters long']]],
    ['a name of 400 emoji (characters, not UTF-16 units)', { name: '🙂'.repeat(400) }, []],
    ['no description', { description: undefined }, []],
    ['a description of 2000 characters', { description: 'd'.repeat(2000) }, []],
    ['a description of 2001 characters', { description: 'd'.repeat(2001) }, [['description', 'Param description must be at most 2000 characters long']]],
    ['a description that is no string', { description: ['x'] }, [['description', 'Param description must be a string']]],
    ['no type', { type: undefined }, []],
    ['another type', { type: 'LIFT' }, [['type', 'Param type must be SPLIT_TEST: only SPLIT_TEST studies are supported']]],
    ['a type in lower case', { type: 'split_test' }, [['type', 'Param type must be SPLIT_TEST: only SPLIT_TEST studies are supported']]],
  ])('name, description and type: %s', (_rule, overrides, expected) => {
    expect(found(study(overrides))).toEqual(expected);
  });

  it.each<[string, Partial<StudyInput>, string[][]]>([
    ['no start_time', { startTime: null }, [['start_time', 'The parameter start_time is required']]],
    ['no end_time', { endTime: null }, [['end_time', 'The parameter end_time is required']]],
    [
      'neither',
      { startTime: null, endTime: null },
      [
        ['start_time', 'The parameter start_time is required'],
        ['end_time', 'The parameter end_time is required'],
      ],
    ],
    ['an invalid time', { startTime: new Date('nope') }, [['start_time', 'Param start_time must be a valid time']]],
    ['the end at the start', { endTime: START }, [['end_time', 'Param end_time must be after start_time']]],
    ['the end before the start', { endTime: after(START, -0.25) }, [['end_time', 'Param end_time must be after start_time']]],
    ['a study already running, ending in the future', { startTime: after(NOW, -3), endTime: after(NOW, 1) }, []],
    ['the end now', { startTime: after(NOW, -3), endTime: NOW }, [['end_time', 'Param end_time must be in the future']]],
    [
      'the end in the past and before the start',
      { startTime: after(NOW, -1), endTime: after(NOW, -2) },
      [
        ['end_time', 'Param end_time must be after start_time'],
        ['end_time', 'Param end_time must be in the future'],
      ],
    ],
    ['exactly 90 days', { endTime: after(START, 90) }, []],
    [
      'more than 90 days',
      { endTime: new Date(after(START, 90).getTime() + 1000) },
      [['end_time', 'Param end_time must be at most 90 days after start_time: a study runs at most 90 days']],
    ],
  ])('schedule: %s', (_rule, overrides, expected) => {
    expect(found(study(overrides))).toEqual(expected);
  });

  it('gives the schedule violations a user title and message', () => {
    const [v] = checkStudy(study({ endTime: START }), facts()).violations;
    expect(v).toMatchObject({ field: 'end_time', userTitle: 'End before start', userMessage: 'The end date must come after the start date.' });
  });

  it.each<[string, unknown, string[][]]>([
    ['no cells', undefined, [['cells', 'The parameter cells is required']]],
    ['cells that are no list', { treatment_percentage: 100, adsets: ['11'] }, [['cells', 'Param cells must be a list of 2 to 10 cells']]],
    [
      'one cell',
      [{ treatment_percentage: 100, adsets: ['11'] }],
      [
        ['cells', 'Param cells must hold 2 to 10 cells, got 1'],
        ['cells[0].treatment_percentage', 'Param cells[0].treatment_percentage must be a whole number from 1 to 99'],
      ],
    ],
    ['no cell at all', [], [['cells', 'Param cells must hold 2 to 10 cells, got 0']]],
    [
      'a cell that is no object',
      [{ treatment_percentage: 50, adsets: ['11'] }, 'cell'],
      [['cells[1]', 'Param cells[1] must be an object with treatment_percentage and adsets or campaigns']],
    ],
    [
      'percentages adding up to 90',
      [
        { treatment_percentage: 40, adsets: ['11'] },
        { treatment_percentage: 50, adsets: ['21'] },
      ],
      [['cells', 'Param cells must have treatment percentages adding up to 100, they add up to 90']],
    ],
    [
      'percentages adding up to 110',
      [
        { treatment_percentage: 60, adsets: ['11'] },
        { treatment_percentage: 50, adsets: ['21'] },
      ],
      [['cells', 'Param cells must have treatment percentages adding up to 100, they add up to 110']],
    ],
    [
      'a missing percentage (no sum then)',
      [{ adsets: ['11'] }, { treatment_percentage: 50, adsets: ['21'] }],
      [['cells[0].treatment_percentage', 'The parameter cells[0].treatment_percentage is required']],
    ],
    ...[0, 100, 50.5, '50', -1, true].map((bad): [string, unknown, string[][]] => [
      `a percentage of ${JSON.stringify(bad)}`,
      [
        { treatment_percentage: 50, adsets: ['11'] },
        { treatment_percentage: bad, adsets: ['21'] },
      ],
      [['cells[1].treatment_percentage', 'Param cells[1].treatment_percentage must be a whole number from 1 to 99']],
    ]),
    [
      'a cell naming nothing',
      [{ treatment_percentage: 50, adsets: ['11'] }, { treatment_percentage: 50 }],
      [['cells[1]', 'Param cells[1] must name at least one ad set (adsets) or campaign (campaigns)']],
    ],
    [
      'a cell with empty lists',
      [
        { treatment_percentage: 50, adsets: [], campaigns: [] },
        { treatment_percentage: 50, adsets: ['21'] },
      ],
      [['cells[0]', 'Param cells[0] must name at least one ad set (adsets) or campaign (campaigns)']],
    ],
    [
      'a cell naming both ad sets and campaigns',
      [
        { treatment_percentage: 50, adsets: ['11'] },
        { treatment_percentage: 50, adsets: ['31'], campaigns: ['6'] },
      ],
      [['cells[1]', 'Param cells[1] names both ad sets and campaigns: a cell holds ad sets or campaigns, not both']],
    ],
    [
      'adsets that are no list',
      [
        { treatment_percentage: 50, adsets: '11' },
        { treatment_percentage: 50, adsets: ['21'] },
      ],
      [['cells[0].adsets', 'Param cells[0].adsets must be a list of ad set ids']],
    ],
    [
      'campaigns that are no list',
      [
        { treatment_percentage: 50, adsets: ['11'] },
        { treatment_percentage: 50, campaigns: 6 },
      ],
      [['cells[1].campaigns', 'Param cells[1].campaigns must be a list of campaign ids']],
    ],
    [
      'ids that are no ids',
      [
        { treatment_percentage: 50, adsets: ['11', 'act_12', 1.5, null] },
        { treatment_percentage: 50, campaigns: [{ id: '6' }] },
      ],
      [
        ['cells[0].adsets[1]', 'Param cells[0].adsets[1] must be an ad set id (a string of digits)'],
        ['cells[0].adsets[2]', 'Param cells[0].adsets[2] must be an ad set id (a string of digits)'],
        ['cells[0].adsets[3]', 'Param cells[0].adsets[3] must be an ad set id (a string of digits)'],
        ['cells[1].campaigns[0]', 'Param cells[1].campaigns[0] must be a campaign id (a string of digits)'],
      ],
    ],
    [
      'a cell name that is no string',
      [
        { name: 7, treatment_percentage: 50, adsets: ['11'] },
        { treatment_percentage: 50, adsets: ['21'] },
      ],
      [['cells[0].name', 'Param cells[0].name must be a string']],
    ],
    [
      'two cells of the same name',
      [
        { name: 'Same', treatment_percentage: 50, adsets: ['11'] },
        { name: 'Same', treatment_percentage: 50, adsets: ['21'] },
      ],
      [['cells[1].name', `Param cells[1].name must differ from the other cells' names: "Same" is the name of cells[0]`]],
    ],
    [
      'a name clashing with a default name',
      [
        { treatment_percentage: 50, adsets: ['11'] },
        { name: 'Cell 1', treatment_percentage: 50, adsets: ['21'] },
      ],
      [['cells[1].name', `Param cells[1].name must differ from the other cells' names: "Cell 1" is the name of cells[0]`]],
    ],
  ])('cells: %s', (_rule, list, expected) => {
    expect(found(study({ cells: list }))).toEqual(expected);
  });

  it.each([
    [MAX_CELLS, []],
    [MAX_CELLS + 1, [['cells', 'Param cells must hold 2 to 10 cells, got 11']]],
  ])('takes up to ten cells: %s', (count, expected) => {
    // An account with enough ad sets (101..111, in campaign 100), the percentages adding up to 100.
    const many = facts({ adSets: new Map(Array.from({ length: count }, (_, i) => [String(101 + i), '100'])), campaigns: new Set(['100']) });
    const list = Array.from({ length: count }, (_, i) => ({ treatment_percentage: i === 0 ? 100 - (count - 1) * 9 : 9, adsets: [String(101 + i)] }));
    expect(found(study({ cells: list }), many)).toEqual(expected);
  });

  it('returns no cells when cells is not a list, and the best reading otherwise', () => {
    expect(checkStudy(study({ cells: 'x' }), facts()).cells).toEqual([]);
    expect(checkStudy(study({ cells: [null, { treatment_percentage: '5', adsets: ['11', 'x'] }] }), facts()).cells).toEqual([
      { name: 'Cell 1', treatmentPercentage: 0, adSetIds: [], campaignIds: [] },
      { name: 'Cell 2', treatmentPercentage: 0, adSetIds: ['11'], campaignIds: [] },
    ]);
  });

  describe('the account', () => {
    it.each<[string, unknown[], string[][]]>([
      [
        'an unknown ad set',
        [
          { treatment_percentage: 50, adsets: ['11', '999'] },
          { treatment_percentage: 50, adsets: ['21'] },
        ],
        [['cells[0].adsets[1]', 'Param cells[0].adsets[1]: 999 is not an ad set of this ad account']],
      ],
      [
        'a campaign id named as an ad set',
        [
          { treatment_percentage: 50, adsets: ['11'] },
          { treatment_percentage: 50, adsets: ['6'] },
        ],
        [['cells[1].adsets[0]', 'Param cells[1].adsets[0]: 6 is not an ad set of this ad account']],
      ],
      [
        'an ad set id named as a campaign',
        [
          { treatment_percentage: 50, campaigns: ['5'] },
          { treatment_percentage: 50, campaigns: ['21'] },
        ],
        [['cells[1].campaigns[0]', 'Param cells[1].campaigns[0]: 21 is not a campaign of this ad account']],
      ],
    ])('%s', (_rule, list, expected) => {
      expect(found(cells(...list))).toEqual(expected);
    });

    it("answers another account's objects exactly as unknown ones, revealing nothing", () => {
      // 41 is an ad set of another account, 42 exists nowhere: the caller cannot tell them apart.
      const answer = (id: string) => found(cells({ treatment_percentage: 50, adsets: [id] }, { treatment_percentage: 50, campaigns: [id] }));
      expect(answer('41')).toEqual([
        ['cells[0].adsets[0]', 'Param cells[0].adsets[0]: 41 is not an ad set of this ad account'],
        ['cells[1].campaigns[0]', 'Param cells[1].campaigns[0]: 41 is not a campaign of this ad account'],
      ]);
      expect(answer('42')).toEqual(answer('41').map(([field, message]) => [field, message!.replace('41', '42')]));
    });
  });

  describe('one cell per object', () => {
    it.each<[string, unknown[], string[][]]>([
      [
        'an ad set in two cells',
        [
          { treatment_percentage: 50, adsets: ['11', '12'] },
          { treatment_percentage: 50, adsets: ['21', '12'] },
        ],
        [['cells[1].adsets[1]', 'Param cells[1].adsets[1]: ad set 12 is already in cells[0]: an ad set may be in one cell of a study']],
      ],
      [
        'an ad set twice in one cell',
        [
          { treatment_percentage: 50, adsets: ['11', 11] },
          { treatment_percentage: 50, adsets: ['21'] },
        ],
        [['cells[0].adsets[1]', 'Param cells[0].adsets[1]: ad set 11 is named twice in cells[0]']],
      ],
      [
        'a campaign in two cells',
        [
          { treatment_percentage: 50, campaigns: ['5'] },
          { treatment_percentage: 50, campaigns: ['5'] },
        ],
        [['cells[1].campaigns[0]', 'Param cells[1].campaigns[0]: campaign 5 is already in cells[0]: an ad set may be in one cell of a study']],
      ],
      [
        'an ad set inside a campaign an earlier cell names',
        [
          { treatment_percentage: 50, campaigns: ['5'] },
          { treatment_percentage: 50, adsets: ['12'] },
        ],
        [['cells[1].adsets[0]', 'Param cells[1].adsets[0]: ad set 12 is already in cells[0] through its campaign 5: an ad set may be in one cell of a study']],
      ],
      [
        'a campaign holding an ad set an earlier cell names',
        [
          { treatment_percentage: 50, adsets: ['22'] },
          { treatment_percentage: 50, campaigns: ['6'] },
        ],
        [
          [
            'cells[1].campaigns[0]',
            'Param cells[1].campaigns[0]: campaign 6 holds ad set 22, which is already in cells[0]: an ad set may be in one cell of a study',
          ],
        ],
      ],
      [
        'ad sets of one campaign in different cells (allowed)',
        [
          { treatment_percentage: 50, adsets: ['11'] },
          { treatment_percentage: 50, adsets: ['12'] },
        ],
        [],
      ],
    ])('%s', (_rule, list, expected) => {
      expect(found(cells(...list))).toEqual(expected);
    });
  });

  describe('one study at a time', () => {
    const other = { id: '900', name: 'Spring test', adSetIds: new Set(['11']), campaignIds: new Set(['6']) };
    const overlapping = facts({ overlapping: [other] });

    it.each<[string, unknown[], string[][]]>([
      [
        'an ad set already in an overlapping study',
        [
          { treatment_percentage: 50, adsets: ['11'] },
          { treatment_percentage: 50, adsets: ['31'] },
        ],
        [
          [
            'cells[0].adsets[0]',
            'Param cells[0].adsets[0]: ad set 11 is already in study "Spring test" (900) during these dates: an ad set may be in one study at a time',
          ],
        ],
      ],
      [
        'an ad set whose campaign is in an overlapping study',
        [
          { treatment_percentage: 50, adsets: ['12'] },
          { treatment_percentage: 50, adsets: ['31', '22'] },
        ],
        [
          [
            'cells[1].adsets[1]',
            'Param cells[1].adsets[1]: ad set 22 is already in study "Spring test" (900) through its campaign 6 during these dates: an ad set may be in one study at a time',
          ],
        ],
      ],
      [
        'a campaign already in an overlapping study',
        [
          { treatment_percentage: 50, campaigns: ['6'] },
          { treatment_percentage: 50, campaigns: ['7'] },
        ],
        [
          [
            'cells[0].campaigns[0]',
            'Param cells[0].campaigns[0]: campaign 6 is already in study "Spring test" (900) during these dates: an ad set may be in one study at a time',
          ],
        ],
      ],
      [
        'a campaign holding an ad set of an overlapping study',
        [
          { treatment_percentage: 50, campaigns: ['7'] },
          { treatment_percentage: 50, campaigns: ['5'] },
        ],
        [
          [
            'cells[1].campaigns[0]',
            'Param cells[1].campaigns[0]: campaign 5 holds ad set 11, which is already in study "Spring test" (900) during these dates: an ad set may be in one study at a time',
          ],
        ],
      ],
      [
        'objects the overlapping study does not test',
        [
          { treatment_percentage: 50, adsets: ['12'] },
          { treatment_percentage: 50, adsets: ['31'] },
        ],
        [],
      ],
    ])('%s', (_rule, list, expected) => {
      expect(found(cells(...list), overlapping)).toEqual(expected);
    });

    it('names every overlapping study an object is in', () => {
      const second = { id: '901', name: 'Summer test', adSetIds: new Set<string>(), campaignIds: new Set(['5']) };
      expect(
        found(cells({ treatment_percentage: 50, adsets: ['11'] }, { treatment_percentage: 50, adsets: ['31'] }), facts({ overlapping: [other, second] })),
      ).toEqual([
        [
          'cells[0].adsets[0]',
          'Param cells[0].adsets[0]: ad set 11 is already in study "Spring test" (900) during these dates: an ad set may be in one study at a time',
        ],
        [
          'cells[0].adsets[0]',
          'Param cells[0].adsets[0]: ad set 11 is already in study "Summer test" (901) through its campaign 5 during these dates: an ad set may be in one study at a time',
        ],
      ]);
    });

    it('does not look up overlapping studies for ids that are not of the account', () => {
      const foreign = { id: '902', name: 'Elsewhere', adSetIds: new Set(['41']), campaignIds: new Set<string>() };
      expect(
        found(cells({ treatment_percentage: 50, adsets: ['41'] }, { treatment_percentage: 50, adsets: ['31'] }), facts({ overlapping: [foreign] })),
      ).toEqual([['cells[0].adsets[0]', 'Param cells[0].adsets[0]: 41 is not an ad set of this ad account']]);
    });
  });

  it('reports every violation at once, in field order', () => {
    const input: StudyInput = {
      name: '',
      description: 5,
      type: 'LIFT',
      startTime: START,
      endTime: after(START, 91),
      cells: [
        { name: 3, treatment_percentage: 0, adsets: ['999'] },
        { treatment_percentage: 50, adsets: ['11'], campaigns: ['5'] },
        { name: 'Cell 2', treatment_percentage: 50, adsets: ['11'] },
      ],
    };
    expect(found(input, facts({ overlapping: [{ id: '900', name: 'Spring test', adSetIds: new Set(), campaignIds: new Set(['5']) }] }))).toEqual([
      ['name', 'The parameter name is required'],
      ['description', 'Param description must be a string'],
      ['type', 'Param type must be SPLIT_TEST: only SPLIT_TEST studies are supported'],
      ['end_time', 'Param end_time must be at most 90 days after start_time: a study runs at most 90 days'],
      ['cells[0].name', 'Param cells[0].name must be a string'],
      ['cells[0].treatment_percentage', 'Param cells[0].treatment_percentage must be a whole number from 1 to 99'],
      ['cells[0].adsets[0]', 'Param cells[0].adsets[0]: 999 is not an ad set of this ad account'],
      ['cells[1]', 'Param cells[1] names both ad sets and campaigns: a cell holds ad sets or campaigns, not both'],
      [
        'cells[1].adsets[0]',
        'Param cells[1].adsets[0]: ad set 11 is already in study "Spring test" (900) through its campaign 5 during these dates: an ad set may be in one study at a time',
      ],
      [
        'cells[1].campaigns[0]',
        'Param cells[1].campaigns[0]: campaign 5 is already in study "Spring test" (900) during these dates: an ad set may be in one study at a time',
      ],
      ['cells[2].name', `Param cells[2].name must differ from the other cells' names: "Cell 2" is the name of cells[1]`],
      ['cells[2].adsets[0]', 'Param cells[2].adsets[0]: ad set 11 is already in cells[1]: an ad set may be in one cell of a study'],
      [
        'cells[2].adsets[0]',
        'Param cells[2].adsets[0]: ad set 11 is already in study "Spring test" (900) through its campaign 5 during these dates: an ad set may be in one study at a time',
      ],
    ]);
  });

  it('puts the sum of the percentages ahead of the cells', () => {
    expect(found(cells({ name: 1, treatment_percentage: 30, adsets: ['11'] }, { treatment_percentage: 30, adsets: ['21'] }))).toEqual([
      ['cells', 'Param cells must have treatment percentages adding up to 100, they add up to 60'],
      ['cells[0].name', 'Param cells[0].name must be a string'],
    ]);
  });
});

describe('the normal distribution (Abramowitz & Stegun 7.1.26)', () => {
  it.each([
    [0, 0.5],
    [1, 0.8413447461],
    [-1, 0.1586552539],
    [1.96, 0.9750021049],
    [-1.96, 0.0249978951],
    [2.5758293035, 0.995],
    [3, 0.998650102],
    [-4, 0.0000316712],
  ])('Φ(%s) ≈ %s', (z, expected) => {
    expect(Math.abs(normalCdf(z) - expected)).toBeLessThan(1e-7);
  });

  it('keeps erf within 1.5e-7 and odd', () => {
    // Reference values of erf.
    for (const [x, expected] of [
      [0.5, 0.5204998778],
      [1, 0.8427007929],
      [2, 0.995322265],
    ] as const) {
      expect(Math.abs(erf(x) - expected)).toBeLessThan(1.5e-7);
      expect(erf(-x)).toBeCloseTo(-erf(x), 12);
    }
  });
});

describe('compareCells', () => {
  const delivery = (cellName: string, impressions: number, results: number, spend = 100_000): CellDelivery => ({ cellName, impressions, spend, results });

  it('finds a significant difference (10,000 impressions with 200 results against 10,000 with 150)', () => {
    const { bestCell, cells: compared } = compareCells([delivery('B', 10_000, 150, 60_000), delivery('A', 10_000, 200, 60_000)]);
    expect(bestCell).toBe('A');
    const [b, a] = compared;
    expect(a).toEqual({ cellName: 'A', impressions: 10_000, spend: 60_000, results: 200, costPerResult: 300, resultRate: 0.02, versusBest: null });
    expect(b).toMatchObject({ cellName: 'B', costPerResult: 400, resultRate: 0.015 });
    // Pooled: p = 350 / 20,000 = 0.0175, SE = √(0.0175 × 0.9825 × 2 / 10,000) = 0.0018544, z = 0.005 / SE = 2.6963,
    // two-sided p = 0.00701 (the brief's z ≈ 2.63, p ≈ 0.0085 do not follow from these counts, with or without pooling).
    expect(b!.versusBest!.z).toBeCloseTo(2.6963, 4);
    expect(b!.versusBest!.pValue).toBeCloseTo(0.00701, 5);
    expect(b!.versusBest!.significant).toBe(true);
    expect(b!.versusBest!.pValue).toBeLessThan(SIGNIFICANCE_LEVEL);
  });

  it('finds no significant difference between close cells (200 results against 180)', () => {
    const { bestCell, cells: compared } = compareCells([delivery('A', 10_000, 200), delivery('B', 10_000, 180)]);
    expect(bestCell).toBe('A');
    // p = 0.019, SE = √(0.019 × 0.981 × 2 / 10,000) = 0.0019308, z = 0.002 / SE = 1.0359, p = 0.3003.
    expect(compared[1]!.versusBest!.z).toBeCloseTo(1.0359, 4);
    expect(compared[1]!.versusBest!.pValue).toBeCloseTo(0.3003, 4);
    expect(compared[1]!.versusBest!.significant).toBe(false);
  });

  it('leaves out cells without impressions and has no best cell when none has any', () => {
    const { bestCell, cells: compared } = compareCells([delivery('A', 0, 0, 0), delivery('B', 5_000, 50, 20_000), delivery('C', 4_000, 0, 9_000)]);
    expect(bestCell).toBe('B');
    expect(compared.map((c) => [c.cellName, c.resultRate, c.costPerResult, c.versusBest === null])).toEqual([
      ['A', null, null, true],
      ['B', 0.01, 400, true],
      ['C', 0, null, false],
    ]);
    expect(compareCells([delivery('A', 0, 0), delivery('B', 0, 0)])).toEqual({
      bestCell: null,
      cells: [
        { cellName: 'A', impressions: 0, spend: 100_000, results: 0, costPerResult: null, resultRate: null, versusBest: null },
        { cellName: 'B', impressions: 0, spend: 100_000, results: 0, costPerResult: null, resultRate: null, versusBest: null },
      ],
    });
    expect(compareCells([])).toEqual({ bestCell: null, cells: [] });
  });

  it('takes the first of equal cells as the best, and tells equal cells apart by nothing', () => {
    const { bestCell, cells: compared } = compareCells([delivery('A', 1_000, 10), delivery('B', 2_000, 20)]);
    expect(bestCell).toBe('A');
    expect(compared[1]!.versusBest).toEqual({ z: 0, pValue: 1, significant: false });
  });

  it('answers z 0 and p 1 when no cell has results', () => {
    const { bestCell, cells: compared } = compareCells([delivery('A', 1_000, 0), delivery('B', 1_000, 0)]);
    expect(bestCell).toBe('A');
    expect(compared[1]!.versusBest).toEqual({ z: 0, pValue: 1, significant: false });
    expect(twoProportionZTest({ impressions: 10, results: 10 }, { impressions: 10, results: 10 })).toEqual({ z: 0, pValue: 1 });
  });
});
