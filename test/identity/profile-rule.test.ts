import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertMembership } from '../../src/identity/store.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { PASSWORD, worldBuilder } from '../helpers/world.ts';
import { NOT_FOUND, restClient } from '../helpers/api.ts';

/**
 * Issue 25, item 2: a user's own account (name, login type, ...) is changed by the user, a site admin, or an owner or
 * admin of every organization the user belongs to, never of one of several. updateUser (GraphQL), convert-login
 * (/api/v2, which changes the login type) and authcheck (both surfaces) answer by that one rule.
 */

type Outcome = 'allowed' | 'forbidden' | 'not found';
type Name = 'soloTarget' | 'bridgeTarget' | 'loner' | 'adminA' | 'adminOfBoth' | 'auditorA' | 'siteAdmin' | 'siteAdminInA';

let server: TestServer;
const people = {} as Record<Name, { id: string; token: string }>;

beforeAll(async () => {
  server = await startTestServer();
  const world = worldBuilder(server.deps);
  const a = (await world.organization()).id;
  const b = (await world.organization()).id;
  const made = async (name: Name, options: Parameters<typeof world.user>[0], alsoIn?: [string, 'member' | 'owner']) => {
    const { user, token } = await world.user(options);
    if (alsoIn) await insertMembership(server.deps.db, alsoIn[0], user.id, alsoIn[1]);
    people[name] = { id: user.id, token };
  };
  await made('soloTarget', { organizationId: a, role: 'member' });
  await made('bridgeTarget', { organizationId: a, role: 'member' }, [b, 'member']);
  await made('loner', {});
  await made('adminA', { organizationId: a, role: 'admin' });
  await made('adminOfBoth', { organizationId: a, role: 'admin' }, [b, 'owner']);
  await made('auditorA', { organizationId: a, role: 'auditor' });
  await made('siteAdmin', { siteAdmin: true });
  await made('siteAdminInA', { siteAdmin: true, organizationId: a, role: 'member' });
});
afterAll(() => server?.close());

const ROWS: Array<[rule: string, actor: Name, target: Name, outcome: Outcome]> = [
  ['an admin of the only organization the user belongs to', 'adminA', 'soloTarget', 'allowed'],
  ['an admin of one of the two organizations the user belongs to', 'adminA', 'bridgeTarget', 'forbidden'],
  ['an owner or admin of every organization the user belongs to', 'adminOfBoth', 'bridgeTarget', 'allowed'],
  ['the user itself', 'bridgeTarget', 'bridgeTarget', 'allowed'],
  ['a site admin', 'siteAdmin', 'bridgeTarget', 'allowed'],
  ["an auditor of the user's only organization", 'auditorA', 'soloTarget', 'forbidden'],
  ['an admin, of a user in no organization (invisible)', 'adminA', 'loner', 'not found'],
  ['a site admin, of a user in no organization', 'siteAdmin', 'loner', 'allowed'],
  // Changing a site admin's e-mail or password would make the admins of its organizations site admins.
  ["an admin of a site admin's only organization", 'adminA', 'siteAdminInA', 'forbidden'],
  ['a site admin, of another site admin', 'siteAdmin', 'siteAdminInA', 'allowed'],
];

const nameOf = async (id: string) => ((await server.deps.db('users').where({ id }).first()) as { name: string }).name;

describe("who changes a user's account", () => {
  it('updateUser (GraphQL) follows the rule, and writes nothing when refused', async () => {
    for (const [rule, actor, target, outcome] of ROWS) {
      const before = await nameOf(people[target].id);
      const name = `Renamed by ${actor}`;
      const { body } = await server.graphql(
        'mutation ($input: UpdateUserInput!) { updateUser(input: $input) { id name } }',
        { input: { id: people[target].id, name } },
        people[actor].token,
      );
      const code = body.errors?.[0]?.extensions?.code;
      const got = code === undefined ? 'allowed' : code === 'FORBIDDEN' ? 'forbidden' : code === 'NOT_FOUND' ? 'not found' : `unexpected ${code}`;
      expect(got, `${rule}: ${JSON.stringify(body.errors)}`).toBe(outcome);
      expect(await nameOf(people[target].id), rule).toBe(outcome === 'allowed' ? name : before);
    }
  });

  it('convert-login (/api/v2) follows the rule: 201, 403 "Forbidden." or 404', async () => {
    const api = restClient(server);
    for (const [rule, actor, target, outcome] of ROWS) {
      const response = await api.post(`/users/${people[target].id}/convert-login`, { to_type: 'github', password: PASSWORD }, people[actor].token);
      const expected = { allowed: 201, forbidden: 403, 'not found': 404 }[outcome];
      expect(response.status, `${rule}: ${JSON.stringify(response.body)}`).toBe(expected);
      if (outcome === 'allowed') expect(response.body).toMatchObject({ user_id: people[target].id, to_type: 'github' });
      if (outcome === 'forbidden') expect(response.body).toEqual({ message: 'Forbidden.' });
      if (outcome === 'not found') expect(response.body).toMatchObject({ message: NOT_FOUND });
    }
  });

  it('authcheck answers exactly the same, on /api/v2 and on GraphQL, by resource_id and by owner_id', async () => {
    const api = restClient(server);
    for (const [rule, actor, target, outcome] of ROWS) {
      const checks = {
        byId: { action: 'update', object: { resource_type: 'user', resource_id: people[target].id } },
        byOwner: { action: 'update', object: { resource_type: 'user', owner_id: people[target].id } },
      };
      const allowed = outcome === 'allowed';
      const rest = await api.post('/authcheck', { checks }, people[actor].token);
      expect(rest.body, rule).toEqual({ byId: allowed, byOwner: allowed });
      const { body } = await server.graphql(
        'query ($checks: [AuthCheckInput!]!) { authCheck(checks: $checks) { label allowed } }',
        {
          checks: [
            { label: 'byId', action: 'UPDATE', object: { resourceType: 'USER', resourceId: people[target].id } },
            { label: 'byOwner', action: 'UPDATE', object: { resourceType: 'USER', ownerId: people[target].id } },
          ],
        },
        people[actor].token,
      );
      expect(body.data?.authCheck, rule).toEqual([
        { label: 'byId', allowed },
        { label: 'byOwner', allowed },
      ]);
    }
  });
});
