import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adTree, importEvents, statsTestBed } from '../helpers/insights.ts';
import { createRequestContext } from '../../src/context/index.ts';
import { restorePrincipal } from '../../src/identity/principals.ts';
import { claimNext, runClaimed, startJobRunner, type JobKind } from '../../src/jobs/index.ts';
import { insightsReportJobs } from '../../src/insights/reports/job.ts';
import { createReportRun } from '../../src/insights/reports/service.ts';
import { reportRuns, type ReportRunRecord } from '../../src/insights/reports/store.ts';
import type { AdTree } from '../helpers/insights.ts';

/**
 * The job runner (src/jobs) with a real kind, insights reports: a run whose lease was taken over cannot finish
 * (exactly once), and stopping the runner waits for the job in hand.
 */
const DAY_MS = 86_400_000;
const yesterday = new Date(Date.now() - DAY_MS).toISOString().slice(0, 10);

describe('the job runner', () => {
  let bed: Awaited<ReturnType<typeof statsTestBed>>;
  let tree: AdTree;
  let userId: string;

  beforeAll(async () => {
    bed = await statsTestBed();
    const organizationId = (await bed.world.organization()).id;
    userId = (await bed.world.user({ organizationId, role: 'advertiser' })).user.id;
    tree = await adTree(bed.world, organizationId, { adsPerAdSet: 2 });
    await importEvents(
      bed.deps,
      tree.ads.map((ad, i) => ({ type: 'impression' as const, ad_id: ad.id, time: `${yesterday}T08:00:00Z`, person: `p${i}`, spend: 10 })),
    );
  });
  afterAll(() => bed?.close());

  async function storeReport(): Promise<ReportRunRecord> {
    const viewer = (await restorePrincipal(bed.deps, { kind: 'user', userId }))!;
    const ctx = createRequestContext(bed.deps, { requestId: 'runner-test', viewer });
    return createReportRun(
      ctx,
      { kind: 'account', id: tree.account.id },
      {
        fields: ['impressions'],
        level: 'ad',
        timeRange: { since: yesterday, until: yesterday },
        breakdowns: [],
        actionBreakdowns: [],
        filtering: [],
        sort: [],
      },
    );
  }
  const runRow = async (id: string) => reportRuns.fromRow(await bed.deps.db(reportRuns.table).where({ id }).first());
  const rowCount = async (id: string) =>
    Number(((await bed.deps.db('insight_report_rows').where({ report_run_id: id }).count({ n: '*' })) as [{ n: unknown }])[0].n);

  it('an instance whose lease expired and was taken over cannot finish the job: the result is written once, by the holder', async () => {
    const stored = await storeReport();
    // A claims with a lease that is already over (it took too long); B claims the same run again and completes it.
    const slow = await claimNext(bed.deps.db, insightsReportJobs, 'instance-a', 5, new Date(Date.now() - 3_600_000));
    const fast = await claimNext(bed.deps.db, insightsReportJobs, 'instance-b', 300);
    expect([slow?.id, fast?.id]).toEqual([stored.id, stored.id]);
    await runClaimed(bed.deps, insightsReportJobs, fast!, 'instance-b');
    const completed = await runRow(stored.id);
    expect(completed).toMatchObject({ status: 'COMPLETED', attempts: 2, rowCount: 2, claimedBy: null });
    // A goes on: its lease renewal finds the claim gone, and it writes nothing.
    await runClaimed(bed.deps, insightsReportJobs, slow!, 'instance-a');
    expect(await runRow(stored.id)).toEqual(completed);
    expect(await rowCount(stored.id)).toBe(2);
  });

  it('stopping the runner waits for the job in hand, which completes', async () => {
    let entered!: () => void;
    const inHand = new Promise<void>((resolve) => (entered = resolve));
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const gated: JobKind<ReportRunRecord> = {
      ...insightsReportJobs,
      run: async (deps, job, lease, log) => {
        entered();
        await gate;
        await insightsReportJobs.run(deps, job, lease, log);
      },
    };
    const stored = await storeReport();
    const runner = startJobRunner(bed.deps, [gated], { pollMs: 20, leaseSeconds: 60 });
    await inHand;
    let stopped = false;
    const stopping = runner.stop().then(() => {
      stopped = true;
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(stopped).toBe(false);
    expect((await runRow(stored.id)).status).toBe('STARTED');
    release();
    await stopping;
    expect(await runRow(stored.id)).toMatchObject({ status: 'COMPLETED', rowCount: 2 });
  });
});
