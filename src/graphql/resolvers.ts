import { DateTimeResolver, JSONResolver, EmailAddressResolver } from 'graphql-scalars';
import { BigIntScalar } from './big-int.ts';
import type { Resolvers } from './__generated__/resolvers-types.ts';
import { badInput } from '../errors/index.ts';
import { resolveNode } from './node.ts';
import { identityResolvers } from '../identity/resolvers.ts';
import { oauthResolvers } from '../oauth/resolvers.ts';
import { adsResolvers } from '../ads/resolvers/index.ts';
import { commentsResolvers } from '../comments/resolvers.ts';
import { dateFormatResolvers } from '../dateformats/resolvers.ts';
import { insightsResolvers } from '../insights/resolvers/index.ts';
import { insightsReportsResolvers } from '../insights/reports/resolvers.ts';
import { commentSubscriptionResolvers } from '../comments/subscriptions.ts';
import { adSubscriptionResolvers } from '../ads/subscriptions.ts';

const MAX_NODES = 100;

const rootResolvers: Resolvers = {
  DateTime: DateTimeResolver,
  BigInt: BigIntScalar,
  JSON: JSONResolver,
  EmailAddress: EmailAddressResolver,
  Node: {
    __resolveType: (node) => (node as { __typename?: never }).__typename ?? null,
  },
  Query: {
    node: (_, { id }, ctx) => resolveNode(ctx, id),
    nodes: (_, { ids }, ctx) => {
      if (ids.length > MAX_NODES) throw badInput('ids', `At most ${MAX_NODES} ids at once.`);
      return Promise.all(ids.map((id) => resolveNode(ctx, id)));
    },
  },
};

/** Every resolver map, merged by makeExecutableSchema: one per domain, plus the root. */
export const resolvers: Resolvers[] = [
  rootResolvers,
  identityResolvers,
  oauthResolvers,
  adsResolvers,
  commentsResolvers,
  dateFormatResolvers,
  insightsResolvers,
  insightsReportsResolvers,
  commentSubscriptionResolvers,
  adSubscriptionResolvers,
];
