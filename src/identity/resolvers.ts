import type { Resolvers } from '../graphql/__generated__/resolvers-types.ts';
import { connection, connectionFields } from '../graphql/connections.ts';
import { lowercaseEnum } from '../graphql/helpers.ts';
import { ACTIONS, EXTERNAL_SCOPES, RESOURCE_TYPES, ROLES } from '../authz/policy.ts';
import { LOGIN_TYPES, USER_STATUSES } from './store.ts';
import { INVITATION_STATUSES, invitationStatus } from './rules/invitations.ts';
import { badInput } from '../errors/index.ts';
import { authCheck } from './authcheck.ts';
import { convertLogin } from './conversion.ts';
import * as invitations from './invitations.ts';
import * as members from './members.ts';
import { changePasswordWithOneTimePasscode, requestOneTimePasscode } from './passcodes.ts';
import * as identity from './service.ts';
import * as ads from '../ads/service.ts';
import * as comments from '../comments/service.ts';
import * as oauth from '../oauth/service.ts';

export const identityResolvers: Resolvers = {
  OrganizationRole: lowercaseEnum(ROLES),
  LoginType: lowercaseEnum(LOGIN_TYPES),
  UserStatus: lowercaseEnum(USER_STATUSES),
  OrganizationInvitationStatus: lowercaseEnum(INVITATION_STATUSES),

  AuthAction: lowercaseEnum(ACTIONS),
  // ALL is the REST API's * (every type).
  AuthResourceType: { ...lowercaseEnum(RESOURCE_TYPES), ALL: '*' },

  Query: {
    me: (_, __, ctx) => identity.me(ctx),
    authScopes: () => ({ external: EXTERNAL_SCOPES }),
    validatePassword: (_, { password }, ctx) => identity.validatePassword(ctx, password),
    myInvitations: (_, args, ctx) =>
      connection(
        args,
        (page) => invitations.myInvitations(ctx, page),
        () => invitations.countMyInvitations(ctx),
      ),
    authCheck: async (_, { checks }, ctx) => {
      // The same checks map the REST endpoint takes, so both surfaces share one parser and one evaluator. It is
      // keyed by position, so an error names checks.<i>..., which GraphQL reads as checks[<i>]... (graphql/errors.ts).
      const labels = new Set<string>();
      const map: Record<string, unknown> = {};
      for (const [index, check] of checks.entries()) {
        if (labels.has(check.label)) throw badInput(`checks.${index}.label`, `Label "${check.label}" is used twice.`);
        labels.add(check.label);
        const o = check.object;
        map[index] = {
          action: check.action,
          object: {
            resource_type: o.resourceType,
            organization_id: o.organizationId ?? undefined,
            any_org: o.anyOrg ?? undefined,
            owner_id: o.ownerId ?? undefined,
            resource_id: o.resourceId ?? undefined,
          },
        };
      }
      const answers = await authCheck(ctx, map);
      return checks.map((check, index) => ({ label: check.label, allowed: answers[index]! }));
    },
    user: (_, { id }, ctx) => {
      identity.assertUuid(id);
      return identity.findUser(ctx, id);
    },
    organization: (_, { id }, ctx) => {
      identity.assertUuid(id);
      return identity.findOrganization(ctx, id);
    },
  },

  Mutation: {
    login: (_, { input }, ctx) => identity.login(ctx, input, ctx.ip),
    logout: async (_, __, ctx) => {
      await identity.logout(ctx);
      return true;
    },
    requestOneTimePasscode: async (_, { email }, ctx) => {
      await requestOneTimePasscode(ctx, { email });
      return true;
    },
    changePasswordWithOneTimePasscode: async (_, { input }, ctx) => {
      await changePasswordWithOneTimePasscode(ctx, { email: input.email, one_time_passcode: input.oneTimePasscode, password: input.password });
      return true;
    },
    convertLogin: async (_, { user, input }, ctx) => {
      const conversion = await convertLogin(ctx, user, { to_type: input.toType, password: input.password });
      // The service answers the type it was asked for; input.toType already carries it typed as a LoginType.
      return { ...conversion, toType: input.toType };
    },
    addOrganizationMember: (_, { input }, ctx) => invitations.addMember(ctx, input),
    acceptOrganizationInvitation: (_, { id }, ctx) => invitations.acceptInvitation(ctx, id),
    declineOrganizationInvitation: (_, { id }, ctx) => invitations.declineInvitation(ctx, id),
    revokeOrganizationInvitation: (_, { id }, ctx) => invitations.revokeInvitation(ctx, id),
    changeOrganizationMemberRole: (_, { id, role }, ctx) => members.changeMemberRole(ctx, { id, role }),
    removeOrganizationMember: async (_, { id }, ctx) => {
      await members.removeMember(ctx, id);
      return true;
    },
    updateUser: (_, { input }, ctx) => members.updateUser(ctx, input),
  },

  User: {
    createdTime: (user) => user.createdAt,
    memberships: (user, _, ctx) => identity.membershipsOf(ctx, user.id),
  },

  Organization: {
    createdTime: (org) => org.createdAt,
    members: (org, args, ctx) =>
      connection(
        args,
        (page) => identity.membersOf(ctx, org.id, page),
        () => identity.countMembers(ctx, org.id),
      ),
    adAccounts: (org, args, ctx) =>
      connection(
        args,
        (page) => ads.adAccountsOfOrganization(ctx, org.id, page),
        () => ads.countAdAccountsOfOrganization(ctx, org.id),
      ),
    pages: (org, args, ctx) =>
      connection(
        args,
        (page) => comments.pagesOfOrganization(ctx, org.id, page),
        () => comments.countPagesOfOrganization(ctx, org.id),
      ),
    apiClients: (org, args, ctx) =>
      connection(
        args,
        (page) => oauth.apiClientsOfOrganization(ctx, org.id, page),
        () => oauth.countApiClientsOfOrganization(ctx, org.id),
      ),
    invitations: (org, { status, ...args }, ctx) =>
      connection(
        args,
        (page) => invitations.invitationsOf(ctx, org.id, page, status ?? undefined),
        () => invitations.countInvitationsOf(ctx, org.id, status ?? undefined),
      ),
  },

  OrganizationMember: {
    createdTime: (membership) => membership.createdAt,
    // The membership is visible, so its user and organization are too (fellow members may read each other).
    user: async (membership, _, ctx) => (await ctx.loaders.identity.userById.load(membership.userId))!,
    organization: async (membership, _, ctx) => (await ctx.loaders.identity.organizationById.load(membership.organizationId))!,
  },

  OrganizationMemberConnection: connectionFields,
  OrganizationMemberEdge: {},

  OrganizationInvitation: {
    createdTime: (invitation) => invitation.createdAt,
    // codegen types a resolver of an enum with mapped values as returning null: the value is the stored one, as enumValues maps it.
    status: (invitation) => invitationStatus(invitation, new Date()) as never,
    // A visible invitation names its organization to the addressee, who cannot read the organization itself yet.
    organizationName: async (invitation, _, ctx) => (await ctx.loaders.identity.organizationById.load(invitation.organizationId))!.name,
    organization: (invitation, _, ctx) => identity.findOrganization(ctx, invitation.organizationId),
    invitedBy: (invitation, _, ctx) => (invitation.invitedByUserId ? ctx.loaders.identity.userById.load(invitation.invitedByUserId) : null),
    membership: (invitation, _, ctx) => (invitation.membershipId ? identity.findMembership(ctx, invitation.membershipId) : null),
  },
  OrganizationInvitationConnection: connectionFields,
  OrganizationInvitationEdge: {},
};
