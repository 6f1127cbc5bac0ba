import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { importPKCS8, SignJWT, type JWTPayload } from 'jose';
import type { Db } from '../../src/db/index.ts';

/** Helpers for the OAuth 2.0 tests: the token endpoint over real HTTP, tokens signed by hand, the CLI. */

export interface TokenResponse {
  status: number;
  headers: Headers;
  /** The raw body, to compare byte for byte. */
  text: string;
  body: any;
}

export interface TokenRequestOptions {
  /** A string is sent as it is (repeated parameters, JSON, ...); an object is form-encoded. */
  body?: string | Record<string, string>;
  headers?: Record<string, string>;
  /** Leave out the form content type. */
  contentType?: string | null;
  method?: string;
}

export async function tokenRequest(url: string, options: TokenRequestOptions = {}): Promise<TokenResponse> {
  const headers: Record<string, string> = { ...options.headers };
  const contentType = options.contentType === undefined ? 'application/x-www-form-urlencoded' : options.contentType;
  if (contentType !== null && options.body !== undefined) headers['content-type'] = contentType;
  const body = options.body === undefined ? undefined : typeof options.body === 'string' ? options.body : new URLSearchParams(options.body).toString();
  const response = await fetch(`${url}/oauth2/token`, { method: options.method ?? 'POST', headers, body });
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = text === '' ? undefined : JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return { status: response.status, headers: response.headers, text, body: parsed };
}

/** client_secret_basic: both parts form-URL-encoded, joined with a colon, base64. */
export const basicAuth = (clientId: string, secret: string, encode: (part: string) => string = encodeURIComponent) =>
  `Basic ${Buffer.from(`${encode(clientId)}:${encode(secret)}`).toString('base64')}`;

/** Percent-encodes every character (even unreserved ones): a conforming server must decode it all. */
export const percentEncodeAll = (value: string) =>
  [...Buffer.from(value, 'utf8')].map((byte) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`).join('');

/** A token for the client by client_secret_post; fails the test unless the endpoint answers 200. */
export async function fetchAccessToken(url: string, clientId: string, secret: string, scope?: string): Promise<string> {
  const response = await tokenRequest(url, {
    body: { grant_type: 'client_credentials', client_id: clientId, client_secret: secret, ...(scope !== undefined ? { scope } : {}) },
  });
  expect(response.status, response.text).toBe(200);
  return response.body.access_token as string;
}

/**
 * An RFC 6749 section 5.2 error: the status, exactly `{error, error_description}`, JSON, never cached.
 */
export function expectOAuthError(response: TokenResponse, status: number, error: string): void {
  expect({ status: response.status, error: response.body?.error }, response.text).toEqual({ status, error });
  expect(Object.keys(response.body).sort()).toEqual(['error', 'error_description']);
  expect(response.body.error_description).toEqual(expect.any(String));
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  expect(response.headers.get('cache-control')).toBe('no-store');
  expect(response.headers.get('pragma')).toBe('no-cache');
}

/** Response headers without the ones that differ from request to request by nature (date, request id). */
export function stableHeaders(headers: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  headers.forEach((value, name) => {
    if (name !== 'date' && name !== 'x-request-id') out[name] = value;
  });
  return out;
}

/** The active signing key as the server stores it (PKCS#8 PEM), to sign test tokens the server must judge. */
export async function activeSigningKey(db: Db): Promise<{ kid: string; pem: string; publicJwk: Record<string, unknown> }> {
  const row = await db('signing_keys').where('active', true).first();
  if (!row) throw new Error('no active signing key in the database');
  const publicJwk = typeof row.public_jwk === 'string' ? JSON.parse(row.public_jwk) : row.public_jwk;
  return { kid: row.kid, pem: row.private_key_pem, publicJwk };
}

export const nowSeconds = () => Math.floor(Date.now() / 1000);

/**
 * Signs a token with the server's own active key. By default it is exactly what the server would issue
 * for `clientId`; `claims` overrides or removes (undefined) single claims, `header` the protected header.
 */
export async function signWithServerKey(
  db: Db,
  options: { clientId: string; issuer: string; claims?: Record<string, unknown>; header?: Record<string, unknown> },
): Promise<string> {
  const key = await activeSigningKey(db);
  const now = nowSeconds();
  const payload: JWTPayload = {
    sub: options.clientId,
    aud: options.clientId,
    iss: options.issuer,
    iat: now,
    nbf: now,
    exp: now + 300,
    jti: randomUUID(),
    ...options.claims,
  };
  for (const [name, value] of Object.entries(payload)) if (value === undefined) delete payload[name];
  return new SignJWT(payload)
    .setProtectedHeader({ alg: 'RS256', kid: key.kid, typ: 'JWT', ...options.header } as { alg: string })
    .sign(await importPKCS8(key.pem, 'RS256'));
}

const b64url = (value: unknown) => Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');

/** Splits a JWT into its decoded header and payload and its signature. */
export function decodeJwt(token: string): { header: Record<string, unknown>; payload: Record<string, unknown>; signature: string } {
  const [header, payload, signature] = token.split('.');
  return {
    header: JSON.parse(Buffer.from(header!, 'base64url').toString('utf8')),
    payload: JSON.parse(Buffer.from(payload!, 'base64url').toString('utf8')),
    signature: signature ?? '',
  };
}

/** Builds a compact JWT by hand from a header, a payload and whatever signature segment is given. */
export const assembleJwt = (header: unknown, payload: unknown, signature = '') => `${b64url(header)}.${b64url(payload)}.${signature}`;
