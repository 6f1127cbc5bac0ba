import type { Resolvers } from '../graphql/__generated__/resolvers-types.ts';
import { lowercaseEnum } from '../graphql/helpers.ts';
import * as dates from './service.ts';
import type { AffectedPlace, Severity } from './mapping.ts';
import type { ScanTarget } from './cluster.ts';

/** How exact a conversion is, where a format sits and what holds it, as the conversions and scans say (their enums' values inside the server). */
export const SEVERITIES = ['exact', 'review', 'unsupported'] as const satisfies readonly Severity[];
export const PLACE_KINDS = [
  'field',
  'runtime_field',
  'dynamic_template',
  'dynamic_date_formats',
  'processor',
] as const satisfies readonly AffectedPlace['kind'][];
export const TARGET_KINDS = ['index', 'index_template', 'component_template', 'legacy_template', 'pipeline'] as const satisfies readonly ScanTarget['kind'][];

export const dateFormatResolvers: Resolvers = {
  DateFormatSeverity: lowercaseEnum(SEVERITIES),
  DateFormatPlaceKind: lowercaseEnum(PLACE_KINDS),
  DateFormatTargetKind: lowercaseEnum(TARGET_KINDS),

  Query: {
    convertDateFormat: (_, { format, lenient }, ctx) => dates.convertDateFormat(ctx, format, lenient ?? false),
    convertIndexMapping: (_, { mapping, lenient }, ctx) => dates.convertIndexMapping(ctx, mapping, lenient ?? false),
    scanDateFormats: (_, { includeJavaIndices }, ctx) => dates.scanDateFormats(ctx, includeJavaIndices ?? false),
    dateFormatMigration: (_, { id }, ctx) => dates.migrationJob(ctx, id),
  },

  Mutation: {
    migrateIndexDateFormats: (_, { input }, ctx) =>
      dates.startMigration(ctx, {
        index: input.index,
        alias: input.alias ?? undefined,
        newIndex: input.newIndex ?? undefined,
        dryRun: input.dryRun ?? undefined,
        lenient: input.lenient ?? undefined,
        assumeJoda: input.assumeJoda ?? undefined,
        allowUnsupported: input.allowUnsupported ?? undefined,
      }),
  },

  DateFormatScan: {
    clusterVersion: (scan) => scan.cluster.version,
    deprecationsAvailable: (scan) => scan.deprecations.available,
  },

  DateFormatMigration: {
    progress: (job) => (job.state === 'SUCCEEDED' ? 1 : job.total > 0 ? Math.min(1, job.done / job.total) : 0),
    copied: (job) => job.done,
  },
};
