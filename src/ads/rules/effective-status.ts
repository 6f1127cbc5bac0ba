import { OBJECT_STATUSES, type ObjectStatus } from './enums.ts';

/**
 * Effective status: what an object's delivery comes to, from its own status, its parents' and its issues
 * (DECISIONS section 5). Pure functions over finite inputs, so the same rule also yields the SQL that filters
 * edges by effective status (src/ads/edges.ts enumerates the inputs), and the two cannot disagree.
 *
 * Precedence, first match wins:
 * 1. the object's own DELETED or ARCHIVED;
 * 2. a DELETED or ARCHIVED parent's status (the campaign's, then for ads the ad set's): an ad set under an
 *    archived campaign is archived whatever its own status;
 * 3. the object's own PAUSED;
 * 4. a PAUSED campaign is CAMPAIGN_PAUSED, a PAUSED ad set (for ads) ADSET_PAUSED;
 * 5. an ad set with issues (flagged audiences or conversions) is WITH_ISSUES, and so are its ads;
 * 6. ACTIVE.
 * IN_PROCESS (the platform's review) never arises here: nothing is reviewed.
 */
export const EFFECTIVE_STATUSES = ['ACTIVE', 'PAUSED', 'DELETED', 'ARCHIVED', 'CAMPAIGN_PAUSED', 'ADSET_PAUSED', 'IN_PROCESS', 'WITH_ISSUES'] as const;
export type EffectiveStatus = (typeof EFFECTIVE_STATUSES)[number];

/** The values each object type can report (and its edges filter on), as the Graph API lists them. */
export const CAMPAIGN_EFFECTIVE_STATUSES = [
  'ACTIVE',
  'PAUSED',
  'DELETED',
  'ARCHIVED',
  'IN_PROCESS',
  'WITH_ISSUES',
] as const satisfies readonly EffectiveStatus[];
export const AD_SET_EFFECTIVE_STATUSES = [
  'ACTIVE',
  'PAUSED',
  'DELETED',
  'CAMPAIGN_PAUSED',
  'ARCHIVED',
  'IN_PROCESS',
  'WITH_ISSUES',
] as const satisfies readonly EffectiveStatus[];
export const AD_EFFECTIVE_STATUSES = EFFECTIVE_STATUSES;

/** Edges leave these out unless asked for by an effective_status filter. */
export const HIDDEN_BY_DEFAULT: readonly EffectiveStatus[] = ['DELETED', 'ARCHIVED'];

const ended = (status: ObjectStatus): status is 'DELETED' | 'ARCHIVED' => status === 'DELETED' || status === 'ARCHIVED';

export function campaignEffectiveStatus(input: { own: ObjectStatus }): EffectiveStatus {
  return input.own;
}

export function adSetEffectiveStatus(input: { own: ObjectStatus; campaign: ObjectStatus; hasIssues: boolean }): EffectiveStatus {
  if (ended(input.own)) return input.own;
  if (ended(input.campaign)) return input.campaign;
  if (input.own === 'PAUSED') return 'PAUSED';
  if (input.campaign === 'PAUSED') return 'CAMPAIGN_PAUSED';
  return input.hasIssues ? 'WITH_ISSUES' : 'ACTIVE';
}

export function adEffectiveStatus(input: { own: ObjectStatus; campaign: ObjectStatus; adSet: ObjectStatus; adSetHasIssues: boolean }): EffectiveStatus {
  if (ended(input.own)) return input.own;
  if (ended(input.campaign)) return input.campaign;
  if (ended(input.adSet)) return input.adSet;
  if (input.own === 'PAUSED') return 'PAUSED';
  if (input.campaign === 'PAUSED') return 'CAMPAIGN_PAUSED';
  if (input.adSet === 'PAUSED') return 'ADSET_PAUSED';
  return input.adSetHasIssues ? 'WITH_ISSUES' : 'ACTIVE';
}

/** The finite domain of each input, for enumerating them. */
export const STATUS_DOMAIN = OBJECT_STATUSES;
export const BOOLEAN_DOMAIN = [false, true] as const;
