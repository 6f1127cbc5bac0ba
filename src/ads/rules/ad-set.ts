import type { AdSetRecord } from '../store.ts';
import { bidViolations, budgetShapeViolations, minimumBudgetViolations, type BudgetSettings } from './budgets.ts';
import { dsaViolations, withDsaDefaults } from './dsa.ts';
import type { Objective } from './enums.ts';
import { appViolations, DEFAULT_GOAL, goalViolations, lookalikeExpansionViolations, promotedObjectViolations, withLookalikeExpansion } from './objectives.ts';
import { referenceViolations, restrictionViolations, type AudienceFacts, type ConversionFacts } from './restrictions.ts';
import { rotationViolations } from './rotation.ts';
import { geoViolations, promotedPostLocaleViolations, specialCategoryViolations, targetingShapeViolations } from './targeting.ts';
import { violation, type Violation } from './violations.ts';
import { applicationViolations, type ApplicationFacts } from './applications.ts';
import { regionalRegulationViolations } from './regional-regulations.ts';

/**
 * Every rule of an ad set, composed in the order the platform checks them (the first violation is what a write
 * answers; validateAdSet answers them all). Pure: the service looks up the account, campaign, audiences,
 * conversions and promoted post first and hands them over in the context.
 */
export type AdSetDraft = Omit<AdSetRecord, 'id' | 'createdTime' | 'updatedTime'>;

export interface CampaignFacts {
  id: string;
  accountId: string;
  objective: string;
  status: string;
  specialAdCategories: string[];
  bidStrategy: string | null;
  dailyBudget: string | null;
  lifetimeBudget: string | null;
}

export interface AdSetRuleContext {
  mode: 'create' | 'update' | 'copy';
  /** The parameters the caller sent (canonical names); on update, a rule runs only when one of its inputs is among them. */
  sent: ReadonlySet<string>;
  account: { id: string; currency: string; country: string; defaultDsaPayor: string | null; defaultDsaBeneficiary: string | null };
  /** The campaign named, when it is one of the account's (null otherwise). */
  campaign: CampaignFacts | null;
  /** On update: the ad set's campaign as it is (an ad set stays in its campaign). */
  currentCampaignId?: string;
  audiences: ReadonlyMap<string, AudienceFacts>;
  conversions: ReadonlyMap<string, ConversionFacts>;
  /** The page post promoted_object.object_story_id names: its locales, or 'missing' when it names no post of the account's pages. */
  promotedPost?: { locales: number[] | null } | 'missing';
  /**
   * The applications promoted_object.application_id names that the gateway knows, by id (built from the store by
   * the writes; a context made without it skips the application rule).
   */
  applications?: ReadonlyMap<string, ApplicationFacts>;
  /** The ad set source_adset_id names: 'missing' when it is not one of the account's. */
  sourceAdSet?: 'found' | 'missing';
  budgets: BudgetSettings;
  now: Date;
}

export interface AdSetRule {
  name: string;
  /** Parameters whose change makes the rule run again on update. */
  inputs: readonly string[];
  /**
   * Runs on every update, whatever changed, except one that only stops the ad set (pauses, archives or deletes
   * it): what it checks can change under the ad set (a flag set by the platform's review after it was created).
   */
  always?: boolean;
  check(adSet: AdSetDraft, context: AdSetRuleContext): Violation[];
}

const objectiveOf = (context: AdSetRuleContext) => context.campaign?.objective as Objective | undefined;

const SCHEDULE = ['start_time', 'end_time'];
const BUDGETS = ['daily_budget', 'lifetime_budget', 'daily_min_spend_target', 'daily_spend_cap', 'lifetime_min_spend_target', 'lifetime_spend_cap'];

export const AD_SET_RULES: readonly AdSetRule[] = [
  {
    name: 'campaign',
    inputs: ['campaign_id'],
    check(adSet, context) {
      if (context.currentCampaignId !== undefined && adSet.campaignId !== context.currentCampaignId) {
        return [violation('campaign_id', 'Param campaign_id cannot be changed: an ad set stays in its campaign (copy it into another campaign instead)')];
      }
      if (!context.campaign) return [violation('campaign_id', `Param campaign_id must be the id of a campaign of ad account act_${context.account.id}`)];
      if (context.mode !== 'update' && (context.campaign.status === 'DELETED' || context.campaign.status === 'ARCHIVED')) {
        return [
          violation(
            'campaign_id',
            `Param campaign_id names campaign ${context.campaign.id}, which is ${context.campaign.status}: ad sets cannot be added to it`,
          ),
        ];
      }
      return [];
    },
  },
  {
    name: 'source ad set',
    inputs: ['source_adset_id'],
    check: (adSet, context) =>
      adSet.sourceAdsetId !== null && context.sourceAdSet === 'missing'
        ? [violation('source_adset_id', `Param source_adset_id must be the id of an ad set of ad account act_${context.account.id}`)]
        : [],
  },
  {
    name: 'schedule',
    inputs: SCHEDULE,
    check(adSet, context) {
      if (adSet.endTime === null) return [];
      if (adSet.startTime !== null && adSet.endTime.getTime() <= adSet.startTime.getTime()) {
        return [
          violation('end_time', 'Param end_time must be after start_time', {
            userTitle: 'End before start',
            userMessage: 'The end date must come after the start date.',
          }),
        ];
      }
      if ((context.mode !== 'update' || context.sent.has('end_time')) && adSet.endTime.getTime() <= context.now.getTime()) {
        return [
          violation('end_time', 'Param end_time must be in the future', {
            userTitle: 'End date in the past',
            userMessage: 'Choose an end date in the future.',
          }),
        ];
      }
      return [];
    },
  },
  { name: 'targeting shape', inputs: ['targeting'], check: (adSet) => targetingShapeViolations(adSet.targeting) },
  { name: 'locations', inputs: ['targeting'], check: (adSet) => geoViolations(adSet.targeting) },
  {
    name: 'references',
    inputs: ['targeting', 'promoted_object'],
    check: (adSet, context) => referenceViolations(adSet, context.account.id, context.audiences, context.conversions),
  },
  {
    name: 'special ad categories',
    inputs: ['targeting', 'campaign_id'],
    check: (adSet, context) => specialCategoryViolations(adSet.targeting, context.campaign?.specialAdCategories ?? [], context.audiences),
  },
  {
    name: 'objective',
    inputs: ['optimization_goal', 'destination_type', 'billing_event', 'campaign_id'],
    check: (adSet, context) => (objectiveOf(context) ? goalViolations(adSet, objectiveOf(context)!) : []),
  },
  { name: 'promoted object', inputs: ['optimization_goal', 'promoted_object'], check: (adSet) => promotedObjectViolations(adSet) },
  {
    name: 'application',
    inputs: ['promoted_object'],
    check: (adSet, context) => (context.applications ? applicationViolations(adSet.promotedObject, context.applications) : []),
  },
  {
    name: 'app',
    inputs: ['promoted_object', 'targeting', 'campaign_id'],
    check: (adSet, context) => (objectiveOf(context) ? appViolations(adSet, objectiveOf(context)!) : []),
  },
  { name: 'lookalike expansion', inputs: ['optimization_goal', 'targeting'], check: (adSet) => lookalikeExpansionViolations(adSet) },
  {
    name: 'promoted post',
    inputs: ['promoted_object', 'targeting'],
    check(adSet, context) {
      if (context.promotedPost === undefined) return [];
      if (context.promotedPost === 'missing') {
        return [violation('promoted_object.object_story_id', `Param promoted_object.object_story_id must name a post of a page of the account's organization`)];
      }
      return promotedPostLocaleViolations(adSet.targeting, context.promotedPost.locales);
    },
  },
  {
    name: 'bid',
    inputs: ['bid_strategy', 'bid_amount', 'bid_constraints', 'campaign_id'],
    check: (adSet, context) => bidViolations(adSet, budgetContext(context)),
  },
  {
    name: 'budget',
    inputs: [...BUDGETS, ...SCHEDULE, 'campaign_id'],
    check: (adSet, context) => budgetShapeViolations(adSet, budgetContext(context)),
  },
  {
    name: 'minimum budget',
    inputs: [...BUDGETS, ...SCHEDULE, 'bid_amount', 'bid_strategy', 'billing_event', 'campaign_id'],
    check: (adSet, context) => minimumBudgetViolations(adSet, budgetContext(context)),
  },
  {
    name: 'budget spend percentages',
    inputs: ['min_budget_spend_percentage', 'max_budget_spend_percentage'],
    check(adSet) {
      const min = adSet.minBudgetSpendPercentage;
      const max = adSet.maxBudgetSpendPercentage;
      return min !== null && max !== null && BigInt(min) > BigInt(max)
        ? [violation('min_budget_spend_percentage', 'Param min_budget_spend_percentage must not exceed max_budget_spend_percentage')]
        : [];
    },
  },
  {
    name: 'time-based ad rotation',
    inputs: ['time_based_ad_rotation_intervals', 'time_based_ad_rotation_id_blocks', ...SCHEDULE],
    check: (adSet, context) => rotationViolations(adSet, context.now),
  },
  { name: 'payor and beneficiary', inputs: ['targeting', 'dsa_payor', 'dsa_beneficiary'], check: (adSet) => dsaViolations(adSet) },
  {
    name: 'regional regulations',
    inputs: ['regional_regulated_categories', 'regional_regulation_identities'],
    check: (adSet) => regionalRegulationViolations(adSet.regionalRegulatedCategories, adSet.regionalRegulationIdentities),
  },
  {
    name: 'restricted audiences and conversions',
    inputs: ['targeting', 'promoted_object'],
    always: true,
    check: (adSet, context) => restrictionViolations(adSet, context.audiences, context.conversions),
  },
];

function budgetContext(context: AdSetRuleContext) {
  return { account: context.account, campaign: context.campaign, settings: context.budgets, now: context.now };
}

/**
 * Values an ad set takes without being told: the objective's default goal, the account's DSA payor and
 * beneficiary in regulated regions (rules 2 and 3), lookalike expansion for the goals that always have it.
 * On update, the DSA defaults apply only when targeting or the DSA fields change (a retargeting).
 */
export function withAdSetDefaults(adSet: AdSetDraft, context: AdSetRuleContext): AdSetDraft {
  let out = adSet;
  const objective = objectiveOf(context);
  if (out.optimizationGoal === null && objective && context.mode === 'create') out = { ...out, optimizationGoal: DEFAULT_GOAL[objective] };
  // The specification's pacing: standard unless asked otherwise (a copy keeps its source's).
  if (context.mode === 'create' && (out.pacingType === null || out.pacingType === undefined)) out = { ...out, pacingType: ['standard'] };
  if (context.mode !== 'update' || ['targeting', 'dsa_payor', 'dsa_beneficiary'].some((p) => context.sent.has(p))) {
    out = withDsaDefaults(out, context.account);
  }
  const types = withLookalikeExpansion(out.optimizationGoal, out.targetingOptimizationTypes);
  if (types !== out.targetingOptimizationTypes) out = { ...out, targetingOptimizationTypes: types };
  return out;
}

/** An update that only pauses, archives or deletes: always allowed, as it is how an ad set with issues is stopped. */
export const onlyStops = (adSet: Pick<AdSetDraft, 'status'>, sent: ReadonlySet<string>) =>
  [...sent].every((name) => name === 'status') && adSet.status !== 'ACTIVE';

/**
 * The violations of an ad set, in order. On update, the rules whose inputs changed run, and the `always` ones
 * unless the update only stops the ad set.
 */
export function adSetViolations(adSet: AdSetDraft, context: AdSetRuleContext): Violation[] {
  const out: Violation[] = [];
  for (const rule of AD_SET_RULES) {
    if (context.mode === 'update') {
      const changed = rule.inputs.some((input) => context.sent.has(input));
      if (!changed && !(rule.always && !onlyStops(adSet, context.sent))) continue;
    }
    out.push(...rule.check(adSet, context));
  }
  return out;
}
