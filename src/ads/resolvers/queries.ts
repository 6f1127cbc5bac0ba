import type { QueryResolvers } from '../../graphql/__generated__/resolvers-types.ts';
import { connection } from '../../graphql/connections.ts';
import { edgeConnection, statusFilter } from '../../graphql/edges.ts';
import { connectionPlan } from '../../graphql/projection.ts';
import { adSetReads } from './reads.ts';
import { assertNumericId } from '../../authz/guards.ts';
import { organizationsAllowing } from '../../authz/policy.ts';
import { countRows } from '../../db/batch.ts';
import { notFound } from '../../errors/index.ts';
import { accountEdges } from '../edges.ts';
import * as ads from '../service.ts';
import { accountDeliveryEstimate } from '../estimates.ts';
import { estimateRequestOf } from './estimates.ts';

const byNumericId =
  <T>(find: (ctx: Parameters<typeof ads.findAdSet>[0], id: string) => Promise<T>) =>
  (_: unknown, { id }: { id: string }, ctx: Parameters<typeof ads.findAdSet>[0]) => {
    assertNumericId(id);
    return find(ctx, id);
  };

export const adsQueries: QueryResolvers = {
  estimateDelivery: (_, { accountId, ...args }, ctx) => accountDeliveryEstimate(ctx, ads.parseAdAccountId(accountId, 'accountId'), estimateRequestOf(args)),
  adAccount: (_, { id }, ctx) => ads.findAdAccount(ctx, ads.parseAdAccountId(id)),
  adAccounts: (_, args, ctx) =>
    connection(
      args,
      (page) => ads.listAdAccounts(ctx, page),
      async () => {
        const organizations = organizationsAllowing(ctx.viewer, 'read', 'ad_account');
        if (organizations === 'all') return countRows(ctx.db, 'ad_accounts', {});
        return organizations.length === 0 ? 0 : countRows(ctx.db, 'ad_accounts', { organization_id: organizations });
      },
    ),
  campaign: byNumericId(ads.findCampaign),
  adSet: byNumericId(ads.findAdSet),
  ad: byNumericId(ads.findAd),
  asyncRequestSet: byNumericId(ads.findAsyncRequestSet),
  asyncRequest: byNumericId(ads.findAsyncRequest),
  adSets: async (_, { accountId, effectiveStatus, status, ...args }, ctx, info) => {
    const account = await ads.findAdAccount(ctx, ads.parseAdAccountId(accountId, 'accountId'));
    if (!account) throw notFound('Ad account', accountId);
    return edgeConnection(accountEdges.adsets, ctx, account, args, statusFilter({ effectiveStatus, status }), connectionPlan(info, adSetReads));
  },
};
