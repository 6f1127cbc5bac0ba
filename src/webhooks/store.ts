import { defineTable } from '../db/rows.ts';
import type { EventTopic } from '../events/types.ts';
import type { WebhookObject } from './rules/deliveries.ts';

export type SubscriptionStatus = 'active' | 'disabled';

/** An API client's callback for one object type: what it hears, where, how far it has heard, how it is failing. */
export interface WebhookSubscriptionRecord {
  id: string;
  apiClientId: string;
  organizationId: string;
  object: WebhookObject;
  fields: EventTopic[];
  callbackUrl: string;
  /** The HMAC key of X-Hub-Signature-256 (shown once, when the subscription is made; never read back). */
  signingSecret: string;
  status: SubscriptionStatus;
  disabledReason: string | null;
  /** The last event (by its place in the order) delivered, or passed over as not this subscription's. */
  cursorSeq: number;
  attempts: number;
  failingSince: Date | null;
  nextAttemptAt: Date | null;
  lastError: string | null;
  lastDeliveryTime: Date | null;
  claimedBy: string | null;
  leaseExpiresAt: Date | null;
  createdTime: Date;
  updatedTime: Date;
}

export const webhookSubscriptions = defineTable<WebhookSubscriptionRecord>('webhook_subscriptions', {
  id: 'string',
  api_client_id: 'id',
  organization_id: 'string',
  object: 'string',
  fields: 'json',
  callback_url: 'string',
  signing_secret: 'string',
  status: 'string',
  disabled_reason: 'string',
  cursor_seq: 'bigint',
  attempts: 'int',
  failing_since: 'date',
  next_attempt_at: 'date',
  last_error: 'string',
  last_delivery_time: 'date',
  claimed_by: 'string',
  lease_expires_at: 'date',
  created_time: 'date',
  updated_time: 'date',
});

/** An app a page sends its feed to (`POST /<page>/subscribed_apps`), with the fields it sends. */
export interface PageSubscribedAppRecord {
  pageId: string;
  apiClientId: string;
  subscribedFields: EventTopic[];
  createdTime: Date;
}

export const pageSubscribedApps = defineTable<PageSubscribedAppRecord>('page_subscribed_apps', {
  page_id: 'id',
  api_client_id: 'id',
  subscribed_fields: 'json',
  created_time: 'date',
});
