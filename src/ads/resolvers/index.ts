import type { Resolvers } from '../../graphql/__generated__/resolvers-types.ts';
import { connectionFields } from '../../graphql/connections.ts';
import { lowercaseEnum } from '../../graphql/helpers.ts';
import { PACING_TYPES } from '../rules/enums.ts';
import { RATE_SOURCES } from '../rules/delivery-estimate.ts';
import { FLAG_REASONS } from '../admin.ts';
import { AD_OBJECT_TYPES } from './async-requests.ts';
import { adAccountResolvers } from './ad-account.ts';
import { adSetResolvers } from './ad-set.ts';
import { adResolvers, campaignResolvers, customAudienceResolvers, customConversionResolvers } from './objects.ts';
import { asyncRequestResolvers, asyncRequestSetResolvers, copyResultResolvers } from './async-requests.ts';
import { adsMutations } from './mutations.ts';
import { adsQueries } from './queries.ts';
import { estimateResolvers } from './estimates.ts';
import { activityResolvers } from './activities.ts';
import { studyMutations, studyQueries, studyResolvers } from './studies.ts';
import { creativeMutations, creativeQueries, creativeResolvers } from './creatives.ts';
import { ruleMutations, ruleQueries, ruleResolvers } from './ad-rules.ts';

export type { CopyResultModel } from './async-requests.ts';

/** The ads domain's resolvers, one file per type (queries and mutations apart), merged here. */
export const adsResolvers: Resolvers = {
  FlagReason: lowercaseEnum(FLAG_REASONS),
  AdObjectType: lowercaseEnum(AD_OBJECT_TYPES),
  PacingType: lowercaseEnum(PACING_TYPES),
  EstimateRatesSource: lowercaseEnum(RATE_SOURCES),
  Query: { ...adsQueries, ...studyQueries, ...creativeQueries, ...ruleQueries },
  Mutation: { ...adsMutations, ...studyMutations, ...creativeMutations, ...ruleMutations },
  AdAccount: adAccountResolvers,
  Campaign: campaignResolvers,
  AdSet: adSetResolvers,
  Ad: adResolvers,
  CustomAudience: customAudienceResolvers,
  CustomConversion: customConversionResolvers,
  AsyncRequestSet: asyncRequestSetResolvers,
  AsyncRequest: asyncRequestResolvers,
  AdSetCopyResult: copyResultResolvers,
  ...estimateResolvers,
  ...activityResolvers,
  ...studyResolvers,
  ...creativeResolvers,
  ...ruleResolvers,
  AdSetViolation: { kind: (violation) => violation.kind ?? 'BAD_USER_INPUT' },
  AdAccountConnection: connectionFields,
  CampaignConnection: connectionFields,
  AdSetConnection: connectionFields,
  AdConnection: connectionFields,
  CustomAudienceConnection: connectionFields,
  CustomConversionConnection: connectionFields,
  AsyncRequestSetConnection: connectionFields,
  AsyncRequestConnection: connectionFields,
};
