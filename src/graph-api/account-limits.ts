import type { AppDeps } from '../context/index.ts';
import { DomainError } from '../errors/index.ts';

/**
 * The per-ad-account allowance (DECISIONS section 4): calls, wall time and CPU time spent on an account's
 * calls within a sliding window (RATE_LIMIT_ACCOUNT_*). Over any of them: error 80004. CPU time is the
 * process's during the call, so concurrent calls share the blame: an estimate, as the platform's is.
 */
const tooManyCalls = (retryAfterSeconds?: number) =>
  new DomainError('RATE_LIMITED', 'There have been too many calls to this ad-account. Wait a bit and try again.', {
    graph: { code: 80004, subcode: 2446079, isTransient: true, type: 'OAuthException' },
    retryAfterSeconds,
  });

async function guard(work: () => Promise<void>): Promise<void> {
  try {
    await work();
  } catch (error) {
    if (error instanceof DomainError && error.code === 'RATE_LIMITED') throw tooManyCalls(error.retryAfterSeconds);
    throw error;
  }
}

export interface CallStart {
  wall: number;
  cpu: NodeJS.CpuUsage;
}

/**
 * Refuses a call when the account has used up any allowance; otherwise counts it. The call itself is counted
 * before it runs (atomic, so concurrent calls cannot pass together); its wall and CPU time are known only after
 * it, so those allowances are read here and added by recordAccountCall: calls already in flight when the time
 * runs out still finish.
 */
export async function checkAccountAllowance(deps: AppDeps, accountId: string): Promise<CallStart> {
  await guard(async () => {
    await deps.rateLimits.check('graphTimeByAccount', accountId);
    await deps.rateLimits.check('graphCpuByAccount', accountId);
    await deps.rateLimits.consume('graphCallsByAccount', accountId);
  });
  return { wall: performance.now(), cpu: process.cpuUsage() };
}

/** Adds the call's wall and CPU milliseconds to the account; going over shows on the next call. */
export async function recordAccountCall(deps: AppDeps, accountId: string, start: CallStart): Promise<void> {
  const wallMs = Math.max(1, Math.round(performance.now() - start.wall));
  const cpu = process.cpuUsage(start.cpu);
  const cpuMs = Math.max(1, Math.round((cpu.user + cpu.system) / 1000));
  await Promise.all([
    deps.rateLimits.consume('graphTimeByAccount', accountId, wallMs).catch(() => undefined),
    deps.rateLimits.consume('graphCpuByAccount', accountId, cpuMs).catch(() => undefined),
  ]);
}

/** The X-Business-Use-Case-Usage value: percentages of each allowance, and minutes until access returns. */
export async function accountUsage(deps: AppDeps, accountId: string) {
  const [calls, time, cpu] = await Promise.all([
    deps.rateLimits.usage('graphCallsByAccount', accountId),
    deps.rateLimits.usage('graphTimeByAccount', accountId),
    deps.rateLimits.usage('graphCpuByAccount', accountId),
  ]);
  const blocked = [calls, time, cpu].filter((u) => u.percent >= 100);
  const regainMinutes = blocked.length ? Math.ceil(Math.max(...blocked.map((u) => u.msBeforeNext)) / 60_000) : 0;
  return {
    [accountId]: [
      {
        type: 'ads_management',
        call_count: calls.percent,
        total_cputime: cpu.percent,
        total_time: time.percent,
        estimated_time_to_regain_access: regainMinutes,
      },
    ],
  };
}
