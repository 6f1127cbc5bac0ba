import { describe, expect, it } from 'vitest';
import { commentContent, MAX_COMMENT_MESSAGE, type Attachment, type ContentInput } from '../../../src/comments/rules/content.ts';

// A comment's content: the specification's update rules 1 to 3 (also what publishing takes).
// 1. A message or an attachment must be included (a url, an attachment_id, an attachment_share_url; or a source).
// 2. attachment_share_url is sent alone; an id may accompany a url.
// 3. An update replaces content: what is not resent is removed.

const URL = 'https://cdn.example.com/cat.jpg';
const SHARE = 'https://media.example.com/party.gif';
const ID = '987654321';
const SOURCE = 'https://video.example.com/clip.mp4';

const NEEDS_CONTENT = 'A comment needs a message or an attachment (attachment_url, attachment_id, attachment_share_url or source)';
const SHARE_ALONE = 'Param attachment_share_url must be sent alone, without attachment_url, attachment_id or source';
const SOURCE_ALONE = 'Param source cannot be combined with another attachment';

describe('rule 1: a message or an attachment', () => {
  it.each<[string, ContentInput, string | null, Attachment | null]>([
    ['a message only', { message: 'Nice!' }, 'Nice!', null],
    ['a message is kept as written (not trimmed)', { message: '  Nice!  ' }, '  Nice!  ', null],
    ['a message with emoji and mentions, untouched', { message: '👋🏽 @[42]' }, '👋🏽 @[42]', null],
    ['an attachment_url alone', { attachmentUrl: URL }, null, { type: 'photo', url: URL }],
    ['an attachment_id alone', { attachmentId: ID }, null, { type: 'photo', target: { id: ID } }],
    ['an attachment_share_url alone', { attachmentShareUrl: SHARE }, null, { type: 'share', url: SHARE }],
    ['a source alone', { source: SOURCE }, null, { type: 'media', source: SOURCE }],
    ['a message with an attachment_url', { message: 'Look', attachmentUrl: URL }, 'Look', { type: 'photo', url: URL }],
    ['a message with an attachment_id', { message: 'Look', attachmentId: ID }, 'Look', { type: 'photo', target: { id: ID } }],
    ['a message with a source', { message: 'Look', source: SOURCE }, 'Look', { type: 'media', source: SOURCE }],
    // Judgement: "sent alone" is read as "without another attachment"; a message may come with the share URL.
    ['a message with an attachment_share_url', { message: 'Look', attachmentShareUrl: SHARE }, 'Look', { type: 'share', url: SHARE }],
    ['a blank message with an attachment: the attachment, no message', { message: '   ', attachmentUrl: URL }, null, { type: 'photo', url: URL }],
    ['an empty message with an attachment: the attachment, no message', { message: '', attachmentId: ID }, null, { type: 'photo', target: { id: ID } }],
  ])('accepts %s', (_rule, input, message, attachment) => {
    expect(commentContent(input)).toEqual({ ok: true, message, attachment });
  });

  it.each<[string, ContentInput]>([
    ['nothing at all', {}],
    ['an empty message', { message: '' }],
    ['a blank message with no attachment', { message: ' \n\t ' }],
  ])('refuses %s, naming message', (_rule, input) => {
    expect(commentContent(input)).toEqual({ ok: false, field: 'message', reason: NEEDS_CONTENT });
  });
});

describe('rule 2: attachment_share_url alone; an id may accompany a url', () => {
  it('accepts an attachment_id with the attachment_url it was uploaded from', () => {
    expect(commentContent({ attachmentId: ID, attachmentUrl: URL })).toEqual({
      ok: true,
      message: null,
      attachment: { type: 'photo', url: URL, target: { id: ID } },
    });
    expect(commentContent({ message: 'Both', attachmentId: ID, attachmentUrl: URL })).toEqual({
      ok: true,
      message: 'Both',
      attachment: { type: 'photo', url: URL, target: { id: ID } },
    });
  });

  it.each<[string, ContentInput, string, string]>([
    ['attachment_share_url with attachment_url', { attachmentShareUrl: SHARE, attachmentUrl: URL }, 'attachment_share_url', SHARE_ALONE],
    ['attachment_share_url with attachment_id', { attachmentShareUrl: SHARE, attachmentId: ID }, 'attachment_share_url', SHARE_ALONE],
    ['attachment_share_url with source', { attachmentShareUrl: SHARE, source: SOURCE }, 'attachment_share_url', SHARE_ALONE],
    [
      'attachment_share_url with attachment_id and attachment_url',
      { attachmentShareUrl: SHARE, attachmentId: ID, attachmentUrl: URL },
      'attachment_share_url',
      SHARE_ALONE,
    ],
    [
      'attachment_share_url with another attachment, even beside a message',
      { message: 'x', attachmentShareUrl: SHARE, attachmentUrl: URL },
      'attachment_share_url',
      SHARE_ALONE,
    ],
    ['source with attachment_url', { source: SOURCE, attachmentUrl: URL }, 'source', SOURCE_ALONE],
    ['source with attachment_id', { source: SOURCE, attachmentId: ID }, 'source', SOURCE_ALONE],
    ['source with attachment_id and attachment_url', { message: 'x', source: SOURCE, attachmentId: ID, attachmentUrl: URL }, 'source', SOURCE_ALONE],
  ])('refuses %s', (_rule, input, field, reason) => {
    expect(commentContent(input)).toEqual({ ok: false, field, reason });
  });
});

describe('rule 3: the result is the whole new content (replace semantics)', () => {
  // The writer stores exactly { message, attachment }: both keys are always present, so what was not resent is
  // written as null and removed.
  it.each<[string, ContentInput, { message: string | null; attachment: Attachment | null }]>([
    ['a message alone removes any attachment', { message: 'Only words now' }, { message: 'Only words now', attachment: null }],
    ['an attachment alone removes the message', { attachmentUrl: URL }, { message: null, attachment: { type: 'photo', url: URL } }],
    ['an attachment_id alone removes the url it came from before', { attachmentId: ID }, { message: null, attachment: { type: 'photo', target: { id: ID } } }],
    ['a share URL alone removes message and photo', { attachmentShareUrl: SHARE }, { message: null, attachment: { type: 'share', url: SHARE } }],
  ])('%s', (_rule, input, content) => {
    const result = commentContent(input);
    expect(result).toStrictEqual({ ok: true, ...content });
    if (!result.ok) return;
    expect(Object.keys(result).sort()).toEqual(['attachment', 'message', 'ok']);
  });

  it('stores only what was sent in the attachment (no keys left over from another kind)', () => {
    expect(commentContent({ attachmentUrl: URL })).toStrictEqual({ ok: true, message: null, attachment: { type: 'photo', url: URL } });
    expect(commentContent({ attachmentId: ID })).toStrictEqual({ ok: true, message: null, attachment: { type: 'photo', target: { id: ID } } });
    expect(commentContent({ source: SOURCE })).toStrictEqual({ ok: true, message: null, attachment: { type: 'media', source: SOURCE } });
  });
});

describe('the message limit', () => {
  it('is 8,000 characters (the platform comment box)', () => {
    expect(MAX_COMMENT_MESSAGE).toBe(8000);
  });
});
