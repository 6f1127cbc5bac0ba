import { execFile, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The shared differential oracle (../shared/tools/dates-oracle: real Joda-Time 2.10 against java.time configured like
 * Elasticsearch 7.x/8.x), compiled once per version of its sources into .tmp/ (see compileOracle). Exit codes:
 * 0 equivalent, 1 mismatch, 2 usage, 3 invalid pattern.
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

export interface OracleRun {
  code: number;
  output: string;
}

/**
 * Compiles the oracle's sources, and the Java sources of `extraSourceDirs` (a helper of the oracle's package), into
 * .tmp/dates-oracle-<hash of the sources>/ unless that folder is there; returns it. Test files run in parallel
 * processes: each compiles into a scratch folder of its own and renames it into place, so none sees a half-built
 * one or removes another's classes.
 */
export function compileOracle(extraSourceDirs: string[] = []): string {
  const javaFilesIn = (dir: string) =>
    readdirSync(dir)
      .filter((f) => f.endsWith('.java'))
      .map((f) => path.join(dir, f));
  const sources = [path.join(ORACLE_SRC, 'src', 'oracle'), ...extraSourceDirs].flatMap(javaFilesIn).sort();
  const hash = createHash('sha256');
  for (const file of sources) hash.update(file).update(readFileSync(file));
  const dir = path.join(ROOT, '.tmp', `dates-oracle-${hash.digest('hex').slice(0, 16)}`);
  if (existsSync(dir)) return dir;
  const scratch = `${dir}.${process.pid}`;
  rmSync(scratch, { recursive: true, force: true });
  mkdirSync(scratch, { recursive: true });
  const javac = spawnSync('javac', ['-d', scratch, '-cp', JODA_JAR, ...sources], { encoding: 'utf8' });
  if (javac.status !== 0) throw new Error(`javac failed: ${javac.stderr}`);
  cpSync(path.join(ORACLE_SRC, 'resources', 'META-INF'), path.join(scratch, 'META-INF'), { recursive: true });
  try {
    renameSync(scratch, dir);
  } catch {
    rmSync(scratch, { recursive: true, force: true }); // another test file got there first, with the same sources
  }
  return dir;
}

export function createOracle(sample: { years: string; random: number } = { years: '1968-2032', random: 150 }): {
  build(): void;
  run(joda: string, java: string, extra?: string[]): Promise<OracleRun>;
} {
  let dir: string | undefined;
  return {
    build() {
      dir = compileOracle();
    },
    run(joda, java, extra = []) {
      if (!dir) throw new Error('build the oracle before running it');
      const args = [
        // Elasticsearch's providers: SPI first makes Locale.ROOT weeks ISO through the oracle's provider.
        '-Djava.locale.providers=SPI,COMPAT',
        // A JVM per check, a few hundred a run: the quick compiler alone, the serial collector and no perf file
        // take a third off each one's CPU (the checks are short; what they answer does not depend on either).
        '-XX:TieredStopAtLevel=1',
        '-XX:+UseSerialGC',
        '-XX:-UsePerfData',
        '-cp',
        `${dir}${path.delimiter}${JODA_JAR}`,
        'oracle.EsDateOracle',
        '--joda',
        joda,
        '--java',
        java,
        '--years',
        sample.years,
        '--random',
        String(sample.random),
        '--max-report',
        '3',
        ...extra,
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
