import type { RequestContext } from '../context/index.ts';
import type { AdAccountRecord } from './store.ts';

/**
 * Likely payor and beneficiary strings for an account's next ad set (the specification's payor and beneficiary
 * rule 5): the values its ad sets that are not deleted already use, the most used first (the most recently
 * written among equals), then the account's defaults; each once, at most MAX_RECOMMENDATIONS.
 */
export const MAX_RECOMMENDATIONS = 10;

export interface DsaRecommendationsRecord {
  /** The account's id: the edge's one entry. */
  id: string;
  recommendations: string[];
}

export async function dsaRecommendations(ctx: RequestContext, account: AdAccountRecord): Promise<DsaRecommendationsRecord> {
  const used = (column: 'dsa_payor' | 'dsa_beneficiary') =>
    ctx.db('ad_sets').where({ account_id: account.id }).whereNot({ status: 'DELETED' }).whereNotNull(column).select({ value: column, written: 'updated_time' });
  const rows: Array<{ value: string }> = await ctx.db
    .select('value')
    .from(used('dsa_payor').unionAll(used('dsa_beneficiary')).as('used'))
    .groupBy('value')
    .orderByRaw('count(*) desc, max(written) desc, value')
    .limit(MAX_RECOMMENDATIONS);
  const values = [...rows.map((row) => row.value), account.defaultDsaPayor, account.defaultDsaBeneficiary].filter(
    (value): value is string => typeof value === 'string' && value.trim() !== '',
  );
  return { id: account.id, recommendations: [...new Set(values)].slice(0, MAX_RECOMMENDATIONS) };
}
