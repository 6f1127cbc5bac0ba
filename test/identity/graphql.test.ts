import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { worldBuilder } from '../helpers/world.ts';
import { firstError } from '../helpers/api.ts';

// Organization members and user updates over GraphQL (issue 3): admin succeeds, a plain member is FORBIDDEN,
// an outsider gets NOT_FOUND (the organization is invisible), conflicts are named. Since issue 25 an owner's or
// admin's add is an invitation (test/identity/invitations.test.ts); a site admin's is direct.

const ADD = `mutation Add($input: AddOrganizationMemberInput!) {
  addOrganizationMember(input: $input) { id role status email organization { id } membership { id role user { id email } } }
}`;
const CHANGE_ROLE = 'mutation Role($id: ID!, $role: OrganizationRole!) { changeOrganizationMemberRole(id: $id, role: $role) { id role } }';
const REMOVE = 'mutation Remove($id: ID!) { removeOrganizationMember(id: $id) }';
const UPDATE_USER = 'mutation Update($input: UpdateUserInput!) { updateUser(input: $input) { id name } }';

let server: TestServer;
let world: ReturnType<typeof worldBuilder>;
let orgId: string;
type Made = Awaited<ReturnType<ReturnType<typeof worldBuilder>['user']>>;
let owner: Made;
let admin: Made;
let plain: Made;
let outsider: Made;
let siteAdmin: Made;

beforeAll(async () => {
  server = await startTestServer();
  world = worldBuilder(server.deps);
  orgId = (await world.organization()).id;
  const otherOrg = await world.organization();
  owner = await world.user({ organizationId: orgId, role: 'owner' });
  admin = await world.user({ organizationId: orgId, role: 'admin' });
  plain = await world.user({ organizationId: orgId, role: 'member' });
  outsider = await world.user({ organizationId: otherOrg.id, role: 'admin' });
  siteAdmin = await world.user({ siteAdmin: true });
});
afterAll(() => server?.close());

const membershipRow = (userId: string) => server.deps.db('organization_members').where({ organization_id: orgId, user_id: userId }).first();
/** A user with no organization, to be added. */
const loner = async () => (await world.user()).user;
/** A member of the organization and its membership id. */
async function memberWithMembership(role: 'member' | 'advertiser' = 'member') {
  const made = await world.user({ organizationId: orgId, role });
  return { ...made, membershipId: (await membershipRow(made.user.id)).id as string };
}

describe('addOrganizationMember', () => {
  const invitationRows = (userEmail: string) => server.deps.db('organization_invitations').where({ organization_id: orgId, email: userEmail });

  it('lets an admin and an owner invite a user by e-mail with a role: PENDING, and no membership until accepted', async () => {
    for (const caller of [admin, owner]) {
      const user = await loner();
      const email = user.email.toUpperCase();
      const { body } = await server.graphql(ADD, { input: { organizationId: orgId, email, role: 'ADVERTISER' } }, caller.token);
      expect(body.errors).toBeUndefined();
      expect(body.data!.addOrganizationMember).toMatchObject({ role: 'ADVERTISER', status: 'PENDING', email, organization: { id: orgId }, membership: null });
      expect(await membershipRow(user.id)).toBeUndefined();
      expect(await invitationRows(email)).toEqual([
        expect.objectContaining({ id: body.data!.addOrganizationMember.id, role: 'advertiser', status: 'pending' }),
      ]);
    }
  });

  it('lets a site admin add a registered user at once: the invitation comes back ACCEPTED, with the membership', async () => {
    const user = await loner();
    const { body } = await server.graphql(ADD, { input: { organizationId: orgId, email: user.email.toUpperCase(), role: 'ADVERTISER' } }, siteAdmin.token);
    expect(body.errors).toBeUndefined();
    const added = body.data!.addOrganizationMember;
    expect(added).toMatchObject({
      role: 'ADVERTISER',
      status: 'ACCEPTED',
      organization: { id: orgId },
      membership: { role: 'ADVERTISER', user: { id: user.id, email: user.email } },
    });
    expect(await membershipRow(user.id)).toMatchObject({ id: added.membership.id, role: 'advertiser' });
  });

  it('refuses a plain member with FORBIDDEN and adds nothing', async () => {
    const user = await loner();
    const { body } = await server.graphql(ADD, { input: { organizationId: orgId, email: user.email, role: 'MEMBER' } }, plain.token);
    expect(firstError(body).extensions?.code).toBe('FORBIDDEN');
    expect(await membershipRow(user.id)).toBeUndefined();
    expect(await invitationRows(user.email)).toEqual([]);
  });

  it('answers an outsider with NOT_FOUND and adds nothing', async () => {
    const user = await loner();
    const { body } = await server.graphql(ADD, { input: { organizationId: orgId, email: user.email, role: 'MEMBER' } }, outsider.token);
    expect(firstError(body).extensions?.code).toBe('NOT_FOUND');
    expect(await membershipRow(user.id)).toBeUndefined();
    expect(await invitationRows(user.email)).toEqual([]);
  });

  it('answers an existing member with CONFLICT on email', async () => {
    const { body } = await server.graphql(ADD, { input: { organizationId: orgId, email: plain.user.email, role: 'ADMIN' } }, admin.token);
    expect(firstError(body).extensions).toMatchObject({ code: 'CONFLICT', field: 'input.email' });
    expect((await membershipRow(plain.user.id)).role).toBe('member');
  });

  it('answers a malformed e-mail and organization id with BAD_USER_INPUT naming the field, and no session with UNAUTHENTICATED', async () => {
    const badEmail = await server.graphql(ADD, { input: { organizationId: orgId, email: 'not-an-address', role: 'MEMBER' } }, admin.token);
    expect(firstError(badEmail.body).extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'input.email' });
    const badOrg = await server.graphql(ADD, { input: { organizationId: 'not-a-uuid', email: plain.user.email, role: 'MEMBER' } }, admin.token);
    expect(firstError(badOrg.body).extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'input.organizationId' });
    const unknownOrg = await server.graphql(ADD, { input: { organizationId: randomUUID(), email: plain.user.email, role: 'MEMBER' } }, admin.token);
    expect(firstError(unknownOrg.body).extensions?.code).toBe('NOT_FOUND');
    const anonymous = await server.graphql(ADD, { input: { organizationId: orgId, email: plain.user.email, role: 'MEMBER' } });
    expect(firstError(anonymous.body).extensions?.code).toBe('UNAUTHENTICATED');
  });
});

describe('changeOrganizationMemberRole', () => {
  it('lets an admin change a role', async () => {
    const { membershipId, user } = await memberWithMembership();
    const { body } = await server.graphql(CHANGE_ROLE, { id: membershipId, role: 'MODERATOR' }, admin.token);
    expect(body).toEqual({ data: { changeOrganizationMemberRole: { id: membershipId, role: 'MODERATOR' } } });
    expect((await membershipRow(user.id)).role).toBe('moderator');
  });

  it('refuses a plain member with FORBIDDEN, an outsider with NOT_FOUND, and changes nothing', async () => {
    const { membershipId, user } = await memberWithMembership();
    const forbidden = await server.graphql(CHANGE_ROLE, { id: membershipId, role: 'OWNER' }, plain.token);
    expect(firstError(forbidden.body).extensions?.code).toBe('FORBIDDEN');
    const hidden = await server.graphql(CHANGE_ROLE, { id: membershipId, role: 'OWNER' }, outsider.token);
    expect(firstError(hidden.body).extensions?.code).toBe('NOT_FOUND');
    // Not even for oneself.
    const own = (await membershipRow(plain.user.id)).id;
    const self = await server.graphql(CHANGE_ROLE, { id: own, role: 'OWNER' }, plain.token);
    expect(firstError(self.body).extensions?.code).toBe('FORBIDDEN');
    expect((await membershipRow(user.id)).role).toBe('member');
    expect((await membershipRow(plain.user.id)).role).toBe('member');
  });

  it('answers an unknown membership with NOT_FOUND and a malformed id with BAD_USER_INPUT on id', async () => {
    const unknown = await server.graphql(CHANGE_ROLE, { id: randomUUID(), role: 'MEMBER' }, admin.token);
    expect(firstError(unknown.body).extensions?.code).toBe('NOT_FOUND');
    const malformed = await server.graphql(CHANGE_ROLE, { id: 'nope', role: 'MEMBER' }, admin.token);
    expect(firstError(malformed.body).extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'id' });
  });
});

describe('removeOrganizationMember', () => {
  it('lets an admin remove a member', async () => {
    const { membershipId, user } = await memberWithMembership('advertiser');
    const { body } = await server.graphql(REMOVE, { id: membershipId }, admin.token);
    expect(body).toEqual({ data: { removeOrganizationMember: true } });
    expect(await membershipRow(user.id)).toBeUndefined();
  });

  it('refuses a plain member with FORBIDDEN, an outsider with NOT_FOUND, and removes nothing', async () => {
    const { membershipId, user } = await memberWithMembership();
    const forbidden = await server.graphql(REMOVE, { id: membershipId }, plain.token);
    expect(firstError(forbidden.body).extensions?.code).toBe('FORBIDDEN');
    const hidden = await server.graphql(REMOVE, { id: membershipId }, outsider.token);
    expect(firstError(hidden.body).extensions?.code).toBe('NOT_FOUND');
    expect(await membershipRow(user.id)).toBeDefined();
  });
});

describe('updateUser', () => {
  it('lets a user update its own name', async () => {
    const { user, token } = await memberWithMembership();
    const { body } = await server.graphql(UPDATE_USER, { input: { id: user.id, name: 'Ada Lovelace' } }, token);
    expect(body).toEqual({ data: { updateUser: { id: user.id, name: 'Ada Lovelace' } } });
    expect((await server.deps.db('users').where('id', user.id).first()).name).toBe('Ada Lovelace');
    expect((await server.graphql('{ me { name } }', {}, token)).body.data).toEqual({ me: { name: 'Ada Lovelace' } });
  });

  it('lets a user without any organization update its own name', async () => {
    const { user, token } = await world.user();
    const { body } = await server.graphql(UPDATE_USER, { input: { id: user.id, name: 'Solo' } }, token);
    expect(body.data?.updateUser.name).toBe('Solo');
  });

  it('lets an admin update a member of the organization', async () => {
    const { user } = await memberWithMembership();
    const { body } = await server.graphql(UPDATE_USER, { input: { id: user.id, name: 'Renamed By Admin' } }, admin.token);
    expect(body.data?.updateUser).toEqual({ id: user.id, name: 'Renamed By Admin' });
    expect((await server.deps.db('users').where('id', user.id).first()).name).toBe('Renamed By Admin');
  });

  it('refuses a plain member updating a fellow member (FORBIDDEN) and an outsider (NOT_FOUND)', async () => {
    const { user } = await memberWithMembership();
    const before = (await server.deps.db('users').where('id', user.id).first()).name;
    const forbidden = await server.graphql(UPDATE_USER, { input: { id: user.id, name: 'Hijacked' } }, plain.token);
    expect(firstError(forbidden.body).extensions?.code).toBe('FORBIDDEN');
    const hidden = await server.graphql(UPDATE_USER, { input: { id: user.id, name: 'Hijacked' } }, outsider.token);
    expect(firstError(hidden.body).extensions?.code).toBe('NOT_FOUND');
    expect((await server.deps.db('users').where('id', user.id).first()).name).toBe(before);
  });

  it('answers a name over 128 characters, a malformed id, an unknown id and no session', async () => {
    const { user, token } = await memberWithMembership();
    const long = await server.graphql(UPDATE_USER, { input: { id: user.id, name: 'n'.repeat(129) } }, token);
    expect(firstError(long.body).extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'input.name' });
    const malformed = await server.graphql(UPDATE_USER, { input: { id: 'nope', name: 'x' } }, token);
    expect(firstError(malformed.body).extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'input.id' });
    const unknown = await server.graphql(UPDATE_USER, { input: { id: randomUUID(), name: 'x' } }, token);
    expect(firstError(unknown.body).extensions?.code).toBe('NOT_FOUND');
    const anonymous = await server.graphql(UPDATE_USER, { input: { id: user.id, name: 'x' } });
    expect(firstError(anonymous.body).extensions?.code).toBe('UNAUTHENTICATED');
  });
});
