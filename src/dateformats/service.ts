import { randomUUID } from 'node:crypto';
import type { RequestContext } from '../context/index.ts';
import { badInput, DomainError, forbidden, notFound } from '../errors/index.ts';
import { requireViewer } from '../identity/service.ts';
import { convertFormat, DateFormatError, type Conversion } from './convert.ts';
import { convertMappingResponse } from './mapping.ts';
import { scanCluster, type ScanResult } from './cluster.ts';
import { migrateIndex, MigrationError, type MigrateOptions, type MigrationResult } from './migrate.ts';
import { SearchClient } from './search-client.ts';
import { migrationNameProblem } from './names.ts';

/**
 * Date-format conversion for GraphQL. Converting a format or a mapping is open to any signed-in caller;
 * talking to the cluster (scan, migrate) is for organization owners and admins and site admins, since it reads
 * and changes infrastructure every organization shares.
 */
export function convertDateFormat(ctx: RequestContext, format: string, lenient = false): Conversion {
  requireViewer(ctx);
  try {
    return convertFormat(format, { lenient });
  } catch (error) {
    if (error instanceof DateFormatError) throw badInput('format', error.message);
    throw error;
  }
}

/** Converts a `GET /<index>/_mapping` response the caller pastes in: nothing is sent anywhere. */
export function convertIndexMapping(ctx: RequestContext, response: unknown, lenient = false) {
  requireViewer(ctx);
  if (typeof response !== 'object' || response === null || Array.isArray(response)) {
    throw badInput('mapping', 'mapping must be the JSON object GET /<index>/_mapping answers.');
  }
  return Object.entries(convertMappingResponse(response, { lenient })).map(([index, converted]) => ({ index, ...converted }));
}

function requireClusterOperator(ctx: RequestContext): void {
  const viewer = requireViewer(ctx);
  const allowed = viewer.kind === 'user' && (viewer.siteAdmin || [...viewer.roles.values()].some((role) => role === 'owner' || role === 'admin'));
  if (!allowed) throw forbidden('Only organization owners and admins may scan or migrate the search cluster.');
}

function searchClient(ctx: RequestContext): SearchClient {
  if (!ctx.config.searchUrl) {
    throw new DomainError('SERVICE_UNAVAILABLE', 'No search cluster is configured: set SEARCH_URL.');
  }
  return new SearchClient({ url: ctx.config.searchUrl, apiKey: ctx.config.searchApiKey });
}

export function scanDateFormats(ctx: RequestContext, includeJavaIndices = false): Promise<ScanResult> {
  requireClusterOperator(ctx);
  return scanCluster(searchClient(ctx), { includeJavaIndices });
}

export interface MigrationJob {
  id: string;
  index: string;
  alias?: string;
  dryRun: boolean;
  state: 'RUNNING' | 'SUCCEEDED' | 'FAILED';
  done: number;
  total: number;
  result?: MigrationResult | Partial<MigrationResult>;
  error?: string;
  next?: string;
  startedAt: Date;
  finishedAt?: Date;
}

// Jobs live as long as the process: a migration is resumable, so after a restart the same mutation picks it up.
const jobs = new Map<string, MigrationJob>();

export type MigrationInput = Pick<MigrateOptions, 'index' | 'alias' | 'newIndex' | 'dryRun' | 'lenient' | 'assumeJoda' | 'allowUnsupported'>;

/** Starts a migration in the background and returns its job at once; poll dateFormatMigration for progress. */
export function startMigration(ctx: RequestContext, input: MigrationInput): MigrationJob {
  requireClusterOperator(ctx);
  const badName = migrationNameProblem(input);
  if (badName) throw badInput(badName.option, badName.problem);
  const client = searchClient(ctx);
  const job: MigrationJob = {
    id: randomUUID(),
    index: input.index,
    alias: input.alias,
    dryRun: input.dryRun ?? false,
    state: 'RUNNING',
    done: 0,
    total: 0,
    startedAt: new Date(),
  };
  jobs.set(job.id, job);
  migrateIndex(client, { ...input, onProgress: (progress) => Object.assign(job, { done: progress.done, total: progress.total }) }).then(
    (result) => Object.assign(job, { state: 'SUCCEEDED', result, next: result.next, finishedAt: new Date() }),
    (error: unknown) => {
      const failure = error instanceof MigrationError ? { error: error.message, next: error.next, result: error.result } : { error: (error as Error).message };
      if (!(error instanceof MigrationError)) ctx.log.error({ err: error, job: job.id }, 'date-format migration failed');
      Object.assign(job, { state: 'FAILED', finishedAt: new Date(), ...failure });
    },
  );
  return job;
}

export function migrationJob(ctx: RequestContext, id: string): MigrationJob {
  requireClusterOperator(ctx);
  const job = jobs.get(id);
  if (!job) throw notFound('Date-format migration', id);
  return job;
}
