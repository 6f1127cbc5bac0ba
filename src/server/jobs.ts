import { adSetCopyJobs } from '../ads/copy-jobs.ts';
import { insightsReportJobs } from '../insights/reports/job.ts';
import type { AnyJobKind } from '../jobs/index.ts';

/** The job kinds a serving instance runs (src/jobs), in the order its runner takes them in turn. */
export const JOB_KINDS: readonly AnyJobKind[] = [adSetCopyJobs, insightsReportJobs];
