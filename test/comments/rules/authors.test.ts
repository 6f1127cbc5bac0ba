import { describe, expect, it } from 'vitest';
import { visibleAuthor } from '../../../src/comments/rules/authors.ts';

// Who wrote a post or a comment, as a viewer may see it: a page always, a person only to the page and to that
// person (the specification: user information on a page's objects needs a page token).

const PAGE = '100';
const WRITER = 'aaaaaaaa-0000-4000-8000-000000000001';
const SOMEONE = 'aaaaaaaa-0000-4000-8000-000000000002';

const byPerson = { authorUserId: WRITER, authorPageId: null };
const byPage = { authorUserId: null, authorPageId: PAGE };

describe('visibleAuthor', () => {
  it.each([
    ['the page', { isPage: true, userId: SOMEONE }],
    ['an API client of the page', { isPage: true, userId: null }],
    ['someone else', { isPage: false, userId: SOMEONE }],
    ['an API client of another organization', { isPage: false, userId: null }],
  ])('a page is named to %s', (_label, viewer) => {
    expect(visibleAuthor(byPage, viewer)).toEqual({ kind: 'page', pageId: PAGE });
  });

  it.each([
    ['the page (a person with its MODERATE task)', { isPage: true, userId: SOMEONE }, true],
    ["the page's API client", { isPage: true, userId: null }, true],
    ['the writer', { isPage: false, userId: WRITER }, true],
    ['another person', { isPage: false, userId: SOMEONE }, false],
    ['an API client of another organization', { isPage: false, userId: null }, false],
  ])('a person is named to %s: %s', (_label, viewer, named) => {
    expect(visibleAuthor(byPerson, viewer)).toEqual(named ? { kind: 'person', userId: WRITER } : null);
  });

  it('nobody is named when the writer is gone', () => {
    expect(visibleAuthor({ authorUserId: null, authorPageId: null }, { isPage: true, userId: SOMEONE })).toBeNull();
  });
});
