/**
 * The code issue 13 measured, served beside today's in the same run: its goal for the nested read is "at least
 * 2x today's ratio to the bare-server ceiling", and a ratio measured by another layout on another day (the
 * issue's 0.015 ran autocannon in the server's own process) is no baseline. The sources of BASELINE_REVISION
 * come out of this checkout's git history (`git archive`, into a temporary folder; nothing in the checkout
 * changes), run on this checkout's node_modules (that revision's dependencies are a subset of today's) and
 * start as `npm start` started them then: `node bin/adgraph.js serve`, through tsx, with the demo data.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PACKAGE_ROOT, freePort, signInAsDemoUser, spawnChild, waitUntilReady } from './harness.ts';

/** The last commit before issue 13's work on the read path (BENCH_BASELINE_REVISION names another). */
export const BASELINE_REVISION = process.env.BENCH_BASELINE_REVISION ?? '84bc76e';

export interface BaselineServer {
  url: string;
  sessionToken: string;
  stop(): Promise<void>;
}

/** Why the baseline cannot run here (no git, or a checkout without that commit), or null when it can. */
export function baselineUnavailable(): string | null {
  try {
    execFileSync('git', ['-C', PACKAGE_ROOT, 'cat-file', '-e', `${BASELINE_REVISION}^{commit}`], { stdio: 'ignore' });
    return null;
  } catch {
    return `this checkout's git history has no commit ${BASELINE_REVISION}`;
  }
}

/** The baseline's server on a free loopback port, signed in as the demo user, with `env` (the section's). */
export async function startBaseline(env: Record<string, string>): Promise<BaselineServer> {
  const dir = mkdtempSync(join(tmpdir(), 'adgraph-baseline-'));
  const remove = () => rmSync(dir, { recursive: true, force: true });
  try {
    const sources = execFileSync('git', ['-C', PACKAGE_ROOT, 'archive', '--format=tar', BASELINE_REVISION], { maxBuffer: 512 * 1024 * 1024 });
    execFileSync('tar', ['-x', '-C', dir], { input: sources });
    symlinkSync(join(PACKAGE_ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
  } catch (error) {
    remove();
    throw error;
  }
  const port = await freePort();
  const child = spawnChild(`the baseline (${BASELINE_REVISION})`, ['bin/adgraph.js', 'serve'], {
    cwd: dir,
    env: { ...process.env, ...env, DATABASE_URL: `sqlite:${join(dir, 'baseline.sqlite')}`, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'silent' },
  });
  const stop = async () => {
    try {
      await child.stop();
    } finally {
      remove();
    }
  };
  try {
    const url = `http://127.0.0.1:${port}`;
    await waitUntilReady(`the baseline (${BASELINE_REVISION})`, child, url);
    return { url, sessionToken: await signInAsDemoUser(url), stop };
  } catch (error) {
    await stop().catch(() => undefined);
    throw error;
  }
}
