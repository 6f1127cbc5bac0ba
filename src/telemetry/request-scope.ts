import { AsyncLocalStorage } from 'node:async_hooks';
import type { Principal } from '../authz/policy.ts';

/** Who made a request, as logs and metrics name it: ids only, never what authenticated it. */
export type Caller =
  | { kind: 'anonymous' }
  | { kind: 'user'; userId: string }
  | { kind: 'client'; clientId: string; apiClientId: string }
  | { kind: 'page'; pageId: string; userId: string };

/**
 * What one HTTP request did, gathered while it runs for its log line and its metrics: the database layer counts
 * its SQL statements, authentication names the caller, the GraphQL server names the operation and its errors.
 * Found through the request's async context (currentRequest), so layers far from Express need no parameter.
 */
export interface RequestScope {
  sqlStatements: number;
  /** Milliseconds its SQL statements took, measured only while tracing (./spans.ts). */
  sqlMilliseconds: number;
  caller?: Caller;
  graphql?: { operationName: string | null; operationType: string | null };
  /** Error codes of the answer, each once, in the order they occurred. */
  errorCodes: string[];
}

const storage = new AsyncLocalStorage<RequestScope>();

export function newRequestScope(): RequestScope {
  return { sqlStatements: 0, sqlMilliseconds: 0, errorCodes: [] };
}

/** Runs `work` (and everything it starts) as part of the request `scope` describes. */
export function runInRequestScope<T>(scope: RequestScope, work: () => T): T {
  return storage.run(scope, work);
}

/** The request the code running now serves; undefined outside a request (the command line, the background runner). */
export function currentRequest(): RequestScope | undefined {
  return storage.getStore();
}

export function noteErrorCode(scope: RequestScope | undefined, code: string): void {
  if (scope && !scope.errorCodes.includes(code)) scope.errorCodes.push(code);
}

/** The caller as logs name it: the user's or the API client's ids, never the token or session behind them. */
export function callerOf(principal: Principal): Caller {
  switch (principal.kind) {
    case 'user':
      return { kind: 'user', userId: principal.userId };
    case 'client':
      return { kind: 'client', clientId: principal.clientId, apiClientId: principal.apiClientId };
    case 'page':
      return { kind: 'page', pageId: principal.pageId, userId: principal.userId };
    default:
      return { kind: 'anonymous' };
  }
}

/** Names the caller of the request running now (the first context built for it: a /v24.0 batch's first request). */
export function noteCaller(principal: Principal): void {
  const scope = currentRequest();
  if (scope && !scope.caller) scope.caller = callerOf(principal);
}

const background = new AsyncLocalStorage<true>();

/**
 * Runs `work` outside any request, as background work: the job runner and the event relay, which a request may
 * wake, do not count toward it (and a statement count can tell their statements from a request's).
 */
export function outsideRequestScope<T>(work: () => T): T {
  return storage.exit(() => background.run(true, work));
}

/** Whether the code running now is background work (outsideRequestScope), not a request's or a caller's own. */
export const isBackgroundWork = (): boolean => background.getStore() === true;
