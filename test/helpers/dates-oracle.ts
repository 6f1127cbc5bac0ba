import { execFile, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The shared differential oracle (../shared/tools/dates-oracle: real Joda-Time 2.10 against java.time configured like
 * Elasticsearch 7.x/8.x), for tests other than oracle.test.ts. Each caller builds into its own folder under .tmp/ so
 * that test files running in parallel never remove each other's classes. Exit codes: 0 equivalent, 1 mismatch,
 * 2 usage, 3 invalid pattern.
 */
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const ORACLE_SRC = process.env.DATES_ORACLE_DIR ?? path.resolve(ROOT, '../shared/tools/dates-oracle');
export const JODA_JAR = process.env.JODA_JAR ?? '/usr/share/java/joda-time.jar';

/** What is missing to run the oracle, or undefined. */
export function oracleMissing(): string | undefined {
  if (!existsSync(path.join(ORACLE_SRC, 'src', 'oracle'))) return `the oracle sources (${ORACLE_SRC}; set DATES_ORACLE_DIR)`;
  if (!existsSync(JODA_JAR)) return `${JODA_JAR} (apt-get install libjoda-time-java)`;
  for (const tool of ['javac', 'java']) {
    if (spawnSync(tool, ['-version'], { stdio: 'ignore' }).status !== 0) return `${tool} (apt-get install default-jdk-headless)`;
  }
  return undefined;
}

export interface OracleRun { code: number; output: string }

export function createOracle(
  name: string,
  sample: { years: string; random: number } = { years: '1968-2032', random: 150 },
): { build(): void; run(joda: string, java: string, extra?: string[]): Promise<OracleRun> } {
  const dir = path.join(ROOT, '.tmp', name);
  return {
    build() {
      const sources = path.join(ORACLE_SRC, 'src', 'oracle');
      const javaFiles = readdirSync(sources).filter((f) => f.endsWith('.java')).map((f) => path.join(sources, f));
      const marker = path.join(dir, 'oracle', 'EsDateOracle.class');
      if (existsSync(marker) && statSync(marker).mtimeMs >= Math.max(...javaFiles.map((f) => statSync(f).mtimeMs))) return;
      rmSync(dir, { recursive: true, force: true });
      mkdirSync(dir, { recursive: true });
      const javac = spawnSync('javac', ['-d', dir, '-cp', JODA_JAR, ...javaFiles], { encoding: 'utf8' });
      if (javac.status !== 0) throw new Error(`javac failed: ${javac.stderr}`);
      cpSync(path.join(ORACLE_SRC, 'resources', 'META-INF'), path.join(dir, 'META-INF'), { recursive: true });
    },
    run(joda, java, extra = []) {
      const args = [
        // Elasticsearch's providers: SPI first makes Locale.ROOT weeks ISO through the oracle's provider.
        '-Djava.locale.providers=SPI,COMPAT', '-cp', `${dir}${path.delimiter}${JODA_JAR}`, 'oracle.EsDateOracle',
        '--joda', joda, '--java', java, '--years', sample.years, '--random', String(sample.random), '--max-report', '3', ...extra,
      ];
      return new Promise((resolve, reject) => {
        execFile('java', args, { timeout: 120_000, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
          if (error && (error.killed || error.signal)) return reject(new Error(`oracle killed: ${stderr}`));
          resolve({ code: error ? Number(error.code ?? 1) : 0, output: `${stdout}${stderr}` });
        });
      });
    },
  };
}
