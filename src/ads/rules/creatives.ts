/**
 * Ad creatives: what a creative may hold, and when it may be used or deleted. Pure tables and functions, no I/O:
 * the write reads the flat parameters and looks up the page and the ads using the creative, and hands them over.
 */
import { asObject } from './stored-json.ts';
import { violation, type Violation } from './violations.ts';

export const CREATIVE_STATUSES = ['ACTIVE', 'DELETED'] as const;
export type CreativeStatus = (typeof CREATIVE_STATUSES)[number];

/** The call-to-action buttons a link creative may carry (the platform's common ones; NO_BUTTON shows none). */
export const CALL_TO_ACTION_TYPES = [
  'APPLY_NOW',
  'BOOK_TRAVEL',
  'BUY_NOW',
  'CONTACT_US',
  'DOWNLOAD',
  'GET_OFFER',
  'GET_QUOTE',
  'LEARN_MORE',
  'LISTEN_NOW',
  'MESSAGE_PAGE',
  'NO_BUTTON',
  'ORDER_NOW',
  'SHOP_NOW',
  'SIGN_UP',
  'SUBSCRIBE',
  'WATCH_MORE',
  'WHATSAPP_MESSAGE',
] as const;
export type CallToActionType = (typeof CALL_TO_ACTION_TYPES)[number];

export const CREATIVE_LIMITS = { name: 400, title: 255, body: 2200, urlTags: 1024, linkText: 2200 } as const;

/** The parameters a creative is created with; the platform's names. */
export const CREATIVE_PARAMS = ['name', 'title', 'body', 'image_url', 'link_url', 'call_to_action_type', 'url_tags', 'object_story_spec'] as const;
/** What an update may change: a creative's content is fixed once ads may show it (the platform's rule). */
export const UPDATABLE_CREATIVE_PARAMS = ['name'] as const;

/** The keys of object_story_spec and of its link_data the gateway stores; anything else is refused by name. */
const STORY_KEYS = ['page_id', 'instagram_user_id', 'link_data'] as const;
const LINK_DATA_KEYS = ['link', 'message', 'name', 'description', 'caption', 'picture', 'call_to_action'] as const;
const CALL_TO_ACTION_KEYS = ['type', 'value'] as const;

const isId = (value: unknown) => (typeof value === 'string' && /^[1-9][0-9]{0,18}$/.test(value)) || (Number.isSafeInteger(value) && (value as number) > 0);
const length = (text: string) => [...text].length;

function isHttpUrl(value: unknown): boolean {
  if (typeof value !== 'string' || length(value) > 2048) return false;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

function unknownKeys(object: Record<string, unknown>, known: readonly string[], path: string): Violation[] {
  return Object.keys(object)
    .filter((key) => !known.includes(key))
    .map((key) => violation(`${path}.${key}`, `Param ${path}.${key} is not a field of ${path}; its fields are ${known.join(', ')}`));
}

function optionalText(object: Record<string, unknown>, key: string, path: string, max: number): Violation[] {
  const value = object[key];
  if (value === undefined || value === null) return [];
  if (typeof value !== 'string') return [violation(`${path}.${key}`, `Param ${path}.${key} must be a string`)];
  return length(value) > max ? [violation(`${path}.${key}`, `Param ${path}.${key} must be at most ${max} characters`)] : [];
}

/** The story's call to action: a known type, and a link in `value` when it has one. */
function callToActionViolations(value: unknown, path: string): Violation[] {
  const object = asObject(value);
  if (!object) return [violation(path, `Param ${path} must be a JSON object`)];
  const out = unknownKeys(object, CALL_TO_ACTION_KEYS, path);
  if (!(CALL_TO_ACTION_TYPES as readonly unknown[]).includes(object.type)) {
    out.push(violation(`${path}.type`, `Param ${path}.type must be one of {${CALL_TO_ACTION_TYPES.join(', ')}}`));
  }
  if (object.value !== undefined) {
    const inner = asObject(object.value);
    if (!inner) out.push(violation(`${path}.value`, `Param ${path}.value must be a JSON object`));
    else if (inner.link !== undefined && !isHttpUrl(inner.link))
      out.push(violation(`${path}.value.link`, `Param ${path}.value.link must be an http or https URL`));
  }
  return out;
}

/**
 * object_story_spec: the page the ad runs as (required) and, for a link ad, its link_data (link required, an http
 * or https URL). Unknown keys are refused by name rather than dropped, so nothing a caller sends is silently lost.
 */
export function storySpecViolations(value: unknown): Violation[] {
  const path = 'object_story_spec';
  const spec = asObject(value);
  if (!spec) return [violation(path, `Param ${path} must be a JSON object`)];
  const out = unknownKeys(spec, STORY_KEYS, path);
  if (spec.page_id === undefined || spec.page_id === null) out.push(violation(`${path}.page_id`, `The parameter ${path}.page_id is required`));
  else if (!isId(spec.page_id)) out.push(violation(`${path}.page_id`, `Param ${path}.page_id must be a valid ID`));
  if (spec.instagram_user_id !== undefined && !isId(spec.instagram_user_id)) {
    out.push(violation(`${path}.instagram_user_id`, `Param ${path}.instagram_user_id must be a valid ID`));
  }
  if (spec.link_data !== undefined) {
    const linkPath = `${path}.link_data`;
    const link = asObject(spec.link_data);
    if (!link) return [...out, violation(linkPath, `Param ${linkPath} must be a JSON object`)];
    out.push(...unknownKeys(link, LINK_DATA_KEYS, linkPath));
    if (link.link === undefined) out.push(violation(`${linkPath}.link`, `The parameter ${linkPath}.link is required`));
    else if (!isHttpUrl(link.link)) out.push(violation(`${linkPath}.link`, `Param ${linkPath}.link must be an http or https URL`));
    if (link.picture !== undefined && !isHttpUrl(link.picture))
      out.push(violation(`${linkPath}.picture`, `Param ${linkPath}.picture must be an http or https URL`));
    for (const key of ['message', 'name', 'description', 'caption']) out.push(...optionalText(link, key, linkPath, CREATIVE_LIMITS.linkText));
    if (link.call_to_action !== undefined) out.push(...callToActionViolations(link.call_to_action, `${linkPath}.call_to_action`));
  }
  return out;
}

/** The stored story with its ids as strings, as every read prints them. */
export function normalizedStorySpec(spec: Record<string, unknown>): Record<string, unknown> {
  return {
    ...spec,
    page_id: String(spec.page_id),
    ...(spec.instagram_user_id !== undefined ? { instagram_user_id: String(spec.instagram_user_id) } : {}),
  };
}

/** A creative shows something: a story, or at least one of title, body, image and link. */
export function contentViolations(content: { storySpec?: unknown; title?: string; body?: string; imageUrl?: string; linkUrl?: string }): Violation[] {
  const { storySpec, title, body, imageUrl, linkUrl } = content;
  if (storySpec !== undefined || title || body || imageUrl || linkUrl) return [];
  return [
    violation(
      'object_story_spec',
      'The parameter object_story_spec is required: a creative needs a story, or at least one of title, body, image_url and link_url',
    ),
  ];
}

/** The story's page must be one of the account's organization (looked up by the caller: null when it is not). */
export function pageViolations(pageId: string, pageOrganization: string | null, accountOrganization: string, accountId: string): Violation[] {
  if (pageOrganization === accountOrganization) return [];
  return [
    violation('object_story_spec.page_id', `Page ${pageId} cannot be used by ad account act_${accountId}: it is not a page of the account's organization`, {
      userTitle: 'Page not available',
      userMessage: "Choose a Page that belongs to the ad account's business.",
    }),
  ];
}

/** A creative in use by ads that may still deliver (neither archived nor deleted) cannot be deleted. */
export function deleteViolations(creativeId: string, liveAdIds: readonly string[]): Violation[] {
  if (liveAdIds.length === 0) return [];
  const shown = liveAdIds.slice(0, 5).join(', ');
  return [
    violation(
      'id',
      `Creative ${creativeId} cannot be deleted: ${liveAdIds.length} ad(s) that are neither archived nor deleted use it (${shown}${liveAdIds.length > 5 ? ', ...' : ''})`,
      {
        userTitle: 'Creative in use',
        userMessage: 'Archive or delete the ads that use this creative, or give them another creative, first.',
      },
    ),
  ];
}

/** A creative an ad references must be live: a DELETED one is refused at `creative.creative_id`. */
export function usableViolations(creative: { id: string; status: string; accountId: string } | null, creativeId: string, accountId: string): Violation[] {
  if (!creative || creative.accountId !== accountId) {
    return [violation('creative.creative_id', `Param creative.creative_id must be the id of a creative of ad account act_${accountId}`)];
  }
  if (creative.status === 'DELETED') return [violation('creative.creative_id', `Creative ${creativeId} is deleted and cannot be used by an ad`)];
  return [];
}
