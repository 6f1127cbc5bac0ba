import type { RequestContext } from '../context/index.ts';
import type { ObjectKind } from '../authz/objects.ts';
import type { Edge } from '../authz/edges.ts';
import { parseFields, type FieldSelection } from './fields.ts';
import { camel, type TableMapping } from '../db/rows.ts';
import * as ads from '../ads/service.ts';
import * as delivery from '../insights/delivery.ts';
import type { LearningStageInfo } from '../insights/rules/learning-stage.ts';
import { accountEdges, adSetEdges, asyncRequestSetEdges, callerAccounts, campaignEdges, type EdgeFilter, type TargetingSentencesRecord } from '../ads/edges.ts';
import { recommendationJson } from '../ads/rules/recommendations.ts';
import type { AdSetIssue } from '../ads/rules/restrictions.ts';
import { privateReplyOf } from '../comments/writes/private-replies.ts';
import { issuePageToken } from '../comments/page-tokens.ts';
import { appSubscriptions, pageApps, type PageAppRecord } from '../webhooks/edges.ts';
import { CURRENT_VERSION } from './dispatch.ts';
import type { WebhookSubscriptionRecord } from '../webhooks/store.ts';
import { pageTasks } from '../authz/policy.ts';
import { callerPages, commentEdges, pageEdges, postEdges, type CommentFilter } from '../comments/edges.ts';
import type { UserRecord } from '../identity/store.ts';
import type { ApiClientRecord } from '../oauth/store.ts';
import * as comments from '../comments/service.ts';
import { displayName } from '../identity/store.ts';
import type { Capabilities } from '../comments/rules/capabilities.ts';
import { activityFilter, commentFilter, effectiveStatusFilter, estimateRequest, governedFilter, reactionFilter, type FilterReader } from './edge-filters.ts';
import type { ActivityRecord } from '../ads/activities.ts';
import { creativeEdges, creativeOfAd } from '../ads/creatives.ts';
import { ruleEdges, type AdRuleRecord, type AdRuleRunRecord } from '../ads/ad-rules.ts';
import { studyEdges, studyResults, type AdStudyCellView, type AdStudyRecord } from '../ads/studies.ts';
import type { DeliveryEstimateRecord, MessageDeliveryEstimateRecord } from '../ads/estimates.ts';
import type { DsaRecommendationsRecord } from '../ads/dsa-recommendations.ts';
import { REPORT_RUN } from './report-runs.ts';
import type { ReportRunRecord } from '../insights/reports/store.ts';
import {
  adAccounts,
  adCreatives,
  ads as adsTable,
  adSets,
  asyncRequests,
  campaigns,
  customAudiences,
  customConversions,
  type AdAccountRecord,
  type AdCreativeRecord,
  type AdRecord,
  type AdSetRecord,
  type AsyncRequestRecord,
  type AsyncRequestSetRecord,
  type CampaignRecord,
  type CustomAudienceRecord,
  type CustomConversionRecord,
} from '../ads/store.ts';
import {
  commentExternalId,
  pages,
  posts,
  type CommentLikeRecord,
  type CommentRecord,
  type PageRecord,
  type PostReactionRecord,
  type PostRecord,
} from '../comments/store.ts';

/**
 * What each Graph-style object exposes on /v24.0: its fields (with how to print them), the objects its fields
 * refer to, and its edges. Edges are the domain's edge objects (src/ads/edges.ts, src/comments/edges.ts), the
 * same GraphQL's connections use; derived fields (effective status, issues) come from the ad services.
 * Reads only; writes are wired in writes.ts.
 */
export type FieldKind = 'plain' | 'date' | 'money';

export interface GraphField<T> {
  kind: FieldKind;
  get(record: T, ctx: RequestContext): unknown;
  /**
   * The columns `get` reads beyond the ids (which every read keeps, src/db/rows.ts), so an edge listing these
   * objects reads only what `fields` shows (projection.ts); undefined: it may read anything, the whole row.
   */
  reads?: readonly string[];
  /** A field that is another object (`campaign{name}`): its node type. */
  ref?: NodeName;
  /**
   * A reference by one of the record's columns to a row of `mapping`: a list of these records may read it in the
   * same statement when what is shown of it reads columns alone (projection.ts, src/db/references.ts).
   */
  joins?: { column: string; mapping: TableMapping<never> };
}

export interface GraphEdge<T> {
  node: NodeName;
  edge: Edge<T, { id: string }, unknown>;
  /** Reads the edge's filter (the filter `edge` takes) from the call's parameters (or an edge's modifiers in `fields`). */
  filter?: FilterReader;
  /** What each item shows without `fields`, where this edge shows more than its node does elsewhere. */
  defaultSelection?: FieldSelection[];
  /** What listing it reads of the parent beyond its ids (as GraphField's `reads`); undefined: the whole row. */
  reads?: readonly string[];
}

export interface GraphNode<T> {
  name: string;
  /** The id as the API writes it (act_<id> for ad accounts). */
  id(record: T): string;
  /** What `id` reads beyond the record's id (as GraphField's `reads`); undefined: anything, so edges read whole rows. */
  idReads?: readonly string[];
  /** The ad account a call about this object counts against (rate limit, usage header). */
  accountId?(record: T): string;
  /** What a read without `fields` shows, where the platform shows more than the id (an AdReportRun). */
  defaultSelection?: FieldSelection[];
  fields: Record<string, GraphField<T>>;
  edges: Record<string, GraphEdge<T>>;
}

export type NodeName =
  | 'AdAccount'
  | 'Campaign'
  | 'AdSet'
  | 'Ad'
  | 'AdCreative'
  | 'AdRule'
  | 'AdRuleHistory'
  | 'User'
  | 'AdAccountDsaRecommendations'
  | 'Application'
  | 'CustomAudience'
  | 'CustomConversion'
  | 'Page'
  | 'Post'
  | 'AdAsyncRequestSet'
  | 'AdAsyncRequest'
  | 'AdReportRun'
  | 'TargetingSentenceLine'
  | 'AdActivity'
  | 'AdStudy'
  | 'AdStudyCell'
  | 'AdCampaignDeliveryEstimate'
  | 'AdAccountReachEstimate'
  | 'MessageDeliveryEstimate'
  | 'Comment'
  | 'Like'
  | 'Reaction'
  | 'PostReaction'
  | 'WebhookSubscription'
  | 'PageSubscribedApp';

/** The record each node type reads and writes: NODES and WRITES are checked against it. */
export interface NodeRecords extends Record<NodeName, unknown> {
  AdAccount: AdAccountRecord;
  Campaign: CampaignRecord;
  AdSet: AdSetRecord;
  Ad: AdRecord;
  AdCreative: AdCreativeRecord;
  AdRule: AdRuleRecord;
  AdRuleHistory: AdRuleRunRecord;
  User: UserRecord;
  AdAccountDsaRecommendations: DsaRecommendationsRecord;
  Application: ApiClientRecord;
  CustomAudience: CustomAudienceRecord;
  CustomConversion: CustomConversionRecord;
  Page: PageRecord;
  Post: PostRecord;
  AdAsyncRequestSet: AsyncRequestSetRecord;
  AdAsyncRequest: AsyncRequestRecord;
  AdReportRun: ReportRunRecord;
  TargetingSentenceLine: TargetingSentencesRecord;
  AdActivity: ActivityRecord;
  AdStudy: AdStudyRecord;
  AdStudyCell: AdStudyCellView;
  AdCampaignDeliveryEstimate: DeliveryEstimateRecord;
  AdAccountReachEstimate: DeliveryEstimateRecord;
  MessageDeliveryEstimate: MessageDeliveryEstimateRecord;
  Comment: CommentRecord;
  Like: CommentLikeRecord;
  Reaction: CommentLikeRecord;
  PostReaction: PostReactionRecord;
  WebhookSubscription: WebhookSubscriptionRecord;
  PageSubscribedApp: PageAppRecord;
}

/**
 * A node type with its record type forgotten, as the dispatcher holds one: the records it hands a node type are
 * always that type's own (found by id as its kind, listed by an edge or referred to by a field naming it).
 */
export type AnyGraphNode = GraphNode<unknown>;

/** Fields straight from a table's columns, by their snake_case names; money columns print as numeric strings. */
function columns<T>(mapping: TableMapping<T>, options: { money?: string[]; hide?: string[] } = {}): Record<string, GraphField<T>> {
  const fields: Record<string, GraphField<T>> = {};
  for (const [column, kind] of Object.entries(mapping.columns)) {
    if (options.hide?.includes(column)) continue;
    const key = camel(column);
    fields[column] = {
      kind: kind === 'date' ? 'date' : options.money?.includes(column) ? 'money' : 'plain',
      get: (record) => (record as Record<string, unknown>)[key],
      reads: [column],
    };
  }
  return fields;
}

/** `reads`: as GraphField's; a reference loaded by one of the record's reference columns reads nothing more (`[]`). */
const ref = <T>(
  node: NodeName,
  load: (record: T, ctx: RequestContext) => Promise<unknown>,
  reads?: readonly string[],
  joins?: GraphField<T>['joins'],
): GraphField<T> => ({ kind: 'plain', ref: node, get: load, reads, joins });
const plain = <T>(get: (record: T, ctx: RequestContext) => unknown): GraphField<T> => ({ kind: 'plain', get });
const money = <T>(get: (record: T, ctx: RequestContext) => unknown): GraphField<T> => ({ kind: 'money', get });
/**
 * An edge of ad objects: they all read effective_status (those without a status refuse it). Each lists the children
 * of the parent's id in its organization (src/authz/edges.ts, childEdge): it reads nothing more of the parent.
 */
const edge = <T>(node: NodeName, of: Edge<T, { id: string }, EdgeFilter> | Edge<T, { id: string }>): GraphEdge<T> => ({
  node,
  edge: of,
  filter: effectiveStatusFilter(of),
  reads: [],
});

const AD_ACCOUNT: GraphNode<AdAccountRecord> = {
  name: 'AdAccount',
  id: (account) => `act_${account.id}`,
  idReads: [],
  accountId: (account) => account.id,
  fields: {
    ...columns(adAccounts, { money: ['spend_cap'], hide: ['organization_id', 'country', 'is_bulk', 'restricted_reason'] }),
    id: { ...plain((account) => `act_${account.id}`), reads: [] },
    amount_spent: money((account, ctx) => delivery.accountAmountSpent(ctx, account)),
    account_id: plain((account) => account.id),
    business_country_code: plain((account) => account.country),
  },
  edges: {
    campaigns: edge('Campaign', accountEdges.campaigns),
    adsets: edge('AdSet', accountEdges.adsets),
    ads: edge('Ad', accountEdges.ads),
    customaudiences: edge('CustomAudience', accountEdges.customaudiences),
    customconversions: edge('CustomConversion', accountEdges.customconversions),
    asyncadrequestsets: edge('AdAsyncRequestSet', accountEdges.async_batch_requests),
    delivery_estimate: { node: 'AdCampaignDeliveryEstimate', edge: accountEdges.delivery_estimate, filter: estimateRequest },
    reachestimate: { node: 'AdAccountReachEstimate', edge: accountEdges.reachestimate, filter: estimateRequest },
    dsa_recommendations: { node: 'AdAccountDsaRecommendations', edge: accountEdges.dsa_recommendations },
    activities: { node: 'AdActivity', edge: accountEdges.activities, filter: activityFilter },
    ad_studies: { node: 'AdStudy', edge: studyEdges.ofAccount },
    adcreatives: { node: 'AdCreative', edge: creativeEdges.ofAccount },
    adrules_library: { node: 'AdRule', edge: ruleEdges.ofAccount },
  },
};

const accountOf = <T extends { accountId: string }>(record: T, ctx: RequestContext) => ctx.loaders.ads.adAccountById.load(record.accountId);

const CAMPAIGN: GraphNode<CampaignRecord> = {
  name: 'Campaign',
  id: (campaign) => campaign.id,
  idReads: [],
  accountId: (campaign) => campaign.accountId,
  fields: {
    ...columns(campaigns, { money: ['daily_budget', 'lifetime_budget', 'spend_cap'], hide: ['organization_id', 'active_seconds', 'status_changed_time'] }),
    budget_remaining: money((campaign, ctx) => delivery.campaignBudgetRemaining(ctx, campaign)),
    configured_status: plain((campaign) => campaign.status),
    effective_status: plain((campaign) => ads.campaignEffectiveStatus(campaign)),
    account: ref('AdAccount', accountOf),
  },
  edges: {
    adsets: edge('AdSet', campaignEdges.adsets),
    ads: edge('Ad', campaignEdges.ads),
    activities: { node: 'AdActivity', edge: campaignEdges.activities, filter: activityFilter },
    ad_studies: { node: 'AdStudy', edge: studyEdges.ofCampaign },
  },
};

const AD_SET_MONEY = [
  'bid_amount',
  'daily_budget',
  'daily_min_spend_target',
  'daily_spend_cap',
  'lifetime_budget',
  'lifetime_min_spend_target',
  'lifetime_spend_cap',
];

/** An issue as the platform prints it. */
const issueJson = (issue: AdSetIssue) => ({
  level: issue.level,
  error_code: issue.errorCode,
  error_summary: issue.errorSummary,
  error_message: issue.errorMessage,
  error_type: issue.errorType,
  additional_info: issue.additionalInfo,
});

/** learning_stage_info as the platform prints it: the last significant edit in Unix seconds, whatever date_format says. */
const learningStageJson = (info: LearningStageInfo | null) =>
  info && {
    status: info.status,
    conversions: info.conversions,
    last_sig_edit_ts: Math.floor(info.lastSignificantEdit.getTime() / 1000),
    attribution_windows: info.attributionWindows,
  };

const AD_SET: GraphNode<AdSetRecord> = {
  name: 'AdSet',
  id: (adSet) => adSet.id,
  idReads: [],
  accountId: (adSet) => adSet.accountId,
  fields: {
    ...columns(adSets, { money: AD_SET_MONEY, hide: ['organization_id', 'last_significant_edit_time', 'status_changed_time'] }),
    budget_remaining: money((adSet, ctx) => delivery.adSetBudgetRemaining(ctx, adSet)),
    campaign_active_time: plain((adSet, ctx) => delivery.campaignActiveTime(ctx, adSet)),
    learning_stage_info: plain(async (adSet, ctx) => learningStageJson(await delivery.learningStageInfo(ctx, adSet))),
    configured_status: plain((adSet) => adSet.status),
    effective_status: plain((adSet, ctx) => ads.adSetEffectiveStatus(ctx, adSet)),
    issues_info: plain(async (adSet, ctx) => (await ads.adSetIssues(ctx, adSet)).map(issueJson)),
    // Present only when there are recommendations, as the platform's field.
    recommendations: plain(async (adSet, ctx) => {
      const found = await ads.adSetRecommendations(ctx, adSet);
      return found.length > 0 ? found.map(recommendationJson) : undefined;
    }),
    campaign: ref('Campaign', (adSet, ctx) => ctx.loaders.ads.campaignById.load(adSet.campaignId), [], { column: 'campaign_id', mapping: campaigns as never }),
    account: ref('AdAccount', accountOf, []),
    source_adset: ref('AdSet', (adSet, ctx) => (adSet.sourceAdsetId ? ads.findAdSet(ctx, adSet.sourceAdsetId) : Promise.resolve(null)), []),
  },
  edges: {
    ads: edge('Ad', adSetEdges.ads),
    copies: edge('AdSet', adSetEdges.copies),
    asyncadrequests: edge('AdAsyncRequest', adSetEdges.asyncadrequests),
    targetingsentencelines: { node: 'TargetingSentenceLine', edge: adSetEdges.targetingsentencelines },
    delivery_estimate: { node: 'AdCampaignDeliveryEstimate', edge: adSetEdges.delivery_estimate, filter: estimateRequest },
    message_delivery_estimate: { node: 'MessageDeliveryEstimate', edge: adSetEdges.message_delivery_estimate },
    activities: { node: 'AdActivity', edge: adSetEdges.activities, filter: activityFilter },
    ad_studies: { node: 'AdStudy', edge: studyEdges.ofAdSet },
    adcreatives: { node: 'AdCreative', edge: creativeEdges.ofAdSet },
    adrules_governed: { node: 'AdRule', edge: ruleEdges.governing, filter: governedFilter },
  },
};

/** An estimate's curve as the platform prints it: spend in the account currency's minor units (as budgets are), counts. */
const curveJson = (estimate: DeliveryEstimateRecord) =>
  estimate.curve.map((point) => ({ spend: point.spend, reach: point.reach, impressions: point.impressions, actions: point.actions }));

/** A delivery estimate (the SDK's AdCampaignDeliveryEstimate and AdAccountDeliveryEstimate): one entry of its edge. */
const DELIVERY_ESTIMATE: GraphNode<DeliveryEstimateRecord> = {
  name: 'AdCampaignDeliveryEstimate',
  id: (estimate) => estimate.id,
  defaultSelection: parseFields('estimate_mau_lower_bound,estimate_mau_upper_bound,estimate_dau,estimate_ready,daily_outcomes_curve'),
  fields: {
    estimate_mau_lower_bound: plain((estimate) => estimate.audience.mauLowerBound),
    estimate_mau_upper_bound: plain((estimate) => estimate.audience.mauUpperBound),
    estimate_dau: plain((estimate) => estimate.audience.dau),
    // Every estimate is computed when asked: it is always ready.
    estimate_ready: plain(() => true),
    daily_outcomes_curve: plain(curveJson),
  },
  edges: {},
};

/** `/act_<id>/reachestimate`: the audience's range (the SDK's AdAccountReachEstimate). */
const REACH_ESTIMATE: GraphNode<DeliveryEstimateRecord> = {
  name: 'AdAccountReachEstimate',
  id: (estimate) => estimate.id,
  defaultSelection: parseFields('users_lower_bound,users_upper_bound,estimate_ready'),
  fields: {
    users_lower_bound: plain((estimate) => estimate.audience.mauLowerBound),
    users_upper_bound: plain((estimate) => estimate.audience.mauUpperBound),
    estimate_ready: plain(() => true),
  },
  edges: {},
};

/** `/act_<id>/dsa_recommendations` (the SDK's AdAccountDsaRecommendations): its one entry's strings. */
const DSA_RECOMMENDATIONS: GraphNode<DsaRecommendationsRecord> = {
  name: 'AdAccountDsaRecommendations',
  id: (entry) => entry.id,
  defaultSelection: parseFields('recommendations'),
  fields: { recommendations: plain((entry) => entry.recommendations) },
  edges: {},
};

/** `/<ad set>/message_delivery_estimate` (the SDK's MessageDeliveryEstimate): costs in minor units, conversations a day. */
const MESSAGE_DELIVERY_ESTIMATE: GraphNode<MessageDeliveryEstimateRecord> = {
  name: 'MessageDeliveryEstimate',
  id: (estimate) => estimate.id,
  defaultSelection: parseFields(
    'estimate_cost,estimate_cost_lower_bound,estimate_cost_upper_bound,estimate_coverage_lower_bound,estimate_coverage_upper_bound,estimate_delivery,estimate_delivery_lower_bound,estimate_delivery_upper_bound,estimate_status',
  ),
  fields: {
    estimate_cost: plain((estimate) => estimate.cost),
    estimate_cost_lower_bound: plain((estimate) => estimate.costLowerBound),
    estimate_cost_upper_bound: plain((estimate) => estimate.costUpperBound),
    estimate_coverage_lower_bound: plain((estimate) => estimate.audience.mauLowerBound),
    estimate_coverage_upper_bound: plain((estimate) => estimate.audience.mauUpperBound),
    estimate_delivery: plain((estimate) => estimate.delivery),
    estimate_delivery_lower_bound: plain((estimate) => estimate.deliveryLowerBound),
    estimate_delivery_upper_bound: plain((estimate) => estimate.deliveryUpperBound),
    estimate_status: plain(() => 'ESTIMATE_READY'),
  },
  edges: {},
};

/** "11/26/2026 at 8:15 PM" in the account's time zone, as the platform's date_time_in_timezone prints it. */
function inAccountTime(time: Date, timeZone: string): string {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: 'numeric',
    minute: '2-digit',
    hour12: true,
  }).formatToParts(time);
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return `${part('month')}/${part('day')}/${part('year')} at ${part('hour')}:${part('minute')} ${part('dayPeriod')}`;
}

/** A split test (the SDK's AdStudy); `results` compares its cells so far (src/ads/studies.ts). */
const AD_STUDY: GraphNode<AdStudyRecord> = {
  name: 'AdStudy',
  id: (study) => study.id,
  accountId: (study) => study.accountId,
  fields: {
    id: plain((study) => study.id),
    name: plain((study) => study.name),
    description: plain((study) => study.description),
    type: plain((study) => study.type),
    start_time: { kind: 'date', get: (study) => study.startTime },
    end_time: { kind: 'date', get: (study) => study.endTime },
    created_time: { kind: 'date', get: (study) => study.createdTime },
    updated_time: { kind: 'date', get: (study) => study.updatedTime },
    created_by: plain((study) => study.createdBy),
    results: plain(async (study, ctx) => {
      const results = await studyResults(ctx, study);
      return {
        since: results.since,
        until: results.until,
        best_cell: results.bestCell,
        cells: results.cells.map((cell) => ({
          cell_name: cell.cellName,
          impressions: cell.impressions,
          spend: cell.spend,
          results: cell.results,
          cost_per_result: cell.costPerResult,
          result_rate: cell.resultRate,
          versus_best: cell.versusBest && { z: cell.versusBest.z, p_value: cell.versusBest.pValue, significant: cell.versusBest.significant },
        })),
      };
    }),
  },
  edges: { cells: { node: 'AdStudyCell', edge: studyEdges.cells } },
};

/** A study's cell (the SDK's AdStudyCell): its share and how many objects it names. */
const AD_STUDY_CELL: GraphNode<AdStudyCellView> = {
  name: 'AdStudyCell',
  id: (cell) => cell.id,
  fields: {
    id: plain((cell) => cell.id),
    name: plain((cell) => cell.name),
    treatment_percentage: plain((cell) => cell.treatmentPercentage),
    // The platform counts a cell's ad entities: its ad sets, or its campaigns.
    ad_entities_count: plain((cell) => cell.adSetIds.length + cell.campaignIds.length),
    adsets: plain((cell) => cell.adSetIds),
    campaigns: plain((cell) => cell.campaignIds),
  },
  edges: {},
};

/** A change history entry (the SDK's AdActivity); extra_data is JSON text, as the platform prints it. */
const ACTIVITY: GraphNode<ActivityRecord> = {
  name: 'AdActivity',
  id: (activity) => activity.id,
  defaultSelection: parseFields(
    'event_type,event_time,object_id,object_name,object_type,actor_id,actor_name,application_name,translated_event_type,extra_data',
  ),
  fields: {
    actor_id: plain((activity) => activity.actorId),
    actor_name: plain((activity) => activity.actorName),
    application_id: plain(() => null),
    application_name: plain((activity) => activity.applicationName),
    date_time_in_timezone: plain(async (activity, ctx) => {
      const account = await ctx.loaders.ads.adAccountById.load(activity.accountId);
      return inAccountTime(activity.eventTime, account?.timezoneName ?? 'Etc/UTC');
    }),
    event_time: { kind: 'date', get: (activity) => activity.eventTime },
    event_type: plain((activity) => activity.eventType),
    extra_data: plain((activity) => JSON.stringify(activity.extraData)),
    object_id: plain((activity) => activity.objectId),
    object_name: plain((activity) => activity.objectName),
    object_type: plain((activity) => activity.objectType),
    translated_event_type: plain((activity) => activity.translatedEventType),
  },
  edges: {},
};

/** An ad set's targeting in sentences (its edge's one entry): what the SDK's TargetingSentenceLine reads. */
const TARGETING_SENTENCE_LINE: GraphNode<TargetingSentencesRecord> = {
  name: 'TargetingSentenceLine',
  id: (entry) => entry.id,
  defaultSelection: parseFields('id,params,targetingsentencelines'),
  fields: {
    id: plain((entry) => entry.id),
    params: plain((entry) => entry.params),
    targetingsentencelines: plain((entry) => entry.lines),
  },
  edges: {},
};

const AD: GraphNode<AdRecord> = {
  name: 'Ad',
  id: (ad) => ad.id,
  idReads: [],
  accountId: (ad) => ad.accountId,
  fields: {
    ...columns(adsTable, { hide: ['organization_id'] }),
    configured_status: plain((ad) => ad.status),
    effective_status: plain((ad, ctx) => ads.adEffectiveStatus(ctx, ad)),
    adset: ref('AdSet', (ad, ctx) => ctx.loaders.ads.adSetById.load(ad.adsetId), [], { column: 'adset_id', mapping: adSets as never }),
    campaign: ref('Campaign', (ad, ctx) => ctx.loaders.ads.campaignById.load(ad.campaignId), [], { column: 'campaign_id', mapping: campaigns as never }),
    account: ref('AdAccount', accountOf, []),
    creative: ref('AdCreative', (ad, ctx) => creativeOfAd(ctx, ad)),
  },
  edges: { adcreatives: { node: 'AdCreative', edge: creativeEdges.ofAd } },
};

/** The person calling (`/me` with a session's token): its own name and e-mail, its ad accounts and the pages it moderates. */
const USER: GraphNode<UserRecord> = {
  name: 'User',
  id: (user) => user.id,
  fields: {
    id: plain((user) => user.id),
    name: plain((user) => user.name),
    email: plain((user) => user.email),
  },
  edges: {
    adaccounts: { node: 'AdAccount', edge: callerAccounts },
    // As the platform answers /me/accounts without `fields`: each page with its token and the caller's tasks.
    accounts: { node: 'Page', edge: callerPages, defaultSelection: parseFields('access_token,category,name,id,tasks') },
  },
};

/** The API client calling (`/me` with a client-credentials token): its name, and its organization's ad accounts. */
const APPLICATION: GraphNode<ApiClientRecord> = {
  name: 'Application',
  id: (client) => client.id,
  fields: {
    id: plain((client) => client.id),
    name: plain((client) => client.clientName),
  },
  edges: {
    adaccounts: { node: 'AdAccount', edge: callerAccounts },
    subscriptions: { node: 'WebhookSubscription', edge: appSubscriptions },
  },
};

/** An app's webhook subscription, as the platform lists one (`active`, `fields` with their versions), with why it stopped. */
const WEBHOOK_SUBSCRIPTION: GraphNode<WebhookSubscriptionRecord> = {
  name: 'WebhookSubscription',
  id: (subscription) => subscription.id,
  defaultSelection: parseFields('object,callback_url,active,fields'),
  fields: {
    object: plain((subscription) => subscription.object),
    callback_url: plain((subscription) => subscription.callbackUrl),
    active: plain((subscription) => subscription.status === 'active'),
    fields: plain((subscription) => subscription.fields.map((name) => ({ name, version: CURRENT_VERSION }))),
    disabled_reason: plain((subscription) => subscription.disabledReason),
    last_error: plain((subscription) => subscription.lastError),
    last_delivery_time: { kind: 'date', get: (subscription) => subscription.lastDeliveryTime },
  },
  edges: {},
};

/** An app a page sends its feed to. */
const PAGE_SUBSCRIBED_APP: GraphNode<PageAppRecord> = {
  name: 'PageSubscribedApp',
  id: (app) => app.id,
  defaultSelection: parseFields('id,name,subscribed_fields'),
  fields: {
    id: plain((app) => app.id),
    name: plain((app) => app.name),
    subscribed_fields: plain((app) => app.subscribedFields),
  },
  edges: {},
};

/** An automated rule (the SDK's AdRule): its specs as they were written, read back in the platform's shape. */
const AD_RULE: GraphNode<AdRuleRecord> = {
  name: 'AdRule',
  id: (rule) => rule.id,
  accountId: (rule) => rule.accountId,
  fields: {
    id: plain((rule) => rule.id),
    account_id: plain((rule) => rule.accountId),
    name: plain((rule) => rule.name),
    status: plain((rule) => rule.status),
    evaluation_spec: plain((rule) => rule.evaluationSpec),
    execution_spec: plain((rule) => rule.executionSpec),
    schedule_spec: plain((rule) => rule.scheduleSpec),
    created_by: plain((rule) => rule.createdBy),
    created_time: { kind: 'date', get: (rule) => rule.createdTime },
    updated_time: { kind: 'date', get: (rule) => rule.updatedTime },
  },
  edges: { history: { node: 'AdRuleHistory', edge: ruleEdges.history } },
};

/** An evaluation of a rule (the SDK's AdRuleHistory): what it ran with, and what it did to each object. */
const AD_RULE_HISTORY: GraphNode<AdRuleRunRecord> = {
  name: 'AdRuleHistory',
  id: (run) => run.id,
  accountId: (run) => run.accountId,
  defaultSelection: parseFields('timestamp,is_manual,results,exception_code,exception_message'),
  fields: {
    id: plain((run) => run.id),
    timestamp: { kind: 'date', get: (run) => run.updatedTime },
    is_manual: plain((run) => run.isManual),
    results: plain((run) => run.results ?? []),
    exception_code: plain((run) => run.exceptionCode),
    exception_message: plain((run) => run.exceptionMessage),
    evaluation_spec: plain((run) => run.evaluationSpec),
    execution_spec: plain((run) => run.executionSpec),
    schedule_spec: plain((run) => run.scheduleSpec),
  },
  edges: {},
};

/** An account's creative (the SDK's AdCreative); `extra` (what a migrated ad's JSON held beyond these) is not a Graph field. */
const AD_CREATIVE: GraphNode<AdCreativeRecord> = {
  name: 'AdCreative',
  id: (creative) => creative.id,
  accountId: (creative) => creative.accountId,
  fields: {
    ...columns(adCreatives, { hide: ['organization_id', 'extra'] }),
    // The page the story runs as, as the platform's object_id reads it.
    object_id: plain((creative) => (creative.objectStorySpec as { page_id?: string } | null)?.page_id ?? null),
    account: ref('AdAccount', accountOf),
  },
  edges: {},
};

const CUSTOM_AUDIENCE: GraphNode<CustomAudienceRecord> = {
  name: 'CustomAudience',
  id: (audience) => audience.id,
  accountId: (audience) => audience.accountId,
  fields: {
    ...columns(customAudiences, { hide: ['organization_id', 'operation_status_code', 'operation_status_description'] }),
    operation_status: plain((audience) => ({ code: audience.operationStatusCode, description: audience.operationStatusDescription ?? '' })),
  },
  edges: {},
};

const CUSTOM_CONVERSION: GraphNode<CustomConversionRecord> = {
  name: 'CustomConversion',
  id: (conversion) => conversion.id,
  accountId: (conversion) => conversion.accountId,
  fields: columns(customConversions, { hide: ['organization_id'] }),
  edges: {},
};

const progress = (field: keyof Awaited<ReturnType<typeof ads.asyncRequestSetProgress>>) =>
  plain<AsyncRequestSetRecord>(async (set, ctx) => (await ads.asyncRequestSetProgress(ctx, set))[field]);

const ASYNC_REQUEST_SET: GraphNode<AsyncRequestSetRecord> = {
  name: 'AdAsyncRequestSet',
  id: (set) => set.id,
  accountId: (set) => set.accountId,
  fields: {
    id: plain((set) => set.id),
    name: plain((set) => set.name),
    owner_id: plain((set) => set.ownerId),
    total_count: progress('totalCount'),
    initial_count: progress('initialCount'),
    in_progress_count: progress('inProgressCount'),
    success_count: progress('successCount'),
    error_count: progress('errorCount'),
    canceled_count: progress('canceledCount'),
    is_completed: progress('isCompleted'),
    notification_mode: plain(() => 'OFF'),
    created_time: { kind: 'date', get: (set) => set.createdTime },
    updated_time: { kind: 'date', get: (set) => set.updatedTime },
  },
  edges: { requests: edge('AdAsyncRequest', asyncRequestSetEdges.requests) },
};

const ASYNC_REQUEST: GraphNode<AsyncRequestRecord> = {
  name: 'AdAsyncRequest',
  id: (request) => request.id,
  accountId: (request) => request.accountId,
  fields: {
    ...columns(asyncRequests, { hide: ['organization_id', 'account_id', 'set_id', 'adset_id', 'attempts', 'claimed_by', 'lease_expires_at', 'input'] }),
    scope_object_id: plain((request) => request.adsetId ?? undefined),
    input: plain((request) => ({ relative_url: (request.input as { relative_url?: string }).relative_url })),
    async_request_set: ref('AdAsyncRequestSet', (request, ctx) => ads.findAsyncRequestSet(ctx, request.setId)),
  },
  edges: {},
};

const PAGE: GraphNode<PageRecord> = {
  name: 'Page',
  id: (page) => page.id,
  fields: {
    ...columns(pages, { hide: ['organization_id'] }),
    access_token: plain((page, ctx) => issuePageToken(ctx, page)),
    tasks: plain((page, ctx) => pageTasks(ctx.viewer, page.organizationId)),
  },
  edges: {
    feed: { node: 'Post', edge: pageEdges.posts },
    posts: { node: 'Post', edge: pageEdges.posts },
    subscribed_apps: { node: 'PageSubscribedApp', edge: pageApps },
  },
};

const commentsEdge = <T>(of: Edge<T, { id: string }, CommentFilter>): GraphEdge<T> => ({ node: 'Comment', edge: of, filter: commentFilter });

const postOf = (comment: CommentRecord, ctx: RequestContext) => comments.postOfComment(ctx, comment);

/** A liker as the platform shows one: its id and name. */
async function profile(ctx: RequestContext, who: { userId: string | null; pageId: string | null }): Promise<{ id: string; name: string } | undefined> {
  if (who.pageId) {
    const page = await ctx.loaders.comments.pageById.load(who.pageId);
    return page ? { id: page.id, name: page.name } : undefined;
  }
  const user = who.userId ? await ctx.loaders.identity.userById.load(who.userId) : null;
  return user ? { id: user.id, name: displayName(user) } : undefined;
}

/** `from` of a post or a comment: the one rule of who may see an author (comments/rules/authors.ts), printed as id and name. */
async function authorProfile(ctx: RequestContext, written: Parameters<typeof comments.authorOf>[1]): Promise<{ id: string; name: string } | undefined> {
  const author = await comments.authorOf(ctx, written);
  if (!author) return undefined;
  return author.kind === 'page' ? { id: author.page.id, name: author.page.name } : { id: author.user.id, name: displayName(author.user) };
}
const capability = (key: keyof Capabilities) =>
  plain<CommentRecord>(async (comment, ctx) => (await comments.commentCapabilities(ctx, comment, await postOf(comment, ctx)))[key]);

const COMMENT: GraphNode<CommentRecord> = {
  name: 'Comment',
  id: (comment) => commentExternalId(comment),
  fields: {
    id: plain((comment) => commentExternalId(comment)),
    message: plain((comment) => comment.message),
    message_tags: plain((comment) => (comment.messageTags.length > 0 ? comment.messageTags : undefined)),
    attachment: plain((comment) => comment.attachment),
    is_hidden: plain((comment) => comment.isHidden),
    created_time: { kind: 'date', get: (comment) => comment.createdTime },
    like_count: plain((comment) => comment.likeCount),
    comment_count: plain((comment, ctx) => commentEdges.comments.count(ctx, comment)),
    user_likes: plain(async (comment, ctx) => comments.viewerLikes(ctx, comment, await postOf(comment, ctx))),
    can_comment: capability('canComment'),
    can_remove: capability('canRemove'),
    can_hide: capability('canHide'),
    can_like: capability('canLike'),
    can_reply_privately: capability('canReplyPrivately'),
    from: plain((comment, ctx) => authorProfile(ctx, comment)),
    permalink_url: plain((comment, ctx) => comments.permalinkUrl(ctx, comment)),
    // The page's private reply: for the page's moderators and the person it went to.
    private_reply_conversation: plain(async (comment, ctx) => {
      const reply = await privateReplyOf(ctx, comment);
      return reply && { id: reply.id, message: reply.message, created_time: reply.createdTime.toISOString().replace(/\.\d{3}Z$/, '+0000') };
    }),
    object: ref('Post', async (comment, ctx) => comments.commentedObject(await postOf(comment, ctx))),
    parent: ref('Comment', (comment, ctx) => (comment.parentId ? ctx.loaders.comments.commentById.load(comment.parentId) : Promise.resolve(null))),
  },
  edges: {
    comments: commentsEdge(commentEdges.comments),
    likes: { node: 'Like', edge: commentEdges.likes },
    reactions: { node: 'Reaction', edge: commentEdges.reactions, filter: reactionFilter },
  },
};

const LIKE: GraphNode<CommentLikeRecord> = {
  name: 'Profile',
  id: (like) => like.userId ?? like.pageId ?? '',
  fields: {
    id: plain((like) => like.userId ?? like.pageId),
    name: plain(async (like, ctx) => (await profile(ctx, like))?.name),
  },
  edges: {},
};

const REACTION: GraphNode<CommentLikeRecord> = {
  ...LIKE,
  name: 'Reaction',
  fields: { ...LIKE.fields, type: plain((reaction) => reaction.type) },
};

/** A reaction to a post: who (a person or a page) and how, as a comment's reactions read. */
const POST_REACTION: GraphNode<PostReactionRecord> = {
  name: 'Reaction',
  id: (reaction) => reaction.userId ?? reaction.pageId ?? '',
  fields: {
    id: plain((reaction) => reaction.userId ?? reaction.pageId),
    name: plain(async (reaction, ctx) => (await profile(ctx, reaction))?.name),
    type: plain((reaction) => reaction.type),
  },
  edges: {},
};

const POST: GraphNode<PostRecord> = {
  name: 'Post',
  id: (post) => post.id,
  fields: {
    ...columns(posts, { hide: ['organization_id', 'author_user_id', 'author_page_id'] }),
    from: plain((post, ctx) => authorProfile(ctx, post)),
    page: ref('Page', (post, ctx) => ctx.loaders.comments.pageById.load(post.pageId)),
  },
  edges: { comments: commentsEdge(postEdges.comments), reactions: { node: 'PostReaction', edge: postEdges.reactions, filter: reactionFilter } },
};

const NODE_TYPES: { [N in NodeName]: GraphNode<NodeRecords[N]> } = {
  AdAccount: AD_ACCOUNT,
  Campaign: CAMPAIGN,
  AdSet: AD_SET,
  Ad: AD,
  AdCreative: AD_CREATIVE,
  AdRule: AD_RULE,
  AdRuleHistory: AD_RULE_HISTORY,
  User: USER,
  AdAccountDsaRecommendations: DSA_RECOMMENDATIONS,
  Application: APPLICATION,
  CustomAudience: CUSTOM_AUDIENCE,
  CustomConversion: CUSTOM_CONVERSION,
  Page: PAGE,
  Post: POST,
  AdAsyncRequestSet: ASYNC_REQUEST_SET,
  AdAsyncRequest: ASYNC_REQUEST,
  AdReportRun: REPORT_RUN,
  TargetingSentenceLine: TARGETING_SENTENCE_LINE,
  AdActivity: ACTIVITY,
  AdStudy: AD_STUDY,
  AdStudyCell: AD_STUDY_CELL,
  AdCampaignDeliveryEstimate: DELIVERY_ESTIMATE,
  AdAccountReachEstimate: REACH_ESTIMATE,
  MessageDeliveryEstimate: MESSAGE_DELIVERY_ESTIMATE,
  Comment: COMMENT,
  Like: LIKE,
  Reaction: REACTION,
  PostReaction: POST_REACTION,
  WebhookSubscription: WEBHOOK_SUBSCRIPTION,
  PageSubscribedApp: PAGE_SUBSCRIBED_APP,
};
export const NODES: Record<NodeName, AnyGraphNode> = NODE_TYPES;

/** The Graph node type of each kind of object the API serves. */
export const NODE_OF_KIND: Partial<Record<ObjectKind, NodeName>> = {
  ad_account: 'AdAccount',
  campaign: 'Campaign',
  ad_set: 'AdSet',
  ad: 'Ad',
  ad_creative: 'AdCreative',
  ad_rule: 'AdRule',
  ad_rule_run: 'AdRuleHistory',
  custom_audience: 'CustomAudience',
  custom_conversion: 'CustomConversion',
  page: 'Page',
  post: 'Post',
  async_request_set: 'AdAsyncRequestSet',
  async_request: 'AdAsyncRequest',
  insights_report_run: 'AdReportRun',
  ad_study: 'AdStudy',
  ad_study_cell: 'AdStudyCell',
  comment: 'Comment',
  api_client: 'Application',
};
