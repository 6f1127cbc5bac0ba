import type DataLoader from 'dataloader';
import type { Knex } from 'knex';
import { recordActivities, recordMany, type ActivitySubject } from '../activities.ts';
import type { ActivityEvent } from '../rules/activity-events.ts';
import type { RequestContext } from '../../context/index.ts';
import { can, type ResourceType } from '../../authz/policy.ts';
import { requireSignedIn } from '../../authz/guards.ts';
import { lockRow } from '../../db/locks.ts';
import type { TableMapping } from '../../db/rows.ts';
import { DomainError, forbidden, notFound } from '../../errors/index.ts';
import { given, list, oneOf, paramError, type Params, type Reader } from '../../graph-api/params.ts';
import { CREATE_STATUSES, EXECUTION_OPTIONS, type ExecutionOption } from '../rules/enums.ts';
import { findAdAccount, parseAdAccountId } from '../service.ts';
import type { AdAccountRecord } from '../store.ts';

/**
 * The template every write of ad objects follows (DECISIONS section 8), once:
 * principal -> the object or parent named (missing or invisible: NOT_FOUND) -> permission (FORBIDDEN, code 200)
 * -> parameters and rules -> one transaction holding the row it changes -> the request's loaders refreshed.
 */

/**
 * The account a create goes into: invisible or missing is NOT_FOUND (named as the caller wrote it), visible
 * but without `create` on `type` in its organization is FORBIDDEN.
 */
export async function accountForCreate(ctx: RequestContext, accountId: string, type: ResourceType, what: string): Promise<AdAccountRecord> {
  requireSignedIn(ctx);
  const id = parseAdAccountId(String(accountId));
  const account = await findAdAccount(ctx, id);
  if (!account) throw notFound('Ad account', String(accountId));
  if (!can(ctx.viewer, 'create', { type, organizationId: account.organizationId })) {
    throw forbidden(`Permissions error: you may not create ${what} in ad account act_${account.id}`);
  }
  refuseRestricted(account);
  return account;
}

/**
 * The platform's error 368: an operator restricted the account (`adgraph accounts update --restrict`), so no
 * write to its objects is allowed until the restriction is lifted. Checked after permission, as the platform does:
 * who may not write at all hears 200, not why this account is closed.
 */
export function refuseRestricted(account: Pick<AdAccountRecord, 'id' | 'restrictedReason'>): void {
  if (!account.restrictedReason) return;
  throw new DomainError('FORBIDDEN', 'The action attempted has been deemed abusive or is otherwise disallowed', {
    graph: {
      code: 368,
      userTitle: 'Ad account restricted',
      userMessage: `Ad account act_${account.id} is restricted: ${account.restrictedReason}. Nothing in it can be changed until the restriction is lifted.`,
    },
  });
}

export type WriteAction = 'update' | 'delete';

/**
 * The object a write names: missing or invisible is NOT_FOUND, visible but without `action` on `type` in its
 * organization is FORBIDDEN (`verb` words the refusal: a copy needs `create`, and says "copy").
 */
export async function visibleForWrite<T extends { organizationId: string; id: string }>(
  ctx: RequestContext,
  type: ResourceType,
  label: string,
  id: string,
  action: WriteAction | 'create',
  find: (ctx: RequestContext, id: string) => Promise<T | null>,
  verb: string = action,
): Promise<T> {
  requireSignedIn(ctx);
  const record = await find(ctx, String(id));
  if (!record) throw notFound(label, String(id));
  if (!can(ctx.viewer, action, { type, organizationId: record.organizationId })) {
    throw forbidden(`Permissions error: you may not ${verb} ${label.toLowerCase()} ${record.id}`);
  }
  // An object of an ad account is written only while the account is not restricted (error 368).
  const accountId = (record as { accountId?: unknown }).accountId;
  if (typeof accountId === 'string') {
    const account = await ctx.loaders.ads.adAccountById.load(accountId);
    if (account) refuseRestricted(account);
  }
  return record;
}

export async function lockRecord<T>(ctx: RequestContext, trx: Knex.Transaction, mapping: TableMapping<T>, id: string): Promise<T> {
  const row = await lockRow(ctx.db, trx, mapping.table, id);
  // Found a moment ago; only a concurrent hard delete (an account removed) can take it away.
  if (!row) throw notFound(mapping.table, id);
  return mapping.fromRow(row);
}

/** Names every known parameter the caller sent, in the order given. */
export const sentOf = (params: Params, known: readonly string[]) => known.filter((name) => given(params, name));

export function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

export interface WriteTarget<T extends { id: string; organizationId: string }> {
  type: ResourceType;
  label: string;
  mapping: TableMapping<T>;
  find: (ctx: RequestContext, id: string) => Promise<T | null>;
  loader: (ctx: RequestContext) => DataLoader<string, T | null>;
  /** What the change history records of a write (before null: created), and about which object. */
  history: { subject: (record: T) => ActivitySubject; events: (before: T | null, after: T) => ActivityEvent[] };
}

/**
 * Records a status that a cascade gave many objects at once (an ad set's ads deleted with it), as each one's own
 * change, in the cascade's transaction.
 */
export async function recordStatusCascade<T extends { status: string; updatedTime: Date }>(
  ctx: RequestContext,
  trx: Knex.Transaction,
  history: { subject: (record: T) => ActivitySubject; events: (before: T | null, after: T) => ActivityEvent[] },
  before: readonly T[],
  status: string,
  now: Date,
): Promise<void> {
  await recordMany(
    ctx,
    trx,
    before.map((record) => {
      const after = { ...record, status, updatedTime: now };
      return { subject: history.subject(after), events: history.events(record, after) };
    }),
  );
}

/** Records a write of one object in its transaction (../activities.ts): the events its target's rule finds. */
export const recordWrite = <T extends { id: string; organizationId: string }>(
  ctx: RequestContext,
  trx: Knex.Transaction,
  target: WriteTarget<T>,
  before: T | null,
  after: T,
) => recordActivities(ctx, trx, target.history.subject(after), target.history.events(before, after));

/**
 * status on create: ACTIVE or PAUSED, as the platform says ("Only ACTIVE and PAUSED are valid during creation");
 * DELETED and ARCHIVED, which the status table lists, are refused with that reason rather than as unknown values:
 * they are states an object reaches, so it is archived or deleted after it is made (DECISIONS: create statuses).
 */
export const createStatus: Reader<(typeof CREATE_STATUSES)[number]> = (value, name) => {
  if (value === 'DELETED' || value === 'ARCHIVED') {
    throw paramError(
      name,
      `Param ${name} ${value} cannot be used on create: only ACTIVE and PAUSED are valid during creation; create it, then set ${name} to ${value}`,
    );
  }
  return oneOf(CREATE_STATUSES)(value, name);
};

// --- execution_options --------------------------------------------------------------------------------------

/** `execution_options`, which the platform's campaign, ad set and ad writes take (create and update). */
export const executionOptions: Reader<ExecutionOption[]> = list(oneOf(EXECUTION_OPTIONS), { max: EXECUTION_OPTIONS.length * 2 });

/** True when a write's parameters ask for validate_only: every check of the write, nothing written. */
export const validateOnly = (params: Params) =>
  given(params, 'execution_options') && executionOptions(params.execution_options, 'execution_options').includes('validate_only');

/**
 * A write that does not take execution_options refuses them rather than ignore them as it ignores unknown parameters:
 * a caller who asked for a check alone must never get a write.
 */
export function refuseExecutionOptions(params: Params): void {
  if (given(params, 'execution_options')) {
    throw paramError('execution_options', 'Param execution_options is not supported by this call: it cannot check a request without carrying it out');
  }
}

/** Thrown at the end of a validate_only write's transaction, to roll back what it wrote. */
class ValidatedOnly extends Error {}

/**
 * Runs a write's transaction. With validate_only it runs to its end, every check made under the write's own locks,
 * and is then rolled back: the answer says whether the write would have succeeded, and nothing is kept (null).
 */
async function transactionOf<R>(ctx: RequestContext, checkOnly: boolean, work: (trx: Knex.Transaction) => Promise<R>): Promise<R | null> {
  if (!checkOnly) return ctx.db.transaction(work);
  try {
    await ctx.db.transaction(async (trx) => {
      await work(trx);
      throw new ValidatedOnly();
    });
  } catch (error) {
    if (!(error instanceof ValidatedOnly)) throw error;
  }
  return null;
}

/** What a template answers: the record written; null too for a write that passed its parameters (validate_only). */
type Written<T, P extends Params | undefined> = P extends Params ? T | null : T;

/**
 * The update/delete template: find and authorize, then in one transaction lock the row, let `write` check and
 * change it (it sees the row as it is under the lock), and read it back; the request's loader is refreshed. A write
 * that takes execution_options passes its parameters: with validate_only nothing is kept and the answer is null.
 */
export async function writeLocked<T extends { id: string; organizationId: string }, P extends Params | undefined = undefined>(
  ctx: RequestContext,
  target: WriteTarget<T>,
  id: string,
  action: WriteAction,
  write: (trx: Knex.Transaction, current: T) => Promise<void>,
  params?: P,
): Promise<Written<T, P>> {
  const found = await visibleForWrite(ctx, target.type, target.label, id, action, target.find);
  const updated = await transactionOf(ctx, params !== undefined && validateOnly(params), async (trx) => {
    const current = await lockRecord(ctx, trx, target.mapping, found.id);
    await write(trx, current);
    const after = target.mapping.fromRow(await trx(target.mapping.table).where({ id: current.id }).first());
    await recordWrite(ctx, trx, target, current, after);
    return after;
  });
  if (updated) target.loader(ctx).clear(updated.id).prime(updated.id, updated);
  return updated as Written<T, P>;
}

/**
 * The create template: the account checked for `create` on `type`, then `read` checks the parameters (after
 * permission, as the platform does), `insert` writes in one transaction, and the request's loader is primed. A
 * create that takes execution_options passes its parameters (`params`): with validate_only nothing is kept and the
 * answer is null.
 */
export async function createInAccount<T extends { id: string }, I, P extends Params | undefined = undefined>(
  ctx: RequestContext,
  accountId: string,
  type: ResourceType,
  what: string,
  steps: {
    read: (account: AdAccountRecord) => I | Promise<I>;
    insert: (trx: Knex.Transaction, account: AdAccountRecord, input: I) => Promise<T>;
    loader: (ctx: RequestContext) => DataLoader<string, T | null>;
    params?: P;
  },
): Promise<Written<T, P>> {
  const account = await accountForCreate(ctx, accountId, type, what);
  const input = await steps.read(account);
  const checkOnly = steps.params !== undefined && validateOnly(steps.params);
  const created = await transactionOf(ctx, checkOnly, (trx) => steps.insert(trx, account, input));
  if (created) steps.loader(ctx).clear(created.id).prime(created.id, created);
  return created as Written<T, P>;
}
