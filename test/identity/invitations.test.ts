import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, issueSession } from '../../src/identity/service.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { worldBuilder } from '../helpers/world.ts';
import { dataOf, eventually, firstError, restClient } from '../helpers/api.ts';

/**
 * Issue 25, item 2: joining an organization takes the user's consent. An owner's or admin's addOrganizationMember
 * is an invitation to the address, answered the same way whoever the address belongs to; the user accepts or
 * declines it, the organization revokes it, it expires; until it is accepted the organization reads nothing of
 * the user. Over GraphQL (members have no /api/v2 route), on the real database.
 */

const INVITATION_FIELDS = `id organizationName organization { id name } email role status createdAt expiresAt
  invitedBy { id name user { id } } membership { id role organization { id } user { id } }`;
const ADD = `mutation ($input: AddOrganizationMemberInput!) { addOrganizationMember(input: $input) { ${INVITATION_FIELDS} } }`;
const ACCEPT = `mutation ($id: ID!) { acceptOrganizationInvitation(id: $id) { ${INVITATION_FIELDS} } }`;
const DECLINE = `mutation ($id: ID!) { declineOrganizationInvitation(id: $id) { ${INVITATION_FIELDS} } }`;
const REVOKE = `mutation ($id: ID!) { revokeOrganizationInvitation(id: $id) { ${INVITATION_FIELDS} } }`;
const MINE = `{ myInvitations { totalCount nodes { ${INVITATION_FIELDS} } } }`;
const ORG_INVITATIONS = `query ($id: ID!, $status: [OrganizationInvitationStatus!]) {
  organization(id: $id) { invitations(status: $status) { totalCount nodes { id email status } } }
}`;
const READ_USER = 'query ($id: ID!) { user(id: $id) { id email memberships { id } } node(id: $id) { id } }';
const UPDATE_USER = 'mutation ($input: UpdateUserInput!) { updateUser(input: $input) { id name } }';

let server: TestServer;
let world: ReturnType<typeof worldBuilder>;
type Made = Awaited<ReturnType<ReturnType<typeof worldBuilder>['user']>>;
let orgA: string;
let orgB: string;
let ownerA: Made;
let adminA: Made;
let memberA: Made;
let siteAdmin: Made;

beforeAll(async () => {
  server = await startTestServer();
  world = worldBuilder(server.deps);
  orgA = (await world.organization()).id;
  orgB = (await world.organization()).id;
  ownerA = await world.user({ organizationId: orgA, role: 'owner' });
  adminA = await world.user({ organizationId: orgA, role: 'admin' });
  memberA = await world.user({ organizationId: orgA, role: 'member' });
  siteAdmin = await world.user({ siteAdmin: true });
});
afterAll(() => server?.close());

const gql = async (query: string, variables: Record<string, unknown>, token: string) => (await server.graphql(query, variables, token)).body;
/** A user of organization B: someone another organization already has. */
const userOfB = () => world.user({ organizationId: orgB, role: 'member' });
const membershipsIn = (organizationId: string, userId: string) =>
  server.deps.db('organization_members').where({ organization_id: organizationId, user_id: userId });

async function invite(email: string, token = adminA.token, role = 'MEMBER') {
  return dataOf(await gql(ADD, { input: { organizationId: orgA, email, role } }, token)).addOrganizationMember;
}

/** An answer without what differs by nature between invitations: ids, times and the address typed. */
function shape(invitation: Record<string, any>): Record<string, any> {
  const { id, createdAt, expiresAt, email, ...rest } = invitation;
  return {
    ...rest,
    id: typeof id,
    createdAt: typeof createdAt,
    expiresAt: typeof expiresAt,
    email: typeof email,
    lifetimeMs: Date.parse(String(expiresAt)) - Date.parse(String(createdAt)),
  };
}

describe('the answer to addOrganizationMember', () => {
  it('is the same for an unknown address, a user in no organization and a member of another organization', async () => {
    const unknown = `nobody-${randomUUID()}@example.com`;
    const loner = await world.user();
    const ofB = await userOfB();
    const answers = [];
    for (const email of [unknown, loner.user.email, ofB.user.email]) {
      const response = await server.graphql(ADD, { input: { organizationId: orgA, email, role: 'ADVERTISER' } }, adminA.token);
      expect(response.status).toBe(200);
      expect(response.body.errors).toBeUndefined();
      const answer = response.body.data!.addOrganizationMember;
      expect(answer.email).toBe(email);
      answers.push(shape(answer));
    }
    expect(answers[1]).toEqual(answers[0]);
    expect(answers[2]).toEqual(answers[0]);
    expect(answers[0]).toMatchObject({
      status: 'PENDING',
      role: 'ADVERTISER',
      membership: null,
      organizationName: expect.any(String),
      organization: { id: orgA },
    });
    expect(answers[0]!.invitedBy).toMatchObject({ id: adminA.user.id });
    // Nobody joined.
    expect(await membershipsIn(orgA, loner.user.id)).toEqual([]);
    expect(await membershipsIn(orgA, ofB.user.id)).toEqual([]);
  });

  it('e-mails a registered invitee after the reply, and nobody for an unknown address', async () => {
    const invitee = await userOfB();
    const unknown = `nobody-${randomUUID()}@example.com`;
    await invite(unknown);
    await invite(invitee.user.email);
    const mail = await eventually(() => server.deps.db('email_outbox').where({ to_address: invitee.user.email, kind: 'organization_invitation' }).first());
    expect(mail.body_text).toContain('myInvitations');
    expect(await server.deps.db('email_outbox').where({ to_address: unknown })).toEqual([]);
  });

  it('mails an address once while its invitation is open: re-inviting replaces it without another e-mail', async () => {
    const invitee = await userOfB();
    const first = await invite(invitee.user.email);
    const mailsTo = () => server.deps.db('email_outbox').where({ to_address: invitee.user.email, kind: 'organization_invitation' });
    await eventually(async () => ((await mailsTo()).length === 1 ? true : undefined));
    for (let i = 0; i < 3; i++) await invite(invitee.user.email, adminA.token, 'ADVERTISER');
    const open = dataOf(await gql('{ myInvitations { nodes { id role } } }', {}, invitee.token)).myInvitations.nodes;
    expect(open).toHaveLength(1);
    expect(open[0]).toMatchObject({ role: 'ADVERTISER' });
    expect(open[0].id).not.toBe(first.id);
    // The mail goes out after the reply: a later invitation to someone else proves the earlier ones had their turn.
    const other = await userOfB();
    await invite(other.user.email);
    await eventually(() => server.deps.db('email_outbox').where({ to_address: other.user.email }).first());
    expect(await mailsTo()).toHaveLength(1);
  });
});

describe('an invitee of another organization', () => {
  it('stays unreadable to the inviting organization until it accepts, and then joins with the role', async () => {
    const invitee = await userOfB();
    const { id } = await invite(invitee.user.email, adminA.token, 'ADVERTISER');

    // The inviting admin reads nothing of the user: not by id, not as a member, not through authcheck.
    expect(dataOf(await gql(READ_USER, { id: invitee.user.id }, adminA.token))).toEqual({ user: null, node: null });
    const members = dataOf(await gql('query ($id: ID!) { organization(id: $id) { members { nodes { user { id } } } } }', { id: orgA }, adminA.token));
    expect(members.organization.members.nodes.map((m: { user: { id: string } }) => m.user.id)).not.toContain(invitee.user.id);
    const check = { checks: { read: { action: 'read', object: { resource_type: 'user', resource_id: invitee.user.id } } } };
    expect((await restClient(server).post('/authcheck', check, adminA.token)).body).toEqual({ read: false });
    expect(firstError(await gql(UPDATE_USER, { input: { id: invitee.user.id, name: 'Renamed' } }, adminA.token)).extensions?.code).toBe('NOT_FOUND');

    // The invitee sees it: who invites, to what, with what role; the organization itself not yet.
    const mine = dataOf(await gql(MINE, {}, invitee.token)).myInvitations;
    expect(mine.totalCount).toBe(1);
    expect(mine.nodes[0]).toMatchObject({
      id,
      status: 'PENDING',
      role: 'ADVERTISER',
      organization: null,
      invitedBy: { id: adminA.user.id, user: null },
      membership: null,
    });
    expect(mine.nodes[0].organizationName).toBe(
      dataOf(await gql('query ($id: ID!) { organization(id: $id) { name } }', { id: orgA }, adminA.token)).organization.name,
    );

    const accepted = dataOf(await gql(ACCEPT, { id }, invitee.token)).acceptOrganizationInvitation;
    expect(accepted).toMatchObject({
      id,
      status: 'ACCEPTED',
      organization: { id: orgA },
      membership: { role: 'ADVERTISER', organization: { id: orgA }, user: { id: invitee.user.id } },
    });
    expect(await membershipsIn(orgA, invitee.user.id)).toEqual([expect.objectContaining({ id: accepted.membership.id, role: 'advertiser' })]);
    expect(dataOf(await gql(MINE, {}, invitee.token)).myInvitations.totalCount).toBe(0);

    // Now a fellow member: readable. Renaming still needs the admin's role in B too (the profile rule).
    expect(dataOf(await gql(READ_USER, { id: invitee.user.id }, adminA.token)).user).toMatchObject({ id: invitee.user.id });
    expect((await restClient(server).post('/authcheck', check, adminA.token)).body).toEqual({ read: true });
    expect(firstError(await gql(UPDATE_USER, { input: { id: invitee.user.id, name: 'Renamed' } }, adminA.token)).extensions?.code).toBe('FORBIDDEN');
  });
});

describe('answering an invitation', () => {
  it('is accepted once: accepting, declining or revoking it again is CONFLICT, and one membership is made', async () => {
    const invitee = await userOfB();
    const { id } = await invite(invitee.user.email);
    expect(dataOf(await gql(ACCEPT, { id }, invitee.token)).acceptOrganizationInvitation.status).toBe('ACCEPTED');
    for (const [query, token] of [
      [ACCEPT, invitee.token],
      [DECLINE, invitee.token],
      [REVOKE, adminA.token],
    ] as const) {
      expect(firstError(await gql(query, { id }, token)).extensions).toMatchObject({ code: 'CONFLICT', field: 'id' });
    }
    expect(await membershipsIn(orgA, invitee.user.id)).toHaveLength(1);
  });

  it('accepted by two requests at once: one joins, the other is CONFLICT', async () => {
    const invitee = await userOfB();
    const { id } = await invite(invitee.user.email);
    const second = await issueSession(server.deps, invitee.user);
    const answers = await Promise.all([gql(ACCEPT, { id }, invitee.token), gql(ACCEPT, { id }, second.sessionToken)]);
    const codes = answers.map((body) => body.errors?.[0]?.extensions?.code ?? body.data?.acceptOrganizationInvitation.status).sort();
    expect(codes).toEqual(['ACCEPTED', 'CONFLICT']);
    expect(await membershipsIn(orgA, invitee.user.id)).toHaveLength(1);
  });

  it('declined: no membership, the organization sees DECLINED, and it cannot be accepted afterwards', async () => {
    const invitee = await userOfB();
    const { id } = await invite(invitee.user.email);
    expect(dataOf(await gql(DECLINE, { id }, invitee.token)).declineOrganizationInvitation).toMatchObject({ id, status: 'DECLINED', membership: null });
    expect(firstError(await gql(ACCEPT, { id }, invitee.token)).extensions).toMatchObject({ code: 'CONFLICT', field: 'id' });
    expect(firstError(await gql(ACCEPT, { id }, invitee.token)).message).toBe('This invitation was declined.');
    expect(dataOf(await gql(MINE, {}, invitee.token)).myInvitations.totalCount).toBe(0);
    const listed = dataOf(await gql(ORG_INVITATIONS, { id: orgA, status: ['DECLINED'] }, adminA.token)).organization.invitations.nodes;
    expect(listed).toContainEqual({ id, email: invitee.user.email, status: 'DECLINED' });
    expect(await membershipsIn(orgA, invitee.user.id)).toEqual([]);
  });

  it('revoked by the organization: it cannot be accepted; only its owners and admins may revoke', async () => {
    const invitee = await userOfB();
    const { id } = await invite(invitee.user.email);
    // A plain member of the organization does not see its invitations; the invitee may decline, not revoke.
    expect(firstError(await gql(REVOKE, { id }, memberA.token)).extensions?.code).toBe('NOT_FOUND');
    expect(firstError(await gql(REVOKE, { id }, invitee.token)).extensions?.code).toBe('FORBIDDEN');
    expect(dataOf(await gql(REVOKE, { id }, ownerA.token)).revokeOrganizationInvitation).toMatchObject({ id, status: 'REVOKED' });
    expect(firstError(await gql(ACCEPT, { id }, invitee.token))).toMatchObject({ message: 'This invitation was revoked.', extensions: { code: 'CONFLICT' } });
    expect(dataOf(await gql(MINE, {}, invitee.token)).myInvitations.totalCount).toBe(0);
    expect(await membershipsIn(orgA, invitee.user.id)).toEqual([]);
  });

  it("expired: listed as EXPIRED, no longer among the invitee's, and it cannot be accepted or declined", async () => {
    const invitee = await userOfB();
    const { id } = await invite(invitee.user.email);
    // The server's clock cannot be moved: the invitation's expiry is moved into the past instead.
    await server.deps
      .db('organization_invitations')
      .where({ id })
      .update({ expires_at: new Date(Date.now() - 1000) });
    expect(dataOf(await gql(MINE, {}, invitee.token)).myInvitations).toMatchObject({ totalCount: 0, nodes: [] });
    for (const query of [ACCEPT, DECLINE]) {
      expect(firstError(await gql(query, { id }, invitee.token))).toMatchObject({ message: 'This invitation has expired.', extensions: { code: 'CONFLICT' } });
    }
    const expired = dataOf(await gql(ORG_INVITATIONS, { id: orgA, status: ['EXPIRED'] }, adminA.token)).organization.invitations.nodes;
    expect(expired).toContainEqual({ id, email: invitee.user.email, status: 'EXPIRED' });
    const pending = dataOf(await gql(ORG_INVITATIONS, { id: orgA, status: ['PENDING'] }, adminA.token)).organization.invitations.nodes;
    expect(pending.map((i: { id: string }) => i.id)).not.toContain(id);
    expect(await membershipsIn(orgA, invitee.user.id)).toEqual([]);
  });

  it('addressed to someone else: another user cannot see, accept or decline it (NOT_FOUND); an admin cannot accept it for them', async () => {
    const invitee = await userOfB();
    const { id } = await invite(invitee.user.email);
    const stranger = await world.user();
    const otherOfB = await userOfB();
    for (const token of [stranger.token, otherOfB.token, memberA.token]) {
      for (const query of [ACCEPT, DECLINE]) expect(firstError(await gql(query, { id }, token)).extensions?.code).toBe('NOT_FOUND');
      expect(dataOf(await gql(MINE, {}, token)).myInvitations.nodes.map((i: { id: string }) => i.id)).not.toContain(id);
    }
    expect(firstError(await gql(ACCEPT, { id }, adminA.token)).extensions?.code).toBe('FORBIDDEN');
    for (const user of [stranger.user, otherOfB.user]) expect(await membershipsIn(orgA, user.id)).toEqual([]);
    // Still the addressee's to accept.
    expect(dataOf(await gql(ACCEPT, { id }, invitee.token)).acceptOrganizationInvitation.status).toBe('ACCEPTED');
  });

  it('to an address nobody has yet: the user registered later with it (in any letter case) accepts it', async () => {
    const local = `later-${randomUUID()}`;
    const { id } = await invite(`${local.toUpperCase()}@Example.COM`);
    const { user } = await createUser(server.deps, { email: `${local}@example.com`, password: 'Correct-Horse-9-Battery' });
    const { sessionToken } = await issueSession(server.deps, user);
    expect(dataOf(await gql(MINE, {}, sessionToken)).myInvitations.nodes.map((i: { id: string }) => i.id)).toEqual([id]);
    expect(dataOf(await gql(ACCEPT, { id }, sessionToken)).acceptOrganizationInvitation.status).toBe('ACCEPTED');
    expect(await membershipsIn(orgA, user.id)).toHaveLength(1);
  });

  it('replaced by a newer invitation to the same address: the older is REVOKED, the newer is the one to accept', async () => {
    const invitee = await userOfB();
    const older = await invite(invitee.user.email, adminA.token, 'MEMBER');
    const newer = await invite(invitee.user.email.toUpperCase(), ownerA.token, 'ADMIN');
    const mine = dataOf(await gql(MINE, {}, invitee.token)).myInvitations.nodes;
    expect(mine.map((i: { id: string; role: string }) => [i.id, i.role])).toEqual([[newer.id, 'ADMIN']]);
    expect(firstError(await gql(ACCEPT, { id: older.id }, invitee.token)).message).toBe('This invitation was revoked.');
    expect(dataOf(await gql(ACCEPT, { id: newer.id }, invitee.token)).acceptOrganizationInvitation.membership.role).toBe('ADMIN');
  });
});

describe("an organization's invitations", () => {
  it('are listed to its owners, admins and site admins, and to nobody else', async () => {
    const { id } = await invite(`listed-${randomUUID()}@example.com`);
    for (const token of [ownerA.token, adminA.token, siteAdmin.token]) {
      const listed = dataOf(await gql(ORG_INVITATIONS, { id: orgA }, token)).organization.invitations;
      expect(listed.nodes.map((i: { id: string }) => i.id)).toContain(id);
      expect(listed.totalCount).toBeGreaterThanOrEqual(listed.nodes.length);
    }
    const auditor = await world.user({ organizationId: orgA, role: 'auditor' });
    for (const token of [memberA.token, auditor.token]) {
      expect(dataOf(await gql(ORG_INVITATIONS, { id: orgA }, token)).organization.invitations).toEqual({ totalCount: 0, nodes: [] });
    }
  });
});

describe("a site admin's add", () => {
  it('puts a registered user in at once (ACCEPTED, with the membership); an unknown address gets a PENDING invitation', async () => {
    const ofB = await userOfB();
    const added = await invite(ofB.user.email, siteAdmin.token, 'AUDITOR');
    expect(added).toMatchObject({ status: 'ACCEPTED', membership: { role: 'AUDITOR', user: { id: ofB.user.id } } });
    expect(await membershipsIn(orgA, ofB.user.id)).toHaveLength(1);
    expect(await invite(`nobody-${randomUUID()}@example.com`, siteAdmin.token)).toMatchObject({ status: 'PENDING', membership: null });
  });
});

describe('bad input', () => {
  it('names the field, answers an unknown invitation NOT_FOUND and no session UNAUTHENTICATED', async () => {
    for (const query of [ACCEPT, DECLINE, REVOKE]) {
      expect(firstError(await gql(query, { id: 'not-a-uuid' }, adminA.token)).extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'id' });
      expect(firstError(await gql(query, { id: randomUUID() }, adminA.token)).extensions?.code).toBe('NOT_FOUND');
      expect(firstError((await server.graphql(query, { id: randomUUID() })).body).extensions?.code).toBe('UNAUTHENTICATED');
    }
    expect(firstError((await server.graphql(MINE, {})).body).extensions?.code).toBe('UNAUTHENTICATED');
  });
});
