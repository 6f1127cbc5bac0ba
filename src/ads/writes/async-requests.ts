import type { RequestContext } from '../../context/index.ts';
import { insertObjects } from '../../db/objects.ts';
import { DomainError } from '../../errors/index.ts';
import { itemParams, jsonObject, list, paramError, requiredParam, text, type Params } from '../../graph-api/params.ts';
import { ASYNC_BATCH_MAX, DEEP_COPY_ASYNC_MAX } from '../rules/limits.ts';
import { asyncRequests, asyncRequestSets, countLiveAds, type AdSetRecord, type AsyncRequestRecord, type AsyncRequestSetRecord } from '../store.ts';
import { ownerOf, storedPrincipal } from '../../identity/principals.ts';
import { accountForCreate } from './common.ts';
import { readCopyParams, sourceForCopy } from './ad-set-copies.ts';

/**
 * POST /act_<ID>/async_batch_requests (DECISIONS section 5): a named set of requests the server runs in the
 * background, here ad set copies (`relative_url: "<AD_SET_ID>/copies"`, the body as a form string or an object)
 * with up to 51 ads each. Everything is checked when the set is created (each item's errors name
 * `adbatch[i]`); the set and its requests are stored in one transaction and the job runner takes them (src/ads/copy-jobs.ts).
 */
const COPY_URL = /^\/?(?:v\d+\.\d+\/)?([1-9][0-9]{0,18})\/copies\/?(?:\?(.*))?$/;

export interface BatchItem {
  name: string;
  adSetId: string;
  params: Params;
}

/**
 * What can be known of an asynchronous copy when it is asked for: its parameters, the source and the right to
 * copy it, and a deep copy's size (the runner checks them all again, as things may change before it runs).
 */
export async function checkCopyRequest(ctx: RequestContext, adSetId: string, params: Params): Promise<AdSetRecord> {
  const copy = readCopyParams(params);
  const source = await sourceForCopy(ctx, adSetId);
  if (copy.deepCopy && (await countLiveAds(ctx.db, adSetId)) > DEEP_COPY_ASYNC_MAX) {
    throw paramError('deep_copy', `A deep copy may carry at most ${DEEP_COPY_ASYNC_MAX} ads: ad set ${adSetId} has more`, {
      userTitle: 'Too many ads to copy',
      userMessage: `An ad set with more than ${DEEP_COPY_ASYNC_MAX} ads cannot be deep-copied.`,
    });
  }
  return source;
}

async function readItem(ctx: RequestContext, accountId: string, raw: Record<string, unknown>, index: number): Promise<BatchItem> {
  const field = `adbatch[${index}]`;
  try {
    const url = requiredParam(raw, 'relative_url', text({ max: 2048, nonEmpty: true }));
    const match = COPY_URL.exec(url.trim());
    if (!match) throw paramError('relative_url', `Param relative_url must be "<AD_SET_ID>/copies": asynchronous requests here copy ad sets`);
    const [, adSetId, query = ''] = match as unknown as [string, string, string | undefined];
    const params = itemParams(query, raw.body);
    const source = await checkCopyRequest(ctx, adSetId, params);
    if (source.accountId !== accountId) throw paramError('relative_url', `Ad set ${adSetId} is not in ad account act_${accountId}`);
    const name = raw.name === undefined || raw.name === null ? `copy of ad set ${adSetId}` : text({ max: 255, nonEmpty: true })(raw.name, 'name');
    return { name, adSetId, params };
  } catch (error) {
    if (error instanceof DomainError && (error.code === 'BAD_USER_INPUT' || error.code === 'NOT_FOUND')) {
      const what = error.code === 'NOT_FOUND' ? `names no ad set you can copy` : error.message;
      throw paramError(field, `Param ${field}: ${what}`);
    }
    throw error;
  }
}

/** Stores a set of copy requests; the runner is woken so they start at once. */
export async function createAsyncBatch(ctx: RequestContext, accountId: string, params: Params): Promise<AsyncRequestSetRecord> {
  params ??= {};
  const account = await accountForCreate(ctx, accountId, 'ad_set', 'ad sets');
  const name = requiredParam(params, 'name', text({ max: 255, nonEmpty: true }));
  const batch = requiredParam(params, 'adbatch', list(jsonObject, { min: 1, max: ASYNC_BATCH_MAX }));
  const items: BatchItem[] = [];
  for (const [index, raw] of batch.entries()) items.push(await readItem(ctx, account.id, raw, index));
  return enqueue(ctx, account.id, account.organizationId, name, items);
}

/** Stores a request set and its requests in one transaction, then wakes the runner. */
export async function enqueue(
  ctx: RequestContext,
  accountId: string,
  organizationId: string,
  name: string,
  items: BatchItem[],
): Promise<AsyncRequestSetRecord> {
  const principal = storedPrincipal(ctx.viewer);
  const set = await ctx.db.transaction(async (trx) => {
    const [created] = await insertObjects<AsyncRequestSetRecord>(trx, 'async_request_set', asyncRequestSets, [
      {
        organizationId,
        accountId,
        name,
        ownerId: ownerOf(principal),
        principal,
      },
    ]);
    await insertObjects<AsyncRequestRecord>(
      trx,
      'async_request',
      asyncRequests,
      items.map((item) => ({
        organizationId,
        accountId,
        setId: created!.id,
        adsetId: item.adSetId,
        name: item.name,
        type: 'ADSET_COPY',
        status: 'INITIAL' as const,
        input: { relative_url: `${item.adSetId}/copies`, params: item.params },
        result: null,
        error: null,
        attempts: 0,
        claimedBy: null,
        leaseExpiresAt: null,
      })),
    );
    return created!;
  });
  ctx.jobs?.wake();
  return set;
}
