import { createHash } from 'node:crypto';
import { expect } from 'vitest';
import type { Db } from '../../src/db/index.ts';
import type { GraphQLBody } from './server.ts';

export interface ApiResponse {
  status: number;
  headers: Headers;
  /** Parsed JSON, or undefined for an empty body. */
  body: any;
}

export interface RequestOptions {
  /** A string is sent as it is (bad JSON, ...); anything else as JSON. Undefined sends no body. */
  body?: unknown;
  token?: string;
  headers?: Record<string, string>;
  /** Leave out the JSON content type even when there is a body. */
  noContentType?: boolean;
}

/** The identity REST API (/api/v2) of a running test server, over real HTTP. */
export function restClient(server: { url: string }) {
  async function call(method: string, path: string, options: RequestOptions = {}): Promise<ApiResponse> {
    const headers: Record<string, string> = { ...options.headers };
    let body: string | undefined;
    if (options.body !== undefined) {
      body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
      if (!options.noContentType) headers['content-type'] ??= 'application/json';
    }
    if (options.token !== undefined) headers['service-session-token'] = options.token;
    const response = await fetch(`${server.url}/api/v2${path}`, { method, headers, body });
    const text = await response.text();
    let parsed: unknown;
    if (text !== '') {
      try {
        parsed = JSON.parse(text);
      } catch {
        throw new Error(`${method} ${path} answered ${response.status} with a body that is not JSON: ${text.slice(0, 200)}`);
      }
    }
    return { status: response.status, headers: response.headers, body: parsed };
  }
  return {
    call,
    get: (path: string, token?: string) => call('GET', path, { token }),
    post: (path: string, body?: unknown, token?: string) => call('POST', path, { body, token }),
  };
}

export type RestClient = ReturnType<typeof restClient>;

export const SIGNED_OUT = 'You are signed out or your session has expired. Please sign in again to continue.';
export const INCORRECT_LOGIN = 'Incorrect email or password.';
export const INCORRECT_PASSCODE = 'Incorrect email or one-time passcode.';
export const NOT_FOUND = 'Resource not found or you do not have access to this resource';

export const sha256Hex = (value: string) => createHash('sha256').update(value).digest('hex');

/** The stored row of a session token (only a SHA-256 hash of the token is stored). */
export async function sessionRow(db: Db, token: string): Promise<Record<string, any> | undefined> {
  return db('sessions').where('token_hash', sha256Hex(token)).first();
}

/** A GraphQL answer's data, failing the test (with the errors) when it has errors. */
export function dataOf(body: GraphQLBody): Record<string, any> {
  expect(body.errors, JSON.stringify(body.errors)).toBeUndefined();
  return body.data!;
}

/** The first GraphQL error, for assertions on code, field and message. */
export function firstError(body: GraphQLBody) {
  const error = body.errors?.[0];
  if (!error) throw new Error(`expected a GraphQL error, got ${JSON.stringify(body)}`);
  return error;
}

/** Polls `probe` until it returns something other than undefined/null/false; rejects after `timeoutMs`. */
export async function eventually<T>(probe: () => Promise<T | undefined | null | false>, timeoutMs = 10_000, what = 'condition'): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== null && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`${what} did not hold within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Dates come back as Date (PostgreSQL) or milliseconds (SQLite). */
export function toDate(value: unknown): Date {
  if (value instanceof Date) return value;
  if (typeof value === 'number' || (typeof value === 'string' && /^\d+$/.test(value))) return new Date(Number(value));
  return new Date(String(value));
}
