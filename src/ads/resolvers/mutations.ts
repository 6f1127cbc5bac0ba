import type { MutationResolvers } from '../../graphql/__generated__/resolvers-types.ts';
import type { GraphQLResolveInfo } from 'graphql';
import { graphParams } from '../../graphql/helpers.ts';
import { argumentPath, graphqlMessage } from '../../graphql/errors.ts';
import { assertNumericId } from '../../authz/guards.ts';
import type { Violation } from '../rules/violations.ts';
import * as ads from '../service.ts';
import * as campaigns from '../writes/campaigns.ts';
import * as adWrites from '../writes/ads.ts';
import * as audiences from '../writes/audiences.ts';
import * as adSets from '../writes/ad-sets.ts';
import { copyAdSet } from '../writes/ad-set-copies.ts';
import { checkCopyRequest, enqueue } from '../writes/async-requests.ts';
import { adSetParams } from '../graphql-shapes.ts';
import { adCreativeParams } from './creatives.ts';

const accountOf = (accountId: string) => ads.parseAdAccountId(accountId, 'accountId');
const numeric = (id: string) => {
  assertNumericId(id);
  return id;
};
/** Every violation at once, each naming the input's path and worded as the write's error would be (graphql/errors.ts). */
function validation(violations: Violation[], info: GraphQLResolveInfo) {
  const mutation = info.parentType.getFields()[info.fieldName]!;
  return {
    valid: violations.length === 0,
    violations: violations.map((v) => ({
      ...v,
      field: argumentPath(info.parentType.name, mutation, v.field) ?? v.field,
      message: graphqlMessage(info.parentType.name, mutation, v.message, v.field),
    })),
  };
}

/** GraphQL's copy input as the Graph API's copy parameters (rename_options nested too). */
function copyParams(input: Record<string, unknown> | null | undefined): Record<string, unknown> {
  const params = graphParams(input ?? {});
  if (input?.renameOptions) params.rename_options = graphParams(input.renameOptions as object);
  return params;
}

/**
 * Mutations of the ads domain: thin adapters from GraphQL inputs to the write services' Graph parameters. No input
 * has execution_options (checking without writing is validateAdSet's), so a write answers the record it wrote.
 */
export const adsMutations: MutationResolvers = {
  createCampaign: async (_, { accountId, input }, ctx) => (await campaigns.createCampaign(ctx, accountOf(accountId), graphParams(input)))!,
  updateCampaign: async (_, { id, input }, ctx) => (await campaigns.updateCampaign(ctx, numeric(id), graphParams(input)))!,
  deleteCampaign: async (_, { id }, ctx) => {
    await campaigns.deleteCampaign(ctx, numeric(id));
    return true;
  },
  createAd: async (_, { accountId, input }, ctx) =>
    (await adWrites.createAd(ctx, accountOf(accountId), adCreativeParams(graphParams(input, { adSetId: 'adset_id' }))))!,
  updateAd: async (_, { id, input }, ctx) => (await adWrites.updateAd(ctx, numeric(id), adCreativeParams(graphParams(input))))!,
  deleteAd: async (_, { id }, ctx) => {
    await adWrites.deleteAd(ctx, numeric(id));
    return true;
  },
  createCustomAudience: (_, { accountId, input }, ctx) => audiences.createCustomAudience(ctx, accountOf(accountId), graphParams(input)),
  createCustomConversion: (_, { accountId, input }, ctx) => audiences.createCustomConversion(ctx, accountOf(accountId), graphParams(input)),

  createAdSet: async (_, { accountId, input }, ctx) => (await adSets.createAdSet(ctx, accountOf(accountId), adSetParams(input))).adSet!,
  validateAdSet: async (_, { accountId, input }, ctx, info) =>
    validation(await adSets.validateAdSetCreate(ctx, accountOf(accountId), adSetParams(input)), info),
  updateAdSet: async (_, { id, input }, ctx) => (await adSets.updateAdSet(ctx, numeric(id), adSetParams(input))).adSet!,
  validateAdSetUpdate: async (_, { id, input }, ctx, info) => validation(await adSets.validateAdSetUpdate(ctx, numeric(id), adSetParams(input)), info),
  deleteAdSet: async (_, { id }, ctx) => {
    await adSets.deleteAdSet(ctx, numeric(id));
    return true;
  },
  copyAdSet: async (_, { id, input, async }, ctx) => {
    const params = copyParams(input as Record<string, unknown> | null | undefined);
    if (!async) {
      const result = await copyAdSet(ctx, numeric(id), params);
      return { copiedAdsetId: result.copiedAdsetId, adObjectIds: result.adObjectIds, request: null };
    }
    const source = await checkCopyRequest(ctx, numeric(id), params);
    const set = await enqueue(ctx, source.accountId, source.organizationId, `copy of ad set ${source.id}`, [
      { name: `copy of ad set ${source.id}`, adSetId: source.id, params },
    ]);
    const [request] = (await ctx.loaders.ads.requestsOfSet.page(set.id, { direction: 'forward', limit: 1 })).items;
    return { copiedAdsetId: null, adObjectIds: [], request: request! };
  },
};
