import type { Knex } from 'knex';
import type { AppDeps } from '../../src/context/index.ts';
import type { Role } from '../../src/authz/policy.ts';
import { createOrganization, createUser } from '../../src/identity/service.ts';
import { insertObjects } from '../../src/db/objects.ts';
import { generateDelivery } from '../../src/insights/generate.ts';
import { adRules, type AdRuleRecord } from '../../src/ads/ad-rules.ts';
import { applications } from '../../src/ads/applications.ts';
import { latestRunAt } from '../../src/ads/rules/ad-rules.ts';
import {
  adAccounts,
  adCreatives,
  ads,
  adSets,
  campaigns,
  customAudiences,
  customConversions,
  insertAdSets,
  type AdAccountRecord,
  type AdCreativeRecord,
  type AdSetRecord,
  type CampaignRecord,
  newAdSet,
  RESTRICTED_LOOKALIKE,
  type CustomAudienceRecord,
  type CustomConversionRecord,
  type ObjectStatus,
} from '../../src/ads/store.ts';
import {
  groups,
  insertComments,
  insertLikes,
  pages,
  posts,
  type GroupRecord,
  type MessageTag,
  type NewComment,
  type PageRecord,
  type PostKind,
  type PostRecord,
} from '../../src/comments/store.ts';

export const DEMO_PASSWORD = 'Adgraph-Demo-2026!';

/**
 * A believable world for trying the API: two organizations with a user in every role, ad accounts in
 * USD, EUR and JPY (EU and non-EU targeting), campaigns, about fifty ad sets with ads, clean and flagged
 * audiences and conversions, pages with posts of every kind, comments and replies, and 90 days of statistics
 * of the live ads (synthetic delivery, src/insights/generate.ts). Deterministic: the same rows (but fresh ids and
 * times) on every run. The ad objects were made HISTORY_DAYS ago and their schedules started before the 90 days,
 * so the statistics cover days on which they existed and ran.
 */
export interface DemoSummary {
  password: string;
  users: Array<{ email: string; role: string; organization: string }>;
  counts: Record<string, number>;
}

const DAY = 86_400_000;
/** Days of statistics the demo has, ending yesterday. */
export const DEMO_STATISTICS_DAYS = 90;
/** How long ago the demo's ad accounts, campaigns, ad sets and ads were made. */
const HISTORY_DAYS = 120;
/**
 * When each campaign's ad sets started, in days before today: the first before the 90 days of statistics, the
 * others over them, more of them lately, as an account grows (and fewer days of statistics to write at start).
 */
const LAUNCHED_DAYS_AGO = [DEMO_STATISTICS_DAYS + 2, 47, 32, 16, 9];

interface AccountPlan {
  name: string;
  currency: string;
  country: string;
  countries: string[];
  eu: boolean;
  dailyBudget: number; // minor units
  isBulk?: boolean;
}

const ORGANIZATIONS: Array<{ name: string; domain: string; accounts: AccountPlan[]; pages: string[] }> = [
  {
    name: 'Northwind Outdoor',
    domain: 'northwind.example',
    accounts: [
      { name: 'Northwind US', currency: 'USD', country: 'US', countries: ['US', 'CA'], eu: false, dailyBudget: 500 },
      { name: 'Northwind Europe', currency: 'EUR', country: 'IE', countries: ['IE', 'DE', 'FR', 'RE'], eu: true, dailyBudget: 600, isBulk: true },
    ],
    pages: ['Northwind Outdoor', 'Northwind Trail Club'],
  },
  {
    name: 'Lumière Media',
    domain: 'lumiere.example',
    accounts: [
      { name: 'Lumière Japon', currency: 'JPY', country: 'JP', countries: ['JP'], eu: false, dailyBudget: 800 },
      { name: 'Lumière France', currency: 'EUR', country: 'FR', countries: ['FR', 'BE', 'GP'], eu: true, dailyBudget: 300 },
    ],
    pages: ['Lumière Studio'],
  },
];

const ROLES_TO_SEED: Array<{ local: string; role: Role; name: string }> = [
  { local: 'owner', role: 'owner', name: 'Olivia Owner' },
  { local: 'admin', role: 'admin', name: 'Adam Admin' },
  { local: 'ads', role: 'advertiser', name: 'Avery Advertiser' },
  { local: 'moderator', role: 'moderator', name: 'Morgan Moderator' },
  { local: 'auditor', role: 'auditor', name: 'Audrey Auditor' },
  { local: 'member', role: 'member', name: 'Max Member' },
];

const OBJECTIVES = ['OUTCOME_TRAFFIC', 'OUTCOME_AWARENESS', 'OUTCOME_ENGAGEMENT', 'OUTCOME_SALES'] as const;
const GOALS: Record<(typeof OBJECTIVES)[number], { goal: string; billing: string; destination?: string }> = {
  OUTCOME_TRAFFIC: { goal: 'LINK_CLICKS', billing: 'IMPRESSIONS', destination: 'WEBSITE' },
  OUTCOME_AWARENESS: { goal: 'REACH', billing: 'IMPRESSIONS' },
  OUTCOME_ENGAGEMENT: { goal: 'POST_ENGAGEMENT', billing: 'IMPRESSIONS', destination: 'ON_POST' },
  OUTCOME_SALES: { goal: 'OFFSITE_CONVERSIONS', billing: 'IMPRESSIONS', destination: 'WEBSITE' },
};
const AD_SET_STATUSES: ObjectStatus[] = ['ACTIVE', 'ACTIVE', 'PAUSED', 'ACTIVE', 'ARCHIVED', 'ACTIVE', 'DELETED'];

export async function isDatabaseEmpty(db: Knex): Promise<boolean> {
  const row = await db('organizations').count({ count: '*' }).first();
  return Number(row?.count ?? 0) === 0;
}

export async function seedDemo(deps: AppDeps): Promise<DemoSummary> {
  const summary: DemoSummary = { password: DEMO_PASSWORD, users: [], counts: {} };
  const now = Date.now();
  const made = new Date(now - HISTORY_DAYS * DAY);

  // People first, through the same service the CLI uses (validation, hashing).
  await createUser(deps, { email: 'root@adgraph.example', password: DEMO_PASSWORD, name: 'Sam Siteadmin', username: 'root', siteAdmin: true });
  summary.users.push({ email: 'root@adgraph.example', role: 'site admin', organization: '(all)' });
  const fan = (await createUser(deps, { email: 'fan@example.com', password: DEMO_PASSWORD, name: 'Frankie Fan', username: 'frankie' })).user;
  summary.users.push({ email: 'fan@example.com', role: 'no organization (writes visitor posts and comments)', organization: '-' });

  const plans: Array<{ organizationId: string; plan: (typeof ORGANIZATIONS)[number]; users: Record<string, string> }> = [];
  for (const plan of ORGANIZATIONS) {
    const organization = await createOrganization(deps, plan.name);
    const users: Record<string, string> = {};
    for (const person of ROLES_TO_SEED) {
      const email = `${person.local}@${plan.domain}`;
      const { user } = await createUser(deps, {
        email,
        password: DEMO_PASSWORD,
        name: person.name,
        username: `${person.local}-${plan.domain.split('.')[0]}`,
        organization: organization.id,
        role: person.role,
      });
      users[person.role] = user.id;
      summary.users.push({ email, role: person.role, organization: plan.name });
    }
    plans.push({ organizationId: organization.id, plan, users });
  }

  // Everything else in one transaction: a half-seeded demo is worse than none.
  await deps.db.transaction(async (trx) => {
    let adSetCount = 0;
    let adCount = 0;
    const accountIds: string[] = [];
    const ruleOwners: Array<{ account: AdAccountRecord; advertiser: string }> = [];
    for (const { organizationId, plan, users } of plans) {
      const accounts = await insertObjects<AdAccountRecord>(
        trx,
        'ad_account',
        adAccounts,
        plan.accounts.map((a) => ({
          organizationId,
          name: a.name,
          accountStatus: 1,
          currency: a.currency,
          country: a.country,
          timezoneName: 'Etc/UTC',
          isBulk: a.isBulk ?? false,
          defaultDsaPayor: a.eu ? `${plan.name} SA` : null,
          defaultDsaBeneficiary: a.eu ? `${plan.name} SA` : null,
          spendCap: null,
          createdTime: made,
          updatedTime: made,
        })),
      );

      accountIds.push(...accounts.map((account) => account.id));
      ruleOwners.push(...accounts.map((account) => ({ account, advertiser: users.advertiser! })));
      for (const [index, account] of accounts.entries()) {
        const accountPlan = plan.accounts[index]!;
        const audiences = await insertObjects<CustomAudienceRecord>(trx, 'custom_audience', customAudiences, [
          {
            organizationId,
            accountId: account.id,
            name: 'Newsletter subscribers',
            subtype: 'CUSTOM',
            description: 'Opted-in e-mail list',
            lookalikeSpec: null,
            flaggedReason: null,
            operationStatusCode: 200,
            operationStatusDescription: 'Normal',
          },
          {
            organizationId,
            accountId: account.id,
            name: 'Visitors of the allergy guide',
            subtype: 'WEBSITE',
            description: null,
            lookalikeSpec: null,
            flaggedReason: 'health',
            operationStatusCode: 200,
            operationStatusDescription: 'Normal',
          },
          {
            organizationId,
            accountId: account.id,
            name: 'Instalment plan applicants',
            subtype: 'CUSTOM',
            description: null,
            lookalikeSpec: null,
            flaggedReason: 'financial',
            operationStatusCode: 200,
            operationStatusDescription: 'Normal',
          },
        ]);
        const [clean, health] = audiences;
        // A lookalike of the flagged audience: restricted too (471), as the platform's review makes it.
        const [lookalike] = await insertObjects<CustomAudienceRecord>(trx, 'custom_audience', customAudiences, [
          {
            organizationId,
            accountId: account.id,
            name: 'Lookalike (1%) of allergy guide visitors',
            subtype: 'LOOKALIKE',
            description: null,
            lookalikeSpec: { ratio: 0.01, country: accountPlan.country, origin_audience_id: health!.id },
            flaggedReason: null,
            operationStatusCode: RESTRICTED_LOOKALIKE.code,
            operationStatusDescription: RESTRICTED_LOOKALIKE.description,
          },
        ]);
        const conversions = await insertObjects<CustomConversionRecord>(trx, 'custom_conversion', customConversions, [
          {
            organizationId,
            accountId: account.id,
            name: 'Checkout completed',
            rule: '{"url":{"i_contains":"/thank-you"}}',
            customEventType: 'PURCHASE',
            flaggedReason: null,
          },
          {
            organizationId,
            accountId: account.id,
            name: 'Symptom checker finished',
            rule: '{"url":{"i_contains":"/symptoms/done"}}',
            customEventType: 'OTHER',
            flaggedReason: 'health',
          },
        ]);

        const campaignRows = await insertObjects<CampaignRecord>(
          trx,
          'campaign',
          campaigns,
          OBJECTIVES.slice(0, 3 + (index % 2)).map((objective, c) => ({
            organizationId,
            accountId: account.id,
            name: `${account.name} · ${objective.replace('OUTCOME_', '').toLowerCase()} ${2026}`,
            objective,
            status: (c === 2 ? 'PAUSED' : 'ACTIVE') as ObjectStatus,
            specialAdCategories: [],
            specialAdCategoryCountry: null,
            bidStrategy: 'LOWEST_COST_WITHOUT_CAP',
            buyingType: 'AUCTION',
            dailyBudget: null,
            lifetimeBudget: null,
            spendCap: null,
            activeSeconds: '0',
            statusChangedTime: null,
            startTime: new Date(now - (HISTORY_DAYS - 5) * DAY),
            stopTime: null,
            createdTime: made,
            updatedTime: made,
          })),
        );

        const adSetInputs: Array<Omit<AdSetRecord, 'id' | 'createdTime' | 'updatedTime'>> = [];
        for (const [c, campaign] of campaignRows.entries()) {
          const goal = GOALS[campaign.objective as (typeof OBJECTIVES)[number]];
          const perCampaign = index === 0 && c === 0 ? 5 : 4;
          for (let s = 0; s < perCampaign; s++) {
            const n = adSetInputs.length;
            const usesFlaggedAudience = n % 6 === 1;
            const usesLookalike = n % 6 === 4;
            const usesFlaggedConversion = campaign.objective === 'OUTCOME_SALES' && s === 1;
            const customAudiencesUsed = [clean!, ...(usesFlaggedAudience ? [health!] : []), ...(usesLookalike ? [lookalike!] : [])].map((a) => ({
              id: a.id,
              name: a.name,
            }));
            adSetInputs.push(
              newAdSet({
                organizationId,
                accountId: account.id,
                campaignId: campaign.id,
                name: `${campaign.name} · set ${s + 1}${usesFlaggedAudience ? ' (allergy retargeting)' : ''}`,
                status: AD_SET_STATUSES[n % AD_SET_STATUSES.length]!,
                optimizationGoal: goal.goal,
                billingEvent: goal.billing,
                destinationType: goal.destination ?? null,
                bidStrategy: 'LOWEST_COST_WITHOUT_CAP',
                dailyBudget: String(accountPlan.dailyBudget * (1 + (s % 3))),
                startTime: new Date(now - LAUNCHED_DAYS_AGO[s % LAUNCHED_DAYS_AGO.length]! * DAY),
                endTime: s % 2 === 0 ? null : new Date(now + (30 + s) * DAY),
                targeting: {
                  geo_locations: { countries: accountPlan.countries.slice(0, 1 + (s % accountPlan.countries.length)) },
                  age_min: 18 + 5 * (s % 3),
                  age_max: 65,
                  custom_audiences: customAudiencesUsed,
                  publisher_platforms: ['facebook', 'instagram'],
                  device_platforms: s % 2 === 0 ? ['mobile'] : ['mobile', 'desktop'],
                },
                promotedObject: usesFlaggedConversion
                  ? { pixel_id: '880000000000001', custom_event_type: 'OTHER', custom_conversion_id: conversions[1]!.id }
                  : campaign.objective === 'OUTCOME_SALES'
                    ? { pixel_id: '880000000000001', custom_event_type: 'PURCHASE', custom_conversion_id: conversions[0]!.id }
                    : null,
                dsaPayor: accountPlan.eu ? account.defaultDsaPayor : null,
                dsaBeneficiary: accountPlan.eu ? account.defaultDsaBeneficiary : null,
                pacingType: ['standard'],
                attributionSpec: [
                  { event_type: 'CLICK_THROUGH', window_days: 7 },
                  { event_type: 'VIEW_THROUGH', window_days: 1 },
                ],
              }),
            );
          }
        }
        const adSetRows = await insertAdSets(trx, adSetInputs);
        await trx(adSets.table)
          .whereIn(
            'id',
            adSetRows.map((adSet) => adSet.id),
          )
          .update(adSets.toRow({ createdTime: made, updatedTime: made }));
        // Each set has learned since its launch (its last significant edit), so the demo's learning stages follow
        // the statistics generated below rather than all reading LEARNING from the moment of seeding.
        for (const adSet of adSetRows) {
          await trx(adSets.table)
            .where({ id: adSet.id })
            .update({ last_significant_edit_time: adSet.startTime ?? made });
        }
        adSetCount += adSetRows.length;
        // Three creatives the ads share, as an advertiser reuses a creative across ad sets.
        const creatives = await insertObjects<AdCreativeRecord>(
          trx,
          'ad_creative',
          adCreatives,
          ['Gear up for the trail', 'New season, new routes', 'Members save 15%'].map((title, k) => ({
            organizationId,
            accountId: account.id,
            name: title,
            status: 'ACTIVE' as const,
            title,
            body: 'Shop the collection.',
            imageUrl: null,
            linkUrl: `https://${plan.domain}/shop?utm=${k}`,
            callToActionType: 'SHOP_NOW',
            urlTags: `utm_source=adgraph&utm_content=${k}`,
            objectStorySpec: null,
            extra: null,
            createdTime: made,
            updatedTime: made,
          })),
        );
        const adInputs = adSetRows.flatMap((adSet, a) =>
          Array.from({ length: 1 + (a % 3) }, (_, k) => ({
            organizationId,
            accountId: account.id,
            campaignId: adSet.campaignId,
            adsetId: adSet.id,
            name: `${adSet.name} · ad ${k + 1}`,
            status: (adSet.status === 'DELETED' ? 'DELETED' : k === 2 ? 'PAUSED' : 'ACTIVE') as ObjectStatus,
            creativeId: creatives[k % 3]!.id,
            sourceAdId: null,
            createdTime: made,
            updatedTime: made,
          })),
        );
        adCount += (await insertObjects(trx, 'ad', ads, adInputs)).length;
      }

      await seedPagesAndComments(trx, organizationId, plan.pages, users, fan.id, now);
    }
    await seedApplications(trx, new Date(now));
    // Automated rules after every other object, so the ids the guides show stay as they are.
    for (const { account, advertiser } of ruleOwners) await seedRules(trx, account, advertiser, new Date(now));
    // The statistics last, over the world as it stands: what its live ads delivered in the last 90 days.
    let facts = 0;
    for (const account of accountIds) facts += (await generateDelivery(deps, { account, days: DEMO_STATISTICS_DAYS }, trx)).factsWritten;
    summary.counts = { adSets: adSetCount, ads: adCount, statisticsDays: DEMO_STATISTICS_DAYS, facts };
  });
  return summary;
}

async function seedPagesAndComments(trx: Knex, organizationId: string, pageNames: string[], users: Record<string, string>, fanId: string, now: number) {
  const pageRows = await insertObjects<PageRecord>(
    trx,
    'page',
    pages,
    pageNames.map((name, i) => ({
      organizationId,
      name,
      category: i === 0 ? 'Outdoor & Sporting Goods Company' : 'Community',
    })),
  );
  // The organization's community group: the group posts' threads point to it by mention.
  const [group] = await insertObjects<GroupRecord>(trx, 'group', groups, [{ organizationId, name: `${pageNames[0]} Trail Club` }]);
  for (const page of pageRows) {
    const kinds: Array<{ kind: PostKind; message: string; byFan?: boolean; title?: string; rating?: number }> = [
      { kind: 'page_post', message: `Welcome to ${page.name}! New arrivals every Friday.` },
      { kind: 'visitor_post', message: 'Does the 40L pack fit carry-on limits?', byFan: true },
      { kind: 'photo', message: 'Sunrise at the ridge camp.' },
      { kind: 'video', message: 'How to pitch a tent in two minutes.' },
      { kind: 'event', message: 'Community clean-up hike, bring gloves.', title: 'Trail clean-up day' },
      { kind: 'group_post', message: 'Route suggestions for a first multi-day trip?', byFan: true },
      { kind: 'review', message: 'Great service, boots were exactly as described.', byFan: true, rating: 5 },
    ];
    const postRows = await insertObjects<PostRecord>(
      trx,
      'post',
      posts,
      kinds.map((k, i) => ({
        organizationId,
        pageId: page.id,
        kind: k.kind,
        authorUserId: k.byFan ? fanId : null,
        authorPageId: k.byFan ? null : page.id,
        message: k.message,
        attachment:
          k.kind === 'photo'
            ? { type: 'photo', url: `https://cdn.example/${page.id}/ridge.jpg` }
            : k.kind === 'video'
              ? { type: 'video_inline', url: `https://cdn.example/${page.id}/tent.mp4` }
              : null,
        title: k.title ?? null,
        rating: k.rating ?? null,
        eventStartTime: k.kind === 'event' ? new Date(now + 14 * DAY) : null,
        // The page's own post reaches English speakers only (locale keys 6 en_US, 24 en_GB): ad sets promoting it must too.
        targeting: k.kind === 'page_post' ? { locales: [6, 24] } : null,
        createdTime: new Date(now - (10 - i) * DAY),
        updatedTime: new Date(now - (10 - i) * DAY),
      })),
    );

    for (const post of postRows) {
      // Top-level comments: one by the fan (mentioning the page), one by the page, one hidden spam comment.
      const mention: MessageTag = { id: page.id, name: page.name, type: 'page', offset: 7, length: [...page.name].length };
      const top = await insertComments(trx, [
        commentInput(organizationId, post.id, null, { authorUserId: fanId }, `Thanks ${page.name}, this helped a lot!`, [mention]),
        commentInput(organizationId, post.id, null, { authorPageId: page.id }, 'Glad to hear it! Send us a message for sizing help.', []),
        commentInput(
          organizationId,
          post.id,
          null,
          { authorUserId: fanId },
          'Cheap followers at spam.example',
          [],
          post.kind !== 'review' && post.kind !== 'group_post',
        ),
      ]);
      await insertComments(trx, [commentInput(organizationId, post.id, top[0]!.id, { authorPageId: page.id }, 'You are welcome!', [])]);
      if (post.kind === 'group_post') {
        const tag: MessageTag = { id: group!.id, name: group!.name, type: 'group', offset: 7, length: [...group!.name].length };
        await insertComments(trx, [
          commentInput(organizationId, post.id, null, { authorUserId: fanId }, `Ask in ${group!.name}, they know every route.`, [tag]),
        ]);
      }
      // The page likes the fan's thanks; the fan likes the page's answer.
      const likes: Array<{ commentId: string; userId?: string; pageId?: string }> = [
        { commentId: top[0]!.id, pageId: page.id },
        { commentId: top[1]!.id, userId: fanId },
      ];
      if (users.moderator) {
        // Keep the moderator's presence visible: a reply by the moderator account on the page's comment of page posts.
        if (post.kind === 'page_post') {
          await insertComments(trx, [
            commentInput(organizationId, post.id, top[1]!.id, { authorUserId: users.moderator }, 'Our team replies within a day.', []),
          ]);
        }
        likes.push({ commentId: top[0]!.id, userId: users.moderator });
      }
      await insertLikes(trx, likes);
    }
  }
}

function commentInput(
  organizationId: string,
  postId: string,
  parentId: string | null,
  author: { authorUserId?: string; authorPageId?: string },
  message: string,
  messageTags: MessageTag[],
  isHidden = false,
): NewComment {
  return {
    organizationId,
    postId,
    parentId,
    authorUserId: author.authorUserId ?? null,
    authorPageId: author.authorPageId ?? null,
    message,
    attachment: null,
    messageTags,
    isHidden,
    likeCount: 0,
  };
}

/**
 * Two automated rules per account, as its advertiser made them: a daily e-mail about yesterday's big spenders
 * (above 4.00; enabled: without SMTP_URL it lands in the log and the outbox) and a budget cut on clicks above 0.50
 * over a week, left disabled so the demo's budgets only change when someone runs it (or its dry run shows what).
 */
async function seedRules(trx: Knex, account: AdAccountRecord, advertiser: string, now: Date) {
  const daily = { schedule_type: 'DAILY' };
  const rules = [
    {
      name: 'Big spenders yesterday',
      status: 'ENABLED' as const,
      evaluationSpec: {
        evaluation_type: 'SCHEDULE',
        filters: [
          { field: 'entity_type', value: 'ADSET', operator: 'EQUAL' },
          { field: 'time_preset', value: 'YESTERDAY', operator: 'EQUAL' },
          { field: 'spent', value: 400, operator: 'GREATER_THAN' },
        ],
      },
      executionSpec: { execution_type: 'NOTIFICATION' },
    },
    {
      name: 'Cut budgets of expensive clicks',
      status: 'DISABLED' as const,
      evaluationSpec: {
        evaluation_type: 'SCHEDULE',
        filters: [
          { field: 'entity_type', value: 'ADSET', operator: 'EQUAL' },
          { field: 'time_preset', value: 'LAST_7_DAYS', operator: 'EQUAL' },
          { field: 'cpc', value: 50, operator: 'GREATER_THAN' },
        ],
      },
      executionSpec: {
        execution_type: 'CHANGE_BUDGET',
        execution_options: [{ field: 'change_spec', value: { amount: -10, unit: 'PERCENTAGE', limit: 200 }, operator: 'EQUAL' }],
      },
    },
  ];
  await insertObjects<AdRuleRecord>(
    trx,
    'ad_rule',
    adRules,
    rules.map((rule) => ({
      ...rule,
      organizationId: account.organizationId,
      accountId: account.id,
      entityType: 'ADSET',
      evaluationType: 'SCHEDULE',
      scheduleSpec: daily,
      principal: { kind: 'user', userId: advertiser },
      createdBy: advertiser,
      // The first run is the next midnight (account time), as for a rule made through the API now.
      lastPeriod: latestRunAt({ type: 'DAILY', entries: [] }, account.timezoneName, now),
      createdTime: now,
      updatedTime: now,
    })),
  );
}

/** The applications app-promotion ad sets may name, as an operator registers them (`adgraph apps create`). */
export const DEMO_APPLICATIONS = [
  {
    id: '1203948576612345',
    name: 'Northwind Trails',
    storeUrls: {
      google_play: 'https://play.google.com/store/apps/details?id=example.northwind.trails',
      itunes: 'https://apps.apple.com/app/id1203948576',
    },
  },
  {
    id: '1203948576612346',
    name: 'Northwind Rewards',
    storeUrls: { google_play: 'https://play.google.com/store/apps/details?id=example.northwind.rewards' },
  },
] as const;

async function seedApplications(trx: Knex, now: Date) {
  await trx(applications.table).insert(
    DEMO_APPLICATIONS.map((app) => applications.toRow({ ...app, storeUrls: { ...app.storeUrls }, createdAt: now, updatedAt: now })),
  );
}
