import type { RequestContext } from '../context/index.ts';
import type { GraphObjectType } from '../db/ids.ts';
import { isNumericId, isUuid } from '../db/ids.ts';
import * as ads from '../ads/service.ts';
import * as studies from '../ads/studies.ts';
import * as creatives from '../ads/creatives.ts';
import * as adRules from '../ads/ad-rules.ts';
import * as comments from '../comments/service.ts';
import * as reports from '../insights/reports/service.ts';
import * as identity from '../identity/service.ts';
import * as oauth from '../oauth/service.ts';
import { parseCommentId } from '../comments/store.ts';
import type { ResourceType, Subject } from './policy.ts';

/** Every kind of object an id can name and a caller can read (groups are only names that mentions resolve to). */
export type ObjectKind = 'user' | 'organization' | 'organization_member' | Exclude<GraphObjectType, 'group'>;

export interface FoundObject {
  kind: ObjectKind;
  record: object;
  /** The object as the policy sees it. */
  subject: Subject;
}

type OwnedFinder = (ctx: RequestContext, id: string) => Promise<{ organizationId: string } | null>;

/** The resource type the policy knows each kind by (custom conversions are authorized as custom audiences). */
export const RESOURCE_TYPE_OF: Record<ObjectKind, ResourceType> = {
  user: 'user',
  organization: 'organization',
  organization_member: 'organization_member',
  api_client: 'api_client',
  ad_account: 'ad_account',
  campaign: 'campaign',
  ad_set: 'ad_set',
  ad: 'ad',
  custom_audience: 'custom_audience',
  custom_conversion: 'custom_audience',
  page: 'page',
  post: 'post',
  comment: 'comment',
  // Asynchronous requests act on ad sets, and are authorized as them.
  async_request_set: 'ad_set',
  async_request: 'ad_set',
  // A report run holds its ad account's statistics: read as the account is.
  insights_report_run: 'ad_account',
  // A study splits campaigns' and ad sets' audiences: authorized as campaigns are.
  ad_study: 'campaign',
  // A creative exists to be shown by ads: authorized as ads are.
  ad_creative: 'ad',
  // Automated rules act on ad sets (and their evaluations are the rules'): authorized as ad sets are.
  ad_rule: 'ad_set',
  ad_rule_run: 'ad_set',
  ad_study_cell: 'campaign',
};

const NUMERIC_FINDERS: Record<Exclude<ObjectKind, 'user' | 'organization' | 'organization_member' | 'comment'>, OwnedFinder> = {
  ad_account: ads.findAdAccount,
  campaign: ads.findCampaign,
  ad_set: ads.findAdSet,
  ad: ads.findAd,
  custom_audience: ads.findCustomAudience,
  custom_conversion: ads.findCustomConversion,
  page: comments.findPage,
  post: comments.findPost,
  api_client: oauth.findApiClient,
  async_request_set: ads.findAsyncRequestSet,
  async_request: ads.findAsyncRequest,
  insights_report_run: reports.findReportRun,
  ad_study: studies.findAdStudy,
  ad_creative: creatives.findAdCreative,
  ad_rule: adRules.findAdRule,
  ad_rule_run: adRules.findAdRuleRun,
  ad_study_cell: studies.findAdStudyCell,
};

const owned = (kind: ObjectKind, record: { organizationId: string } | null): FoundObject | null =>
  record ? { kind, record, subject: { type: RESOURCE_TYPE_OF[kind], organizationId: record.organizationId } } : null;

async function findUserObject(ctx: RequestContext, id: string): Promise<FoundObject | null> {
  const user = await identity.findUser(ctx, id);
  return user ? { kind: 'user', record: user, subject: await identity.userSubject(ctx, user.id) } : null;
}

/** An ad account's id as the Graph API writes it (DECISIONS section 4): `act_<id>`. */
const isAdAccountId = (id: string) => id.startsWith('act_') && isNumericId(id.slice(4));

/** True when `id` has the shape of some object id: numeric, `act_<id>`, UUID, or `<post id>_<comment id>`. */
export const isObjectId = (id: string) => isNumericId(id) || isAdAccountId(id) || isUuid(id) || parseCommentId(id).ok;

/**
 * Any object the caller may read, by its id alone, with its kind and policy subject; null when it does not
 * exist, the caller may not read it, or the id has no object's shape. node(id:) and authcheck both use it.
 */
export async function findObject(ctx: RequestContext, id: string, kinds?: readonly ObjectKind[]): Promise<FoundObject | null> {
  identity.requireViewer(ctx);
  const wanted = (kind: ObjectKind) => !kinds || kinds.includes(kind);
  // Ad accounts are addressed as act_<id> too (DECISIONS section 4), as adAccount(id:) and /v24.0 take them.
  if (isAdAccountId(id)) {
    return wanted('ad_account') ? owned('ad_account', await ads.findAdAccount(ctx, id.slice(4))) : null;
  }
  if (isNumericId(id)) {
    const entry = await ctx.loaders.objectTypes.load(id);
    const kind = entry?.type as ObjectKind | undefined;
    if (!kind || kind === 'comment' || !wanted(kind) || !(kind in NUMERIC_FINDERS)) return null;
    return owned(kind, await NUMERIC_FINDERS[kind as keyof typeof NUMERIC_FINDERS](ctx, id));
  }
  if (isUuid(id)) {
    const normalized = id.toLowerCase();
    const [user, organization, membership] = await Promise.all([
      wanted('user') ? findUserObject(ctx, normalized) : null,
      wanted('organization') ? identity.findOrganization(ctx, normalized) : null,
      wanted('organization_member') ? identity.findMembership(ctx, normalized) : null,
    ]);
    return user ?? owned('organization', organization && { ...organization, organizationId: organization.id }) ?? owned('organization_member', membership);
  }
  if (parseCommentId(id).ok && wanted('comment')) {
    // A comment's subject knows its author, its post's kind and who sees it hidden (the policy's comment rules).
    const found = await comments.findCommentObject(ctx, id);
    return found && { kind: 'comment', record: found.comment, subject: found.subject };
  }
  return null;
}

/** The object of a policy resource type (`*`: of any type) with this id, under the same rules as findObject. */
export function findObjectOfType(ctx: RequestContext, type: ResourceType | '*', id: string): Promise<FoundObject | null> {
  if (type === '*') return findObject(ctx, id);
  const kinds = (Object.keys(RESOURCE_TYPE_OF) as ObjectKind[]).filter((kind) => RESOURCE_TYPE_OF[kind] === type);
  return findObject(ctx, id, kinds);
}
