import type { DomainError } from './index.ts';

/**
 * The Graph API's description of an error (DECISIONS section 4), without the trace ids of a response: what the
 * `/v24.0` envelope carries under `error`, and what a background job that failed keeps for its caller to read
 * later (an asynchronous request's `error`, a report run's `error_*` fields).
 */
export interface GraphErrorBody {
  message: string;
  type: string;
  code: number;
  error_subcode?: number;
  is_transient: boolean;
  error_user_title?: string;
  error_user_msg?: string;
  error_data?: unknown;
}

export const unknownObjectMessage = (id: string) =>
  `Unsupported get request. Object with ID '${id}' does not exist, cannot be loaded due to missing permissions, or does not support this operation`;

export function graphErrorBody(error: DomainError): GraphErrorBody {
  const graph = error.graph ?? { code: 100 };
  const message =
    error.code === 'NOT_FOUND'
      ? unknownObjectMessage(error.detail ?? '')
      : // 190 and the unsupported-request error (subcode 33) carry no (#code) prefix, as the platform writes them.
        graph.code === 190 || graph.subcode === 33
        ? error.message
        : `(#${graph.code}) ${error.message}`;
  return {
    message,
    type: graph.type ?? 'OAuthException',
    code: graph.code,
    ...(graph.subcode !== undefined ? { error_subcode: graph.subcode } : {}),
    is_transient: graph.isTransient ?? false,
    ...(graph.userTitle ? { error_user_title: graph.userTitle } : {}),
    ...(graph.userMessage ? { error_user_msg: graph.userMessage } : {}),
    ...(graph.data !== undefined ? { error_data: graph.data } : {}),
  };
}
