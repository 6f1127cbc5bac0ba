import { isNumericId } from '../../db/ids.ts';
import { violation, type Violation } from './violations.ts';

/**
 * "Restricted": the one home of the rule (DECISIONS section 5). A custom audience or conversion the platform's
 * review flagged (health, financial), and a lookalike whose source is flagged (operation_status 471), cannot be
 * used: writes that would use one fail (246003 listing every such audience, 246004 for a conversion), and an ad
 * set already using one reads with issues and effective status WITH_ISSUES.
 */
export const RESTRICTED_LOOKALIKE_CODE = 471;
export const RESTRICTED_AUDIENCE_SUBCODE = 246003;
export const RESTRICTED_CONVERSION_SUBCODE = 246004;
export const AUDIENCE_ISSUE_CODE = 2460003;
export const CONVERSION_ISSUE_CODE = 2460004;

export interface AudienceFacts {
  id: string;
  accountId: string;
  subtype: string;
  flaggedReason: string | null;
  operationStatusCode: number;
}

export interface ConversionFacts {
  id: string;
  accountId: string;
  flaggedReason: string | null;
}

export const isFlagged = (item: { flaggedReason: string | null }) => item.flaggedReason !== null;
export const isRestrictedLookalike = (audience: AudienceFacts) => !isFlagged(audience) && audience.operationStatusCode === RESTRICTED_LOOKALIKE_CODE;
export const isRestrictedAudience = (audience: AudienceFacts) => isFlagged(audience) || audience.operationStatusCode === RESTRICTED_LOOKALIKE_CODE;

/** Where targeting names custom audiences: included and excluded, also inside flexible_spec and exclusions. */
const AUDIENCE_KEYS = ['custom_audiences', 'excluded_custom_audiences'] as const;

export interface Reference {
  /** Where it was written, for messages: `targeting.custom_audiences[1]`. */
  path: string;
  /** The id, or null when the entry is not an id nor an object with one. */
  id: string | null;
}

const idOf = (entry: unknown): string | null => {
  const raw = typeof entry === 'object' && entry !== null && !Array.isArray(entry) ? (entry as { id?: unknown }).id : entry;
  const id = typeof raw === 'number' && Number.isSafeInteger(raw) ? String(raw) : typeof raw === 'string' ? raw.trim() : '';
  return isNumericId(id) ? id : null;
};

function referencesIn(object: unknown, path: string, out: Reference[]): void {
  if (typeof object !== 'object' || object === null || Array.isArray(object)) return;
  for (const key of AUDIENCE_KEYS) {
    const entries = (object as Record<string, unknown>)[key];
    if (!Array.isArray(entries)) continue;
    entries.forEach((entry, i) => out.push({ path: `${path}.${key}[${i}]`, id: idOf(entry) }));
  }
}

/** Every custom audience a targeting spec names. */
export function audienceReferences(targeting: unknown): Reference[] {
  const out: Reference[] = [];
  referencesIn(targeting, 'targeting', out);
  const flexible = (targeting as { flexible_spec?: unknown } | null)?.flexible_spec;
  if (Array.isArray(flexible)) flexible.forEach((spec, i) => referencesIn(spec, `targeting.flexible_spec[${i}]`, out));
  referencesIn((targeting as { exclusions?: unknown } | null)?.exclusions, 'targeting.exclusions', out);
  return out;
}

/** The custom conversion a promoted object names (promoted_object.custom_conversion_id). */
export function conversionReferences(promotedObject: unknown): Reference[] {
  const raw = (promotedObject as { custom_conversion_id?: unknown } | null)?.custom_conversion_id;
  if (raw === undefined || raw === null) return [];
  return [{ path: 'promoted_object.custom_conversion_id', id: idOf(raw) }];
}

const unique = (ids: Array<string | null>) => [...new Set(ids.filter((id): id is string => id !== null))];

export const audienceIdsOf = (targeting: unknown) => unique(audienceReferences(targeting).map((r) => r.id));
export const conversionIdsOf = (promotedObject: unknown) => unique(conversionReferences(promotedObject).map((r) => r.id));

/**
 * References that must name objects of the ad set's account: malformed entries and ids naming nothing (or
 * something of another account) are error 100 naming where they were written.
 */
export function referenceViolations(
  adSet: { targeting: unknown; promotedObject: unknown },
  accountId: string,
  audiences: ReadonlyMap<string, AudienceFacts>,
  conversions: ReadonlyMap<string, ConversionFacts>,
): Violation[] {
  const out: Violation[] = [];
  for (const ref of audienceReferences(adSet.targeting)) {
    if (ref.id === null) out.push(violation(ref.path, `Param ${ref.path} must be a custom audience id or {"id": ...}`));
    else if (audiences.get(ref.id)?.accountId !== accountId) {
      out.push(violation(ref.path, `Param ${ref.path} names ${ref.id}, which is not a custom audience of ad account act_${accountId}`));
    }
  }
  for (const ref of conversionReferences(adSet.promotedObject)) {
    if (ref.id === null) out.push(violation(ref.path, `Param ${ref.path} must be a custom conversion id`));
    else if (conversions.get(ref.id)?.accountId !== accountId) {
      out.push(violation(ref.path, `Param ${ref.path} names ${ref.id}, which is not a custom conversion of ad account act_${accountId}`));
    }
  }
  return out;
}

/** 246003 listing every restricted audience used, then 246004 for a restricted conversion. */
export function restrictionViolations(
  adSet: { targeting: unknown; promotedObject: unknown },
  audiences: ReadonlyMap<string, AudienceFacts>,
  conversions: ReadonlyMap<string, ConversionFacts>,
): Violation[] {
  const out: Violation[] = [];
  const restricted = audienceIdsOf(adSet.targeting).filter((id) => {
    const audience = audiences.get(id);
    return audience !== undefined && isRestrictedAudience(audience);
  });
  if (restricted.length > 0) {
    out.push(
      violation(
        'targeting',
        `Ad sets cannot use custom audiences that may suggest health conditions or financial status, nor lookalikes of them: ${restricted.join(', ')}`,
        {
          subcode: RESTRICTED_AUDIENCE_SUBCODE,
          userTitle: 'Restricted audience',
          userMessage: `Remove the restricted audience${restricted.length > 1 ? 's' : ''} ${restricted.join(', ')} from the targeting. Audiences that may suggest health conditions or financial status cannot be used to run ads; you may ask for a review.`,
          data: { restricted_custom_audience_ids: restricted },
        },
      ),
    );
  }
  for (const id of conversionIdsOf(adSet.promotedObject)) {
    const conversion = conversions.get(id);
    if (!conversion || !isFlagged(conversion)) continue;
    out.push(
      violation('promoted_object', `Ad sets cannot optimize for custom conversion ${id}: it may suggest health conditions or financial status`, {
        subcode: RESTRICTED_CONVERSION_SUBCODE,
        userTitle: 'Restricted custom conversion',
        userMessage: `Choose another custom conversion than ${id}. Conversions that may suggest health conditions or financial status cannot be used to run ads; you may ask for a review.`,
        data: { restricted_custom_conversion_id: id },
      }),
    );
  }
  return out;
}

/** An element of issues_info. */
export interface AdSetIssue {
  level: 'AD_SET';
  errorCode: number;
  errorSummary: string;
  errorMessage: string;
  errorType: 'SOFT_ERROR';
  additionalInfo: string;
}

/**
 * The issues of an ad set that uses restricted items: one per flagged audience and per flagged conversion,
 * one warning per lookalike at 471, in the order the ad set names them.
 */
export function issuesOf(
  adSet: { targeting: unknown; promotedObject: unknown },
  audiences: ReadonlyMap<string, AudienceFacts>,
  conversions: ReadonlyMap<string, ConversionFacts>,
): AdSetIssue[] {
  const issues: AdSetIssue[] = [];
  for (const id of audienceIdsOf(adSet.targeting)) {
    const audience = audiences.get(id);
    if (!audience) continue;
    if (isFlagged(audience)) {
      issues.push({
        level: 'AD_SET',
        errorCode: AUDIENCE_ISSUE_CODE,
        errorType: 'SOFT_ERROR',
        additionalInfo: `custom_audience_id: ${id}`,
        errorSummary: 'Custom audience blocked',
        errorMessage: `Custom audience ${id} may suggest ${audience.flaggedReason === 'health' ? 'health conditions' : 'financial status'} and cannot be used to run ads. Remove it from this ad set or ask for a review.`,
      });
    } else if (isRestrictedLookalike(audience)) {
      issues.push({
        level: 'AD_SET',
        errorCode: AUDIENCE_ISSUE_CODE,
        errorType: 'SOFT_ERROR',
        additionalInfo: `custom_audience_id: ${id}`,
        errorSummary: 'Lookalike audience restricted (warning)',
        errorMessage: `Lookalike audience ${id} has operation status ${RESTRICTED_LOOKALIKE_CODE}: its source audience may suggest health conditions or financial status. Replace it to keep this ad set delivering.`,
      });
    }
  }
  for (const id of conversionIdsOf(adSet.promotedObject)) {
    const conversion = conversions.get(id);
    if (!conversion || !isFlagged(conversion)) continue;
    issues.push({
      level: 'AD_SET',
      errorCode: CONVERSION_ISSUE_CODE,
      errorType: 'SOFT_ERROR',
      additionalInfo: `custom_conversion_id: ${id}`,
      errorSummary: 'Custom conversion blocked',
      errorMessage: `Custom conversion ${id} may suggest ${conversion.flaggedReason === 'health' ? 'health conditions' : 'financial status'} and cannot be used to run ads. Optimize for another conversion or ask for a review.`,
    });
  }
  return issues;
}
