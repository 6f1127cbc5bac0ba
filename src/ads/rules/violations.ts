import { DomainError, type ErrorCode } from '../../errors/index.ts';

/**
 * What a rule reports: the parameter (a path for nested ones, `targeting.geo_locations.countries`), a message in
 * the platform's words, and the Graph code, subcode and user-facing title and text. Rules report; writes refuse
 * with the first violation (as the platform stops at the first), validateAdSet answers them all.
 */
export interface Violation {
  field: string;
  message: string;
  /** Graph API error code: 100 unless said otherwise (2695 for the ad set limit, 2641 for restricted locations). */
  code: number;
  subcode?: number;
  userTitle?: string;
  userMessage?: string;
  data?: unknown;
  /** The domain code every surface understands (GraphQL `extensions.code`); BAD_USER_INPUT unless said otherwise. */
  kind?: ErrorCode;
}

export const violation = (field: string, message: string, extra: Partial<Omit<Violation, 'field' | 'message'>> = {}): Violation => ({
  field,
  message,
  code: 100,
  ...extra,
});

export function violationError(v: Violation): DomainError {
  return new DomainError(v.kind ?? 'BAD_USER_INPUT', v.message, {
    field: v.field,
    graph: { code: v.code, subcode: v.subcode, userTitle: v.userTitle, userMessage: v.userMessage, data: v.data },
  });
}

/** A parameter error raised by a reader, as a violation (so validation can collect it with the rest). */
export function violationOf(error: DomainError): Violation {
  return {
    field: error.field ?? '',
    message: error.message,
    code: error.graph?.code ?? 100,
    subcode: error.graph?.subcode,
    userTitle: error.graph?.userTitle,
    userMessage: error.graph?.userMessage,
    data: error.graph?.data,
    kind: error.code,
  };
}

/** Throws the first violation, if any. */
export function refuseFirst(violations: readonly Violation[]): void {
  if (violations.length > 0) throw violationError(violations[0]!);
}
