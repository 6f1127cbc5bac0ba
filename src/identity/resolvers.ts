import type { Resolvers } from '../graphql/__generated__/resolvers-types.ts';
import { connection, connectionFields } from '../graphql/connections.ts';
import { lowercaseEnum } from '../graphql/helpers.ts';
import { ROLES } from '../authz/policy.ts';
import * as identity from './service.ts';
import * as ads from '../ads/service.ts';
import * as comments from '../comments/service.ts';
import * as oauth from '../oauth/service.ts';
import { readableCount } from '../authz/guards.ts';

export const identityResolvers: Resolvers = {
  OrganizationRole: lowercaseEnum(ROLES),
  LoginType: lowercaseEnum(['password', 'github', 'oidc', 'token', 'none']),
  UserStatus: lowercaseEnum(['active', 'dormant', 'suspended']),

  Query: {
    me: (_, __, ctx) => identity.me(ctx),
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
  },

  User: {
    memberships: (user, _, ctx) => identity.membershipsOf(ctx, user.id),
  },

  Organization: {
    members: (org, args, ctx) =>
      connection(args, (page) => identity.membersOf(ctx, org.id, page), () => identity.countMembers(ctx, org.id)),
    adAccounts: (org, args, ctx) =>
      connection(args, (page) => ads.adAccountsOfOrganization(ctx, org.id, page),
        () => readableCount(ctx, 'ad_account', org.id, () => ctx.loaders.ads.adAccountsOfOrganization.count(org.id))),
    pages: (org, args, ctx) =>
      connection(args, (page) => comments.pagesOfOrganization(ctx, org.id, page),
        () => readableCount(ctx, 'page', org.id, () => ctx.loaders.comments.pagesOfOrganization.count(org.id))),
    apiClients: (org, args, ctx) =>
      connection(args, (page) => oauth.apiClientsOfOrganization(ctx, org.id, page),
        () => readableCount(ctx, 'api_client', org.id, () => ctx.loaders.oauth.apiClientsOfOrganization.count(org.id))),
  },

  OrganizationMember: {
    // The membership is visible, so its user and organization are too (fellow members may read each other).
    user: async (membership, _, ctx) => (await ctx.loaders.identity.userById.load(membership.userId))!,
    organization: async (membership, _, ctx) => (await ctx.loaders.identity.organizationById.load(membership.organizationId))!,
  },

  OrganizationMemberConnection: connectionFields,
  OrganizationMemberEdge: {},
};
