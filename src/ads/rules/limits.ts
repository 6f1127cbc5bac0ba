import { violation, type Violation } from './violations.ts';

/** The specification's limits (its Limits table), and the numbers DECISIONS section 5 fixes. */
export const AD_SET_LIMIT = 5_000;
export const AD_SET_LIMIT_BULK = 10_000;
export const MAX_ADS_PER_AD_SET = 50;
export const AD_SET_NAME_MAX = 400;
export const DSA_NAME_MAX = 512;
/** Ads a deep copy may carry: synchronously, and through an asynchronous request. */
export const DEEP_COPY_SYNC_MAX = 3;
export const DEEP_COPY_ASYNC_MAX = 51;
/** Requests one async batch request set may hold (the platform's batch size). */
export const ASYNC_BATCH_MAX = 50;

export interface AdSetLimits {
  /** Non-deleted ad sets per regular account, and per bulk account. */
  perAccount: number;
  perBulkAccount: number;
}

export const DEFAULT_AD_SET_LIMITS: AdSetLimits = { perAccount: AD_SET_LIMIT, perBulkAccount: AD_SET_LIMIT_BULK };

export const adSetLimitOf = (account: { isBulk: boolean }, limits: AdSetLimits) => (account.isBulk ? limits.perBulkAccount : limits.perAccount);

/** Error 2695 when `adding` more ad sets would take the account past its limit of non-deleted ad sets. */
export function adSetLimitViolation(
  account: { id: string; isBulk: boolean },
  nonDeleted: number,
  adding: number,
  limits: AdSetLimits,
  field = 'campaign_id',
): Violation | null {
  const limit = adSetLimitOf(account, limits);
  if (nonDeleted + adding <= limit) return null;
  return violation(
    field,
    `Ad set creation reached the campaign group limit: ad account act_${account.id} already has ${nonDeleted} ad sets that are not deleted, and ${account.isBulk ? 'a bulk' : 'an'} account may have at most ${limit}`,
    {
      code: 2695,
      kind: 'LIMIT_EXCEEDED',
      userTitle: 'Too many ad sets',
      userMessage: `This ad account has reached its limit of ${limit} ad sets. Delete ad sets you no longer need before creating new ones.`,
    },
  );
}

/** An ad set's ads that count against its limit: those neither ARCHIVED nor DELETED. */
export const LIVE_AD_STATUSES = ['ACTIVE', 'PAUSED'] as const;
