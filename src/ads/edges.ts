import { callerEdge, childEdge, type Edge } from '../authz/edges.ts';
import { timeNow, type Loaders, type RequestContext } from '../context/index.ts';
import type { PagedChildren } from '../db/batch.ts';
import type { RawCondition } from '../db/conditions.ts';
import { keptCondition, type ActivityRecord } from './activities.ts';
import type { ActivityCategory } from './rules/activity-events.ts';
import { readable } from '../authz/guards.ts';
import type { Filters } from '../db/batch.ts';
import { conditionFor, type Dimension } from '../db/conditions.ts';
import { paramError } from '../graph-api/params.ts';
import { OBJECT_STATUSES, type ObjectStatus } from './rules/enums.ts';
import type { TargetingSentenceLine } from './rules/targeting-sentences.ts';
import { adSetTargetingSentences } from './service.ts';
import { dsaRecommendations, type DsaRecommendationsRecord } from './dsa-recommendations.ts';
import {
  accountDeliveryEstimate,
  accountReachEstimate,
  adSetDeliveryEstimate,
  adSetMessageDeliveryEstimate,
  type DeliveryEstimateRecord,
  type EstimateRequest,
  type MessageDeliveryEstimateRecord,
} from './estimates.ts';
import {
  AD_EFFECTIVE_STATUSES,
  AD_SET_EFFECTIVE_STATUSES,
  adEffectiveStatus,
  adSetEffectiveStatus,
  CAMPAIGN_EFFECTIVE_STATUSES,
  campaignEffectiveStatus,
  HIDDEN_BY_DEFAULT,
  type EffectiveStatus,
} from './rules/effective-status.ts';
import {
  adAccounts,
  adSetHasIssuesSql,
  type AdAccountRecord,
  type AdRecord,
  type AdSetRecord,
  type AsyncRequestRecord,
  type AsyncRequestSetRecord,
  type CampaignRecord,
  type CustomAudienceRecord,
  type CustomConversionRecord,
} from './store.ts';

/**
 * The edges of ad objects: each is one object with `list` and `count`, which the GraphQL resolvers and the
 * /v24.0 node table both wire from, so the two surfaces list and count the same things.
 *
 * Edges of campaigns, ad sets and ads take an effective status filter; without one they leave out DELETED and
 * ARCHIVED objects, as the platform's edges do (a DELETED object is read by its id only). The filter becomes
 * SQL by enumerating the inputs of rules/effective-status.ts, so it agrees with the effective_status each
 * object reads with.
 */
export interface EdgeFilter {
  /** Effective statuses to keep; undefined: all but DELETED and ARCHIVED. */
  effectiveStatus?: readonly string[];
  /** Configured statuses to keep (GraphQL's `status` argument). Given alone, it replaces the default filter. */
  status?: readonly ObjectStatus[];
}

type StatusTable = 'campaigns' | 'ad_sets' | 'ads';

const campaignStatusOf = (table: StatusTable) => `(select c.status from campaigns c where c.id = ${table}.campaign_id)`;

/** The inputs of each table's effective status, as SQL of its rows. */
const DIMENSIONS: Record<StatusTable, Dimension[]> = {
  campaigns: [{ name: 'own', sql: 'campaigns.status', values: OBJECT_STATUSES }],
  ad_sets: [
    { name: 'own', sql: 'ad_sets.status', values: OBJECT_STATUSES },
    { name: 'campaign', sql: campaignStatusOf('ad_sets'), values: OBJECT_STATUSES },
    { name: 'hasIssues', sql: adSetHasIssuesSql('ad_sets.id'), values: [false, true] },
  ],
  ads: [
    { name: 'own', sql: 'ads.status', values: OBJECT_STATUSES },
    { name: 'campaign', sql: campaignStatusOf('ads'), values: OBJECT_STATUSES },
    { name: 'adSet', sql: '(select s.status from ad_sets s where s.id = ads.adset_id)', values: OBJECT_STATUSES },
    { name: 'adSetHasIssues', sql: adSetHasIssuesSql('ads.adset_id'), values: [false, true] },
  ],
};

type Inputs = Record<string, string | boolean>;
const RULE: Record<StatusTable, (inputs: Inputs) => EffectiveStatus> = {
  campaigns: (i) => campaignEffectiveStatus({ own: i.own as ObjectStatus }),
  ad_sets: (i) => adSetEffectiveStatus({ own: i.own as ObjectStatus, campaign: i.campaign as ObjectStatus, hasIssues: i.hasIssues as boolean }),
  ads: (i) =>
    adEffectiveStatus({
      own: i.own as ObjectStatus,
      campaign: i.campaign as ObjectStatus,
      adSet: i.adSet as ObjectStatus,
      adSetHasIssues: i.adSetHasIssues as boolean,
    }),
};

const ALLOWED: Record<StatusTable, readonly EffectiveStatus[]> = {
  campaigns: CAMPAIGN_EFFECTIVE_STATUSES,
  ad_sets: AD_SET_EFFECTIVE_STATUSES,
  ads: AD_EFFECTIVE_STATUSES,
};

/** Filters by table and the (checked, sorted, distinct) values asked for: a few hundred at most, each built once. */
const filtersCache = new Map<string, Filters>();
const valueSet = (values: readonly string[] | undefined) => (values ? [...new Set(values)].sort().join(',') : '-');

/**
 * Filters by the values as given (unsorted, repeated): the same few spellings come back on every request, and
 * the checks and the sorting below are spent once per spelling. Bounded: emptied when full.
 */
const filtersAsGiven = new Map<string, Filters>();
const MAX_SPELLINGS = 1000;

/** Whether two lists of values hold the same values in the same order (both absent: the same). */
const sameValues = (a: readonly string[] | undefined, b: readonly string[] | undefined) =>
  a === b || (a !== undefined && b !== undefined && a.length === b.length && a.every((value, i) => value === b[i]));

/**
 * The last filter of each table and what it gave: a list's items ask in turn with the same values (each ad set's
 * `ads(effectiveStatus: […])`, in a list of its own per item), found here by comparing the values, not a key.
 */
const lastAsked = new Map<StatusTable, { effectiveStatus?: readonly string[]; status?: readonly string[]; filters: Filters }>();

/** The filters of one request: checked values, and the SQL condition. The same object for the same filter, never changed. */
export function statusFilters(table: StatusTable, filter: EdgeFilter = {}): Filters {
  const last = lastAsked.get(table);
  if (last && sameValues(last.effectiveStatus, filter.effectiveStatus) && sameValues(last.status, filter.status)) return last.filters;
  // JSON: a value holding a comma must not read as two checked values.
  const given = JSON.stringify([table, filter.effectiveStatus ?? null, filter.status ?? null]);
  let found = filtersAsGiven.get(given);
  if (!found) {
    found = checkedStatusFilters(table, filter);
    if (filtersAsGiven.size >= MAX_SPELLINGS) filtersAsGiven.clear();
    filtersAsGiven.set(given, found);
  }
  // Copies: what is kept cannot change with the caller's lists.
  lastAsked.set(table, { effectiveStatus: filter.effectiveStatus && [...filter.effectiveStatus], status: filter.status && [...filter.status], filters: found });
  return found;
}

function checkedStatusFilters(table: StatusTable, filter: EdgeFilter): Filters {
  const allowed = ALLOWED[table];
  filter.effectiveStatus?.forEach((value, i) => {
    if (!(allowed as readonly string[]).includes(value)) {
      throw paramError('effective_status', `Param effective_status[${i}] must be one of {${allowed.join(', ')}}`);
    }
  });
  const key = `${table}:${valueSet(filter.effectiveStatus)}:${valueSet(filter.status)}`;
  let filters = filtersCache.get(key);
  if (!filters) {
    filters = {};
    if (filter.status) filters.status = [...new Set(filter.status)].sort();
    const wanted = filter.effectiveStatus ?? (filter.status ? undefined : allowed.filter((s) => !HIDDEN_BY_DEFAULT.includes(s)));
    if (wanted) filters.effective_status = conditionFor(DIMENSIONS[table], (inputs) => wanted.includes(RULE[table](inputs)));
    filtersCache.set(key, Object.freeze(filters));
  }
  return filters;
}

type StatusEdgeOptions = { filters: (filter?: EdgeFilter) => Filters; effectiveStatuses: readonly EffectiveStatus[]; readWithParents: true };
/** Filters by status alone, the same for every parent and caller: its pages may be read with their parents. */
const byStatus = (table: StatusTable): StatusEdgeOptions => ({
  filters: (filter) => statusFilters(table, filter),
  effectiveStatuses: ALLOWED[table],
  readWithParents: true,
});

/** What the change history edges take: a time window and categories (checked by the surfaces' readers). */
export interface ActivityFilter {
  since?: Date;
  until?: Date;
  categories?: readonly ActivityCategory[];
}

/**
 * A change history edge, newest first, within the retention (activities.ts) and the filter's window. Read as the
 * object it belongs to is: who may read an ad set reads its history.
 */
function activityEdge<P extends { id: string; organizationId: string }>(
  type: 'ad_account' | 'campaign' | 'ad_set',
  loader: (loaders: Loaders) => PagedChildren<ActivityRecord>,
): Edge<P, ActivityRecord, ActivityFilter> {
  return childEdge<P, ActivityRecord, ActivityFilter>(type, loader, {
    filters: (filter, ctx) => {
      if (filter?.since && filter.until && filter.since >= filter.until) throw paramError('until', 'Param until must be later than since');
      const conditions: RawCondition[] = [keptCondition(timeNow(ctx))];
      if (filter?.since) conditions.push({ sql: 'activities.event_time >= ?', bindings: [filter.since] });
      if (filter?.until) conditions.push({ sql: 'activities.event_time < ?', bindings: [filter.until] });
      return {
        event_time: { sql: conditions.map((c) => `(${c.sql})`).join(' and '), bindings: conditions.flatMap((c) => c.bindings) },
        ...(filter?.categories ? { category: [...new Set(filter.categories)].sort() } : {}),
      };
    },
    order: (page) => ({ ...page, descending: true }),
  });
}

export const accountEdges = {
  campaigns: childEdge<AdAccountRecord, CampaignRecord, EdgeFilter>('campaign', (l) => l.ads.campaignsOfAccount, byStatus('campaigns')),
  adsets: childEdge<AdAccountRecord, AdSetRecord, EdgeFilter>('ad_set', (l) => l.ads.adSetsOfAccount, byStatus('ad_sets')),
  ads: childEdge<AdAccountRecord, AdRecord, EdgeFilter>('ad', (l) => l.ads.adsOfAccount, byStatus('ads')),
  customaudiences: childEdge<AdAccountRecord, CustomAudienceRecord>('custom_audience', (l) => l.ads.customAudiencesOfAccount),
  // Custom conversions are authorized as custom audiences: one resource type for both.
  customconversions: childEdge<AdAccountRecord, CustomConversionRecord>('custom_audience', (l) => l.ads.customConversionsOfAccount),
  activities: activityEdge<AdAccountRecord>('ad_account', (l) => l.ads.activitiesOfAccount),
  async_batch_requests: childEdge<AdAccountRecord, AsyncRequestSetRecord>('ad_set', (l) => l.ads.asyncRequestSetsOfAccount),
  /** The estimate of a targeting that is no ad set yet (targeting_spec and optimization_goal required). */
  delivery_estimate: singleEntryEdge<AdAccountRecord, DeliveryEstimateRecord, EstimateRequest>('ad_account', (ctx, account, request) =>
    accountDeliveryEstimate(ctx, account.id, request ?? {}),
  ),
  /** Likely payor and beneficiary strings for a new ad set: one entry. */
  dsa_recommendations: singleEntryEdge<AdAccountRecord, DsaRecommendationsRecord>('ad_account', (ctx, account) => dsaRecommendations(ctx, account)),
  /** The audience's range of a targeting (targeting_spec required). */
  reachestimate: singleEntryEdge<AdAccountRecord, DeliveryEstimateRecord, EstimateRequest>('ad_account', (ctx, account, request) =>
    accountReachEstimate(ctx, account.id, request ?? {}),
  ),
};

export const campaignEdges = {
  adsets: childEdge<CampaignRecord, AdSetRecord, EdgeFilter>('ad_set', (l) => l.ads.adSetsOfCampaign, byStatus('ad_sets')),
  ads: childEdge<CampaignRecord, AdRecord, EdgeFilter>('ad', (l) => l.ads.adsOfCampaign, byStatus('ads')),
  activities: activityEdge<CampaignRecord>('campaign', (l) => l.ads.activitiesOfCampaign),
};

/** An ad set's targeting in sentences, as the platform's edge lists it: one entry, with the targeting it describes. */
export interface TargetingSentencesRecord {
  /** The ad set's id. */
  id: string;
  /** The targeting the sentences describe (the stored Graph shape). */
  params: unknown;
  lines: TargetingSentenceLine[];
}

/** An edge of one computed entry (an estimate, the targeting's sentences), readable as its parent is: counted 1 or 0. */
function singleEntryEdge<P extends { organizationId: string }, T extends { id: string }, F = undefined>(
  type: 'ad_set' | 'ad_account',
  compute: (ctx: RequestContext, parent: P, filter: F | undefined) => Promise<T>,
): Edge<P, T, F> {
  return {
    async list(ctx, parent, _page, filter) {
      if (!readable(ctx, type, parent)) return { items: [], hasNextPage: false, hasPreviousPage: false };
      return { items: [await compute(ctx, parent, filter)], hasNextPage: false, hasPreviousPage: false };
    },
    count: async (ctx, parent) => (readable(ctx, type, parent) ? 1 : 0),
  };
}

/** `/<ad set>/targetingsentencelines`: one entry, readable as the ad set is. */
const targetingSentenceLines = singleEntryEdge<AdSetRecord, TargetingSentencesRecord>('ad_set', async (ctx, adSet) => ({
  id: adSet.id,
  params: adSet.targeting,
  lines: await adSetTargetingSentences(ctx, adSet),
}));

export const adSetEdges = {
  ads: childEdge<AdSetRecord, AdRecord, EdgeFilter>('ad', (l) => l.ads.adsOfAdSet, byStatus('ads')),
  /** Ad sets copied from this one. */
  copies: childEdge<AdSetRecord, AdSetRecord, EdgeFilter>('ad_set', (l) => l.ads.copiesOfAdSet, byStatus('ad_sets')),
  /** Asynchronous requests acting on this ad set (its asynchronous deep copies). */
  asyncadrequests: childEdge<AdSetRecord, AsyncRequestRecord>('ad_set', (l) => l.ads.asyncRequestsOfAdSet),
  targetingsentencelines: targetingSentenceLines,
  activities: activityEdge<AdSetRecord>('ad_set', (l) => l.ads.activitiesOfAdSet),
  /** Its audience and what a day's spend buys; the request may change the goal, targeting or promoted object. */
  delivery_estimate: singleEntryEdge<AdSetRecord, DeliveryEstimateRecord, EstimateRequest>('ad_set', (ctx, adSet, request) =>
    adSetDeliveryEstimate(ctx, adSet, request),
  ),
  /** What its budget buys in conversations: messaging destinations only. */
  message_delivery_estimate: singleEntryEdge<AdSetRecord, MessageDeliveryEstimateRecord>('ad_set', (ctx, adSet) => adSetMessageDeliveryEstimate(ctx, adSet)),
};

export const asyncRequestSetEdges = {
  requests: childEdge<AsyncRequestSetRecord, AsyncRequestRecord>('ad_set', (l) => l.ads.requestsOfSet),
};

/** `/me/adaccounts`: the ad accounts of the caller's organizations in which it may read them (a client: its one). */
export const callerAccounts = callerEdge<AdAccountRecord>(adAccounts, 'read', 'ad_account');
