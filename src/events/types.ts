import type { Subject } from '../authz/policy.ts';

/**
 * What users hear about, as one stream (the outbox): every domain write worth telling emits an event in the
 * transaction of its change; the relay (./relay.ts) publishes the committed ones in one order to every instance's
 * GraphQL subscribers (./hub.ts) and to the webhook deliveries (src/webhooks).
 *
 * Topics follow the platform's webhook fields: `feed` (a page's posts, comments and reactions, entry = the page),
 * `ad_objects` (an ad account's campaigns, ad sets and ads created, updated, their status changed, deleted, entry =
 * the account), `jobs` (an asynchronous request set or report finished, entry = the account), `rules` (an automated
 * rule executed, entry = the account).
 */
export const EVENT_TOPICS = ['feed', 'ad_objects', 'jobs', 'rules'] as const;
export type EventTopic = (typeof EVENT_TOPICS)[number];

/** The webhook object each topic belongs to: a page's, or an ad account's. */
export const TOPIC_OBJECT: Record<EventTopic, 'page' | 'ad_account'> = { feed: 'page', ad_objects: 'ad_account', jobs: 'ad_account', rules: 'ad_account' };

/** One event as a write emits it (before the outbox gives it an id). */
export interface NewEvent {
  organizationId: string;
  topic: EventTopic;
  /** The webhook entry it belongs to: the page (feed) or the ad account (the others), as the API writes its id. */
  entryId: string;
  /** The object it is about: a comment's external id (`<post>_<comment>`), an ad set's id, a report run's id. */
  objectId: string;
  /** What happened, in the platform's words: `add`, `edited`, `hide`, `unhide`, `remove` (feed); `create`, `update`, `status`, `delete` (ad objects); `finished`; `executed`. */
  verb: string;
  /** The change's `value` as a webhook sends it and a subscription reads it (JSON: ids as strings, times as Unix seconds). */
  value: Record<string, unknown>;
  /**
   * The object as the policy saw it in the write's transaction: a subscriber hears the event only if it may read
   * this (a hidden comment keeps its hidden-comment facts; a removed one is judged as it was).
   */
  subject: Subject;
}

/** An event as the relay publishes it: with the outbox id (deduplication) and its place in the one order (`seq`). */
export interface PublishedEvent extends NewEvent {
  /** The outbox row's id: the same event delivered twice carries the same id. */
  id: string;
  /** Its position in the order every subscriber and webhook sees, given when the relay published it. */
  seq: number;
  createdTime: Date;
}
