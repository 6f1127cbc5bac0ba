import type { Resolvers } from '../graphql/__generated__/resolvers-types.ts';
import { lowercaseEnum } from '../graphql/helpers.ts';
import { resolveNode } from '../graphql/node.ts';
import { requireSignedIn } from '../authz/guards.ts';
import { isNumericId } from '../db/ids.ts';
import { badInput, notFound } from '../errors/index.ts';
import { subscribeFor } from '../events/hub.ts';
import type { PublishedEvent } from '../events/types.ts';
import { findReportRun } from '../insights/reports/service.ts';
import { findAdAccount, findAsyncRequest } from './service.ts';

/** GraphQL `adObjectEvents` and `jobFinished`: an ad account's changes and its jobs' ends (src/ads/events.ts). */
export const AD_EVENT_OBJECT_TYPES = ['campaign', 'ad_set', 'ad', 'ad_rule'] as const;
export const AD_OBJECT_VERBS = ['create', 'update', 'status', 'delete', 'executed'] as const;
export const FINISHED_JOB_KINDS = ['async_request', 'insights_report_run'] as const;
type AdEventObjectType = (typeof AD_EVENT_OBJECT_TYPES)[number];

const valueOf = (event: PublishedEvent) => event.value as Record<string, unknown>;
const objectTypeOf = (event: PublishedEvent): AdEventObjectType => (event.topic === 'rules' ? 'ad_rule' : (valueOf(event).object_type as AdEventObjectType));
const timeOf = (event: PublishedEvent) => new Date(Number(valueOf(event).time) * 1000);

const ENDED = new Set(['SUCCESS', 'ERROR', 'COMPLETED', 'FAILED']);

/** The job's end as its event says it, for a job that had already ended when the subscription started. */
const endedJob = (
  id: string,
  organizationId: string,
  accountId: string,
  kind: (typeof FINISHED_JOB_KINDS)[number],
  status: string,
  at: Date,
): PublishedEvent => ({
  id: `ended-${id}`,
  seq: 0,
  organizationId,
  topic: 'jobs',
  entryId: accountId,
  objectId: id,
  verb: 'finished',
  value: { id, object_type: kind, status, time: Math.floor(at.getTime() / 1000) },
  subject: { type: kind === 'async_request' ? 'ad_set' : 'ad_account', organizationId },
  createdTime: at,
});

export const adSubscriptionResolvers: Resolvers = {
  Subscription: {
    adObjectEvents: {
      subscribe: async (_, { accountId, types }, ctx) => {
        requireSignedIn(ctx);
        const account = await findAdAccount(ctx, String(accountId).replace(/^act_/, ''));
        if (!account) throw notFound('AdAccount', String(accountId));
        const wanted = types && types.length > 0 ? new Set<string>(types) : null;
        return subscribeFor(ctx, {
          keys: [`ad_objects:${account.id}`, `rules:${account.id}`],
          wants: (event) => event.topic !== 'jobs' && (wanted === null || wanted.has(objectTypeOf(event))),
        });
      },
      resolve: (event: PublishedEvent) => event,
    },
    jobFinished: {
      subscribe: async (_, { id }, ctx) => {
        requireSignedIn(ctx);
        const jobId = String(id);
        if (!isNumericId(jobId)) throw badInput('id', 'Must be the id of an asynchronous request or of a report run.');
        const request = await findAsyncRequest(ctx, jobId);
        const run = request ? null : await findReportRun(ctx, jobId);
        if (!request && !run) throw notFound('Job', jobId);
        const job = request
          ? {
              kind: 'async_request' as const,
              status: request.status as string,
              organizationId: request.organizationId,
              accountId: request.accountId,
              at: request.updatedTime,
            }
          : {
              kind: 'insights_report_run' as const,
              status: run!.status as string,
              organizationId: run!.organizationId,
              accountId: run!.accountId,
              at: run!.updatedTime,
            };
        return subscribeFor(ctx, {
          keys: [`object:${jobId}`],
          wants: (event) => event.topic === 'jobs',
          // A job ends once: the subscription ends with it, and one that has ended already answers at once.
          limit: 1,
          initial: ENDED.has(job.status) ? [endedJob(jobId, job.organizationId, job.accountId, job.kind, job.status, job.at)] : [],
        });
      },
      resolve: (event: PublishedEvent) => event,
    },
  },
  AdEventObjectType: lowercaseEnum(AD_EVENT_OBJECT_TYPES),
  AdObjectVerb: lowercaseEnum(AD_OBJECT_VERBS),
  FinishedJobKind: lowercaseEnum(FINISHED_JOB_KINDS),
  AdObjectEvent: {
    id: (event) => event.id,
    // Enum values as the maps above hold them (lower case); the generated types leave these resolvers untyped.
    objectType: (event) => objectTypeOf(event) as never,
    objectId: (event) => event.objectId,
    verb: (event) => event.verb as never,
    // Read now, as the subscriber may (null when it may not, or the object is gone).
    object: (event, _, ctx) => resolveNode(ctx, event.objectId),
    changes: (event) => valueOf(event).changes ?? valueOf(event).results ?? [],
    time: timeOf,
  },
  JobFinishedEvent: {
    id: (event) => event.id,
    jobId: (event) => event.objectId,
    kind: (event) => valueOf(event).object_type as never,
    status: (event) => String(valueOf(event).status),
    time: timeOf,
  },
};
