import { adSetCopyJobs } from '../ads/copy-jobs.ts';
import { insightsReportJobs } from '../insights/reports/job.ts';
import type { AnyJobKind, Sweeper } from '../jobs/index.ts';
import { activityRetention } from '../ads/activities.ts';
import { adRuleRunJobs } from '../ads/ad-rule-runs.ts';
import { eventRetention } from '../events/outbox.ts';

/** The job kinds a serving instance runs (src/jobs), in the order its runner takes them in turn. */
export const JOB_KINDS: readonly AnyJobKind[] = [adSetCopyJobs, insightsReportJobs, adRuleRunJobs];

/** What the runner deletes when idle besides the kinds' expired jobs: change history and published events past their retention. */
export const SWEEPERS: readonly Sweeper[] = [activityRetention(), eventRetention()];
