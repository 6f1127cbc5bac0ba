import type { RequestContext } from '../context/index.ts';
import type { Resolvers } from '../graphql/__generated__/resolvers-types.ts';
import { lowercaseEnum } from '../graphql/helpers.ts';
import { resolveNode } from '../graphql/node.ts';
import { requireSignedIn } from '../authz/guards.ts';
import { isNumericId } from '../db/ids.ts';
import { badInput, notFound } from '../errors/index.ts';
import { subscribeFor } from '../events/hub.ts';
import { latestEvent } from '../events/outbox.ts';
import type { PublishedEvent } from '../events/types.ts';
import { findReportRun } from '../insights/reports/service.ts';
import { asyncRequestSetProgress, findAdAccount, findAsyncRequest, findAsyncRequestSet } from './service.ts';

/** GraphQL `adObjectEvents` and `jobFinished`: an ad account's changes and its jobs' ends (src/ads/events.ts). */
export const AD_EVENT_OBJECT_TYPES = ['campaign', 'ad_set', 'ad', 'ad_rule'] as const;
export const AD_OBJECT_VERBS = ['create', 'update', 'status', 'delete', 'executed'] as const;
export const FINISHED_JOB_KINDS = ['async_request', 'async_request_set', 'insights_report_run'] as const;
type AdEventObjectType = (typeof AD_EVENT_OBJECT_TYPES)[number];

const valueOf = (event: PublishedEvent) => event.value as Record<string, unknown>;
const objectTypeOf = (event: PublishedEvent): AdEventObjectType => (event.topic === 'rules' ? 'ad_rule' : (valueOf(event).object_type as AdEventObjectType));
const timeOf = (event: PublishedEvent) => new Date(Number(valueOf(event).time) * 1000);

const ENDED = new Set(['SUCCESS', 'ERROR', 'COMPLETED', 'FAILED']);

/** The job's end as its event would say it, for a job that ended longer ago than the outbox keeps events. */
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
  subject: { type: kind === 'insights_report_run' ? 'ad_account' : 'ad_set', organizationId },
  createdTime: at,
});

/** The job `id` names (a request, a request set or a report run) as the caller may read it, with whether it has ended. */
async function endOfJob(ctx: RequestContext, id: string) {
  const request = await findAsyncRequest(ctx, id);
  if (request) {
    const { organizationId, accountId, status, updatedTime: at } = request;
    return { kind: 'async_request' as const, organizationId, accountId, status: status as string, at, ended: ENDED.has(status) };
  }
  const set = await findAsyncRequestSet(ctx, id);
  if (set) {
    const { isCompleted } = await asyncRequestSetProgress(ctx, set);
    const { organizationId, accountId, updatedTime: at } = set;
    return { kind: 'async_request_set' as const, organizationId, accountId, status: isCompleted ? 'COMPLETED' : 'IN_PROGRESS', at, ended: isCompleted };
  }
  const run = await findReportRun(ctx, id);
  if (run) {
    const { organizationId, accountId, status, updatedTime: at } = run;
    return { kind: 'insights_report_run' as const, organizationId, accountId, status: status as string, at, ended: ENDED.has(status) };
  }
  return null;
}

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
        if (!isNumericId(jobId)) throw badInput('id', 'Must be the id of an asynchronous request, of a request set or of a report run.');
        // Listening before looking whether the job has ended: an end published in between is heard, not missed.
        // A job ends once: the subscription ends with it.
        const live = subscribeFor(ctx, { keys: [`object:${jobId}`], wants: (event) => event.topic === 'jobs', limit: 1 });
        const job = await endOfJob(ctx, jobId);
        if (!job?.ended) {
          if (job) return live;
          await live.return?.();
          throw notFound('Job', jobId);
        }
        // Ended already: it answers at once with the event that told it (the same id as when it was heard live),
        // or, once the outbox has swept that event, with one made from the job as it ended.
        await live.return?.();
        const told = await latestEvent(ctx.db, { topic: 'jobs', objectId: jobId, verb: 'finished' });
        const ended = told ?? endedJob(jobId, job.organizationId, job.accountId, job.kind, job.status, job.at);
        return subscribeFor(ctx, { keys: [], wants: () => false, limit: 1, initial: [ended] });
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
