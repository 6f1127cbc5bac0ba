import type { Knex } from 'knex';
import { timeNow, type RequestContext } from '../../context/index.ts';
import { lockRow } from '../../db/locks.ts';
import { isNumericId } from '../../db/ids.ts';
import { insertObjects } from '../../db/objects.ts';
import { given, httpUrl, jsonObject, oneOf, paramError, text, type Params, type Reader } from '../../graph-api/params.ts';
import { findAdCreative } from '../creatives.ts';
import {
  CALL_TO_ACTION_TYPES,
  CREATIVE_LIMITS,
  CREATIVE_PARAMS,
  contentViolations,
  deleteViolations,
  normalizedStorySpec,
  pageViolations,
  storySpecViolations,
  UPDATABLE_CREATIVE_PARAMS,
  usableViolations,
} from '../rules/creatives.ts';
import { refuseFirst, type Violation } from '../rules/violations.ts';
import { LIVE_AD_STATUSES } from '../rules/limits.ts';
import { adCreatives, type AdAccountRecord, type AdCreativeRecord } from '../store.ts';
import { accountForCreate, lockRecord, visibleForWrite } from './common.ts';

/**
 * Creative writes (issue 21): POST /act_<id>/adcreatives, POST /<creative> (its name), DELETE /<creative>, and the
 * creative an ad names (`creative: {creative_id}`, or a creative given inline, created with the ad as the platform
 * does). Creatives are authorized as ads are: they exist to be shown by ads.
 */

const RESOURCE = 'ad';

/** The account a creative goes into (an ad's, when the ad gives it inline). */
type AccountRef = Pick<AdAccountRecord, 'id' | 'organizationId'>;

type CreativeContent = Omit<AdCreativeRecord, 'id' | 'organizationId' | 'accountId' | 'status' | 'extra' | 'createdTime' | 'updatedTime'>;

/** The path of a parameter: top level (`title`), or inside an ad's inline creative (`creative.title`). */
const pathOf = (prefix: string, key: string) => (prefix ? `${prefix}.${key}` : key);
const prefixed = (prefix: string, violations: Violation[]) => violations.map((v) => (prefix ? { ...v, field: pathOf(prefix, v.field) } : v));

function read<T>(source: Params, prefix: string, key: string, reader: Reader<T>): T | undefined {
  return given(source, key) ? reader(source[key], pathOf(prefix, key)) : undefined;
}

/**
 * A creative's content from the caller's parameters: flat text fields through the Graph readers, the story
 * through its rules (every violation named by path; the first refused), unknown names refused when inline.
 */
function readCreative(source: Params, prefix: string): CreativeContent {
  if (prefix) {
    const unknown = Object.keys(source).find((key) => !(CREATIVE_PARAMS as readonly string[]).includes(key));
    if (unknown)
      throw paramError(
        pathOf(prefix, unknown),
        `Param ${pathOf(prefix, unknown)} is not a creative field; give creative_id alone, or ${CREATIVE_PARAMS.join(', ')}`,
      );
  }
  const title = read(source, prefix, 'title', text({ max: CREATIVE_LIMITS.title }));
  const body = read(source, prefix, 'body', text({ max: CREATIVE_LIMITS.body }));
  const imageUrl = read(source, prefix, 'image_url', httpUrl);
  const linkUrl = read(source, prefix, 'link_url', httpUrl);
  const storySpec = read(source, prefix, 'object_story_spec', jsonObject);
  if (storySpec !== undefined) refuseFirst(prefixed(prefix, storySpecViolations(storySpec)));
  refuseFirst(prefixed(prefix, contentViolations({ storySpec, title, body, imageUrl, linkUrl })));
  const linkName =
    storySpec && typeof (storySpec.link_data as Record<string, unknown> | undefined)?.name === 'string'
      ? String((storySpec.link_data as Record<string, unknown>).name)
      : undefined;
  return {
    name:
      read(source, prefix, 'name', text({ max: CREATIVE_LIMITS.name, nonEmpty: true })) ??
      (title || linkName || 'Untitled creative').slice(0, CREATIVE_LIMITS.name),
    title: title ?? null,
    body: body ?? null,
    imageUrl: imageUrl ?? null,
    linkUrl: linkUrl ?? null,
    callToActionType: read(source, prefix, 'call_to_action_type', oneOf(CALL_TO_ACTION_TYPES)) ?? null,
    urlTags: read(source, prefix, 'url_tags', text({ max: CREATIVE_LIMITS.urlTags })) ?? null,
    objectStorySpec: storySpec === undefined ? null : normalizedStorySpec(storySpec),
  };
}

/** Stores a checked creative in the account, after the story's page is found to be the organization's. */
async function insertCreative(trx: Knex.Transaction, account: AccountRef, content: CreativeContent, prefix: string): Promise<AdCreativeRecord> {
  const story = content.objectStorySpec as Record<string, unknown> | null;
  if (story) {
    const pageId = String(story.page_id);
    const page: { organization_id?: unknown } | undefined = await trx('pages').where({ id: pageId }).first('organization_id');
    refuseFirst(prefixed(prefix, pageViolations(pageId, page ? String(page.organization_id) : null, account.organizationId, account.id)));
  }
  const [created] = await insertObjects<AdCreativeRecord>(trx, 'ad_creative', adCreatives, [
    { ...content, organizationId: account.organizationId, accountId: account.id, status: 'ACTIVE', extra: null },
  ]);
  return created!;
}

const primed = (ctx: RequestContext, creative: AdCreativeRecord) => {
  ctx.loaders.ads.creativeById.clear(creative.id).prime(creative.id, creative);
  return creative;
};

/** POST /act_<id>/adcreatives (GraphQL createAdCreative). */
export async function createAdCreative(ctx: RequestContext, accountId: string, params: Params): Promise<AdCreativeRecord> {
  params ??= {};
  const account = await accountForCreate(ctx, accountId, RESOURCE, 'creatives');
  const content = readCreative(params, '');
  return primed(ctx, await ctx.db.transaction((trx) => insertCreative(trx, account, content, '')));
}

/** POST /<creative>: its name; the content is fixed once created (a new creative is made for new content). */
export async function updateAdCreative(ctx: RequestContext, creativeId: string, params: Params): Promise<AdCreativeRecord> {
  params ??= {};
  const found = await visibleForWrite(ctx, RESOURCE, 'Creative', creativeId, 'update', findAdCreative);
  const fixed = CREATIVE_PARAMS.find((name) => given(params, name) && !(UPDATABLE_CREATIVE_PARAMS as readonly string[]).includes(name));
  if (fixed)
    throw paramError(
      fixed,
      `Param ${fixed} cannot be changed: a creative's content is fixed once created; create a new creative and give it to the ads instead`,
    );
  const name = read(params, '', 'name', text({ max: CREATIVE_LIMITS.name, nonEmpty: true }));
  const updated = await ctx.db.transaction(async (trx) => {
    const current = await lockRecord(ctx, trx, adCreatives, found.id);
    if (current.status === 'DELETED') throw paramError('id', `Creative ${current.id} is deleted and cannot be changed`);
    if (name !== undefined)
      await trx(adCreatives.table)
        .where({ id: current.id })
        .update(adCreatives.toRow({ name, updatedTime: timeNow(ctx) }));
    return adCreatives.fromRow(await trx(adCreatives.table).where({ id: current.id }).first());
  });
  return primed(ctx, updated);
}

/**
 * DELETE /<creative>: status DELETED (it stays readable by id), refused while an ad that may still deliver uses
 * it. The creative's row is held, and ads take it under the same lock, so no ad can start using it meanwhile.
 */
export async function deleteAdCreative(ctx: RequestContext, creativeId: string): Promise<void> {
  const found = await visibleForWrite(ctx, RESOURCE, 'Creative', creativeId, 'delete', findAdCreative);
  const deleted = await ctx.db.transaction(async (trx) => {
    const current = await lockRecord(ctx, trx, adCreatives, found.id);
    if (current.status === 'DELETED') return current;
    const users: Array<{ id: unknown }> = await trx('ads').where({ creative_id: current.id }).whereIn('status', LIVE_AD_STATUSES).orderBy('id').select('id');
    refuseFirst(
      deleteViolations(
        current.id,
        users.map((row) => String(row.id)),
      ),
    );
    await trx(adCreatives.table)
      .where({ id: current.id })
      .update(adCreatives.toRow({ status: 'DELETED', updatedTime: timeNow(ctx) }));
    return { ...current, status: 'DELETED' as const };
  });
  primed(ctx, deleted);
}

/**
 * The creative an ad write names, inside the ad's transaction: `{creative_id}` must be a live creative of the
 * account (its row held until the ad is stored, so a delete cannot slip between), anything else is a creative
 * given inline, created here with the ad.
 */
export async function creativeForAd(trx: Knex.Transaction, ctx: RequestContext, account: AccountRef, value: Record<string, unknown>): Promise<string> {
  if (value.creative_id !== undefined) {
    const extra = Object.keys(value).find((key) => key !== 'creative_id');
    if (extra)
      throw paramError(
        `creative.${extra}`,
        `Param creative.${extra} cannot be given with creative.creative_id: name an existing creative, or give a new one inline`,
      );
    const id = String(value.creative_id);
    const row = isNumericId(id) ? await lockRow(ctx.db, trx, adCreatives.table, id) : undefined;
    const creative = row ? adCreatives.fromRow(row) : null;
    refuseFirst(usableViolations(creative, id, account.id));
    return id;
  }
  const created = await insertCreative(trx, account, readCreative(value, 'creative'), 'creative');
  return created.id;
}
