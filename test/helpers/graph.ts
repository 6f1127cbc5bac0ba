import { expect } from 'vitest';
import { WRITES } from '../../src/graph-api/writes.ts';

/** Helpers for the Graph-style API (/v24.0) over real HTTP: calls in every encoding, and the error envelope. */

export interface GraphHttpResponse {
  status: number;
  headers: Headers;
  /** The raw body, to compare byte for byte. */
  text: string;
  /** Parsed JSON (undefined when the body is not JSON). */
  body: any;
}

export interface GraphCallOptions {
  /** Query string parameters (values that are not strings are JSON-encoded, as the SDK does). */
  query?: Record<string, unknown>;
  /** application/x-www-form-urlencoded body (values that are not strings are JSON-encoded). */
  form?: Record<string, unknown>;
  /** application/json body. */
  json?: unknown;
  /** A body sent as it is, with `contentType`. */
  raw?: string;
  contentType?: string;
  /** Sent as access_token in the query string. */
  token?: string;
  headers?: Record<string, string>;
}

const encodeValue = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));

export function encodeParams(params: Record<string, unknown>): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) if (value !== undefined) search.append(name, encodeValue(value));
  return search.toString();
}

async function toResponse(response: Response): Promise<GraphHttpResponse> {
  const text = await response.text();
  let body: unknown;
  try {
    body = text === '' ? undefined : JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: response.status, headers: response.headers, text, body };
}

/** A Graph API client for a running test server. `path` is everything after the host: `/v24.0/act_1/campaigns`. */
export function graphClient(server: { url: string }) {
  async function call(method: string, path: string, options: GraphCallOptions = {}): Promise<GraphHttpResponse> {
    const query = { ...options.query, ...(options.token !== undefined ? { access_token: options.token } : {}) };
    const search = encodeParams(query);
    const url = `${path.startsWith('http') ? path : `${server.url}${path}`}${search ? `${path.includes('?') ? '&' : '?'}${search}` : ''}`;
    const headers: Record<string, string> = { ...options.headers };
    let body: string | undefined;
    if (options.form !== undefined) {
      body = encodeParams(options.form);
      headers['content-type'] = 'application/x-www-form-urlencoded';
    } else if (options.json !== undefined) {
      body = JSON.stringify(options.json);
      headers['content-type'] = 'application/json';
    } else if (options.raw !== undefined) {
      body = options.raw;
      if (options.contentType) headers['content-type'] = options.contentType;
    }
    return toResponse(await fetch(url, { method, headers, body }));
  }
  return {
    call,
    /** GET /v24.0/<path> with the token in the query string. */
    get: (path: string, token: string | undefined, query: Record<string, unknown> = {}) => call('GET', `/v24.0/${path}`, { token, query }),
    /** GET of an absolute URL (a paging link) exactly as the server wrote it. */
    follow: async (url: string) => toResponse(await fetch(url)),
    /** POST /v24.0/ with `batch` (and whatever else) as form fields. */
    batch: (form: Record<string, unknown>) => call('POST', '/v24.0/', { form }),
  };
}

export type GraphClient = ReturnType<typeof graphClient>;

export interface ExpectedGraphError {
  status: number;
  code: number;
  subcode?: number;
  type?: string;
  /** Exact message, or a pattern it must match. */
  message?: string | RegExp;
  isTransient?: boolean;
}

/**
 * The Graph error envelope of DECISIONS section 4, checked in full: the status and codes asked for, only the
 * documented keys, and one trace id in fbtrace_id, __fb_trace_id__, __www_request_id__ and x-fb-trace-id
 * (`headers` may be left out for batch items, whose headers are a list).
 */
export function expectGraphError(response: { status: number; body: any; headers?: Headers; text?: string }, expected: ExpectedGraphError): void {
  const detail = response.text ?? JSON.stringify(response.body);
  const error = response.body?.error;
  expect(error, detail).toBeTypeOf('object');
  expect({ status: response.status, code: error.code, subcode: error.error_subcode }, detail).toEqual({
    status: expected.status,
    code: expected.code,
    subcode: expected.subcode,
  });
  if (expected.type !== undefined) expect(error.type, detail).toBe(expected.type);
  expect(error.type, detail).toEqual(expect.any(String));
  if (typeof expected.message === 'string') expect(error.message, detail).toBe(expected.message);
  else if (expected.message) expect(error.message, detail).toMatch(expected.message);
  expect(error.message, detail).toEqual(expect.any(String));
  expect(error.is_transient, detail).toBe(expected.isTransient ?? false);
  const allowed = ['message', 'type', 'code', 'error_subcode', 'is_transient', 'error_user_title', 'error_user_msg', 'error_data', 'fbtrace_id'];
  expect(
    Object.keys(error).filter((key) => !allowed.includes(key)),
    detail,
  ).toEqual([]);
  expect(Object.keys(response.body).sort(), detail).toEqual(['__fb_trace_id__', '__www_request_id__', 'error']);
  expect(error.fbtrace_id, detail).toMatch(/^\S+$/);
  expect(response.body.__fb_trace_id__).toBe(error.fbtrace_id);
  expect(response.body.__www_request_id__).toBe(error.fbtrace_id);
  if (response.headers) expect(response.headers.get('x-fb-trace-id')).toBe(error.fbtrace_id);
  // Never internals.
  expect(detail).not.toMatch(/\bat \S+ \(|node_modules|SQLITE|knex|select /i);
}

export const UNKNOWN_OBJECT = (id: string, method = 'get') =>
  `Unsupported ${method} request. Object with ID '${id}' does not exist, cannot be loaded due to missing permissions, or does not support this operation`;

/** The answer to one item of a batch, with its body parsed. */
export interface BatchAnswer {
  code: number;
  headers: Array<{ name: string; value: string }>;
  body: string;
  parsed: any;
  header(name: string): string | undefined;
}

export function batchAnswers(response: GraphHttpResponse): BatchAnswer[] {
  expect(response.status, response.text).toBe(200);
  expect(Array.isArray(response.body), response.text).toBe(true);
  return (response.body as Array<{ code: number; headers: Array<{ name: string; value: string }>; body: string }>).map((item) => {
    expect(Object.keys(item).sort()).toEqual(['body', 'code', 'headers']);
    expect(item.body).toEqual(expect.any(String));
    return {
      ...item,
      parsed: JSON.parse(item.body),
      header: (name: string) => item.headers.find((h) => h.name.toLowerCase() === name.toLowerCase())?.value,
    };
  });
}

/** The X-Business-Use-Case-Usage header, parsed, for one account. */
export function accountUsage(value: string | null | undefined, accountId: string) {
  expect(value, 'X-Business-Use-Case-Usage').toEqual(expect.any(String));
  const parsed = JSON.parse(value!);
  expect(Object.keys(parsed)).toEqual([accountId]);
  const [entry] = parsed[accountId];
  return entry as { type: string; call_count: number; total_cputime: number; total_time: number; estimated_time_to_regain_access: number };
}

export const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+0000$/;

/** Every write the dispatcher wires (src/graph-api/writes.ts), as `POST /<AdAccount>/campaigns`, `DELETE /<Ad>`, ... */
export function wiredWrites(): string[] {
  return Object.entries(WRITES).flatMap(([node, writes]) => [
    ...(writes.update ? [`POST /<${node}>`] : []),
    ...(writes.remove ? [`DELETE /<${node}>`] : []),
    ...Object.keys(writes.create ?? {}).map((edge) => `POST /<${node}>/${edge}`),
    ...Object.keys(writes.removeFromEdge ?? {}).map((edge) => `DELETE /<${node}>/${edge}`),
  ]);
}
