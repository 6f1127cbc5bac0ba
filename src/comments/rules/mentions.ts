import { codePoints } from '../../text/code-points.ts';
import type { MessageTag } from '../store.ts';

/**
 * Mentions (DECISIONS section 6): `@[<id>]` in a message names a user (a UUID) or a page or group (a numeric
 * id). The stored message reads with the names in place, and each becomes a message tag whose offset and
 * length count Unicode code points, as the platform counts them: an emoji is one, a skin-tone modifier or a
 * combining accent is one more.
 */
const MENTION = /@\[([^\]]*)\]/g;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;
const NUMERIC = /^[1-9][0-9]{0,18}$/;

export type MentionParse = { ok: true; ids: string[] } | { ok: false; reason: string };

/** The ids a message mentions, in order (each once), or why a mention is malformed. */
export function mentionedIds(message: string): MentionParse {
  const ids: string[] = [];
  for (const match of message.matchAll(MENTION)) {
    const id = match[1]!.trim();
    if (!UUID.test(id) && !NUMERIC.test(id)) {
      return {
        ok: false,
        reason: `the mention "${match[0]}" at character ${codePoints(message.slice(0, match.index))} does not name a user, page or group id`,
      };
    }
    const normalized = UUID.test(id) ? id.toLowerCase() : id;
    if (!ids.includes(normalized)) ids.push(normalized);
  }
  // "@[" that starts no mention is one cut short (every "@[" inside a mention made its id malformed above).
  const starts = new Set([...message.matchAll(MENTION)].map((match) => match.index));
  for (let open = message.indexOf('@['); open >= 0; open = message.indexOf('@[', open + 2)) {
    if (!starts.has(open)) return { ok: false, reason: `the mention starting at character ${codePoints(message.slice(0, open))} has no closing "]"` };
  }
  return { ok: true, ids };
}

export interface MentionTarget {
  id: string;
  name: string;
  type: MessageTag['type'];
}

/**
 * The message with every mention replaced by its name, and the tags pointing at those names. `targets` holds
 * what each mentioned id names (the service looked them up); an id missing from it is reported.
 */
export function renderMentions(message: string, targets: ReadonlyMap<string, MentionTarget>): { message: string; tags: MessageTag[] } | { missing: string } {
  let out = '';
  let offset = 0;
  let last = 0;
  const tags: MessageTag[] = [];
  for (const match of message.matchAll(MENTION)) {
    const raw = match[1]!.trim();
    const id = UUID.test(raw) ? raw.toLowerCase() : raw;
    const target = targets.get(id);
    if (!target) return { missing: id };
    const before = message.slice(last, match.index);
    out += before;
    offset += codePoints(before);
    tags.push({ id: target.id, name: target.name, type: target.type, offset, length: codePoints(target.name) });
    out += target.name;
    offset += codePoints(target.name);
    last = match.index! + match[0].length;
  }
  return { message: out + message.slice(last), tags };
}
