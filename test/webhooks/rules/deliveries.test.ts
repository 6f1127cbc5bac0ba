import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { PublishedEvent } from '../../../src/events/types.ts';
import {
  challengeAnswered,
  deliveryBody,
  failureReason,
  hubChallengeQuery,
  isDelivered,
  MAX_EVENTS_PER_DELIVERY,
  readSubscriptionParams,
  RETRY,
  retryDelayMs,
  shouldDisable,
  signBody,
  verifySignature,
  WEBHOOK_FIELDS,
  WEBHOOK_OBJECTS,
} from '../../../src/webhooks/rules/deliveries.ts';

const event = (
  id: string,
  seq: number,
  entryId: string,
  seconds: number,
  value: Record<string, unknown>,
  topic: PublishedEvent['topic'] = 'feed',
): PublishedEvent => ({
  id,
  seq,
  organizationId: '1',
  topic,
  entryId,
  objectId: `${entryId}_${seq}`,
  verb: 'add',
  value,
  subject: { type: 'comment', organizationId: '1' },
  createdTime: new Date(seconds * 1000 + 250),
});

const paramFailure = (field: string, message: string) =>
  expect.objectContaining({ code: 'BAD_USER_INPUT', field, message, graph: expect.objectContaining({ code: 100 }) });

describe('webhook objects and fields', () => {
  it('lists the objects and the fields each may subscribe to', () => {
    expect(WEBHOOK_OBJECTS).toEqual(['page', 'ad_account']);
    expect(WEBHOOK_FIELDS).toEqual({ page: ['feed'], ad_account: ['ad_objects', 'jobs', 'rules'] });
    expect(MAX_EVENTS_PER_DELIVERY).toBe(50);
  });
});

describe('deliveryBody', () => {
  const events = [
    event('e1', 1, '111', 1_700_000_010, { item: 'comment', verb: 'add', comment_id: '111_1' }),
    event('e2', 2, '222', 1_700_000_005, { item: 'comment', verb: 'add', comment_id: '222_1' }),
    event('e3', 3, '111', 1_700_000_030, { item: 'comment', verb: 'edited', comment_id: '111_1' }),
    event('e4', 4, '222', 1_700_000_001, { item: 'comment', verb: 'hide', comment_id: '222_1' }),
  ];

  it('groups interleaved pages into one entry each, in order of first appearance, changes in seq order', () => {
    const { body, eventIds } = deliveryBody('page', events);
    expect(eventIds).toEqual(['e1', 'e2', 'e3', 'e4']);
    expect(JSON.parse(body)).toEqual({
      object: 'page',
      entry: [
        {
          id: '111',
          time: 1_700_000_030,
          changes: [
            { field: 'feed', value: { item: 'comment', verb: 'add', comment_id: '111_1', event_id: 'e1' } },
            { field: 'feed', value: { item: 'comment', verb: 'edited', comment_id: '111_1', event_id: 'e3' } },
          ],
        },
        {
          id: '222',
          // The latest event of the entry, not its last one.
          time: 1_700_000_005,
          changes: [
            { field: 'feed', value: { item: 'comment', verb: 'add', comment_id: '222_1', event_id: 'e2' } },
            { field: 'feed', value: { item: 'comment', verb: 'hide', comment_id: '222_1', event_id: 'e4' } },
          ],
        },
      ],
    });
  });

  it('is the JSON text of {object, entry}, and leaves the events as they were', () => {
    const before = structuredClone(events);
    const { body } = deliveryBody('page', events);
    expect(body.startsWith('{"object":"page","entry":[{"id":"111","time":1700000030,"changes":[{"field":"feed","value":{')).toBe(true);
    expect(events).toEqual(before);
    expect(events[0]!.value).not.toHaveProperty('event_id');
  });

  it('carries each ad account field as its own change', () => {
    const { body } = deliveryBody('ad_account', [
      event('a1', 1, 'act_9', 1_700_000_000, { id: '5', event: 'create' }, 'ad_objects'),
      event('a2', 2, 'act_9', 1_700_000_001, { id: '6' }, 'jobs'),
    ]);
    expect(JSON.parse(body).entry[0].changes.map((change: { field: string }) => change.field)).toEqual(['ad_objects', 'jobs']);
  });

  it('is an empty entry list without events, and refuses an event of another object', () => {
    expect(deliveryBody('page', [])).toEqual({ body: '{"object":"page","entry":[]}', eventIds: [] });
    expect(() => deliveryBody('page', [event('x', 1, 'act_1', 1, {}, 'jobs')])).toThrow(/not an event of page/);
  });
});

describe('signatures', () => {
  it('signs with HMAC-SHA256 of the raw body', () => {
    const body = '{"object":"page","entry":[]}';
    const expected = createHmac('sha256', 'app-secret').update(body).digest('hex');
    expect(signBody('app-secret', body)).toBe(`sha256=${expected}`);
    expect(signBody('secret', 'hello')).toBe('sha256=88aab3ede8d3adf94d26ab90d3bafd4a2083070c3bcce9c014ee04a443847c0b');
  });

  it('verifies a matching header and refuses any other, without throwing', () => {
    const header = signBody('secret', 'hello');
    expect(verifySignature('secret', 'hello', header)).toBe(true);
    expect(verifySignature('secret', 'hello', header.toUpperCase().replace('SHA256=', 'sha256='))).toBe(true);
    expect(verifySignature('other', 'hello', header)).toBe(false);
    expect(verifySignature('secret', 'hello!', header)).toBe(false);
    // Malformed: no prefix, another algorithm, not hex, missing.
    expect(verifySignature('secret', 'hello', header.slice('sha256='.length))).toBe(false);
    expect(verifySignature('secret', 'hello', header.replace('sha256=', 'sha1='))).toBe(false);
    expect(verifySignature('secret', 'hello', `sha256=${'z'.repeat(64)}`)).toBe(false);
    expect(verifySignature('secret', 'hello', '')).toBe(false);
    expect(verifySignature('secret', 'hello', undefined)).toBe(false);
    expect(verifySignature('secret', 'hello', null)).toBe(false);
    // Another length: shorter, longer, odd.
    expect(verifySignature('secret', 'hello', header.slice(0, -2))).toBe(false);
    expect(verifySignature('secret', 'hello', `${header}00`)).toBe(false);
    expect(verifySignature('secret', 'hello', header.slice(0, -1))).toBe(false);
  });
});

describe('retries', () => {
  it('backs off exponentially within [delay / 2, delay], capped', () => {
    for (let attempt = 1; attempt <= 12; attempt++) {
      const delay = Math.min(RETRY.baseMs * 2 ** (attempt - 1), RETRY.maxDelayMs);
      const low = retryDelayMs(attempt, 0);
      const high = retryDelayMs(attempt, 0.999);
      expect(low).toBe(delay / 2);
      expect(high).toBeGreaterThan(low);
      expect(high).toBeLessThanOrEqual(delay);
      expect(high).toBeGreaterThanOrEqual(delay * 0.999);
      expect(Number.isInteger(high)).toBe(true);
    }
    expect(retryDelayMs(1, 0)).toBe(5_000);
    expect(retryDelayMs(1, 0.999)).toBe(9_995);
    expect(retryDelayMs(2, 0)).toBe(10_000);
  });

  it('never waits longer than the cap', () => {
    expect(retryDelayMs(9, 0)).toBe(RETRY.maxDelayMs / 2);
    expect(retryDelayMs(12, 0.999)).toBeLessThanOrEqual(RETRY.maxDelayMs);
    expect(retryDelayMs(1_000, 0.999)).toBeLessThanOrEqual(RETRY.maxDelayMs);
    expect(retryDelayMs(1_000, 0.999)).toBeGreaterThan(RETRY.maxDelayMs * 0.99);
  });

  it('disables an endpoint failing for a day or longer', () => {
    const since = 1_700_000_000_000;
    expect(shouldDisable(since, since)).toBe(false);
    expect(shouldDisable(since, since + RETRY.giveUpAfterMs - 1)).toBe(false);
    expect(shouldDisable(since, since + RETRY.giveUpAfterMs)).toBe(true);
    expect(shouldDisable(since, since + RETRY.giveUpAfterMs + 1)).toBe(true);
  });
});

describe('outcomes', () => {
  it('counts 2xx only as delivered', () => {
    expect([200, 204, 299, 300, 302, 500].map(isDelivered)).toEqual([true, true, true, false, false, false]);
  });

  it('says why a delivery failed', () => {
    expect(failureReason({ status: 500 })).toBe('HTTP 500');
    expect(failureReason({ status: 404 })).toBe('HTTP 404');
    expect(failureReason({ status: 302 })).toBe('HTTP 302 (redirects are not followed)');
    expect(failureReason({ error: 'timed out after 10000 ms' })).toBe('timed out after 10000 ms');
    expect(failureReason({ error: 'getaddrinfo ENOTFOUND example.invalid' })).toBe('getaddrinfo ENOTFOUND example.invalid');
    expect(failureReason({})).toBe('request failed');
    const long = failureReason({ error: 'x'.repeat(500) });
    expect(long).toHaveLength(200);
    expect(long.endsWith('…')).toBe(true);
    expect(failureReason({ error: 'y'.repeat(200) })).toBe('y'.repeat(200));
  });
});

describe('readSubscriptionParams', () => {
  const valid = { object: 'ad_account', callback_url: 'https://hooks.example.com/meta', fields: 'jobs, rules', verify_token: 'tok-1' };

  it('reads the fields from a comma-separated string or a JSON array, deduplicated', () => {
    expect(readSubscriptionParams(valid)).toEqual({
      object: 'ad_account',
      callbackUrl: 'https://hooks.example.com/meta',
      fields: ['jobs', 'rules'],
      verifyToken: 'tok-1',
    });
    expect(readSubscriptionParams({ ...valid, fields: 'rules,jobs,rules' }).fields).toEqual(['rules', 'jobs']);
    expect(readSubscriptionParams({ ...valid, fields: '["ad_objects","jobs","ad_objects"]' }).fields).toEqual(['ad_objects', 'jobs']);
    expect(readSubscriptionParams({ ...valid, fields: ['rules'] }).fields).toEqual(['rules']);
    expect(readSubscriptionParams({ ...valid, object: 'page', fields: 'feed' }).fields).toEqual(['feed']);
  });

  it('requires object, one of the webhook objects', () => {
    expect(() => readSubscriptionParams({ ...valid, object: undefined })).toThrow(paramFailure('object', 'The parameter object is required'));
    expect(() => readSubscriptionParams({ ...valid, object: 'user' })).toThrow(paramFailure('object', 'Param object must be one of {page, ad_account}'));
  });

  it('requires callback_url, a string of at most 2048 characters', () => {
    expect(() => readSubscriptionParams({ ...valid, callback_url: '' })).toThrow(paramFailure('callback_url', 'The parameter callback_url is required'));
    expect(() => readSubscriptionParams({ ...valid, callback_url: 42 })).toThrow(paramFailure('callback_url', 'Param callback_url must be a string'));
    const long = `https://hooks.example.com/${'a'.repeat(2048)}`;
    expect(() => readSubscriptionParams({ ...valid, callback_url: long })).toThrow(
      paramFailure('callback_url', 'Param callback_url must be at most 2048 characters'),
    );
  });

  it('requires fields, at least one, each a field of the object', () => {
    expect(() => readSubscriptionParams({ ...valid, fields: undefined })).toThrow(paramFailure('fields', 'The parameter fields is required'));
    expect(() => readSubscriptionParams({ ...valid, fields: ' , ' })).toThrow(paramFailure('fields', 'Param fields must name at least one field'));
    expect(() => readSubscriptionParams({ ...valid, fields: [] })).toThrow(paramFailure('fields', 'Param fields must name at least one field'));
    expect(() => readSubscriptionParams({ ...valid, fields: 'jobs,feed' })).toThrow(
      paramFailure('fields', 'Param fields contains feed, which is not a field of ad_account: each must be one of {ad_objects, jobs, rules}'),
    );
    expect(() => readSubscriptionParams({ ...valid, object: 'page', fields: ['jobs'] })).toThrow(
      paramFailure('fields', 'Param fields contains jobs, which is not a field of page: each must be one of {feed}'),
    );
    expect(() => readSubscriptionParams({ ...valid, fields: [1] })).toThrow(paramFailure('fields', 'Param fields[0] must be a string'));
    expect(() => readSubscriptionParams({ ...valid, fields: { jobs: true } })).toThrow(
      paramFailure('fields', 'Param fields must be a comma-separated string or a JSON array of strings'),
    );
    expect(() => readSubscriptionParams({ ...valid, fields: '[jobs' })).toThrow(paramFailure('fields', 'Param fields must be JSON-encoded: [jobs'));
  });

  it('requires verify_token, 1 to 256 characters', () => {
    expect(() => readSubscriptionParams({ ...valid, verify_token: undefined })).toThrow(paramFailure('verify_token', 'The parameter verify_token is required'));
    expect(() => readSubscriptionParams({ ...valid, verify_token: '   ' })).toThrow(paramFailure('verify_token', 'The parameter verify_token is required'));
    expect(readSubscriptionParams({ ...valid, verify_token: 't'.repeat(256) }).verifyToken).toHaveLength(256);
    expect(() => readSubscriptionParams({ ...valid, verify_token: 't'.repeat(257) })).toThrow(
      paramFailure('verify_token', 'Param verify_token must be at most 256 characters'),
    );
  });
});

describe('the verification handshake', () => {
  it('asks the callback to echo a challenge', () => {
    const query = hubChallengeQuery('tok 1', 'abc123');
    expect(query.get('hub.mode')).toBe('subscribe');
    expect(query.get('hub.challenge')).toBe('abc123');
    expect(query.get('hub.verify_token')).toBe('tok 1');
    expect(query.toString()).toBe('hub.mode=subscribe&hub.challenge=abc123&hub.verify_token=tok+1');
  });

  it('accepts the challenge echoed exactly, surrounding whitespace aside', () => {
    expect(challengeAnswered('abc123', 'abc123')).toBe(true);
    expect(challengeAnswered('abc123', ' abc123\n')).toBe(true);
    expect(challengeAnswered('abc123', 'abc1234')).toBe(false);
    expect(challengeAnswered('abc123', 'ABC123')).toBe(false);
    expect(challengeAnswered('abc123', '"abc123"')).toBe(false);
    expect(challengeAnswered('abc123', '')).toBe(false);
    expect(challengeAnswered('', '')).toBe(false);
  });
});
