import type { MutationResolvers, QueryResolvers, Resolvers } from '../../graphql/__generated__/resolvers-types.ts';
import { connectionFields } from '../../graphql/connections.ts';
import { edgeConnection } from '../../graphql/edges.ts';
import { graphParams, must } from '../../graphql/helpers.ts';
import { assertNumericId } from '../../authz/guards.ts';
import { findAdRule, ruleEdges } from '../ad-rules.ts';
import type { RuleResult } from '../ad-rule-runs.ts';
import { parseAdAccountId } from '../service.ts';
import { createAdRule, deleteAdRule, executeAdRule, updateAdRule } from '../writes/ad-rules.ts';

/**
 * Automated rules in GraphQL, over the one service of writes/ad-rules.ts and ad-rule-runs.ts: the input becomes
 * the Graph API's parameters (the specs pass as they are, in the Graph API's shape), so a refusal names the same
 * path (input.evaluationSpec.filters[2].field); history results keep the platform's names in camelCase.
 */

export const ruleQueries: Pick<QueryResolvers, 'adRule'> = {
  adRule: (_, { id }, ctx) => {
    assertNumericId(id);
    return findAdRule(ctx, id);
  },
};

export const ruleMutations: Pick<MutationResolvers, 'createAdRule' | 'updateAdRule' | 'deleteAdRule' | 'executeAdRule'> = {
  createAdRule: async (_, { accountId, input }, ctx) => (await createAdRule(ctx, parseAdAccountId(accountId, 'accountId'), graphParams(input)))!,
  updateAdRule: (_, { id, input }, ctx) => {
    assertNumericId(id);
    return updateAdRule(ctx, id, graphParams(input));
  },
  deleteAdRule: async (_, { id }, ctx) => {
    assertNumericId(id);
    await deleteAdRule(ctx, id);
    return true;
  },
  executeAdRule: (_, { id, dryRun }, ctx) => {
    assertNumericId(id);
    return executeAdRule(ctx, id, dryRun ? { dry_run: true } : {});
  },
};

export const ruleResolvers: Pick<
  Resolvers,
  'AdRule' | 'AdRuleHistory' | 'AdRuleHistoryResult' | 'AdRuleHistoryActionTaken' | 'AdRuleExecution' | 'AdRuleConnection' | 'AdRuleHistoryConnection'
> = {
  AdRule: {
    evaluationSpec: (rule) => rule.evaluationSpec as object,
    executionSpec: (rule) => rule.executionSpec as object,
    account: async (rule, _, ctx) => must(await ctx.loaders.ads.adAccountById.load(rule.accountId)),
    history: (rule, args, ctx) => edgeConnection(ruleEdges.history, ctx, rule, args),
  },
  AdRuleHistory: {
    timestamp: (run) => run.updatedTime,
    results: (run) => (run.results as RuleResult[] | null) ?? [],
    evaluationSpec: (run) => run.evaluationSpec as object,
    executionSpec: (run) => run.executionSpec as object,
  },
  AdRuleHistoryResult: {
    objectId: (result) => result.object_id,
    objectType: (result) => result.object_type,
  },
  AdRuleHistoryActionTaken: {
    oldValue: (action) => action.old_value,
    newValue: (action) => action.new_value,
    errorMessage: (action) => action.error_message ?? null,
  },
  AdRuleExecution: {
    run: (outcome) => (outcome.kind === 'queued' ? outcome.run : null),
    results: (outcome) => (outcome.kind === 'dry_run' ? outcome.results : null),
  },
  AdRuleConnection: connectionFields,
  AdRuleHistoryConnection: connectionFields,
};
