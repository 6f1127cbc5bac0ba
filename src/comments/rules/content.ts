/**
 * A comment's content (the specification's update rules 1 to 3, and publishing): a message and/or one
 * attachment. The attachment is a URL (`attachment_url`), an uploaded object (`attachment_id`, which may come
 * with the URL it was uploaded from), a link to share (`attachment_share_url`, alone), or a media source
 * (`source`). An update replaces the whole content: what is not sent again is removed.
 */
export interface ContentInput {
  message?: string;
  attachmentUrl?: string;
  attachmentId?: string;
  attachmentShareUrl?: string;
  source?: string;
}

export interface Attachment {
  type: 'photo' | 'share' | 'media';
  url?: string;
  target?: { id: string };
  source?: string;
}

export type ContentResult = { ok: true; message: string | null; attachment: Attachment | null } | { ok: false; field: string; reason: string };

/** Rules 1 and 2, then the content as stored (rule 3: the result replaces whatever was there). */
export function commentContent(input: ContentInput): ContentResult {
  const message = input.message !== undefined && input.message.trim() !== '' ? input.message : null;
  const attachments = (['attachmentUrl', 'attachmentId', 'attachmentShareUrl', 'source'] as const).filter((key) => input[key] !== undefined);
  if (message === null && attachments.length === 0) {
    return {
      ok: false,
      field: 'message',
      reason: 'A comment needs a message or an attachment (attachment_url, attachment_id, attachment_share_url or source)',
    };
  }
  if (input.attachmentShareUrl !== undefined && attachments.length > 1) {
    return {
      ok: false,
      field: 'attachment_share_url',
      reason: 'Param attachment_share_url must be sent alone, without attachment_url, attachment_id or source',
    };
  }
  if (input.source !== undefined && attachments.length > 1) {
    return { ok: false, field: 'source', reason: 'Param source cannot be combined with another attachment' };
  }
  let attachment: Attachment | null = null;
  if (input.attachmentShareUrl !== undefined) attachment = { type: 'share', url: input.attachmentShareUrl };
  else if (input.source !== undefined) attachment = { type: 'media', source: input.source };
  else if (input.attachmentId !== undefined || input.attachmentUrl !== undefined) {
    attachment = {
      type: 'photo',
      ...(input.attachmentUrl !== undefined ? { url: input.attachmentUrl } : {}),
      ...(input.attachmentId !== undefined ? { target: { id: input.attachmentId } } : {}),
    };
  }
  return { ok: true, message, attachment };
}

/** The longest comment message (the platform's comment box takes 8,000 characters). */
export const MAX_COMMENT_MESSAGE = 8_000;
