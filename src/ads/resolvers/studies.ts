import type { MutationResolvers, QueryResolvers, Resolvers } from '../../graphql/__generated__/resolvers-types.ts';
import { connectionFields } from '../../graphql/connections.ts';
import { assertNumericId } from '../../authz/guards.ts';
import { parseAdAccountId } from '../service.ts';
import { cellsOf, createAdStudy, findAdStudy, studyResults } from '../studies.ts';

/**
 * Ad studies in GraphQL, over the one service of src/ads/studies.ts: the input as the Graph API's parameters (so a
 * refusal names the same path, input.cells[1].treatmentPercentage), counts as BigInt, spends in minor units.
 */
export const studyQueries: Pick<QueryResolvers, 'adStudy'> = {
  adStudy: (_, { id }, ctx) => {
    assertNumericId(id);
    return findAdStudy(ctx, id);
  },
};

export const studyMutations: Pick<MutationResolvers, 'createAdStudy'> = {
  createAdStudy: (_, { accountId, input }, ctx) =>
    createAdStudy(ctx, parseAdAccountId(accountId, 'accountId'), {
      name: input.name,
      description: input.description ?? undefined,
      type: input.type ?? undefined,
      start_time: input.startTime,
      end_time: input.endTime,
      cells: input.cells.map((cell) => ({
        ...(cell.name != null ? { name: cell.name } : {}),
        treatment_percentage: cell.treatmentPercentage,
        ...(cell.adsets != null ? { adsets: cell.adsets } : {}),
        ...(cell.campaigns != null ? { campaigns: cell.campaigns } : {}),
      })),
    }),
};

export const studyResolvers: Pick<Resolvers, 'AdStudy' | 'AdStudyCell' | 'AdStudyCellResult' | 'AdStudyConnection'> = {
  AdStudy: {
    cells: (study, _, ctx) => cellsOf(ctx.db, study.id),
    results: (study, _, ctx) => studyResults(ctx, study),
  },
  AdStudyCell: {
    adsets: (cell) => cell.adSetIds,
    campaigns: (cell) => cell.campaignIds,
  },
  AdStudyCellResult: {
    impressions: (cell) => String(cell.impressions),
    spend: (cell) => String(cell.spend),
    results: (cell) => String(cell.results),
  },
  AdStudyConnection: connectionFields,
};
