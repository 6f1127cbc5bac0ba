/**
 * Which edits restart an ad set's learning, after the platform's list of significant edits: any change of
 * targeting, of the optimization goal or the event it optimizes for (promoted object), of the billing event, of the
 * bid strategy; a bid amount or budget that changes by SIGNIFICANT_CHANGE or more (or switches between daily and
 * lifetime, or appears or goes); an ad set made ACTIVE again after a pause of LONG_PAUSE_DAYS or more; and, written
 * where ads are, an ad added to the ad set or an ad's creative changed. Name, schedule, labels, a pause itself and
 * small budget or bid changes are not. Pure.
 */
export const SIGNIFICANT_CHANGE = 0.2;
export const LONG_PAUSE_DAYS = 7;
const DAY_MS = 86_400_000;

export interface LearningFields {
  status: string;
  statusChangedTime: Date | null;
  createdTime: Date;
  targeting: unknown;
  optimizationGoal: string | null;
  promotedObject: unknown;
  billingEvent: string | null;
  bidStrategy: string | null;
  bidAmount: string | null;
  dailyBudget: string | null;
  lifetimeBudget: string | null;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** An amount (minor units) that appears, goes, or moves by SIGNIFICANT_CHANGE of its old value or more. */
export function amountChangedSignificantly(before: string | null, after: string | null): boolean {
  if (before === null || after === null) return before !== after;
  const old = Number(before);
  return old === 0 ? Number(after) !== 0 : Math.abs(Number(after) - old) / old >= SIGNIFICANT_CHANGE;
}

/** Budgets: a switch between daily and lifetime, or a significant change of the one held. */
type Budgets = Pick<LearningFields, 'dailyBudget' | 'lifetimeBudget'>;
function budgetChangedSignificantly(before: Budgets, after: Budgets): boolean {
  if ((before.dailyBudget === null) !== (after.dailyBudget === null)) return true;
  return amountChangedSignificantly(before.dailyBudget, after.dailyBudget) || amountChangedSignificantly(before.lifetimeBudget, after.lifetimeBudget);
}

/** The significant edits an update makes (the field names), empty when learning goes on. */
export function significantEdits(before: LearningFields, after: LearningFields, now: Date): string[] {
  const edits: string[] = [];
  if (!same(before.targeting, after.targeting)) edits.push('targeting');
  if (before.optimizationGoal !== after.optimizationGoal) edits.push('optimization_goal');
  if (!same(before.promotedObject, after.promotedObject)) edits.push('promoted_object');
  if (before.billingEvent !== after.billingEvent) edits.push('billing_event');
  if (before.bidStrategy !== after.bidStrategy) edits.push('bid_strategy');
  if (amountChangedSignificantly(before.bidAmount, after.bidAmount)) edits.push('bid_amount');
  if (budgetChangedSignificantly(before, after)) edits.push('budget');
  if (before.status === 'PAUSED' && after.status === 'ACTIVE') {
    const pausedSince = before.statusChangedTime ?? before.createdTime;
    if (now.getTime() - pausedSince.getTime() >= LONG_PAUSE_DAYS * DAY_MS) edits.push('status');
  }
  return edits;
}

/** A campaign budget's changes that restart the learning of every ad set under it. */
export function campaignSignificantEdits(
  before: Pick<LearningFields, 'bidStrategy' | 'dailyBudget' | 'lifetimeBudget'>,
  after: Pick<LearningFields, 'bidStrategy' | 'dailyBudget' | 'lifetimeBudget'>,
): string[] {
  const edits: string[] = [];
  if (before.bidStrategy !== after.bidStrategy) edits.push('bid_strategy');
  if (budgetChangedSignificantly(before, after)) edits.push('budget');
  return edits;
}
