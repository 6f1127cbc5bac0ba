import type { RequestContext } from '../context/index.ts';
import type { GraphObjectType } from '../db/ids.ts';
import { isNumericId, isUuid } from '../db/ids.ts';
import { badInput } from '../errors/index.ts';
import * as ads from '../ads/service.ts';
import * as comments from '../comments/service.ts';
import * as identity from '../identity/service.ts';
import * as oauth from '../oauth/service.ts';
import { parseCommentId } from '../comments/store.ts';
import { typed } from './helpers.ts';
import type { ResolversInterfaceTypes } from './__generated__/resolvers-types.ts';

/** A record of one of the Node types, tagged with its GraphQL type name. */
export type NodeModel = ResolversInterfaceTypes<Record<string, never>>['Node'];

type Finder = (ctx: RequestContext, id: string) => Promise<object | null>;

/** Numeric ids name their type in the graph_objects registry; this says which finder and GraphQL type go with it. */
const BY_OBJECT_TYPE: Partial<Record<GraphObjectType, [string, Finder]>> = {
  ad_account: ['AdAccount', ads.findAdAccount],
  campaign: ['Campaign', ads.findCampaign],
  ad_set: ['AdSet', ads.findAdSet],
  ad: ['Ad', ads.findAd],
  custom_audience: ['CustomAudience', ads.findCustomAudience],
  custom_conversion: ['CustomConversion', ads.findCustomConversion],
  page: ['Page', comments.findPage],
  post: ['Post', comments.findPost],
  api_client: ['ApiClient', oauth.findApiClient],
};

/** Any object by its global id, or null when it does not exist or the caller may not see it. */
export async function resolveNode(ctx: RequestContext, id: string): Promise<NodeModel | null> {
  return (await findNode(ctx, id)) as NodeModel | null;
}

async function findNode(ctx: RequestContext, id: string): Promise<object | null> {
  identity.requireViewer(ctx);
  if (isNumericId(id)) {
    const entry = await ctx.loaders.objectTypes.load(id);
    const handler = entry ? BY_OBJECT_TYPE[entry.type] : undefined;
    return handler ? typed(handler[0], await handler[1](ctx, id)) : null;
  }
  if (isUuid(id)) {
    const [user, organization, membership] = await Promise.all([
      identity.findUser(ctx, id),
      identity.findOrganization(ctx, id),
      identity.findMembership(ctx, id),
    ]);
    return typed('User', user) ?? typed('Organization', organization) ?? typed('OrganizationMember', membership);
  }
  if (parseCommentId(id).ok) return typed('Comment', await comments.findComment(ctx, id));
  throw badInput('id', `"${id.slice(0, 64)}" is not an id: expected a numeric id, a UUID or <post id>_<comment id>.`);
}
