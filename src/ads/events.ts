import type { ResourceType } from '../authz/policy.ts';
import type { NewEvent } from '../events/types.ts';
import type { ActivityEvent, ActivityObjectType } from './rules/activity-events.ts';
import type { ActivitySubject } from './activities.ts';
import type { AdRuleRunRecord } from './ad-rules.ts';
import type { AsyncRequestSetProgress } from './rules/async-requests.ts';
import type { AsyncRequestRecord } from './store.ts';

/**
 * The ad account's `ad_objects`, `jobs` and `rules` changes: what the change history records of a campaign, ad set
 * or ad (one event per object a write changed, with its history's event types and values), an asynchronous copy
 * that ended, and an automated rule's run. Entry: the ad account; heard by whoever may read the object.
 */
const RESOURCE_OF: Record<ActivityObjectType, ResourceType> = { CAMPAIGN: 'campaign', AD_SET: 'ad_set', AD: 'ad' };

/** create, delete, status (run status changed) or update, read off the change history's event types. */
export function adObjectVerb(events: readonly ActivityEvent[]): 'create' | 'delete' | 'status' | 'update' {
  const types = events.map((event) => event.eventType);
  if (types.some((type) => type.startsWith('create_') || type.startsWith('copy_'))) return 'create';
  if (types.some((type) => type.startsWith('delete_'))) return 'delete';
  if (types.length > 0 && types.every((type) => type.endsWith('_run_status'))) return 'status';
  return 'update';
}

export function adObjectEvent(subject: ActivitySubject, events: readonly ActivityEvent[], at: Date): NewEvent {
  const objectType = RESOURCE_OF[subject.type];
  const verb = adObjectVerb(events);
  return {
    organizationId: subject.organizationId,
    topic: 'ad_objects',
    entryId: subject.accountId,
    objectId: subject.id,
    verb,
    value: {
      id: subject.id,
      object_type: objectType,
      verb,
      name: subject.name,
      account_id: subject.accountId,
      ...(subject.campaignId && subject.type !== 'CAMPAIGN' ? { campaign_id: subject.campaignId } : {}),
      ...(subject.adsetId && subject.type === 'AD' ? { adset_id: subject.adsetId } : {}),
      // What changed, as the change history prints it (event type, old and new values).
      changes: events.map((event) => ({ event_type: event.eventType, ...event.extraData })),
      time: Math.floor(at.getTime() / 1000),
    },
    subject: { type: objectType, organizationId: subject.organizationId },
  };
}

const ENDED_COPY = new Set(['SUCCESS', 'ERROR']);

/** An asynchronous copy request ended (SUCCESS or ERROR): heard by whoever may read the account's ad sets. */
export function copyFinishedEvent(request: AsyncRequestRecord, fields: Record<string, unknown>): NewEvent | null {
  const status = String(fields.status);
  if (!ENDED_COPY.has(status)) return null;
  return {
    organizationId: request.organizationId,
    topic: 'jobs',
    entryId: request.accountId,
    objectId: request.id,
    verb: 'finished',
    value: { id: request.id, object_type: 'async_request', async_request_set_id: request.setId, status, time: Math.floor(Date.now() / 1000) },
    subject: { type: 'ad_set', organizationId: request.organizationId },
  };
}

/**
 * An asynchronous request set's last request ended: the set is complete (its requests' own events said how each
 * ended). Heard by whoever may read the account's ad sets, as its requests' are.
 */
export function setCompletedEvent(request: AsyncRequestRecord, progress: AsyncRequestSetProgress, at: Date): NewEvent {
  return {
    organizationId: request.organizationId,
    topic: 'jobs',
    entryId: request.accountId,
    objectId: request.setId,
    verb: 'finished',
    value: {
      id: request.setId,
      object_type: 'async_request_set',
      status: 'COMPLETED',
      total_count: progress.totalCount,
      success_count: progress.successCount,
      error_count: progress.errorCount,
      canceled_count: progress.canceledCount,
      time: Math.floor(at.getTime() / 1000),
    },
    subject: { type: 'ad_set', organizationId: request.organizationId },
  };
}

/** An automated rule ran (DONE or FAILED; a canceled run did nothing): heard by whoever may read the rule. */
export function ruleExecutedEvent(run: AdRuleRunRecord, fields: Record<string, unknown>): NewEvent | null {
  const status = String(fields.status);
  if (status !== 'DONE' && status !== 'FAILED') return null;
  const results = typeof fields.results === 'string' ? (JSON.parse(fields.results) as unknown) : undefined;
  return {
    organizationId: run.organizationId,
    topic: 'rules',
    entryId: run.accountId,
    objectId: run.ruleId,
    verb: 'executed',
    value: {
      rule_id: run.ruleId,
      run_id: run.id,
      status,
      is_manual: run.isManual,
      ...(results === undefined ? {} : { results }),
      ...(fields.exception_message ? { exception_message: fields.exception_message } : {}),
      time: Math.floor(Date.now() / 1000),
    },
    subject: { type: 'ad_set', organizationId: run.organizationId },
  };
}
