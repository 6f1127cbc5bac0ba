import type { AppDeps } from '../context/index.ts';
import { insertObjects } from '../db/objects.ts';
import { findOrganizationOrFail, listOwned, readObjectOfType, validateName } from '../ads/admin.ts';
import type { ListingRequest } from '../db/pagination.ts';
import { groups, pages, type GroupRecord, type PageRecord } from './store.ts';

/** Operator services for the command line (DECISIONS section 7). Bad input names the CLI option it came from. */

export interface CreateNamedInput {
  /** Organization id or name. */
  organization: string;
  name: string;
}

/** The checked name and owning organization of a new page or group. */
async function named(deps: AppDeps, input: CreateNamedInput): Promise<{ organizationId: string; name: string }> {
  const name = validateName(input.name);
  return { organizationId: (await findOrganizationOrFail(deps, input.organization)).id, name };
}

/** A page of an organization, without a category (API callers and the organization's roles take it from there). */
export async function createPage(deps: AppDeps, input: CreateNamedInput): Promise<PageRecord> {
  const fields = await named(deps, input);
  const [page] = await deps.db.transaction((trx) => insertObjects<PageRecord>(trx, 'page', pages, [{ ...fields, category: null }]));
  return page!;
}

/** A group the organization runs: a name that `@[<id>]` mentions in comments resolve to. */
export async function createGroup(deps: AppDeps, input: CreateNamedInput): Promise<GroupRecord> {
  const fields = await named(deps, input);
  const [group] = await deps.db.transaction((trx) => insertObjects<GroupRecord>(trx, 'group', groups, [fields]));
  return group!;
}

export const listPages = (deps: AppDeps, request: ListingRequest, filter: { organization?: string } = {}) => listOwned(deps, pages, request, filter);
export const findPage = (deps: AppDeps, id: string) => readObjectOfType(deps, pages, 'page', id, 'page');

export const listGroups = (deps: AppDeps, request: ListingRequest, filter: { organization?: string } = {}) => listOwned(deps, groups, request, filter);
export const findGroup = (deps: AppDeps, id: string) => readObjectOfType(deps, groups, 'group', id, 'group');
