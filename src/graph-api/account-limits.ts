import type { AppDeps } from '../context/index.ts';
import { DomainError } from '../errors/index.ts';
import type { Usage } from '../ratelimit/index.ts';

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

async function guard<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof DomainError && error.code === 'RATE_LIMITED') throw tooManyCalls(error.retryAfterSeconds);
    throw error;
  }
}

export interface CallStart {
  wall: number;
  cpu: NodeJS.CpuUsage;
  /** The calls allowance as this call's count left it. */
  calls: Usage;
}

/** The three allowances' usage, as the call's own counting left them. */
export interface CallUsage {
  calls: Usage;
  time: Usage;
  cpu: Usage;
}

/**
 * Refuses a call when the account has used up any allowance; otherwise counts it. The call itself is counted
 * before it runs (atomic, so concurrent calls cannot pass together); its wall and CPU time are known only after
 * it, so those allowances are read here and added by recordAccountCall: calls already in flight when the time
 * runs out still finish.
 */
export async function checkAccountAllowance(deps: AppDeps, accountId: string): Promise<CallStart> {
  const calls = await guard(async () => {
    await deps.rateLimits.check('graphTimeByAccount', accountId);
    await deps.rateLimits.check('graphCpuByAccount', accountId);
    return deps.rateLimits.consume('graphCallsByAccount', accountId);
  });
  return { wall: performance.now(), cpu: process.cpuUsage(), calls };
}

/**
 * Adds the call's wall and CPU milliseconds to the account; going over shows on the next call. Answers the usage
 * the call's counting left (for its header, without reading the allowances again), or undefined when the time
 * or CPU allowance could not count it (over it, or its store failing).
 */
export async function recordAccountCall(deps: AppDeps, accountId: string, start: CallStart): Promise<CallUsage | undefined> {
  const wallMs = Math.max(1, Math.round(performance.now() - start.wall));
  const cpu = process.cpuUsage(start.cpu);
  const cpuMs = Math.max(1, Math.round((cpu.user + cpu.system) / 1000));
  const [time, cpuUsage] = await Promise.all([
    deps.rateLimits.consume('graphTimeByAccount', accountId, wallMs).catch(() => undefined),
    deps.rateLimits.consume('graphCpuByAccount', accountId, cpuMs).catch(() => undefined),
  ]);
  return time && cpuUsage ? { calls: start.calls, time, cpu: cpuUsage } : undefined;
}

/**
 * The X-Business-Use-Case-Usage value: percentages of each allowance, and minutes until access returns. From
 * `counted`, the usage the call's own counting left, when it has it; else read from the allowances.
 */
export async function accountUsage(deps: AppDeps, accountId: string, counted?: CallUsage) {
  const [calls, time, cpu] = counted
    ? [counted.calls, counted.time, counted.cpu]
    : await Promise.all([
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
