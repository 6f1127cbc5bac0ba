import type { RequestContext } from '../context/index.ts';
import type { Slice } from '../db/pagination.ts';
import { badInput, unauthenticated } from '../errors/index.ts';
import { isNumericId } from '../db/ids.ts';
import { can, type Action, type ResourceType } from './policy.ts';

/**
 * Small helpers every service uses to apply the policy the same way: an object the caller may not
 * read is treated exactly like one that does not exist.
 */
export function requireSignedIn(ctx: RequestContext): void {
  if (ctx.viewer.kind === 'anonymous') throw unauthenticated();
}

export function readable<T extends { organizationId: string }>(ctx: RequestContext, type: ResourceType, record: T | null): T | null {
  return record && can(ctx.viewer, 'read', { type, organizationId: record.organizationId }) ? record : null;
}

export function allowed(ctx: RequestContext, action: Action, type: ResourceType, organizationId: string): boolean {
  return can(ctx.viewer, action, { type, organizationId });
}

export const EMPTY_SLICE: Slice<never> = Object.freeze({ items: [], hasNextPage: false, hasPreviousPage: false }) as Slice<never>;

/** Children of a visible parent share its organization, so one check decides the whole list. */
export function readableChildren<T>(ctx: RequestContext, type: ResourceType, organizationId: string, load: () => Promise<Slice<T>>): Promise<Slice<T>> {
  return allowed(ctx, 'read', type, organizationId) ? load() : Promise.resolve(EMPTY_SLICE);
}

export function readableCount(ctx: RequestContext, type: ResourceType, organizationId: string, load: () => Promise<number>): Promise<number> {
  return allowed(ctx, 'read', type, organizationId) ? load() : Promise.resolve(0);
}

export function assertNumericId(id: string, field = 'id'): void {
  if (!isNumericId(id)) throw badInput(field, `${field} must be a numeric string.`);
}

/** Reads one object by id with the standard checks; `null` when it is absent or invisible. */
export async function findReadable<T extends { organizationId: string }>(
  ctx: RequestContext,
  type: ResourceType,
  id: string,
  load: (id: string) => Promise<T | null>,
): Promise<T | null> {
  requireSignedIn(ctx);
  if (!isNumericId(id)) return null;
  return readable(ctx, type, await load(id));
}
