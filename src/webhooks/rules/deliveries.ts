import { createHmac, timingSafeEqual } from 'node:crypto';
import { TOPIC_OBJECT, type EventTopic, type PublishedEvent } from '../../events/types.ts';
import { decodeJsonText, list, oneOf, paramError, requiredParam, text, type Params, type Reader } from '../../graph-api/params.ts';

/**
 * Webhook deliveries as the platform's Graph API makes them: which objects and fields an app subscribes to, the
 * body and signature of one delivery, when to retry a failed one and when to give up, and the subscription's
 * parameters and verification handshake. Pure functions, no I/O: time and randomness are parameters.
 */

export const WEBHOOK_OBJECTS = ['page', 'ad_account'] as const;
export type WebhookObject = (typeof WEBHOOK_OBJECTS)[number];

/** The fields (event topics) an app may subscribe to, per object (src/events/types.ts's TOPIC_OBJECT, listed). */
export const WEBHOOK_FIELDS: Record<WebhookObject, readonly EventTopic[]> = {
  page: ['feed'],
  ad_account: ['ad_objects', 'jobs', 'rules'],
};

/** Events one delivery carries at most; the rest wait for the next one. */
export const MAX_EVENTS_PER_DELIVERY = 50;

// --- The body -----------------------------------------------------------------------------------------------

export interface DeliveryChange {
  field: EventTopic;
  value: Record<string, unknown>;
}

export interface DeliveryEntry {
  id: string;
  /** Unix seconds of the entry's latest event. */
  time: number;
  changes: DeliveryChange[];
}

/**
 * One delivery's body, `{"object": ..., "entry": [...]}`: the events (in seq order, all of `object`) grouped into
 * one entry per page or ad account, in the order the entries first appear, each entry's changes in seq order.
 * Every change's value carries its event's id as `event_id`, so a receiver can drop an event delivered twice.
 * `eventIds` lists the events carried, in order (what a successful delivery marks delivered).
 */
export function deliveryBody(object: WebhookObject, events: readonly PublishedEvent[]): { body: string; eventIds: string[] } {
  const entries = new Map<string, DeliveryEntry>();
  for (const event of events) {
    if (TOPIC_OBJECT[event.topic] !== object) throw new Error(`Event ${event.id} (${event.topic}) is not an event of ${object}`);
    const time = Math.floor(event.createdTime.getTime() / 1000);
    let entry = entries.get(event.entryId);
    if (!entry) {
      entry = { id: event.entryId, time, changes: [] };
      entries.set(event.entryId, entry);
    }
    entry.time = Math.max(entry.time, time);
    entry.changes.push({ field: event.topic, value: { ...event.value, event_id: event.id } });
  }
  return { body: JSON.stringify({ object, entry: [...entries.values()] }), eventIds: events.map((event) => event.id) };
}

// --- The signature ------------------------------------------------------------------------------------------

const hmac = (secret: string, rawBody: string) => createHmac('sha256', secret).update(rawBody, 'utf8').digest();

/** The `X-Hub-Signature-256` header of a body: `sha256=` and the hex HMAC-SHA256 of the raw body with the app secret. */
export const signBody = (secret: string, rawBody: string): string => `sha256=${hmac(secret, rawBody).toString('hex')}`;

const SIGNATURE = /^sha256=([0-9a-fA-F]{64})$/;

/** Whether the header signs the raw body with the secret; false for a missing or malformed header, never throws. */
export function verifySignature(secret: string, rawBody: string, header: string | null | undefined): boolean {
  if (typeof header !== 'string') return false;
  const match = SIGNATURE.exec(header.trim());
  if (!match) return false;
  const given = Buffer.from(match[1]!, 'hex');
  const expected = hmac(secret, rawBody);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

// --- Retries ------------------------------------------------------------------------------------------------

/** A failed delivery is retried with exponential backoff; an endpoint failing for a day is disabled. */
export const RETRY = { baseMs: 10_000, maxDelayMs: 30 * 60_000, giveUpAfterMs: 24 * 3_600_000 } as const;

/**
 * The wait before retry number `attempt` (1 for the first retry): `base * 2^(attempt - 1)`, capped at maxDelayMs,
 * jittered into [delay / 2, delay] by `random` in [0, 1) (so endpoints failing together do not retry together).
 */
export function retryDelayMs(attempt: number, random: number): number {
  const exponent = Math.max(0, Math.floor(Number.isFinite(attempt) ? attempt : 1) - 1);
  const delay = Math.min(RETRY.baseMs * 2 ** exponent, RETRY.maxDelayMs);
  const jitter = Number.isFinite(random) ? Math.min(Math.max(random, 0), 1) : 0;
  return Math.floor(delay / 2 + (jitter * delay) / 2);
}

/** True once an endpoint has been failing for giveUpAfterMs or longer. */
export const shouldDisable = (failingSinceMs: number, nowMs: number): boolean => nowMs - failingSinceMs >= RETRY.giveUpAfterMs;

/** A delivery succeeded on a 2xx answer only: redirects are not followed, so a 3xx is a failure. */
export const isDelivered = (status: number): boolean => Number.isInteger(status) && status >= 200 && status <= 299;

const REASON_MAX = 200;

/** Why a delivery failed, in a few words: `HTTP 500`, `HTTP 302 (redirects are not followed)`, or the error's text (at most 200 characters). */
export function failureReason(outcome: { status?: number; error?: string }): string {
  if (outcome.status !== undefined) {
    const redirect = outcome.status >= 300 && outcome.status <= 399;
    return `HTTP ${outcome.status}${redirect ? ' (redirects are not followed)' : ''}`;
  }
  const error = outcome.error?.trim();
  if (!error) return 'request failed';
  const characters = Array.from(error);
  return characters.length <= REASON_MAX ? error : `${characters.slice(0, REASON_MAX - 1).join('')}…`;
}

// --- Subscriptions ------------------------------------------------------------------------------------------

export interface SubscriptionParams {
  object: WebhookObject;
  callbackUrl: string;
  fields: EventTopic[];
  verifyToken: string;
}

const shown = (value: string) => (value.length > 40 ? `${value.slice(0, 40)}…` : value);

/** `fields`: a comma-separated string or a JSON array of strings, each a field of `object`; deduplicated, at least one. */
const webhookFields =
  (object: WebhookObject): Reader<EventTopic[]> =>
  (value, name) => {
    const decoded = decodeJsonText(value, name);
    let names: string[];
    if (typeof decoded === 'string') names = decoded.split(',');
    else if (Array.isArray(decoded)) names = list(text({ max: 64 }))(decoded, name);
    else throw paramError(name, `Param ${name} must be a comma-separated string or a JSON array of strings`);
    const allowed = WEBHOOK_FIELDS[object];
    const fields: EventTopic[] = [];
    for (const field of names.map((item) => item.trim()).filter((item) => item !== '')) {
      if (!(allowed as readonly string[]).includes(field)) {
        throw paramError(name, `Param ${name} contains ${shown(field)}, which is not a field of ${object}: each must be one of {${allowed.join(', ')}}`);
      }
      if (!fields.includes(field as EventTopic)) fields.push(field as EventTopic);
    }
    if (fields.length === 0) throw paramError(name, `Param ${name} must name at least one field`);
    return fields;
  };

/** The parameters of `POST /v24.0/<app>/subscriptions` (callback_url's shape is checked where it is fetched). */
export function readSubscriptionParams(params: Params): SubscriptionParams {
  const object = requiredParam(params, 'object', oneOf(WEBHOOK_OBJECTS));
  const callbackUrl = requiredParam(params, 'callback_url', text({ max: 2048 }));
  const fields = requiredParam(params, 'fields', webhookFields(object));
  const verifyToken = requiredParam(params, 'verify_token', text({ max: 256, nonEmpty: true }));
  return { object, callbackUrl, fields, verifyToken };
}

/** The query of the verification request (GET on the callback URL) a subscription is confirmed with. */
export const hubChallengeQuery = (verifyToken: string, challenge: string): URLSearchParams =>
  new URLSearchParams([
    ['hub.mode', 'subscribe'],
    ['hub.challenge', challenge],
    ['hub.verify_token', verifyToken],
  ]);

/** The receiver confirmed: it answered with the challenge, exactly (surrounding whitespace aside). */
export const challengeAnswered = (sentChallenge: string, responseBody: string): boolean => sentChallenge !== '' && responseBody.trim() === sentChallenge;
