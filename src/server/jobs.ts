import { adSetCopyJobs } from '../ads/copy-jobs.ts';
import { insightsReportJobs } from '../insights/reports/job.ts';
import type { AnyJobKind, Sweeper } from '../jobs/index.ts';
import { activityRetention } from '../ads/activities.ts';

/** The job kinds a serving instance runs (src/jobs), in the order its runner takes them in turn. */
export const JOB_KINDS: readonly AnyJobKind[] = [adSetCopyJobs, insightsReportJobs];

/** What the runner deletes when idle besides the kinds' expired jobs: change history past its retention. */
export const SWEEPERS: readonly Sweeper[] = [activityRetention()];
