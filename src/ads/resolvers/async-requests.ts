import type { AdSetCopyResultResolvers, AsyncRequestResolvers, AsyncRequestSetResolvers } from '../../graphql/__generated__/resolvers-types.ts';
import { edgeConnection } from '../../graphql/edges.ts';
import { must } from '../../graphql/helpers.ts';
import { asyncRequestSetEdges } from '../edges.ts';
import * as ads from '../service.ts';
import type { AsyncRequestRecord } from '../store.ts';
import type { AdObjectId } from '../writes/ad-set-copies.ts';

/** What copyAdSet answers: the copy's id and the ids copied (synchronously), or the stored request (async). */
export interface CopyResultModel {
  copiedAdsetId: string | null;
  adObjectIds: AdObjectId[];
  request: AsyncRequestRecord | null;
}

/** What a copy copies (AdObjectType), as the copy writes them. */
export const AD_OBJECT_TYPES = ['ad_set', 'ad'] as const satisfies readonly AdObjectId['adObjectType'][];

export const copyResultResolvers: AdSetCopyResultResolvers = {
  copiedAdSet: (result, _, ctx) => (result.copiedAdsetId ? ads.findAdSet(ctx, result.copiedAdsetId) : null),
};

const progress =
  <K extends keyof Awaited<ReturnType<typeof ads.asyncRequestSetProgress>>>(key: K) =>
  async (set: Parameters<typeof ads.asyncRequestSetProgress>[1], _: unknown, ctx: Parameters<typeof ads.asyncRequestSetProgress>[0]) =>
    (await ads.asyncRequestSetProgress(ctx, set))[key];

export const asyncRequestSetResolvers: AsyncRequestSetResolvers = {
  totalCount: progress('totalCount'),
  initialCount: progress('initialCount'),
  inProgressCount: progress('inProgressCount'),
  successCount: progress('successCount'),
  errorCount: progress('errorCount'),
  canceledCount: progress('canceledCount'),
  isCompleted: progress('isCompleted'),
  requests: (set, args, ctx) => edgeConnection(asyncRequestSetEdges.requests, ctx, set, args),
};

export const asyncRequestResolvers: AsyncRequestResolvers = {
  scopeObjectId: (request) => request.adsetId,
  requestSet: async (request, _, ctx) => must(await ctx.loaders.ads.asyncRequestSetById.load(request.setId)),
};
