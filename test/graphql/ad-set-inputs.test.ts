import { describe, expect, it } from 'vitest';
import type { GraphQLInputObjectType } from 'graphql';
import { buildSchema } from '../../src/graphql/schema.ts';
import { AD_SET_PARAMS } from '../../src/ads/writes/ad-set-params.ts';

/**
 * One list of ad set parameters (AD_SET_PARAMS, what /v24.0 reads) checks both GraphQL inputs: every parameter a
 * create or an update takes on /v24.0 is a field of CreateAdSetInput or UpdateAdSetInput (camelCase), and every
 * field of them is a parameter, so the two surfaces cannot drift apart. The exceptions are named, with why.
 */
const schema = buildSchema();
const snake = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** /v24.0 spellings GraphQL does not repeat: time_start and time_stop are start_time and end_time again. */
const ALIASES = ['time_start', 'time_stop'];
/** Parameters an update takes on /v24.0 only to refuse a change: an ad set stays in its campaign and its lineage. */
const UPDATE_ONLY_ON_V24 = ['campaign_id', 'source_adset_id'];
/** GraphQL names of parameters: sourceAdSetId is source_adset_id (GraphQL writes AdSet as one word). */
const GRAPHQL_NAMES: Record<string, string> = { source_ad_set_id: 'source_adset_id' };

function fieldsOf(input: string): string[] {
  const type = schema.getType(input) as GraphQLInputObjectType;
  return Object.keys(type.getFields()).map((name) => GRAPHQL_NAMES[snake(name)] ?? snake(name));
}
const paramsOf = (mode: 'create' | 'update') =>
  Object.entries(AD_SET_PARAMS)
    .filter(([name, spec]) => (!spec.only || spec.only === mode) && !ALIASES.includes(name))
    .map(([name]) => name);

describe('the GraphQL ad set inputs and the /v24.0 parameters', () => {
  it.each([
    ['CreateAdSetInput', 'create', []],
    ['UpdateAdSetInput', 'update', UPDATE_ONLY_ON_V24],
  ] as const)('%s has every %s parameter, and nothing else', (input, mode, exceptions) => {
    const fields = fieldsOf(input);
    const params = paramsOf(mode).filter((name) => !(exceptions as readonly string[]).includes(name));
    expect(
      params.filter((name) => !fields.includes(name)),
      'parameters missing from GraphQL',
    ).toEqual([]);
    expect(
      fields.filter((name) => !params.includes(name) && name !== 'campaign_status'),
      'GraphQL fields that are no parameter',
    ).toEqual([]);
  });
});
