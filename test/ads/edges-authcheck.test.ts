import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { worldBuilder } from '../helpers/world.ts';
import type { Role } from '../../src/authz/policy.ts';
import type { AdAccountRecord, AdSetRecord } from '../../src/ads/store.ts';

/**
 * authcheck answers the ad set edges' new actions (issue 21) exactly as enforcement does: for each role, and for
 * another organization's admin, whether creating, reading, changing and deleting an automated rule, a creative and
 * a study would be allowed is what the operation itself then does. Each operation runs after its check, on objects
 * of its own, so one principal's success does not change another's case.
 */

const ROLES: Role[] = ['owner', 'admin', 'advertiser', 'moderator', 'auditor', 'member'];

let server: TestServer;
let world: ReturnType<typeof worldBuilder>;
let orgId: string;
let account: AdAccountRecord;
let adSets: AdSetRecord[];
/** The outcomes each operation had, over every principal. */
const seen = new Map<string, Set<boolean>>();

beforeAll(async () => {
  server = await startTestServer({ ASYNC_RUNNER: 'false' });
  world = worldBuilder(server.deps);
  orgId = (await world.organization()).id;
  account = await world.adAccount(orgId);
  const [campaign] = await world.campaigns(account, 1, { dailyBudget: null });
  adSets = await world.adSets(campaign!, 2, () => ({ billingEvent: 'IMPRESSIONS', optimizationGoal: 'LINK_CLICKS', dailyBudget: '5000' }));
});
afterAll(() => server?.close());

const RULE = {
  name: 'Pause all',
  evaluationSpec: { evaluation_type: 'SCHEDULE', filters: [{ field: 'entity_type', value: 'ADSET', operator: 'EQUAL' }] },
  executionSpec: { execution_type: 'PAUSE' },
  scheduleSpec: { schedule_type: 'DAILY' },
};

async function allowed(token: string, action: string, object: Record<string, unknown>): Promise<boolean> {
  const { body } = await server.graphql(
    'query ($checks: [AuthCheckInput!]!) { authCheck(checks: $checks) { label allowed } }',
    { checks: [{ label: 'x', action, object }] },
    token,
  );
  expect(body.errors).toBeUndefined();
  return (body.data as { authCheck: Array<{ allowed: boolean }> }).authCheck[0]!.allowed;
}

/** Whether a GraphQL operation did what it was asked: data under `field`, no error. */
async function performed(token: string, query: string, variables: Record<string, unknown>, field: string): Promise<boolean> {
  const { body } = await server.graphql(query, variables, token);
  const value = (body.data as Record<string, unknown> | null | undefined)?.[field];
  return !body.errors && value !== null && value !== undefined;
}

interface Operation {
  name: string;
  /** The check, given an object id made for this case (for the actions on an object). */
  check: (id: string) => [string, Record<string, unknown>];
  /** Makes the object the operation acts on (as the organization's owner would). */
  make?: () => Promise<string>;
  perform: (token: string, id: string) => Promise<boolean>;
}

const owner = async () => (await world.user({ organizationId: orgId, role: 'owner' })).token;
async function makeRule(): Promise<string> {
  const token = await owner();
  const { body } = await server.graphql(
    'mutation ($act: ID!, $input: CreateAdRuleInput!) { createAdRule(accountId: $act, input: $input) { id } }',
    { act: account.id, input: RULE },
    token,
  );
  return (body.data as { createAdRule: { id: string } }).createAdRule.id;
}

async function makeCreative(): Promise<string> {
  const [creative] = await world.creatives({ organizationId: orgId, accountId: account.id }, 1);
  return creative!.id;
}

const OPERATIONS: Operation[] = [
  {
    name: 'create a rule',
    check: () => ['CREATE', { resourceType: 'AD_SET', organizationId: orgId }],
    perform: (token) =>
      performed(
        token,
        'mutation ($act: ID!, $input: CreateAdRuleInput!) { createAdRule(accountId: $act, input: $input) { id } }',
        { act: account.id, input: RULE },
        'createAdRule',
      ),
  },
  {
    name: 'read a rule',
    check: (id) => ['READ', { resourceType: 'AD_SET', resourceId: id }],
    make: makeRule,
    perform: (token, id) => performed(token, 'query ($id: ID!) { adRule(id: $id) { id } }', { id }, 'adRule'),
  },
  {
    name: 'change a rule',
    check: (id) => ['UPDATE', { resourceType: 'AD_SET', resourceId: id }],
    make: makeRule,
    perform: (token, id) => performed(token, 'mutation ($id: ID!) { updateAdRule(id: $id, input: { name: "Renamed" }) { id } }', { id }, 'updateAdRule'),
  },
  {
    name: 'run a rule',
    check: (id) => ['UPDATE', { resourceType: 'AD_SET', resourceId: id }],
    make: makeRule,
    perform: (token, id) => performed(token, 'mutation ($id: ID!) { executeAdRule(id: $id) { run { id } } }', { id }, 'executeAdRule'),
  },
  {
    name: 'delete a rule',
    check: (id) => ['DELETE', { resourceType: 'AD_SET', resourceId: id }],
    make: makeRule,
    perform: (token, id) => performed(token, 'mutation ($id: ID!) { deleteAdRule(id: $id) }', { id }, 'deleteAdRule'),
  },
  {
    name: 'create a creative',
    check: () => ['CREATE', { resourceType: 'AD', organizationId: orgId }],
    perform: (token) =>
      performed(token, 'mutation ($act: ID!) { createAdCreative(accountId: $act, input: { title: "Hello" }) { id } }', { act: account.id }, 'createAdCreative'),
  },
  {
    name: 'read a creative',
    check: (id) => ['READ', { resourceType: 'AD', resourceId: id }],
    make: makeCreative,
    perform: (token, id) => performed(token, 'query ($id: ID!) { adCreative(id: $id) { id } }', { id }, 'adCreative'),
  },
  {
    name: 'rename a creative',
    check: (id) => ['UPDATE', { resourceType: 'AD', resourceId: id }],
    make: makeCreative,
    perform: (token, id) =>
      performed(token, 'mutation ($id: ID!) { updateAdCreative(id: $id, input: { name: "Renamed" }) { id } }', { id }, 'updateAdCreative'),
  },
  {
    name: 'delete a creative',
    check: (id) => ['DELETE', { resourceType: 'AD', resourceId: id }],
    make: makeCreative,
    perform: (token, id) => performed(token, 'mutation ($id: ID!) { deleteAdCreative(id: $id) }', { id }, 'deleteAdCreative'),
  },
  {
    name: 'create a study',
    check: () => ['CREATE', { resourceType: 'CAMPAIGN', organizationId: orgId }],
    perform: (token) =>
      performed(
        token,
        'mutation ($act: ID!, $input: CreateAdStudyInput!) { createAdStudy(accountId: $act, input: $input) { id } }',
        {
          act: account.id,
          input: {
            name: 'Split',
            startTime: new Date(Date.now() + 86_400_000).toISOString(),
            endTime: new Date(Date.now() + 2 * 86_400_000).toISOString(),
            cells: [
              { treatmentPercentage: 50, adsets: [adSets[0]!.id] },
              { treatmentPercentage: 50, adsets: [adSets[1]!.id] },
            ],
          },
        },
        'createAdStudy',
      ),
  },
];

describe('authcheck agrees with the ad set edges’ operations', () => {
  const principals: Array<[string, () => Promise<string>]> = [
    ...ROLES.map((role): [string, () => Promise<string>] => [role, async () => (await world.user({ organizationId: orgId, role })).token]),
    ['admin of another organization', async () => (await world.user({ organizationId: (await world.organization()).id, role: 'admin' })).token],
  ];

  it.each(principals)('%s', async (_name, tokenOf) => {
    const token = await tokenOf();
    const answers: Array<[string, boolean, boolean]> = [];
    for (const operation of OPERATIONS) {
      const id = operation.make ? await operation.make() : '';
      const [action, object] = operation.check(id);
      const expected = await allowed(token, action, object);
      const outcome = await operation.perform(token, id);
      answers.push([operation.name, expected, outcome]);
      seen.set(operation.name, (seen.get(operation.name) ?? new Set()).add(outcome));
      // A study holds its ad sets for its dates: the next principal's study must find them free.
      if (operation.name === 'create a study' && outcome) await server.deps.db('ad_studies').where({ account_id: account.id }).delete();
    }
    expect(answers.filter(([, expected, outcome]) => expected !== outcome)).toEqual([]);
  });

  it('saw each operation both allowed and refused (the cases above are not all one answer)', () => {
    for (const operation of OPERATIONS) expect([...(seen.get(operation.name) ?? [])].sort(), operation.name).toEqual([false, true]);
  });
});
