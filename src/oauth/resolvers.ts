import type { Resolvers } from '../graphql/__generated__/resolvers-types.ts';
import { connectionFields } from '../graphql/connections.ts';

export const oauthResolvers: Resolvers = {
  ApiClient: {
    createdTime: (client) => client.createdAt,
    name: (client) => client.clientName,
    scopes: (client) => client.scope.split(' ').filter(Boolean),
    organization: async (client, _, ctx) => (await ctx.loaders.identity.organizationById.load(client.organizationId))!,
  },
  ApiClientConnection: connectionFields,
};
