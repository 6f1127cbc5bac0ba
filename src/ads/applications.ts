import type { AppDeps } from '../context/index.ts';
import { isNumericId } from '../db/ids.ts';
import { listingPage, type ListingRequest } from '../db/pagination.ts';
import { defineTable } from '../db/rows.ts';
import { badInput, DomainError } from '../errors/index.ts';

/**
 * Applications an ad set may promote (`promoted_object.application_id`): registered by an operator under their
 * platform ids with `adgraph apps create`, each with its store URLs (rules/applications.ts checks ad sets against
 * them). They belong to no organization, as the platform's apps belong to their developers, not to advertisers.
 */
export interface ApplicationRecord {
  id: string;
  name: string;
  /** Store name -> URL: {"google_play": "https://play.google.com/...", "itunes": "https://apps.apple.com/..."}. */
  storeUrls: Record<string, string>;
  createdAt: Date;
  updatedAt: Date;
}

export const applications = defineTable<ApplicationRecord>('applications', {
  id: 'id',
  name: 'string',
  store_urls: 'json',
  created_at: 'date',
  updated_at: 'date',
});

const STORE_NAME = /^[a-z][a-z0-9_]{0,31}$/;
const MAX_STORES = 10;

function storeUrlsOf(entries: readonly string[]): Record<string, string> {
  if (entries.length === 0 || entries.length > MAX_STORES) throw badInput('store-url', `Give 1 to ${MAX_STORES} --store-url STORE=URL options.`);
  const urls: Record<string, string> = {};
  for (const entry of entries) {
    const at = entry.indexOf('=');
    const store = entry.slice(0, at);
    const url = entry.slice(at + 1);
    if (at <= 0 || !STORE_NAME.test(store)) throw badInput('store-url', `"${entry}" is not STORE=URL with a store name like google_play or itunes.`);
    let parsed: URL | undefined;
    try {
      parsed = new URL(url);
    } catch {
      parsed = undefined;
    }
    if (!parsed || !['http:', 'https:'].includes(parsed.protocol) || url.length > 2048)
      throw badInput('store-url', `The ${store} URL must be an http or https URL.`);
    if (urls[store] !== undefined) throw badInput('store-url', `The ${store} store is given twice.`);
    urls[store] = url;
  }
  return urls;
}

/** `adgraph apps create`: an application under its platform id, with its store URLs. */
export async function createApplication(deps: AppDeps, input: { id: string; name: string; storeUrls: readonly string[] }): Promise<ApplicationRecord> {
  const id = input.id.trim();
  if (!isNumericId(id)) throw badInput('id', 'The application id must be the platform id, digits only.');
  const name = input.name.trim();
  if (name === '' || name.length > 255) throw badInput('name', 'The name must be 1 to 255 characters.');
  const storeUrls = storeUrlsOf(input.storeUrls);
  const now = new Date();
  const record: ApplicationRecord = { id, name, storeUrls, createdAt: now, updatedAt: now };
  return deps.db.transaction(async (trx) => {
    if (await trx(applications.table).where({ id }).first()) throw new DomainError('CONFLICT', `Application ${id} is already registered.`, { field: 'id' });
    await trx(applications.table).insert(applications.toRow(record));
    return record;
  });
}

/** `adgraph apps list`: the registered applications in id order. */
export const listApplications = (deps: AppDeps, request: ListingRequest) => listingPage(deps.db(applications.table), applications, request, 'number');
