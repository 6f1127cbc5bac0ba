import { describe, expect, it } from 'vitest';
import type { GraphQLEnumType, GraphQLNamedType } from 'graphql';
import { buildSchema } from '../../src/graphql/schema.ts';
import * as ads from '../../src/ads/rules/enums.ts';
import { EFFECTIVE_STATUSES } from '../../src/ads/rules/effective-status.ts';
import { ASYNC_REQUEST_STATUSES } from '../../src/ads/store.ts';
import { FLAG_REASONS } from '../../src/ads/admin.ts';
import type { AdRecommendation } from '../../src/ads/rules/recommendations.ts';
import { AD_OBJECT_TYPES } from '../../src/ads/resolvers/async-requests.ts';
import { POST_KINDS, REACTION_TYPES } from '../../src/comments/store.ts';
import { COMMENT_FILTERS, COMMENT_ORDERS } from '../../src/comments/edges.ts';
import { MESSAGE_TAG_TYPES } from '../../src/comments/resolvers.ts';
import { ACTIONS, PAGE_TASKS, RESOURCE_TYPES, ROLES } from '../../src/authz/policy.ts';
import { LOGIN_TYPES, USER_STATUSES } from '../../src/identity/store.ts';
import { INVITATION_STATUSES } from '../../src/identity/rules/invitations.ts';
import { ERROR_CODES } from '../../src/errors/index.ts';
import { REPORT_RUN_STATUSES } from '../../src/insights/reports/store.ts';
import type { MigrationJob } from '../../src/dateformats/service.ts';
import { PLACE_KINDS, SEVERITIES, TARGET_KINDS } from '../../src/dateformats/resolvers.ts';
import * as insights from '../../src/insights/query.ts';
import { AGE_BRACKETS, DEVICE_PLATFORMS, GENDERS, PLATFORM_POSITIONS, PUBLISHER_PLATFORMS } from '../../src/insights/rules/breakdowns.ts';
import { NUMBER_OPERATORS, SET_OPERATORS } from '../../src/insights/rules/params.ts';
import { ageEnumName } from '../../src/insights/resolvers/index.ts';
import { LEARNING_STATUSES } from '../../src/insights/rules/learning-stage.ts';
import { RATE_SOURCES } from '../../src/ads/rules/delivery-estimate.ts';
import { ACTIVITY_CATEGORIES, type ActivityObjectType } from '../../src/ads/rules/activity-events.ts';
import { ACTOR_KINDS } from '../../src/ads/activities.ts';
import { CALL_TO_ACTION_TYPES, CREATIVE_STATUSES } from '../../src/ads/rules/creatives.ts';
import { ENTITY_TYPES, RULE_STATUSES } from '../../src/ads/rules/ad-rules.ts';
import { RULE_ACTIONS } from '../../src/ads/ad-rule-runs.ts';
import { FEED_ITEMS, FEED_VERBS } from '../../src/comments/subscriptions.ts';
import { AD_EVENT_OBJECT_TYPES, AD_OBJECT_VERBS, FINISHED_JOB_KINDS } from '../../src/ads/subscriptions.ts';

// Issue 13 item 5: closed value sets are GraphQL enums, and each enum is exactly the domain's list (the rules'
// modules), as the values the resolvers see (lowercase stores map through lowercaseEnum; ALL is authcheck's *).
// A new enum without a domain list here fails too, so the two cannot drift apart.

const DOMAIN_LISTS: Record<string, readonly string[]> = {
  ObjectStatus: ads.OBJECT_STATUSES,
  PageTask: PAGE_TASKS,
  FeedItem: FEED_ITEMS,
  FeedVerb: FEED_VERBS,
  AdEventObjectType: AD_EVENT_OBJECT_TYPES,
  AdObjectVerb: AD_OBJECT_VERBS,
  FinishedJobKind: FINISHED_JOB_KINDS,
  EffectiveStatus: EFFECTIVE_STATUSES,
  CampaignObjective: ads.OBJECTIVES,
  SpecialAdCategory: ads.SPECIAL_AD_CATEGORIES,
  BidStrategy: ads.BID_STRATEGIES,
  BillingEvent: ads.BILLING_EVENTS,
  OptimizationGoal: ads.OPTIMIZATION_GOALS,
  DestinationType: ads.DESTINATION_TYPES,
  OptimizationSubEvent: ads.OPTIMIZATION_SUB_EVENTS,
  AutomaticManualState: ads.AUTOMATIC_MANUAL_STATES,
  BudgetSource: ads.BUDGET_SOURCES,
  MultiOptimizationGoalWeight: ads.MULTI_OPTIMIZATION_GOAL_WEIGHTS,
  TuneForCategory: ads.TUNE_FOR_CATEGORIES,
  PacingType: ads.PACING_TYPES,
  EstimateRatesSource: RATE_SOURCES,
  ActivityCategory: ACTIVITY_CATEGORIES,
  ActivityObjectType: ['AD_SET', 'CAMPAIGN', 'AD'] satisfies ActivityObjectType[],
  ActivityActorKind: ACTOR_KINDS,
  AdCreativeStatus: CREATIVE_STATUSES,
  CallToActionType: CALL_TO_ACTION_TYPES,
  AdRuleStatus: RULE_STATUSES,
  AdRuleEntityType: ENTITY_TYPES,
  AdRuleAction: RULE_ACTIONS,
  RenameStrategy: ads.RENAME_STRATEGIES,
  StatusOption: ads.STATUS_OPTIONS,
  CustomAudienceSubtype: ads.AUDIENCE_SUBTYPES,
  CustomEventType: ads.CUSTOM_EVENT_TYPES,
  AsyncRequestStatus: ASYNC_REQUEST_STATUSES,
  FlagReason: FLAG_REASONS,
  RecommendationLevel: ['HIGH', 'MEDIUM', 'LOW'] satisfies Array<AdRecommendation['importance'] & AdRecommendation['confidence']>,
  AdObjectType: AD_OBJECT_TYPES,
  PostKind: POST_KINDS,
  ReactionType: REACTION_TYPES,
  MessageTagType: MESSAGE_TAG_TYPES,
  CommentFilter: COMMENT_FILTERS,
  CommentOrder: COMMENT_ORDERS,
  LoginType: LOGIN_TYPES,
  UserStatus: USER_STATUSES,
  OrganizationRole: ROLES,
  OrganizationInvitationStatus: INVITATION_STATUSES,
  AuthAction: ACTIONS,
  AuthResourceType: ['*', ...RESOURCE_TYPES],
  ErrorCode: ERROR_CODES,
  DateFormatSeverity: SEVERITIES,
  DateFormatPlaceKind: PLACE_KINDS,
  DateFormatTargetKind: TARGET_KINDS,
  InsightsReportStatus: REPORT_RUN_STATUSES,
  LearningStageStatus: LEARNING_STATUSES,
  DateFormatMigrationState: ['RUNNING', 'SUCCEEDED', 'FAILED'] satisfies Array<MigrationJob['state']>,
  InsightsLevel: insights.INSIGHTS_LEVELS,
  InsightsDatePreset: insights.DATE_PRESETS,
  InsightsTimeIncrement: ['all_days', 'monthly'] satisfies Array<insights.TimeIncrement>,
  InsightsBreakdown: insights.BREAKDOWNS,
  InsightsActionBreakdown: insights.ACTION_BREAKDOWNS,
  InsightsFilterOperator: [...new Set([...NUMBER_OPERATORS, ...SET_OPERATORS])],
  InsightsSortDirection: ['ascending', 'descending'] satisfies Array<insights.InsightsSort['direction']>,
  InsightsAge: AGE_BRACKETS,
  InsightsGender: GENDERS,
  InsightsPublisherPlatform: PUBLISHER_PLATFORMS,
  InsightsPlatformPosition: PLATFORM_POSITIONS,
  InsightsDevicePlatform: DEVICE_PLATFORMS,
};

/** The GraphQL name of a domain value: upper-cased, ALL for authcheck's *, AGE_25_34 for an age bracket (no digits first, no -). */
const enumName = (type: string, value: string) => (value === '*' ? 'ALL' : type === 'InsightsAge' ? ageEnumName(value) : value.toUpperCase());

const schema = buildSchema();
// By tag, not instanceof: the schema may come from the other build of graphql-js under the test runner.
const isEnum = (type: GraphQLNamedType): type is GraphQLEnumType => (type as { [Symbol.toStringTag]?: string })[Symbol.toStringTag] === 'GraphQLEnumType';
const enums = Object.values(schema.getTypeMap()).filter((type): type is GraphQLEnumType => isEnum(type) && !type.name.startsWith('__'));

describe('GraphQL enums are the domain lists', () => {
  it('every enum of the schema has its domain list here', () => {
    expect(enums.map((type) => type.name).sort()).toEqual(Object.keys(DOMAIN_LISTS).sort());
  });

  it.each(enums.map((type) => [type.name, type] as const))('%s has exactly the domain values', (name, type) => {
    expect(
      type
        .getValues()
        .map((value) => value.value)
        .sort(),
    ).toEqual([...DOMAIN_LISTS[name]!].sort());
    // Named as the specification writes them, upper-cased (ALL for authcheck's *, AGE_25_34 for 25-34).
    for (const value of type.getValues()) expect(value.name).toBe(enumName(name, String(value.value)));
  });

  it('no input or output says "One of" in prose any more: closed sets are enums', () => {
    const prose = Object.values(schema.getTypeMap())
      .filter((type) => !type.name.startsWith('__') && 'getFields' in type)
      .flatMap((type) =>
        Object.values((type as { getFields(): Record<string, { name: string; description?: string | null; type: unknown }> }).getFields())
          .filter((field) => /^One of\b/.test(field.description ?? '') && /\bString\b/.test(String(field.type)))
          .map((field) => `${type.name}.${field.name}`),
      );
    expect(prose).toEqual([]);
  });
});
