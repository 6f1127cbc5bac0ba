import { describe, expect, it } from 'vitest';
import { familyFor } from '../../../src/insights/rules/breakdowns.ts';
import { DomainError } from '../../../src/errors/index.ts';

const PLACEMENT = 'publisher_platform,platform_position,device_platform';

describe('breakdown families', () => {
  it.each([
    [[], ''],
    [['age'], 'age,gender'],
    [['gender'], 'age,gender'],
    [['gender', 'age'], 'age,gender'],
    [['country'], 'country'],
    [['publisher_platform'], PLACEMENT],
    [['publisher_platform', 'platform_position'], PLACEMENT],
    [['platform_position', 'publisher_platform', 'device_platform'], PLACEMENT],
    [['device_platform'], PLACEMENT],
    [['publisher_platform', 'device_platform'], PLACEMENT],
  ])('%j is served by family %j', (breakdowns, family) => expect(familyFor(breakdowns).family).toBe(family));

  it('keeps the family column order for the rows', () => expect(familyFor(['gender', 'age']).breakdowns).toEqual(['age', 'gender']));

  it.each([
    [['age', 'country']],
    [['platform_position']],
    [['platform_position', 'device_platform']],
    [['gender', 'publisher_platform']],
    [['hourly_stats']],
    [['age', 'age']],
  ])('%j is error 100 naming breakdowns', (breakdowns) => {
    let caught: unknown;
    try {
      familyFor(breakdowns);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(DomainError);
    expect(caught).toMatchObject({ code: 'BAD_USER_INPUT', field: 'breakdowns' });
  });
});
