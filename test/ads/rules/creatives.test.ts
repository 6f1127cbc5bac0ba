import { describe, expect, it } from 'vitest';
import {
  contentViolations,
  deleteViolations,
  normalizedStorySpec,
  pageViolations,
  storySpecViolations,
  usableViolations,
} from '../../../src/ads/rules/creatives.ts';

const fields = (violations: Array<{ field: string }>) => violations.map((v) => v.field);

describe('storySpecViolations', () => {
  it('takes a page and a link post with every key it stores', () => {
    expect(
      storySpecViolations({
        page_id: '123',
        instagram_user_id: 456,
        link_data: {
          link: 'https://northwind.example/',
          message: 'm',
          name: 'n',
          description: 'd',
          caption: 'c',
          picture: 'http://cdn.example/p.png',
          call_to_action: { type: 'SHOP_NOW', value: { link: 'https://northwind.example/shop' } },
        },
      }),
    ).toEqual([]);
  });

  it.each<[unknown, string[]]>([
    ['text', ['object_story_spec']],
    [{}, ['object_story_spec.page_id']],
    [{ page_id: 'abc' }, ['object_story_spec.page_id']],
    [{ page_id: 0 }, ['object_story_spec.page_id']],
    [{ page_id: '1', instagram_user_id: 'x' }, ['object_story_spec.instagram_user_id']],
    [{ page_id: '1', video_data: {} }, ['object_story_spec.video_data']],
    [{ page_id: '1', link_data: [] }, ['object_story_spec.link_data']],
    [{ page_id: '1', link_data: {} }, ['object_story_spec.link_data.link']],
    [{ page_id: '1', link_data: { link: 'javascript:alert(1)' } }, ['object_story_spec.link_data.link']],
    [{ page_id: '1', link_data: { link: 'https://a.example/', picture: 'file:///etc' } }, ['object_story_spec.link_data.picture']],
    [{ page_id: '1', link_data: { link: 'https://a.example/', message: 7 } }, ['object_story_spec.link_data.message']],
    [{ page_id: '1', link_data: { link: 'https://a.example/', name: 'x'.repeat(2201) } }, ['object_story_spec.link_data.name']],
    [{ page_id: '1', link_data: { link: 'https://a.example/', extra: 1 } }, ['object_story_spec.link_data.extra']],
    [{ page_id: '1', link_data: { link: 'https://a.example/', call_to_action: { type: 'PRESS' } } }, ['object_story_spec.link_data.call_to_action.type']],
    [
      { page_id: '1', link_data: { link: 'https://a.example/', call_to_action: { type: 'SHOP_NOW', value: { link: 'x' } } } },
      ['object_story_spec.link_data.call_to_action.value.link'],
    ],
    [{ page_id: '1', link_data: { link: 'https://a.example/', call_to_action: 'SHOP_NOW' } }, ['object_story_spec.link_data.call_to_action']],
  ])('refuses %j at %j', (spec, expected) => {
    expect(fields(storySpecViolations(spec))).toEqual(expected);
  });

  it('names every problem at once', () => {
    expect(fields(storySpecViolations({ extra: 1, link_data: { link: 'no' } }))).toEqual([
      'object_story_spec.extra',
      'object_story_spec.page_id',
      'object_story_spec.link_data.link',
    ]);
  });
});

describe('the other rules', () => {
  it('prints ids as strings', () => {
    expect(normalizedStorySpec({ page_id: 12, instagram_user_id: 34, link_data: { link: 'l' } })).toEqual({
      page_id: '12',
      instagram_user_id: '34',
      link_data: { link: 'l' },
    });
  });

  it('needs a story or some content', () => {
    expect(fields(contentViolations({}))).toEqual(['object_story_spec']);
    expect(fields(contentViolations({ title: '' }))).toEqual(['object_story_spec']);
    for (const content of [{ storySpec: {} }, { title: 't' }, { body: 'b' }, { imageUrl: 'i' }, { linkUrl: 'l' }])
      expect(contentViolations(content)).toEqual([]);
  });

  it("takes only a page of the account's organization", () => {
    expect(pageViolations('5', 'org-a', 'org-a', '1')).toEqual([]);
    expect(pageViolations('5', 'org-b', 'org-a', '1')[0]).toMatchObject({
      field: 'object_story_spec.page_id',
      message: /Page 5 cannot be used by ad account act_1/,
    });
    expect(fields(pageViolations('5', null, 'org-a', '1'))).toEqual(['object_story_spec.page_id']);
  });

  it('refuses deleting a creative live ads use, naming at most five', () => {
    expect(deleteViolations('9', [])).toEqual([]);
    expect(deleteViolations('9', ['1'])[0]!.message).toMatch(/Creative 9 cannot be deleted: 1 ad\(s\) .* \(1\)$/);
    expect(deleteViolations('9', ['1', '2', '3', '4', '5', '6'])[0]!.message).toMatch(/6 ad\(s\) .* \(1, 2, 3, 4, 5, \.\.\.\)$/);
  });

  it('lets an ad use only a live creative of its own account', () => {
    expect(usableViolations({ id: '9', status: 'ACTIVE', accountId: '1' }, '9', '1')).toEqual([]);
    expect(usableViolations({ id: '9', status: 'DELETED', accountId: '1' }, '9', '1')[0]!.message).toMatch(/Creative 9 is deleted/);
    expect(usableViolations({ id: '9', status: 'ACTIVE', accountId: '2' }, '9', '1')[0]!.message).toMatch(/creative of ad account act_1/);
    expect(fields(usableViolations(null, '9', '1'))).toEqual(['creative.creative_id']);
  });
});
