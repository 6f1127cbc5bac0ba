import { describe, expect, it } from 'vitest';
import { mentionedIds, renderMentions, type MentionTarget } from '../../../src/comments/rules/mentions.ts';
import { codePoints } from '../../../src/text/code-points.ts';
import type { MessageTag } from '../../../src/comments/store.ts';

// Mentions (DECISIONS section 6): `@[<id>]` names a user (a UUID, any case) or a page (a numeric id). The stored
// message reads with the names in place; each mention becomes a message tag whose offset and length count Unicode
// code points (the specification's message_tags), not UTF-16 code units.

const ANA = '0f8fad5b-d9cb-469f-a165-70867728950e';
const BO = '7c9e6679-7425-40de-944b-e07fc1f90ae7';
const TRAIL = '1234567890';
const SHOP = '42';

const TARGETS = new Map<string, MentionTarget>([
  [ANA, { id: ANA, name: 'Ana', type: 'user' }],
  [BO, { id: BO, name: 'Bo 👋🏽', type: 'user' }],
  [TRAIL, { id: TRAIL, name: '🌲 Trail', type: 'page' }],
  [SHOP, { id: SHOP, name: '王小明', type: 'page' }],
]);

const WAVE = '👋🏽'; // waving hand + skin-tone modifier: 2 code points, 4 code units
const FAMILY = '👩‍👩‍👧'; // woman, ZWJ, woman, ZWJ, girl: 5 code points, 8 code units
const E_ACUTE = 'e\u0301'; // e + combining acute accent: 2 code points
const ASTRAL_CJK = '𠀀'; // CJK Extension B: 1 code point, 2 code units

/** The text a tag points at, counted in code points: an oracle independent of the module. */
const tagged = (message: string, tag: MessageTag) => [...message].slice(tag.offset, tag.offset + tag.length).join('');

describe('code points', () => {
  it.each([
    ['plain ASCII', 'abc', 3],
    ['an emoji with a skin-tone modifier is two', WAVE, 2],
    ['a ZWJ family is five', FAMILY, 5],
    ['a combining accent is one more', E_ACUTE, 2],
    ['an astral page name', '🌲 Trail', 7],
    ['CJK in the BMP', '王小明', 3],
    ['an astral CJK character is one', ASTRAL_CJK, 1],
  ])('%s', (_rule, text, count) => {
    expect(codePoints(text)).toBe(count);
  });
});

describe('mentionedIds: the ids a message mentions, in order, each once', () => {
  it.each<[string, string, string[]]>([
    ['no mention at all', 'Hello there', []],
    ['an @ or brackets alone are not mentions', 'mail me at a@b.c or see [123] or @ [123]', []],
    ['a user by UUID', `Hi @[${ANA}]!`, [ANA]],
    ['a UUID in upper case is the same user (lower-cased)', `Hi @[${ANA.toUpperCase()}]`, [ANA]],
    ['a page by numeric id', `Visit @[${TRAIL}]`, [TRAIL]],
    ['users and pages, in the order written', `@[${TRAIL}] with @[${ANA}] and @[${BO}]`, [TRAIL, ANA, BO]],
    ['a repeated mention counts once', `@[${ANA}] @[${SHOP}] @[${ANA}] @[${SHOP}]`, [ANA, SHOP]],
    ['the same UUID in two cases counts once', `@[${ANA}] @[${ANA.toUpperCase()}]`, [ANA]],
    ['mentions next to each other', `@[${SHOP}]@[${TRAIL}]`, [SHOP, TRAIL]],
    ['a mention at the very start', `@[${ANA}] hello`, [ANA]],
    ['a mention at the very end', `hello @[${ANA}]`, [ANA]],
    ['a message that is only a mention', `@[${SHOP}]`, [SHOP]],
    ['mentions among emoji, ZWJ sequences and combining accents', `${WAVE}@[${ANA}]${FAMILY}caf${E_ACUTE}@[${SHOP}]`, [ANA, SHOP]],
    ['the longest numeric id (19 digits)', '@[1234567890123456789]', ['1234567890123456789']],
  ])('%s', (_rule, message, ids) => {
    expect(mentionedIds(message)).toEqual({ ok: true, ids });
  });

  it.each<[string, string, string]>([
    ['an empty mention', '@[]', 'the mention "@[]" at character 0 does not name a user, page or group id'],
    ['a mention of something that is no id', 'Hi @[not-an-id]', 'the mention "@[not-an-id]" at character 3 does not name a user, page or group id'],
    ['a numeric id with a leading zero', 'see @[0123]', 'the mention "@[0123]" at character 4 does not name a user, page or group id'],
    ['a numeric id of 20 digits', '@[12345678901234567890]', 'the mention "@[12345678901234567890]" at character 0 does not name a user, page or group id'],
    ['a UUID cut short', `@[${ANA.slice(0, -1)}]`, `the mention "@[${ANA.slice(0, -1)}]" at character 0 does not name a user, page or group id`],
    ['a mention nested in another', `@[@[${SHOP}]]`, `the mention "@[@[${SHOP}]" at character 0 does not name a user, page or group id`],
    ['the character is counted in code points (skin tone: 2)', `${WAVE} @[x]`, 'the mention "@[x]" at character 3 does not name a user, page or group id'],
    ['the character is counted in code points (ZWJ family: 5)', `${FAMILY}@[]`, 'the mention "@[]" at character 5 does not name a user, page or group id'],
    [
      'the character is counted in code points (combining accent: 2)',
      `${E_ACUTE} @[?]`,
      'the mention "@[?]" at character 3 does not name a user, page or group id',
    ],
    ['a malformed mention after a good one', `@[${SHOP}] @[abc]`, 'the mention "@[abc]" at character 6 does not name a user, page or group id'],
    ['"@[" with no closing bracket', '@[', 'the mention starting at character 0 has no closing "]"'],
    ['an id with no closing bracket', 'Hi @[123', 'the mention starting at character 3 has no closing "]"'],
    ['no closing bracket after emoji', `${FAMILY} ${WAVE} @[${ANA}`, 'the mention starting at character 9 has no closing "]"'],
    // The position must be where "@[" is in the message the person wrote, also after earlier (good) mentions.
    ['no closing bracket after a good mention', `@[${SHOP}] then @[`, 'the mention starting at character 11 has no closing "]"'],
    ['no closing bracket after a good user mention', `@[${ANA}] @[${SHOP}`, 'the mention starting at character 40 has no closing "]"'],
  ])('refuses %s, saying where', (_rule, message, reason) => {
    expect(mentionedIds(message)).toEqual({ ok: false, reason });
  });
});

describe('renderMentions: names in place, tags in code points', () => {
  const ROWS: Array<[string, string, string, Array<Omit<MessageTag, 'name' | 'type'>>]> = [
    ['no mention: the message as written, no tags', 'Plain words', 'Plain words', []],
    ['a user at the start', `@[${ANA}] hi`, 'Ana hi', [{ id: ANA, offset: 0, length: 3 }]],
    ['a user at the end', `hi @[${ANA}]`, 'hi Ana', [{ id: ANA, offset: 3, length: 3 }]],
    ['a UUID in upper case names the user', `hi @[${ANA.toUpperCase()}]`, 'hi Ana', [{ id: ANA, offset: 3, length: 3 }]],
    ['a page by numeric id', `Go to @[${TRAIL}] now`, 'Go to 🌲 Trail now', [{ id: TRAIL, offset: 6, length: 7 }]],
    [
      'a repeated mention is tagged each time',
      `@[${ANA}] and @[${ANA}]`,
      'Ana and Ana',
      [
        { id: ANA, offset: 0, length: 3 },
        { id: ANA, offset: 8, length: 3 },
      ],
    ],
    [
      'mentions next to each other',
      `@[${ANA}]@[${SHOP}]`,
      'Ana王小明',
      [
        { id: ANA, offset: 0, length: 3 },
        { id: SHOP, offset: 3, length: 3 },
      ],
    ],
    ['after an emoji with a skin-tone modifier (2 code points)', `${WAVE} @[${ANA}]`, `${WAVE} Ana`, [{ id: ANA, offset: 3, length: 3 }]],
    ['after a ZWJ family (5 code points)', `${FAMILY}@[${ANA}]`, `${FAMILY}Ana`, [{ id: ANA, offset: 5, length: 3 }]],
    ['after a combining accent (2 code points)', `caf${E_ACUTE} @[${ANA}]`, `caf${E_ACUTE} Ana`, [{ id: ANA, offset: 6, length: 3 }]],
    ['after CJK', `你好 @[${ANA}]`, '你好 Ana', [{ id: ANA, offset: 3, length: 3 }]],
    ['after astral CJK (1 code point each)', `${ASTRAL_CJK}${ASTRAL_CJK} @[${ANA}]`, `${ASTRAL_CJK}${ASTRAL_CJK} Ana`, [{ id: ANA, offset: 3, length: 3 }]],
    [
      'an astral page name is counted in code points, and so is what follows it',
      `@[${TRAIL}] @[${ANA}]`,
      '🌲 Trail Ana',
      [
        { id: TRAIL, offset: 0, length: 7 },
        { id: ANA, offset: 8, length: 3 },
      ],
    ],
    [
      'a name with a skin-tone modifier has its own length',
      `${FAMILY} @[${BO}] & @[${SHOP}]`,
      `${FAMILY} Bo ${WAVE} & 王小明`,
      [
        { id: BO, offset: 6, length: 5 },
        { id: SHOP, offset: 14, length: 3 },
      ],
    ],
    [
      'everything at once',
      `${E_ACUTE}${WAVE}@[${TRAIL}]${FAMILY}@[${BO}]${ASTRAL_CJK}`,
      `${E_ACUTE}${WAVE}🌲 Trail${FAMILY}Bo ${WAVE}${ASTRAL_CJK}`,
      [
        { id: TRAIL, offset: 4, length: 7 },
        { id: BO, offset: 16, length: 5 },
      ],
    ],
  ];

  it.each(ROWS)('%s', (_rule, message, expected, tags) => {
    const rendered = renderMentions(message, TARGETS);
    if ('missing' in rendered) throw new Error(`unexpected missing ${rendered.missing}`);
    expect(rendered.message).toBe(expected);
    expect(rendered.tags).toEqual(tags.map((tag) => ({ ...tag, name: TARGETS.get(tag.id)!.name, type: TARGETS.get(tag.id)!.type })));
    // Each tag points at its name in the stored message, counting code points.
    for (const tag of rendered.tags) expect(tagged(rendered.message, tag)).toBe(tag.name);
  });

  it('counts code points, not UTF-16 code units (which would put the tag elsewhere)', () => {
    const rendered = renderMentions(`${FAMILY}${WAVE} @[${ANA}]`, TARGETS);
    if ('missing' in rendered) throw new Error('unexpected missing');
    expect(rendered.tags[0]!.offset).toBe(8);
    expect(rendered.message.indexOf('Ana')).toBe(13); // code units: the offset a naive count would give
  });

  it('does not read mentions inside the names it puts in place', () => {
    const targets = new Map<string, MentionTarget>([[SHOP, { id: SHOP, name: `@[${ANA}]`, type: 'page' }]]);
    expect(renderMentions(`@[${SHOP}]!`, targets)).toEqual({
      message: `@[${ANA}]!`,
      tags: [{ id: SHOP, name: `@[${ANA}]`, type: 'page', offset: 0, length: 39 }],
    });
  });

  it.each<[string, string, string]>([
    ['a user nobody knows', `hi @[${'3b241101-e2bb-4255-8caf-4136c566a962'}]`, '3b241101-e2bb-4255-8caf-4136c566a962'],
    ['an unknown user written in upper case (reported lower-cased)', `hi @[${'3B241101-E2BB-4255-8CAF-4136C566A962'}]`, '3b241101-e2bb-4255-8caf-4136c566a962'],
    ['an unknown page', 'see @[999]', '999'],
    ['the first unknown id among known ones', `@[${ANA}] @[777] @[888]`, '777'],
  ])('reports an id not among the targets: %s', (_rule, message, missing) => {
    expect(renderMentions(message, TARGETS)).toEqual({ missing });
  });
});
