import type { Knex } from 'knex';
import { adRules, type AdRuleRecord } from '../../src/ads/ad-rules.ts';
import type { AppDeps } from '../../src/context/index.ts';
import type { Role } from '../../src/authz/policy.ts';
import { createOrganization, createUser, issueSession } from '../../src/identity/service.ts';
import { insertObjects } from '../../src/db/objects.ts';
import {
  adAccounts,
  adCreatives,
  ads,
  campaigns,
  customAudiences,
  customConversions,
  insertAdSets,
  newAdSet,
  type AdAccountRecord,
  type AdCreativeRecord,
  type AdRecord,
  type AdSetRecord,
  type CampaignRecord,
  type ObjectStatus,
} from '../../src/ads/store.ts';
import { insertComments, pages, posts, type CommentRecord, type PageRecord, type PostKind, type PostRecord } from '../../src/comments/store.ts';

export const PASSWORD = 'Correct-Horse-9-Battery';
let counter = 0;
const unique = (prefix: string) => `${prefix}${++counter}${Date.now().toString(36)}`;

/** Builds test worlds through the same services and stores the application uses. */
export function worldBuilder(deps: AppDeps) {
  return {
    async organization(name = unique('Org ')) {
      return createOrganization(deps, name);
    },
    /** A user (optionally with a role in an organization) and a live session token for it. */
    async user(options: { organizationId?: string; role?: Role; siteAdmin?: boolean } = {}) {
      const local = unique('u');
      const { user } = await createUser(deps, {
        email: `${local}@example.com`,
        password: PASSWORD,
        siteAdmin: options.siteAdmin,
        organization: options.organizationId,
        role: options.role,
      });
      const { sessionToken } = await issueSession(deps, user);
      return { user, token: sessionToken };
    },
    /** An organization whose admin is signed in, with an ad account holding one campaign: where GraphQL tests start. */
    async adminWithCampaign() {
      const org = await createOrganization(deps, unique('Org '));
      const { token } = await this.user({ organizationId: org.id, role: 'admin' });
      const account = await this.adAccount(org.id);
      const [campaign] = await this.campaigns(account, 1);
      return { org, token, account, campaign: campaign! };
    },
    /**
     * An organization's advertiser and its ad account, and an advertiser of another organization: where tests of
     * what an account's objects answer, and of what another organization is refused, start.
     */
    async advertiserWithAccount() {
      const org = await createOrganization(deps, unique('Org '));
      const advertiser = await this.user({ organizationId: org.id, role: 'advertiser' });
      const outsider = await this.user({ organizationId: (await createOrganization(deps, unique('Org '))).id, role: 'advertiser' });
      return { org, advertiser, token: advertiser.token, outsiderToken: outsider.token, account: await this.adAccount(org.id) };
    },
    async adAccount(organizationId: string, fields: Partial<AdAccountRecord> = {}) {
      const [account] = await deps.db.transaction((trx) =>
        insertObjects<AdAccountRecord>(trx, 'ad_account', adAccounts, [
          {
            organizationId,
            name: unique('Account '),
            accountStatus: 1,
            currency: 'USD',
            country: 'US',
            timezoneName: 'Etc/UTC',
            isBulk: false,
            defaultDsaPayor: null,
            defaultDsaBeneficiary: null,
            spendCap: null,
            ...fields,
          },
        ]),
      );
      return account!;
    },
    async campaigns(account: AdAccountRecord, count: number, fields: Partial<CampaignRecord> = {}) {
      return deps.db.transaction((trx) =>
        insertObjects<CampaignRecord>(
          trx,
          'campaign',
          campaigns,
          Array.from({ length: count }, (_, i) => ({
            organizationId: account.organizationId,
            accountId: account.id,
            name: `Campaign ${i + 1}`,
            objective: 'OUTCOME_TRAFFIC',
            status: 'ACTIVE' as ObjectStatus,
            specialAdCategories: [],
            specialAdCategoryCountry: null,
            bidStrategy: null,
            buyingType: 'AUCTION',
            dailyBudget: null,
            lifetimeBudget: null,
            spendCap: null,
            activeSeconds: '0',
            statusChangedTime: null,
            startTime: null,
            stopTime: null,
            ...fields,
          })),
        ),
      );
    },
    async adSets(campaign: CampaignRecord, count: number, fields: (i: number) => Partial<AdSetRecord> = () => ({})) {
      return deps.db.transaction((trx) =>
        insertAdSets(
          trx,
          Array.from({ length: count }, (_, i) =>
            newAdSet({
              organizationId: campaign.organizationId,
              accountId: campaign.accountId,
              campaignId: campaign.id,
              name: `Ad set ${i + 1}`,
              status: 'ACTIVE',
              // Every ad set the services write has a billing event (create requires it), and GraphQL reads it as required.
              billingEvent: 'IMPRESSIONS',
              targeting: { geo_locations: { countries: ['US'] } },
              ...fields(i),
            }),
          ),
        ),
      );
    },
    /** An automated rule of the account pausing its ad sets daily, acting as `userId`. */
    async rule(account: AdAccountRecord, userId: string) {
      const [rule] = await deps.db.transaction((trx) =>
        insertObjects<AdRuleRecord>(trx, 'ad_rule', adRules, [
          {
            organizationId: account.organizationId,
            accountId: account.id,
            name: unique('Rule '),
            status: 'ENABLED',
            entityType: 'ADSET',
            evaluationType: 'SCHEDULE',
            evaluationSpec: { evaluation_type: 'SCHEDULE', filters: [{ field: 'entity_type', value: 'ADSET', operator: 'EQUAL' }] },
            executionSpec: { execution_type: 'PAUSE' },
            scheduleSpec: { schedule_type: 'DAILY' },
            principal: { kind: 'user', userId },
            createdBy: userId,
            lastPeriod: null,
          },
        ]),
      );
      return rule!;
    },
    /** `count` creatives of the account, titled `Creative <n>`. */
    creatives(owner: { organizationId: string; accountId: string }, count: number) {
      return deps.db.transaction((trx) => insertCreatives(trx, owner, count));
    },
    /** `count` ads in the ad set, each with a creative of its own (`Creative <n>`). */
    async ads(adSet: AdSetRecord, count: number) {
      return deps.db.transaction(async (trx) => {
        const creatives = await insertCreatives(trx, adSet, count);
        return insertObjects<AdRecord>(
          trx,
          'ad',
          ads,
          creatives.map((creative, i) => ({
            organizationId: adSet.organizationId,
            accountId: adSet.accountId,
            campaignId: adSet.campaignId,
            adsetId: adSet.id,
            name: `Ad ${i + 1}`,
            status: 'ACTIVE' as ObjectStatus,
            creativeId: creative.id,
            sourceAdId: null,
          })),
        );
      });
    },
    async audience(account: AdAccountRecord) {
      const [audience] = await deps.db.transaction((trx) =>
        insertObjects(trx, 'custom_audience', customAudiences, [
          {
            organizationId: account.organizationId,
            accountId: account.id,
            name: 'Audience',
            subtype: 'CUSTOM',
            description: null,
            lookalikeSpec: null,
            flaggedReason: 'health' as const,
            operationStatusCode: 200,
            operationStatusDescription: null,
          },
        ]),
      );
      return audience!;
    },
    async conversion(account: AdAccountRecord) {
      const [conversion] = await deps.db.transaction((trx) =>
        insertObjects(trx, 'custom_conversion', customConversions, [
          {
            organizationId: account.organizationId,
            accountId: account.id,
            name: 'Conversion',
            rule: null,
            customEventType: 'PURCHASE',
            flaggedReason: null,
          },
        ]),
      );
      return conversion!;
    },
    async page(organizationId: string) {
      const [page] = await deps.db.transaction((trx) =>
        insertObjects<PageRecord>(trx, 'page', pages, [{ organizationId, name: unique('Page '), category: null }]),
      );
      return page!;
    },
    async post(page: PageRecord, authorUserId: string | null = null) {
      const [post] = await deps.db.transaction((trx) =>
        insertObjects<PostRecord>(trx, 'post', posts, [
          {
            organizationId: page.organizationId,
            pageId: page.id,
            kind: authorUserId ? 'visitor_post' : 'page_post',
            authorUserId,
            authorPageId: authorUserId ? null : page.id,
            message: 'Hello',
            attachment: null,
            title: null,
            rating: null,
            eventStartTime: null,
            targeting: null,
          },
        ]),
      );
      return post!;
    },
    /** A post of any kind on the page, by the page or a person, with what that kind carries (media, title, rating). */
    async postOfKind(kind: PostKind, page: PageRecord, author: { userId: string } | { pageId: string }) {
      const [post] = await deps.db.transaction((trx) =>
        insertObjects<PostRecord>(trx, 'post', posts, [
          {
            organizationId: page.organizationId,
            pageId: page.id,
            kind,
            authorUserId: 'userId' in author ? author.userId : null,
            authorPageId: 'pageId' in author ? author.pageId : null,
            message: unique(`A ${kind} `),
            attachment: kind === 'photo' || kind === 'video' ? { url: `https://cdn.example/${kind}.bin` } : null,
            title: kind === 'event' || kind === 'review' ? 'Title' : null,
            rating: kind === 'review' ? 4 : null,
            eventStartTime: kind === 'event' ? new Date('2026-06-01T09:00:00Z') : null,
            targeting: null,
          },
        ]),
      );
      return post!;
    },
    async comment(post: PostRecord, fields: Partial<CommentRecord> = {}) {
      const [comment] = await deps.db.transaction((trx) =>
        insertComments(trx, [
          {
            organizationId: post.organizationId,
            postId: post.id,
            parentId: null,
            authorUserId: null,
            authorPageId: post.pageId,
            message: 'Nice',
            attachment: null,
            messageTags: [],
            isHidden: false,
            likeCount: 0,
            ...fields,
          },
        ]),
      );
      return comment!;
    },
  };
}

/** Title-only creatives, as an ad created with `creative: {title}` gets. */
function insertCreatives(trx: Knex, owner: { organizationId: string; accountId: string }, count: number): Promise<AdCreativeRecord[]> {
  return insertObjects<AdCreativeRecord>(
    trx,
    'ad_creative',
    adCreatives,
    Array.from({ length: count }, (_, i) => ({
      organizationId: owner.organizationId,
      accountId: owner.accountId,
      name: `Creative ${i + 1}`,
      status: 'ACTIVE' as const,
      title: `Creative ${i + 1}`,
      body: null,
      imageUrl: null,
      linkUrl: null,
      callToActionType: null,
      urlTags: null,
      objectStorySpec: null,
      extra: null,
    })),
  );
}
