import type { AppDeps } from '../context/index.ts';
import { insertObjects } from '../db/objects.ts';
import { findOrganizationOrFail, validateName } from '../ads/admin.ts';
import { pages, type PageRecord } from './store.ts';

/** Operator services for the command line (DECISIONS section 7). Bad input names the CLI option it came from. */

export interface CreatePageInput {
  /** Organization id or name. */
  organization: string;
  name: string;
}

/** A page of an organization, without a category (API callers and the organization's roles take it from there). */
export async function createPage(deps: AppDeps, input: CreatePageInput): Promise<PageRecord> {
  const name = validateName(input.name);
  const organization = await findOrganizationOrFail(deps, input.organization);
  const [page] = await deps.db.transaction((trx) =>
    insertObjects<PageRecord>(trx, 'page', pages, [{ organizationId: organization.id, name, category: null }]),
  );
  return page!;
}
