import type { Command } from 'commander';
import type { MigrationProgress } from './migrate.ts';

/**
 * `adgraph dates scan` and `adgraph dates migrate`, added to the `dates` group of src/cli/main.ts (which also has
 * `dates convert`). The cluster address comes from --url or SEARCH_URL (basic auth from its user:password),
 * an API key from SEARCH_API_KEY; neither is ever printed.
 */

function print(json: boolean, value: unknown, text: string): void {
  process.stdout.write(json ? `${JSON.stringify(value, null, 2)}\n` : `${text}\n`);
}

/** A one-line progress display on stderr, only on a terminal (no dependency: `\r` and a bar). */
export function progressLine(stream: NodeJS.WriteStream = process.stderr): { update(p: MigrationProgress): void; end(): void } {
  let shown = false;
  return {
    update(p) {
      if (!stream.isTTY) return;
      const ratio = p.total > 0 ? Math.min(1, p.done / p.total) : 0;
      const width = 30;
      const filled = Math.round(ratio * width);
      const line = `reindex ${p.taskId} [${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${(ratio * 100).toFixed(0).padStart(3)}% ${p.done}/${p.total}`;
      stream.write(`\r${line}\x1b[K`);
      shown = true;
    },
    end() {
      if (shown) stream.write('\n');
      shown = false;
    },
  };
}

export function addDateClusterCommands(dates: Command): void {
  dates
    .command('scan')
    .description('list every index field, template and ingest pipeline with a legacy custom date format, its conversion, severity and fix (reads only)')
    .option('--url <url>', 'search engine address, e.g. http://user:password@127.0.0.1:9200 (default: SEARCH_URL; API key: SEARCH_API_KEY)')
    .option('--lenient', "suggest formats that also accept Joda's fewer-digit inputs")
    .option('--include-java-indices', 'also list indices created by 7.0 or later (their formats are already java.time)')
    .option('--json', 'print JSON')
    .action(async (options: { url?: string; lenient?: boolean; includeJavaIndices?: boolean; json?: boolean }) => {
      // Loaded when the command runs, like every command's work (src/cli/main.ts).
      const [{ SearchClient }, { formatScan, scanCluster }] = await Promise.all([import('./search-client.ts'), import('./cluster.ts')]);
      const client = SearchClient.fromEnv(options.url);
      const result = await scanCluster(client, { lenient: !!options.lenient, includeJavaIndices: !!options.includeJavaIndices });
      print(!!options.json, result, formatScan(result));
    });

  dates
    .command('migrate')
    .description(
      'create <index>-javatime with converted date formats, reindex, check the counts, then repoint the aliases in one atomic call; a re-run resumes',
    )
    .option('--url <url>', 'search engine address (default: SEARCH_URL; API key: SEARCH_API_KEY)')
    .requiredOption('--index <index>', 'the index, or an alias pointing to one index')
    .option('--alias <alias>', 'an alias to point at the new index (besides every alias the old index has)')
    .option('--new-index <name>', 'name of the new index (default: <index>-javatime)')
    .option('--dry-run', 'print the exact requests; send no write')
    .option('--lenient', "use formats that also accept Joda's fewer-digit inputs")
    .option('--allow-unsupported', 'migrate even when a format has no java.time equivalent: writes its best-effort conversion, which is NOT equivalent')
    .option('--assume-joda', 'treat the formats of an index created by 7.0 or later as Joda patterns')
    .option('--poll-interval <ms>', 'milliseconds between two looks at the reindex task', '1000')
    .option('--json', 'print JSON')
    .action(
      async (options: {
        url?: string;
        index: string;
        alias?: string;
        newIndex?: string;
        dryRun?: boolean;
        lenient?: boolean;
        allowUnsupported?: boolean;
        assumeJoda?: boolean;
        pollInterval: string;
        json?: boolean;
      }) => {
        const pollIntervalMs = Number(options.pollInterval);
        if (!Number.isFinite(pollIntervalMs) || pollIntervalMs < 0) throw new Error('--poll-interval: a number of milliseconds');
        const [{ SearchClient }, { formatMigration, migrateIndex }, { migrationNameProblem }] = await Promise.all([
          import('./search-client.ts'),
          import('./migrate.ts'),
          import('./names.ts'),
        ]);
        // A name Elasticsearch refuses is refused before anything is sent.
        const badName = migrationNameProblem(options);
        if (badName) throw new Error(`--${badName.option === 'newIndex' ? 'new-index' : badName.option}: ${badName.problem}`);
        const client = SearchClient.fromEnv(options.url);
        const progress = progressLine();
        const controller = new AbortController();
        // Ctrl-C stops following the task (it keeps running in the cluster); the error says how to resume.
        const onSignal = () => controller.abort();
        process.once('SIGINT', onSignal);
        try {
          const result = await migrateIndex(client, {
            index: options.index,
            alias: options.alias,
            newIndex: options.newIndex,
            dryRun: !!options.dryRun,
            lenient: !!options.lenient,
            allowUnsupported: !!options.allowUnsupported,
            assumeJoda: !!options.assumeJoda,
            onProgress: progress.update,
            signal: controller.signal,
            pollIntervalMs,
          });
          progress.end();
          print(!!options.json, result, formatMigration(result));
        } finally {
          progress.end();
          process.off('SIGINT', onSignal);
        }
      },
    );
}
