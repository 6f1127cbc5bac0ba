import { execFile, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll } from 'vitest';
import { decodeField, encodeField, LineJvm } from './line-jvm.ts';

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

/** The JVM's options for every oracle run: Elasticsearch's locale providers, and a quick start. */
const JVM_OPTIONS = [
  // Elasticsearch's providers: SPI first makes Locale.ROOT weeks ISO through the oracle's provider.
  '-Djava.locale.providers=SPI,COMPAT',
  // The quick compiler alone, the serial collector and no perf file take a third off a short JVM's CPU (what the
  // checks answer does not depend on either).
  '-XX:TieredStopAtLevel=1',
  '-XX:+UseSerialGC',
  '-XX:-UsePerfData',
];
/** The project's helpers compiled with the oracle: EsDateOracleRuns runs the oracle's command many times in one JVM. */
const HELPER_SOURCES = fileURLToPath(new URL('./java/oracle', import.meta.url));
/** JVMs answering runs side by side: one per core of CI's two. */
const RUNNERS = 2;

/**
 * One JVM of EsDateOracleRuns (./line-jvm.ts). `ready` tells whether it runs the oracle's command (false where the
 * JVM refuses to outlive a run's System.exit: Java 24 and later).
 */
class OracleRunner {
  readonly ready: Promise<boolean>;
  private readonly jvm: LineJvm;

  constructor(classpath: string) {
    let greeted: (ready: boolean) => void = () => undefined;
    const greeting = new Promise<boolean>((resolve) => (greeted = resolve));
    this.jvm = new LineJvm(['-Djava.security.manager=allow', ...JVM_OPTIONS, '-cp', classpath, 'oracle.EsDateOracleRuns'], 'dates oracle JVM', (line) =>
      greeted(line === 'ready'),
    );
    this.ready = Promise.race([greeting, this.jvm.gone.then(() => false)]);
  }

  /** Runs asked for and not answered yet. */
  get load(): number {
    return this.jvm.pending;
  }

  async run(args: string[]): Promise<OracleRun> {
    const [code, output] = await this.jvm.request(args.map(encodeField));
    return { code: Number(code), output: decodeField(output) };
  }

  close(): void {
    void this.jvm.end();
  }
}

/** The test process's runners (one set whatever the samples), started on first use, ended after each block of tests. */
let runners: OracleRunner[] | undefined;
/** False once a JVM refused to run the oracle's command more than once: every run then starts a JVM of its own. */
let runsShareAJvm = true;

async function runInSharedJvm(classpath: string, args: string[]): Promise<OracleRun | undefined> {
  if (!runsShareAJvm) return undefined;
  runners ??= Array.from({ length: RUNNERS }, () => new OracleRunner(classpath));
  const runner = runners.reduce((least, candidate) => (candidate.load < least.load ? candidate : least));
  if (!(await runner.ready)) {
    runsShareAJvm = false;
    return undefined;
  }
  return runner.run(args);
}

/** One run in a JVM of its own, as the shared tool's run.sh does. */
function runInOwnJvm(classpath: string, args: string[]): Promise<OracleRun> {
  return new Promise((resolve, reject) => {
    execFile(
      'java',
      [...JVM_OPTIONS, '-cp', classpath, 'oracle.EsDateOracle', ...args],
      { timeout: 120_000, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error && (error.killed || error.signal)) return reject(new Error(`oracle killed: ${stderr}`));
        resolve({ code: error ? Number(error.code ?? 1) : 0, output: `${stdout}${stderr}` });
      },
    );
  });
}

/**
 * The oracle, for the block of tests this is called in: `build` compiles it (with the project's helpers), `run`
 * checks a Joda pattern against a java.time one over `sample` and the extra options. The runs of a test process
 * share two JVMs (test/helpers/java/oracle/EsDateOracleRuns.java), each run with the oracle loaded afresh, as in a
 * JVM of its own: a few hundred runs cost a JVM start each before (0.5 s of CPU a run, against 0.07 s now).
 */
export function createOracle(sample: { years: string; random: number } = { years: '1968-2032', random: 150 }): {
  build(): void;
  run(joda: string, java: string, extra?: string[]): Promise<OracleRun>;
  /** The same run in a JVM of its own (what `run` did before the JVMs were shared), to compare the two. */
  runAlone(joda: string, java: string, extra?: string[]): Promise<OracleRun>;
} {
  let classpath: string | undefined;
  const argsOf = (joda: string, java: string, extra: string[]) => [
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
  afterAll(() => {
    runners?.forEach((runner) => runner.close());
    runners = undefined;
  });
  return {
    build() {
      classpath = `${compileOracle([HELPER_SOURCES])}${path.delimiter}${JODA_JAR}`;
    },
    async run(joda, java, extra = []) {
      if (!classpath) throw new Error('build the oracle before running it');
      const args = argsOf(joda, java, extra);
      return (await runInSharedJvm(classpath, args)) ?? runInOwnJvm(classpath, args);
    },
    runAlone(joda, java, extra = []) {
      if (!classpath) throw new Error('build the oracle before running it');
      return runInOwnJvm(classpath, argsOf(joda, java, extra));
    },
  };
}
