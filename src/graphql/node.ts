import type { RequestContext } from '../context/index.ts';
import { badInput } from '../errors/index.ts';
import { findObject, isObjectId, type ObjectKind } from '../authz/objects.ts';
import { typed } from './helpers.ts';
import type { ResolversInterfaceTypes } from './__generated__/resolvers-types.ts';

/** A record of one of the Node types, tagged with its GraphQL type name. */
export type NodeModel = ResolversInterfaceTypes<Record<string, never>>['Node'];

const TYPENAME: Record<ObjectKind, string> = {
  user: 'User',
  organization: 'Organization',
  organization_member: 'OrganizationMember',
  api_client: 'ApiClient',
  ad_account: 'AdAccount',
  campaign: 'Campaign',
  ad_set: 'AdSet',
  ad: 'Ad',
  custom_audience: 'CustomAudience',
  custom_conversion: 'CustomConversion',
  page: 'Page',
  post: 'Post',
  comment: 'Comment',
  async_request_set: 'AsyncRequestSet',
  async_request: 'AsyncRequest',
  insights_report_run: 'InsightsReport',
  ad_study: 'AdStudy',
  ad_creative: 'AdCreative',
  ad_rule: 'AdRule',
  ad_rule_run: 'AdRuleHistory',
  ad_study_cell: 'AdStudyCell',
};

/** Any object by its global id, or null when it does not exist or the caller may not see it. */
export async function resolveNode(ctx: RequestContext, id: string): Promise<NodeModel | null> {
  if (!isObjectId(id)) {
    throw badInput('id', `"${id.slice(0, 64)}" is not an id: expected a numeric id, act_<id>, a UUID or <post id>_<comment id>.`);
  }
  const found = await findObject(ctx, id);
  return found ? (typed(TYPENAME[found.kind], found.record) as unknown as NodeModel) : null;
}
