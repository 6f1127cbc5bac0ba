import type { Resolvers } from '../graphql/__generated__/resolvers-types.ts';
import { lowercaseEnum } from '../graphql/helpers.ts';
import * as dates from './service.ts';

export const dateFormatResolvers: Resolvers = {
  DateFormatSeverity: lowercaseEnum(['exact', 'review', 'unsupported']),

  Query: {
    convertDateFormat: (_, { format, lenient }, ctx) => dates.convertDateFormat(ctx, format, lenient ?? false),
    convertIndexMapping: (_, { mapping, lenient }, ctx) => dates.convertIndexMapping(ctx, mapping, lenient ?? false),
    scanDateFormats: (_, { includeJavaIndices }, ctx) => dates.scanDateFormats(ctx, includeJavaIndices ?? false),
    dateFormatMigration: (_, { id }, ctx) => dates.migrationJob(ctx, id),
  },

  Mutation: {
    migrateIndexDateFormats: (_, { input }, ctx) =>
      dates.startMigration(ctx, {
        index: input.index, alias: input.alias ?? undefined, newIndex: input.newIndex ?? undefined, dryRun: input.dryRun ?? undefined,
        lenient: input.lenient ?? undefined, assumeJoda: input.assumeJoda ?? undefined, allowUnsupported: input.allowUnsupported ?? undefined,
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
