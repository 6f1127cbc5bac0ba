import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The files that take longest (seconds on CI's two cores, SQLite run), started first so that the last minutes of
 * a run are not one long file alone on one core while the other idles: vitest orders by earlier durations only
 * when it has them, and CI's clean clone has none. A file missing from the list only runs later than it might.
 */
const SLOWEST_FIRST = [
  'test/server/startup.test.ts', // 245
  'test/dateformats/oracle.test.ts', // 110
  'test/memory/soak.test.ts', // 94
  'test/insights/generate.test.ts', // 84
  'test/dateformats/formats-table.test.ts', // 82
  'test/cli-admin.test.ts', // 74
  'test/cli-operators.test.ts', // 62
  'test/cli.test.ts', // 42
  'test/insights/cli.test.ts', // 36
  'test/server/shutdown-under-load.test.ts', // 36
  'test/cli-adsets.test.ts', // 34
  'test/docs/examples.test.ts', // 27
  'test/scale-out/two-instances.test.ts', // 27
  'test/build.test.ts', // 27
  'test/server/serve.test.ts', // 25
  'test/ide.browser.test.ts', // 24
];

export class SlowestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (file: TestSpecification) => {
      const index = SLOWEST_FIRST.indexOf(relative(file.project.config.root, file.moduleId).split('\\').join('/'));
      return index === -1 ? SLOWEST_FIRST.length : index;
    };
    const rest = await super.sort(files.filter((file) => rank(file) === SLOWEST_FIRST.length));
    return [...files.filter((file) => rank(file) < SLOWEST_FIRST.length).sort((a, b) => rank(a) - rank(b)), ...rest];
  }
}
