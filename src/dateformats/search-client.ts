/**
 * A small HTTP client for Elasticsearch 7.x and 8.x (Node's fetch, JSON in and out), enough for the date-format
 * scan and migration. Not the official client: @elastic/elasticsearch 8 refuses to talk to a 7.x cluster, and the
 * migration happens on 7.x, before the upgrade.
 *
 * Authentication (decided here, see the README):
 * - `SEARCH_URL` (or `--url`) may carry `user:password@`; they are sent as HTTP basic auth and removed from the
 *   address the client keeps, so they never appear in an error, a log line or a dry-run plan.
 * - `SEARCH_API_KEY` sends `Authorization: ApiKey <key>`. Give the `encoded` value Elasticsearch returns when it
 *   creates a key (base64 of `id:api_key`), or `id:api_key`, which is encoded here. When both are present the API
 *   key wins (Elasticsearch accepts one Authorization header) and the URL's credentials are ignored.
 *
 * Errors are {@link SearchError}: method, path (never the host's credentials or the query's secrets), HTTP status and
 * Elasticsearch's own `error.type` / `error.reason` (its `root_cause` when that is more telling).
 */

export interface SearchClientOptions {
  /** Base address, e.g. `http://elastic:secret@127.0.0.1:9200`. */
  url: string;
  /** `SEARCH_API_KEY`: encoded, or `id:api_key`. */
  apiKey?: string;
  /** Per-request timeout; 30 s by default. */
  timeoutMs?: number;
}

export type HttpMethod = 'GET' | 'PUT' | 'POST' | 'DELETE' | 'HEAD';

/** One request as sent (or, in a dry run, as it would be sent). `path` includes the query string. */
export interface SearchRequest {
  method: HttpMethod;
  path: string;
  body?: unknown;
}

export class SearchError extends Error {
  override name = 'SearchError';
  constructor(
    message: string,
    readonly method: string,
    readonly path: string,
    /** HTTP status; 0 when no answer came (the cluster could not be reached, or the request was refused before sending). */
    readonly status: number,
    /** Elasticsearch's `error.type` (e.g. `index_not_found_exception`), when it gave one. */
    readonly type?: string,
    readonly reason?: string,
  ) {
    super(message);
  }
}

/** The address without credentials, for messages. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.username = '';
    parsed.password = '';
    return parsed.toString().replace(/\/$/, '');
  } catch {
    return '(invalid address)';
  }
}

function errorDetails(body: unknown): { type?: string; reason?: string } {
  if (!body || typeof body !== 'object') return {};
  const error = (body as { error?: unknown }).error;
  // Some endpoints answer with a bare string: GET /_alias/missing → {"error":"alias [missing] missing","status":404}.
  if (typeof error === 'string') return { reason: error };
  if (!error || typeof error !== 'object') return {};
  const e = error as { type?: string; reason?: string; root_cause?: Array<{ type?: string; reason?: string }>; caused_by?: { type?: string; reason?: string } };
  const root = e.root_cause?.[0];
  const reason = e.reason ?? root?.reason ?? e.caused_by?.reason;
  const causedBy = e.caused_by?.reason && e.caused_by.reason !== reason ? ` (caused by: ${e.caused_by.reason})` : '';
  return { type: e.type ?? root?.type, reason: reason ? reason + causedBy : undefined };
}

/** Path segments that URL parsing (fetch's) removes with the one before: `.`, `..` and their `%2e` spellings. */
const DOT_SEGMENT = /^(?:\.|%2e){1,2}$/i;

export class SearchClient {
  /** The base address without credentials: safe to print. */
  readonly baseUrl: string;
  readonly authKind: 'none' | 'basic' | 'api-key';
  readonly #authorization: string | undefined;
  readonly #timeoutMs: number;

  constructor(options: SearchClientOptions) {
    let parsed: URL;
    try {
      parsed = new URL(options.url);
    } catch {
      throw new Error('search URL: not a valid http(s) address');
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error('search URL: must start with http:// or https://');
    const user = decodeURIComponent(parsed.username);
    const password = decodeURIComponent(parsed.password);
    parsed.username = '';
    parsed.password = '';
    this.baseUrl = parsed.toString().replace(/\/+$/, '');
    const apiKey = options.apiKey?.trim();
    if (apiKey) {
      const encoded = apiKey.includes(':') ? Buffer.from(apiKey).toString('base64') : apiKey;
      this.#authorization = `ApiKey ${encoded}`;
      this.authKind = 'api-key';
    } else if (user || password) {
      this.#authorization = `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
      this.authKind = 'basic';
    } else {
      this.authKind = 'none';
    }
    this.#timeoutMs = options.timeoutMs ?? 30_000;
  }

  /** `--url` if given, else `SEARCH_URL`; `SEARCH_API_KEY` from the environment. */
  static fromEnv(url: string | undefined, env: NodeJS.ProcessEnv = process.env): SearchClient {
    const address = url ?? env.SEARCH_URL;
    if (!address) throw new Error('search URL: give --url or set SEARCH_URL');
    return new SearchClient({ url: address, apiKey: env.SEARCH_API_KEY });
  }

  /** Never show the credentials, even when the object is logged or inspected. */
  toJSON(): { baseUrl: string; auth: string } {
    return { baseUrl: this.baseUrl, auth: this.authKind };
  }
  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return `SearchClient(${this.baseUrl}, auth: ${this.authKind})`;
  }

  /** Sends one request and returns the parsed JSON body; throws a {@link SearchError} on any non-2xx answer. */
  async request<T = unknown>(method: HttpMethod, path: string, body?: unknown): Promise<T> {
    const response = await this.send<T>(method, path, body);
    if (response.status >= 200 && response.status < 300) return response.body;
    throw this.#error(method, path, response.status, response.body);
  }

  /** Like {@link request}, but hands back non-2xx answers whose status is listed in `allow`. */
  async requestAllowing<T = unknown>(method: HttpMethod, path: string, allow: number[], body?: unknown): Promise<{ status: number; body: T }> {
    const response = await this.send<T>(method, path, body);
    if ((response.status >= 200 && response.status < 300) || allow.includes(response.status)) return response;
    throw this.#error(method, path, response.status, response.body);
  }

  async send<T = unknown>(method: HttpMethod, path: string, body?: unknown): Promise<{ status: number; body: T }> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (this.#authorization) headers.authorization = this.#authorization;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const shownPath = path.split('?')[0]!;
    // A dot segment would be normalized away by fetch, and the request would reach another endpoint (GET / for /_alias/..).
    if (shownPath.split('/').some((segment) => DOT_SEGMENT.test(segment))) {
      throw new SearchError(`refusing to send ${method} ${shownPath}: a "." or ".." path segment would send it to another endpoint`, method, shownPath, 0);
    }
    let response: Response;
    try {
      response = await fetch(this.baseUrl + (path.startsWith('/') ? path : `/${path}`), {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(this.#timeoutMs),
      });
    } catch (error) {
      const cause = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).name;
      throw new SearchError(`cannot reach the search engine at ${this.baseUrl} (${method} ${shownPath}: ${cause})`, method, shownPath, 0);
    }
    const text = await response.text();
    let parsed: unknown = undefined;
    if (text) {
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = { error: { reason: text.slice(0, 200) } };
      }
    }
    return { status: response.status, body: parsed as T };
  }

  #error(method: string, path: string, status: number, body: unknown): SearchError {
    const shownPath = path.split('?')[0]!;
    const { type, reason } = errorDetails(body);
    const hint = status === 401 ? ' (check the credentials in SEARCH_URL or SEARCH_API_KEY)' : status === 403 ? ' (the user or API key lacks a privilege)' : '';
    const what = [type, reason].filter(Boolean).join(': ') || 'no error details';
    return new SearchError(`${method} ${shownPath} failed with HTTP ${status}: ${what}${hint}`, method, shownPath, status, type, reason);
  }

  /** `GET /`: the cluster's version (`7.17.9`, `8.12.0`). */
  async version(): Promise<{ number: string; major: number }> {
    const info = await this.request<{ version?: { number?: string } }>('GET', '/');
    const number = info.version?.number ?? '0.0.0';
    return { number, major: Number(number.split('.')[0]) || 0 };
  }
}

/**
 * A name (index, alias, template, pipeline, task) as one path segment, %-encoded. `.` and `..` stay dots when
 * encoded (URL parsing reads `%2e` as a dot too) and would take the path elsewhere, and an empty name would drop the
 * segment: those are refused (Elasticsearch allows none of them as a name).
 */
export function enc(name: string): string {
  if (name === '' || name === '.' || name === '..')
    throw new Error(`refusing the name "${name}" in a request path: Elasticsearch names are never empty, "." or ".."`);
  return encodeURIComponent(name).replace(/%2C/g, ',').replace(/%2A/g, '*');
}
