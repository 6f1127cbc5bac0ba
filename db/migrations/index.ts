import type { Knex } from 'knex';
import * as identity from './20261122000100_identity.ts';
import * as oauth from './20261122000200_oauth.ts';
import * as ads from './20261122000300_ads.ts';
import * as pagesComments from './20261122000400_pages_comments.ts';
import * as signingKeysOneActive from './20261122000500_signing_keys_one_active.ts';
import * as adSetWrites from './20261122000600_ad_set_writes.ts';
import * as commentWrites from './20261122000700_comment_writes.ts';
import * as groups from './20261122000800_groups.ts';
import * as pagingIndexes from './20261122000900_paging_indexes.ts';
import * as organizationInvitations from './20261122001000_organization_invitations.ts';
import * as insights from './20261126000100_insights.ts';
import * as insightReportRuns from './20261126000200_insight_report_runs.ts';
import * as deliveryState from './20261126000300_delivery_state.ts';
import * as activities from './20261126000400_activities.ts';
import * as adStudies from './20261126000500_ad_studies.ts';
import * as adCreatives from './20261126000600_ad_creatives.ts';
import * as adRules from './20261126000700_ad_rules.ts';
import * as accountRestrictions from './20261126000800_account_restrictions.ts';
import * as applications from './20261126000900_applications.ts';
import * as commentReactions from './20261126001000_comment_reactions.ts';
import * as privateReplies from './20261126001100_private_replies.ts';
import * as postReactions from './20261126001200_post_reactions.ts';
import * as events from './20261127000100_events.ts';
import * as eventsByObject from './20261127000200_events_by_object.ts';
import * as identityGeneration from './20261127000300_identity_generation.ts';
import * as adAccountGeneration from './20261201000100_ad_account_generation.ts';

/**
 * Migrations are listed here instead of discovered on disk, so they load the same way under the CLI,
 * the test runner and any bundler. Append new ones; never edit one that has shipped.
 */
const migrations: Record<string, Knex.Migration> = {
  '20261122000100_identity': identity,
  '20261122000200_oauth': oauth,
  '20261122000300_ads': ads,
  '20261122000400_pages_comments': pagesComments,
  '20261122000500_signing_keys_one_active': signingKeysOneActive,
  '20261122000600_ad_set_writes': adSetWrites,
  '20261122000700_comment_writes': commentWrites,
  '20261122000800_groups': groups,
  '20261122000900_paging_indexes': pagingIndexes,
  '20261122001000_organization_invitations': organizationInvitations,
  '20261126000100_insights': insights,
  '20261126000200_insight_report_runs': insightReportRuns,
  '20261126000300_delivery_state': deliveryState,
  '20261126000400_activities': activities,
  '20261126000500_ad_studies': adStudies,
  '20261126000600_ad_creatives': adCreatives,
  '20261126000700_ad_rules': adRules,
  '20261126000800_account_restrictions': accountRestrictions,
  '20261126000900_applications': applications,
  '20261126001000_comment_reactions': commentReactions,
  '20261126001100_private_replies': privateReplies,
  '20261126001200_post_reactions': postReactions,
  '20261127000100_events': events,
  '20261127000200_events_by_object': eventsByObject,
  '20261127000300_identity_generation': identityGeneration,
  '20261201000100_ad_account_generation': adAccountGeneration,
};

export const migrationSource: Knex.MigrationSource<string> = {
  getMigrations: async () => Object.keys(migrations),
  getMigrationName: (name) => name,
  getMigration: async (name) => migrations[name]!,
};
