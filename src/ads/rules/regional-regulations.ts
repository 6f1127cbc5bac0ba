/**
 * Regional regulations (the resource table's regional_regulated_categories and regional_regulation_identities):
 * an ad set that declares regulated categories names who benefits from its ads and who pays for them, "both must
 * be given and must correspond to the declared categories". Pure: the reader has checked each value's shape.
 *
 * The categories are the SDK's codes ('0' to '12'); the identities the SDK's RegionalRegulationIdentities keys,
 * one beneficiary and one payer per regulation (Australian, Indian and Taiwanese financial services, Singaporean
 * and Taiwanese ads in general). The platform does not publish which code is which regulation, so "correspond" is
 * read as: every declared category is answered by a complete pair (a beneficiary and a payer of one regulation).
 */
import { violation, type Violation } from './violations.ts';

export const REGIONAL_REGULATED_CATEGORIES = ['0', '1', '2', '3', '4', '5', '6', '7', '8', '9', '10', '11', '12'] as const;

const REGULATIONS = ['australia_finserv', 'india_finserv', 'singapore_universal', 'taiwan_finserv', 'taiwan_universal'] as const;
export const REGULATION_IDENTITY_KEYS = REGULATIONS.flatMap((regulation) => [`${regulation}_beneficiary`, `${regulation}_payer`]);

export function regionalRegulationViolations(categories: unknown, identities: unknown): Violation[] {
  const declared = Array.isArray(categories) ? categories : [];
  const given = identities && typeof identities === 'object' ? (identities as Record<string, unknown>) : {};
  const complete = REGULATIONS.filter((regulation) => given[`${regulation}_beneficiary`] && given[`${regulation}_payer`]);
  const half = REGULATIONS.filter((regulation) => Boolean(given[`${regulation}_beneficiary`]) !== Boolean(given[`${regulation}_payer`]));
  if (declared.length === 0) {
    return Object.keys(given).length > 0
      ? [
          violation(
            'regional_regulation_identities',
            'Param regional_regulation_identities needs regional_regulated_categories: declare the regulated categories the identities are for',
          ),
        ]
      : [];
  }
  if (half.length > 0) {
    const regulation = half[0]!;
    const missing = given[`${regulation}_beneficiary`] ? 'payer' : 'beneficiary';
    return [
      violation(
        `regional_regulation_identities.${regulation}_${missing}`,
        `The parameter regional_regulation_identities.${regulation}_${missing} is required: both the beneficiary and the payer identities must be given`,
      ),
    ];
  }
  if (complete.length < new Set(declared).size) {
    return [
      violation(
        'regional_regulation_identities',
        `Param regional_regulation_identities must give a beneficiary and a payer identity for each declared category: ${new Set(declared).size} declared, ${complete.length} complete`,
        {
          userTitle: 'Regulation identities required',
          userMessage: 'Ad sets in regulated categories must name who benefits from the ads and who pays for them.',
        },
      ),
    ];
  }
  return [];
}
