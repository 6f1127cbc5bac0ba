/**
 * Domain errors are values: a code every surface understands, the field that was wrong, and, for the
 * Graph-style API, the platform's own code and subcode. Services throw them; each surface maps them in
 * exactly one place (src/graphql/errors.ts, src/http/errors/*).
 */
export const ERROR_CODES = [
  'UNAUTHENTICATED',
  'FORBIDDEN',
  'BAD_USER_INPUT',
  'NOT_FOUND',
  'CONFLICT',
  /** A count the specification caps (ad sets per account) would be exceeded. */
  'LIMIT_EXCEEDED',
  'RATE_LIMITED',
  'SERVICE_UNAVAILABLE',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export interface GraphErrorDetails {
  code: number;
  subcode?: number;
  type?: string;
  userTitle?: string;
  userMessage?: string;
  data?: unknown;
  isTransient?: boolean;
}

export interface DomainErrorOptions {
  field?: string;
  /** Headline for surfaces that list field problems under one sentence (identity: "Validation failed." by default). */
  title?: string;
  /** Further per-field problems, for surfaces that list them all (the identity API's `validations`). */
  validations?: Array<{ field: string; detail: string }>;
  detail?: string;
  graph?: GraphErrorDetails;
  retryAfterSeconds?: number;
  /** RFC 6749 error code for the OAuth surface (invalid_request, invalid_client, ...). */
  oauthError?: string;
  cause?: unknown;
}

export class DomainError extends Error {
  override name = 'DomainError';
  readonly code: ErrorCode;
  readonly field?: string;
  readonly title?: string;
  readonly validations?: Array<{ field: string; detail: string }>;
  readonly detail?: string;
  readonly graph?: GraphErrorDetails;
  readonly retryAfterSeconds?: number;
  readonly oauthError?: string;

  constructor(code: ErrorCode, message: string, options: DomainErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.field = options.field;
    this.title = options.title;
    this.validations = options.validations ?? (options.field ? [{ field: options.field, detail: message }] : undefined);
    this.detail = options.detail;
    this.graph = options.graph;
    this.retryAfterSeconds = options.retryAfterSeconds;
    this.oauthError = options.oauthError;
  }
}

export const badInput = (field: string, message: string, options: Omit<DomainErrorOptions, 'field'> = {}) =>
  new DomainError('BAD_USER_INPUT', message, { ...options, field });

export const SIGNED_OUT_MESSAGE = 'You are signed out or your session has expired. Please sign in again to continue.';

export const unauthenticated = (message = SIGNED_OUT_MESSAGE) => new DomainError('UNAUTHENTICATED', message, { graph: { code: 190, type: 'OAuthException' } });

/**
 * An e-mail and password (or a suspended account) refused at sign-in: UNAUTHENTICATED, without the Graph API's
 * code 190, which is about access tokens and means nothing to a caller who sent none (`login` is not on /v24.0).
 */
export const credentialsRefused = (message: string) => new DomainError('UNAUTHENTICATED', message);

/**
 * An access token that fails verification (RFC 6750 `invalid_token`), unlike a missing or lapsed session: the
 * surfaces answer it as an OAuth resource server does (`WWW-Authenticate: Bearer error="invalid_token"`), and
 * /v24.0 as its error 190.
 */
export const invalidAccessToken = (message: string) =>
  new DomainError('UNAUTHENTICATED', message, { oauthError: 'invalid_token', graph: { code: 190, type: 'OAuthException' } });

/**
 * A session token that names no live session, refused as /graphql refuses any credential it cannot use (401 with
 * RFC 6750's challenge, http/authenticate.ts); /api/v2 takes the caller for anonymous instead.
 */
export const invalidSessionToken = () =>
  new DomainError('UNAUTHENTICATED', SIGNED_OUT_MESSAGE, { oauthError: 'invalid_token', graph: { code: 190, type: 'OAuthException' } });

export const forbidden = (message = 'Forbidden.') => new DomainError('FORBIDDEN', message, { graph: { code: 200, type: 'OAuthException' } });

/** The same answer whether the object is missing or merely invisible to the caller, so ids cannot be probed. */
export const notFound = (type: string, id: string) =>
  new DomainError('NOT_FOUND', `${type} ${id} does not exist or you cannot see it.`, {
    graph: {
      code: 100,
      subcode: 33,
      type: 'GraphMethodException',
    },
    detail: id,
  });

export const serviceUnavailable = (cause?: unknown) =>
  new DomainError('SERVICE_UNAVAILABLE', 'The database is unavailable. Try again shortly.', {
    cause,
    graph: { code: 2, type: 'OAuthException', isTransient: true },
  });

/**
 * Runs several field checks and reports every field that fails, not just the first (the identity API lists
 * one validation per field). Returns the checked values in order.
 */
export function validateFields<const T extends readonly unknown[]>(checks: { [K in keyof T]: () => T[K] }): T {
  const values: unknown[] = [];
  const problems: DomainError[] = [];
  for (const check of checks as ReadonlyArray<() => unknown>) {
    try {
      values.push(check());
    } catch (error) {
      if (!(error instanceof DomainError) || error.code !== 'BAD_USER_INPUT' || !error.field) throw error;
      problems.push(error);
      values.push(undefined);
    }
  }
  if (problems.length === 1) throw problems[0];
  if (problems.length > 1) {
    throw new DomainError('BAD_USER_INPUT', problems.map((p) => p.message).join(' '), {
      field: problems[0]!.field,
      title: problems.find((p) => p.title)?.title,
      validations: problems.flatMap((p) => p.validations ?? []),
    });
  }
  return values as unknown as T;
}
