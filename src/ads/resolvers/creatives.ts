import type { MutationResolvers, QueryResolvers, Resolvers } from '../../graphql/__generated__/resolvers-types.ts';
import { connectionFields } from '../../graphql/connections.ts';
import { graphParams, must } from '../../graphql/helpers.ts';
import { assertNumericId } from '../../authz/guards.ts';
import { findPage } from '../../comments/service.ts';
import { paramError } from '../../graph-api/params.ts';
import { findAdCreative } from '../creatives.ts';
import { parseAdAccountId } from '../service.ts';
import { graphSpec } from '../graphql-shapes.ts';
import { createAdCreative, deleteAdCreative, updateAdCreative } from '../writes/creatives.ts';
import type { CallToActionType } from '../rules/creatives.ts';

/**
 * Creatives in GraphQL, over the one service of writes/creatives.ts: the typed input becomes the Graph API's
 * parameters (snake_case at every depth, so a refusal names the same path, input.objectStorySpec.linkData.link),
 * and the stored story (Graph JSON) is read through the models below.
 */

/** The stored story, as the Graph API writes it. */
export interface StorySpecModel {
  page_id: string;
  instagram_user_id?: string;
  link_data?: LinkDataModel;
}
export interface LinkDataModel {
  link: string;
  message?: string;
  name?: string;
  description?: string;
  caption?: string;
  picture?: string;
  call_to_action?: CallToActionModel;
}
export interface CallToActionModel {
  type: CallToActionType;
  value?: { link?: string };
}

/** The story input: the call to action's link goes where the platform keeps it (`value.link`). */
function storySpecParams(input: Record<string, unknown>): Record<string, unknown> {
  const story = graphSpec(input) as Record<string, unknown>;
  const cta = (story.link_data as Record<string, unknown> | undefined)?.call_to_action as Record<string, unknown> | undefined;
  if (cta && 'link' in cta) {
    const { link, ...rest } = cta;
    (story.link_data as Record<string, unknown>).call_to_action = { ...rest, value: { link } };
  }
  return story;
}

/**
 * An ad input's creative: `creativeId` names an existing one (as `{creative_id}`, the Graph API's form), `creative`
 * gives one inline; both at once is refused.
 */
export function adCreativeParams(params: Record<string, unknown>): Record<string, unknown> {
  const { creative_id: creativeId, ...rest } = params;
  if (creativeId === undefined) return rest;
  if (rest.creative !== undefined) throw paramError('creative_id', 'Give creativeId or creative, not both');
  return { ...rest, creative: { creative_id: creativeId } };
}

export const creativeQueries: Pick<QueryResolvers, 'adCreative'> = {
  adCreative: (_, { id }, ctx) => {
    assertNumericId(id);
    return findAdCreative(ctx, id);
  },
};

export const creativeMutations: Pick<MutationResolvers, 'createAdCreative' | 'updateAdCreative' | 'deleteAdCreative'> = {
  createAdCreative: (_, { accountId, input }, ctx) => {
    const { objectStorySpec, ...flat } = input;
    return createAdCreative(ctx, parseAdAccountId(accountId, 'accountId'), {
      ...graphParams(flat),
      ...(objectStorySpec ? { object_story_spec: storySpecParams(objectStorySpec as unknown as Record<string, unknown>) } : {}),
    });
  },
  updateAdCreative: (_, { id, input }, ctx) => {
    assertNumericId(id);
    return updateAdCreative(ctx, id, graphParams(input));
  },
  deleteAdCreative: async (_, { id }, ctx) => {
    assertNumericId(id);
    await deleteAdCreative(ctx, id);
    return true;
  },
};

export const creativeResolvers: Pick<
  Resolvers,
  'AdCreative' | 'AdCreativeStorySpec' | 'AdCreativeLinkData' | 'AdCreativeCallToAction' | 'AdCreativeConnection'
> = {
  AdCreative: {
    callToActionType: (creative) => creative.callToActionType as CallToActionType | null,
    objectStorySpec: (creative) => creative.objectStorySpec as StorySpecModel | null,
    account: async (creative, _, ctx) => must(await ctx.loaders.ads.adAccountById.load(creative.accountId)),
  },
  AdCreativeStorySpec: {
    page: (story, _, ctx) => findPage(ctx, story.page_id),
    pageId: (story) => story.page_id,
    instagramUserId: (story) => story.instagram_user_id ?? null,
    linkData: (story) => story.link_data ?? null,
  },
  AdCreativeLinkData: {
    callToAction: (link) => link.call_to_action ?? null,
  },
  AdCreativeCallToAction: {
    link: (cta) => cta.value?.link ?? null,
  },
  AdCreativeConnection: connectionFields,
};
