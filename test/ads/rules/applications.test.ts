import { describe, expect, it } from 'vitest';
import { applicationViolations, NO_SUCH_APPLICATION, type ApplicationFacts } from '../../../src/ads/rules/applications.ts';

const GAME: ApplicationFacts = {
  id: '5550002',
  name: 'My game',
  storeUrls: ['https://play.google.com/store/apps/details?id=g', 'https://apps.apple.com/app/id1'],
};
const known = new Map([[GAME.id, GAME]]);

describe('applicationViolations', () => {
  it('has nothing to say without an application', () => {
    expect(applicationViolations(null, known)).toEqual([]);
    expect(applicationViolations({ page_id: '1' }, known)).toEqual([]);
  });

  it('takes a known application, by string or number, with one of its store URLs or none', () => {
    expect(applicationViolations({ application_id: '5550002', object_store_url: GAME.storeUrls[1] }, known)).toEqual([]);
    expect(applicationViolations({ application_id: 5550002 }, known)).toEqual([]);
  });

  it('refuses an unknown application with error 900, naming promoted_object.application_id', () => {
    expect(applicationViolations({ application_id: '42' }, known)).toEqual([
      expect.objectContaining({
        field: 'promoted_object.application_id',
        code: NO_SUCH_APPLICATION,
        message: expect.stringMatching(/^No such application exists: 42/),
      }),
    ]);
    expect(applicationViolations({ application_id: '5550002' }, new Map())[0]!.code).toBe(900);
  });

  it("refuses a store URL that is not the application's, with error 100", () => {
    expect(applicationViolations({ application_id: '5550002', object_store_url: 'https://play.google.com/store/apps/details?id=other' }, known)).toEqual([
      expect.objectContaining({ field: 'promoted_object.object_store_url', code: 100 }),
    ]);
  });
});
