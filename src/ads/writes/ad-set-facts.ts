import type { Knex } from 'knex';
import type { Config } from '../../config/index.ts';
import { dialect } from '../../db/index.ts';
import { isNumericId } from '../../db/ids.ts';
import { localesOf } from '../rules/targeting.ts';
import type { AdSetDraft, AdSetRuleContext, CampaignFacts } from '../rules/ad-set.ts';
import { audienceIdsOf, conversionIdsOf, type AudienceFacts, type ConversionFacts } from '../rules/restrictions.ts';
import type { ApplicationFacts } from '../rules/applications.ts';
import { adAccounts, campaigns, customAudiences, customConversions, type AdAccountRecord } from '../store.ts';

/**
 * The facts the ad set rules need, looked up for one draft: its campaign, the audiences and conversions it
 * names, the page post it promotes, the ad set it says it came from. Plain queries on whatever `q` is, so a
 * write reads them inside its transaction (SQLite has one connection: a loader outside it would wait forever).
 */
export async function loadRuleFacts(
  q: Knex,
  config: Config,
  account: AdAccountRecord,
  draft: AdSetDraft,
  options: { mode: AdSetRuleContext['mode']; sent: ReadonlySet<string>; currentCampaignId?: string; lockCampaign?: boolean },
): Promise<AdSetRuleContext> {
  const campaignQuery = q(campaigns.table).where({ id: draft.campaignId }).first();
  // A campaign being deleted holds its row: the ad set waits, then sees it DELETED (PostgreSQL; SQLite writes one at a time).
  if (options.lockCampaign && dialect(q) === 'postgres') campaignQuery.forShare();
  const audienceIds = audienceIdsOf(draft.targeting);
  const conversionIds = conversionIdsOf(draft.promotedObject);
  // One after another: `q` may be a transaction, whose one connection runs one statement at a time.
  const campaignRow = isNumericId(draft.campaignId) ? await campaignQuery : undefined;
  const audienceRows = audienceIds.length > 0 ? await q(customAudiences.table).whereIn('id', audienceIds) : [];
  const conversionRows = conversionIds.length > 0 ? await q(customConversions.table).whereIn('id', conversionIds) : [];
  const campaign = campaignRow ? campaigns.fromRow(campaignRow) : null;
  const audiences = new Map<string, AudienceFacts>(
    (audienceRows as Array<Record<string, unknown>>).map((row) => {
      const audience = customAudiences.fromRow(row);
      return [audience.id, audience];
    }),
  );
  const conversions = new Map<string, ConversionFacts>(
    (conversionRows as Array<Record<string, unknown>>).map((row) => {
      const conversion = customConversions.fromRow(row);
      return [conversion.id, conversion];
    }),
  );
  return {
    mode: options.mode,
    sent: options.sent,
    account,
    campaign: campaign && campaign.accountId === account.id ? (campaign satisfies CampaignFacts) : null,
    currentCampaignId: options.currentCampaignId,
    audiences,
    conversions,
    promotedPost: await promotedPost(q, account, draft.promotedObject),
    applications: await applicationsNamed(q, draft.promotedObject),
    sourceAdSet:
      draft.sourceAdsetId === null ? undefined : (await q('ad_sets').where({ id: draft.sourceAdsetId, account_id: account.id }).first()) ? 'found' : 'missing',
    budgets: config.adSets.budgets,
    now: new Date(),
  };
}

/** promoted_object.object_story_id: `<page id>_<post id>` or the post id, a post on a page of the account's organization. */
async function promotedPost(q: Knex, account: AdAccountRecord, promotedObject: unknown): Promise<AdSetRuleContext['promotedPost']> {
  const raw = (promotedObject as { object_story_id?: unknown } | null)?.object_story_id;
  if (raw === undefined || raw === null) return undefined;
  const parts = typeof raw === 'number' ? [String(raw)] : typeof raw === 'string' ? raw.trim().split('_') : [];
  const postId = parts.at(-1) ?? '';
  if (parts.length > 2 || !isNumericId(postId) || (parts.length === 2 && !isNumericId(parts[0]!))) return 'missing';
  const row = await q('posts').where({ id: postId, organization_id: account.organizationId }).first();
  if (!row || (parts.length === 2 && String(row.page_id) !== parts[0])) return 'missing';
  const targeting = typeof row.targeting === 'string' ? JSON.parse(row.targeting) : row.targeting;
  return { locales: localesOf(targeting) };
}

/** The known application promoted_object.application_id names, if any (none when it names none, or an unknown one). */
async function applicationsNamed(q: Knex, promotedObject: unknown): Promise<Map<string, ApplicationFacts>> {
  const raw = (promotedObject as { application_id?: unknown } | null)?.application_id;
  const id = raw === undefined || raw === null ? '' : String(raw);
  if (!isNumericId(id)) return new Map();
  const row = (await q('applications').where({ id }).first()) as Record<string, unknown> | undefined;
  if (!row) return new Map();
  const urls = (typeof row.store_urls === 'string' ? JSON.parse(row.store_urls) : row.store_urls) as Record<string, string>;
  // By store name: PostgreSQL's jsonb does not keep the order the keys were written in.
  const storeUrls = Object.keys(urls)
    .sort()
    .map((store) => urls[store]!);
  return new Map([[id, { id, name: String(row.name), storeUrls }]]);
}

/** An account row read inside a transaction. */
export async function accountRow(q: Knex, id: string): Promise<AdAccountRecord> {
  return adAccounts.fromRow(await q(adAccounts.table).where({ id }).first());
}
