import { lookup as dnsLookup } from 'node:dns';
import { request as httpRequest, type IncomingMessage, type OutgoingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * The outbound HTTP client for webhook receivers: callback URLs come from API clients, so every request is held
 * against server-side request forgery (no private, loopback or metadata targets, checked on the address actually
 * connected to), against slow or endless receivers (one time limit, a capped body) and against leaked sockets.
 */

export interface CallbackPolicy {
  /** Allow loopback/private/link-local targets (tests and development: WEBHOOK_ALLOW_PRIVATE=true). */
  allowPrivate: boolean;
  /** Whole-call time limit in ms (connect + headers + body). */
  timeoutMs: number;
  /** At most this many bytes of the response body are read; the rest is discarded (the connection destroyed). */
  maxResponseBytes: number;
}

export interface CallbackResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  truncated: boolean;
}

/** Why a URL or an address is refused, worded for an API caller (it names what is wrong, never internal details). */
export class CallbackRefused extends Error {
  override name = 'CallbackRefused';
}

const MAX_URL_LENGTH = 2048;
const USER_AGENT = 'adgraph-webhooks/1.0';

// --- Checking a URL without network -----------------------------------------------------------------------------

/**
 * Checks a callback URL's shape without network: http or https only, no userinfo, a host present, any port,
 * at most 2048 characters; an IP-literal host or a local name is refused unless allowPrivate. Returns the parsed URL.
 */
export function checkCallbackUrl(raw: string, policy: Pick<CallbackPolicy, 'allowPrivate'>): URL {
  if (raw.length > MAX_URL_LENGTH) throw new CallbackRefused(`The callback URL must not be longer than ${MAX_URL_LENGTH} characters.`);
  const url = parseUrl(raw);
  checkUrlShape(url);
  if (!policy.allowPrivate) {
    checkIpLiteralHost(url);
    checkHostName(url);
  }
  return url;
}

function parseUrl(raw: string): URL {
  try {
    return new URL(raw);
  } catch {
    throw new CallbackRefused('The callback URL is not a valid absolute URL.');
  }
}

function checkUrlShape(url: URL): void {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new CallbackRefused('The callback URL must use http or https.');
  // Credentials in a URL end up in logs and in the receiver's; a receiver that needs them takes a header.
  if (url.username !== '' || url.password !== '') throw new CallbackRefused('The callback URL must not contain a user name or password.');
  if (url.hostname === '') throw new CallbackRefused('The callback URL must name a host.');
}

/** The address an IP-literal host names (URL keeps IPv6 in brackets), undefined for a host name. */
function ipLiteralOf(url: URL): string | undefined {
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  return isIP(host) === 0 ? undefined : host;
}

function checkIpLiteralHost(url: URL): void {
  const address = ipLiteralOf(url);
  if (address !== undefined && isForbiddenAddress(address)) {
    throw new CallbackRefused('The callback URL must not point to a private, loopback, link-local or reserved address.');
  }
}

/**
 * Names that mean "this machine" or "this cloud network" whatever DNS says. The connect-time lookup would refuse
 * them anyway when they resolve privately; refusing them here answers the caller at once, before any network.
 */
function checkHostName(url: URL): void {
  // "localhost." is the same name as "localhost": the trailing dot only makes it fully qualified.
  const name = url.hostname.replace(/\.$/, '');
  if (name === 'localhost' || name.endsWith('.localhost') || name.endsWith('.internal')) {
    throw new CallbackRefused(`The callback URL's host "${url.hostname}" is a local or internal name.`);
  }
}

// --- Judging an address -------------------------------------------------------------------------------------------

/**
 * Whether an address (IPv4 or IPv6 text) is one a webhook must never reach: anything ipaddr.js does not call
 * 'unicast' (loopback, private, link-local, unique local, carrier-grade NAT, multicast, reserved, 6to4, teredo…).
 * IPv4-mapped IPv6 is judged as the IPv4 it maps; text that is no address is forbidden too (fail closed).
 */
export function isForbiddenAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return true;
  const parsed = ipaddr.process(address);
  if (parsed instanceof ipaddr.IPv6 && isIpv4Compatible(parsed)) return true;
  return parsed.range() !== 'unicast';
}

/**
 * ::/96, the deprecated IPv4-compatible form (RFC 4291 2.5.5.1): ipaddr.js calls ::7f00:1 (::127.0.0.1)
 * 'unicast', and the URL parser writes [::127.0.0.1] that way, yet it embeds an IPv4 address no public
 * receiver has.
 */
function isIpv4Compatible(address: ipaddr.IPv6): boolean {
  return address.parts.slice(0, 6).every((part) => part === 0);
}

// --- Calling a callback ----------------------------------------------------------------------------------------

/**
 * One request to a callback, redirects not followed (a 3xx is returned as is). Host names are resolved by
 * lookupPublicOnly, so what is checked is the address connected to (DNS rebinding gets no second answer).
 * Rejects with CallbackRefused for a refused target, with an Error saying what happened otherwise.
 */
export async function callCallback(
  url: URL,
  request: { method: 'GET' | 'POST'; headers?: Record<string, string>; body?: string },
  policy: CallbackPolicy,
): Promise<CallbackResponse> {
  checkUrlShape(url);
  // Node connects to an IP-literal host without calling the lookup: it is checked here instead.
  if (!policy.allowPrivate) checkIpLiteralHost(url);
  return send(url, request, policy);
}

function send(url: URL, request: { method: string; headers?: Record<string, string>; body?: string }, policy: CallbackPolicy): Promise<CallbackResponse> {
  return new Promise((resolve, reject) => {
    const body = request.body === undefined ? undefined : Buffer.from(request.body);
    const requestTo = url.protocol === 'https:' ? httpsRequest : httpRequest;
    // agent: false: a socket of its own, closed after the answer, never kept alive for another receiver.
    const req = requestTo(url, {
      method: request.method,
      headers: headersFor(request.headers, body),
      agent: false,
      lookup: policy.allowPrivate ? undefined : lookupPublicOnly,
    });

    let settled = false;
    // The first outcome wins; destroying the request afterwards closes the socket whatever state it is in.
    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.destroy();
      outcome();
    };
    const timer = setTimeout(() => settle(() => reject(new Error(`The callback timed out after ${policy.timeoutMs} ms.`))), policy.timeoutMs);

    req.on('error', (error) => settle(() => reject(describeFailure(error))));
    req.on('response', (res) => {
      res.on('error', (error) => settle(() => reject(describeFailure(error))));
      readCapped(res, policy.maxResponseBytes, (bytes, truncated) =>
        settle(() => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: bytes.toString('utf8'), truncated })),
      );
    });
    req.end(body);
  });
}

/** The caller's headers (names lower-cased, so a caller's User-Agent counts as ours), our user-agent, the body's length. */
function headersFor(given: Record<string, string> | undefined, body: Buffer | undefined): OutgoingHttpHeaders {
  const headers: OutgoingHttpHeaders = Object.fromEntries(Object.entries(given ?? {}).map(([name, value]) => [name.toLowerCase(), value]));
  headers['user-agent'] ??= USER_AGENT;
  if (body !== undefined) headers['content-length'] = String(body.length);
  return headers;
}

/**
 * Resolves a host with every address it has and refuses it when any is forbidden: a name that answers both a
 * public and a private address could otherwise be connected to the private one.
 */
const lookupPublicOnly: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, '');
    const first = addresses[0];
    if (first === undefined) return callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }), '');
    if (addresses.some(({ address }) => isForbiddenAddress(address))) {
      return callback(new CallbackRefused(`The callback host "${hostname}" resolves to a private, loopback, link-local or reserved address.`), '');
    }
    // With autoSelectFamily (Node's default) net asks for all addresses and tries them in turn; all are checked.
    if (options.all) return callback(null, addresses);
    callback(null, first.address, first.family);
  });
};

/** Reads at most `limit` bytes of the body; `done` gets them and whether more was sent. */
function readCapped(res: IncomingMessage, limit: number, done: (bytes: Buffer, truncated: boolean) => void): void {
  const chunks: Buffer[] = [];
  let received = 0;
  res.on('data', (chunk: Buffer) => {
    const room = limit - received;
    if (chunk.length > room) {
      chunks.push(chunk.subarray(0, room));
      done(Buffer.concat(chunks), true);
      return;
    }
    chunks.push(chunk);
    received += chunk.length;
  });
  res.on('end', () => done(Buffer.concat(chunks), false));
}

/** A refusal as it is; any other failure as an Error naming what happened (ECONNREFUSED, a TLS error…). */
function describeFailure(error: Error): Error {
  if (error instanceof CallbackRefused) return error;
  return new Error(`The callback request failed: ${failureText(error)}`, { cause: error });
}

function failureText(error: Error): string {
  // Node reports a host whose every address failed as an AggregateError with an empty message.
  if (error instanceof AggregateError && error.errors.length > 0) {
    return error.errors.map((inner: unknown) => (inner instanceof Error ? failureText(inner) : String(inner))).join('; ');
  }
  // OpenSSL's messages end in a newline.
  const message = error.message.trim();
  const code = (error as NodeJS.ErrnoException).code;
  return code === undefined || message.includes(code) ? message : `${message} (${code})`;
}
