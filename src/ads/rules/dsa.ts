import { violation, type Violation } from './violations.ts';

/**
 * Payor and beneficiary (the specification's rules 1 to 4; regions of DECISIONS section 5): ad sets that
 * target the European Union or its outermost regions declare who pays and who benefits.
 */
export const EU_MEMBER_STATES = [
  'AT',
  'BE',
  'BG',
  'HR',
  'CY',
  'CZ',
  'DK',
  'EE',
  'FI',
  'FR',
  'DE',
  'GR',
  'HU',
  'IE',
  'IT',
  'LV',
  'LT',
  'LU',
  'MT',
  'NL',
  'PL',
  'PT',
  'RO',
  'SK',
  'SI',
  'ES',
  'SE',
] as const;
/** Outermost regions that carry country codes of their own (Guadeloupe, Martinique, French Guiana, Réunion, Mayotte, Saint-Martin). */
export const OUTERMOST_REGIONS = ['GP', 'MQ', 'GF', 'RE', 'YT', 'MF'] as const;
export const REGULATED_COUNTRIES: ReadonlySet<string> = new Set([...EU_MEMBER_STATES, ...OUTERMOST_REGIONS]);

export const MISSING_PAYOR_SUBCODE = 3858079;
export const MISSING_BENEFICIARY_SUBCODE = 3858081;

/** The countries of targeting.geo_locations.countries (strings only; the targeting rules check their shape). */
export function targetedCountries(targeting: unknown): string[] {
  const geo = (targeting as { geo_locations?: { countries?: unknown } } | null)?.geo_locations;
  return Array.isArray(geo?.countries) ? geo.countries.filter((c): c is string => typeof c === 'string') : [];
}

/** Rule 1's condition (and rule 4's: nothing here applies otherwise). */
export const targetsRegulatedRegion = (targeting: unknown) => targetedCountries(targeting).some((c) => REGULATED_COUNTRIES.has(c));

export interface DsaFields {
  dsaPayor: string | null;
  dsaBeneficiary: string | null;
}

/**
 * Rules 2 and 3: in a regulated region, a missing payor or beneficiary comes from the account's defaults;
 * a beneficiary never comes from the payor. Outside such regions the fields stay as given (rule 4).
 */
export function withDsaDefaults<T extends DsaFields>(
  adSet: T & { targeting: unknown },
  account: { defaultDsaPayor: string | null; defaultDsaBeneficiary: string | null },
): T {
  if (!targetsRegulatedRegion(adSet.targeting)) return adSet;
  return {
    ...adSet,
    dsaPayor: adSet.dsaPayor ?? account.defaultDsaPayor,
    dsaBeneficiary: adSet.dsaBeneficiary ?? account.defaultDsaBeneficiary,
  };
}

const missing = (field: 'dsa_payor' | 'dsa_beneficiary', subcode: number, regions: string, role: string, verb: string): Violation =>
  violation(field, `The parameter ${field} is required for ad sets targeting the European Union (${regions})`, {
    subcode,
    userTitle: `${role} required`,
    userMessage: `Ad sets that reach people in the European Union must say who ${verb} them. Enter the ${role.toLowerCase()}, or set a default ${role.toLowerCase()} on the ad account.`,
    data: { blame_field_specs: [[field]] },
  });

/** Rule 1, after the defaults: 3858079 for the payor, then 3858081 for the beneficiary, each blaming its field. */
export function dsaViolations(adSet: DsaFields & { targeting: unknown }): Violation[] {
  if (!targetsRegulatedRegion(adSet.targeting)) return [];
  const regions = targetedCountries(adSet.targeting)
    .filter((c) => REGULATED_COUNTRIES.has(c))
    .join(', ');
  return [
    ...(adSet.dsaPayor ? [] : [missing('dsa_payor', MISSING_PAYOR_SUBCODE, regions, 'Payor', 'pays for')]),
    ...(adSet.dsaBeneficiary ? [] : [missing('dsa_beneficiary', MISSING_BENEFICIARY_SUBCODE, regions, 'Beneficiary', 'benefits from')]),
  ];
}
