import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import bizSdk from 'facebook-nodejs-business-sdk';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { worldBuilder } from '../helpers/world.ts';
import { pointSdkAt } from '../helpers/sdk.ts';
import type { AdAccountRecord, CampaignRecord } from '../../src/ads/store.ts';

/**
 * The reference client, facebook-nodejs-business-sdk 24.0.1 (DECISIONS section 4), against a test server.
 *
 * What it takes to point it here: the base URL is the static getter FacebookAdsApi.GRAPH (also axios's
 * baseURL in Http.requestPromise), redefined below; the version is the static getter VERSION ('v24.0').
 * The SDK sends the token as access_token in the query string of every call, GETs with a JSON `{}` body,
 * POSTs as a JSON body (lists and objects as themselves; the parent's own `id` rides along: createEdge merges
 * the parent's exportData() into the parameters), and its Cursor pages by fetching paging.next verbatim (it
 * adds no token and ignores paging.cursors), so the next links must carry everything, access_token included.
 * init() is given crash_log=false: the crash reporter would add a process-wide uncaughtException handler.
 */
const { AdAccount, Campaign } = bizSdk;

interface SdkRequestError extends Error {
  status: number;
  /** The `error` object of the Graph error envelope. */
  response: Record<string, unknown>;
}

describe('facebook-nodejs-business-sdk 24.0.1', () => {
  let server: TestServer;
  let token: string;
  let account: AdAccountRecord;
  let pagingAccount: AdAccountRecord;
  let campaigns: CampaignRecord[];
  let restoreSdk: (() => void) | undefined;

  beforeAll(async () => {
    server = await startTestServer();
    const world = worldBuilder(server.deps);
    const org = await world.organization();
    token = (await world.user({ organizationId: org.id, role: 'advertiser' })).token;
    account = await world.adAccount(org.id);
    pagingAccount = await world.adAccount(org.id);
    campaigns = await world.campaigns(pagingAccount, 7);
    restoreSdk = pointSdkAt(server.url, token);
  });
  afterAll(async () => {
    restoreSdk?.();
    await server?.close();
  });

  it('creates a campaign and reads it back with fields', async () => {
    const created = await new AdAccount(`act_${account.id}`).createCampaign([], {
      name: 'SDK campaign',
      objective: 'OUTCOME_TRAFFIC',
      status: 'PAUSED',
      special_ad_categories: [],
    });
    expect(created.id).toMatch(/^\d+$/);

    const campaign = await new Campaign(created.id).get(['name', 'objective', 'status']);
    expect(campaign._data).toEqual({ id: created.id, name: 'SDK campaign', objective: 'OUTCOME_TRAFFIC', status: 'PAUSED' });

    const cursor = await new AdAccount(`act_${account.id}`).getCampaigns(['name']);
    expect(cursor.map((c) => c.id)).toEqual([created.id]);
  });

  it("pages an account's campaigns with Cursor hasNext()/next(), each campaign exactly once", async () => {
    const cursor = await new AdAccount(`act_${pagingAccount.id}`).getCampaigns(['name'], { limit: 2 });
    const seen: string[] = [];
    const names: string[] = [];
    let pages = 0;
    for (;;) {
      pages++;
      expect(cursor.length).toBeLessThanOrEqual(2);
      for (const campaign of cursor) {
        seen.push(campaign.id);
        names.push(campaign.name as string);
      }
      if (!cursor.hasNext()) break;
      await cursor.next();
    }
    expect(pages).toBe(4);
    expect(seen).toEqual(campaigns.map((c) => c.id));
    expect(new Set(seen).size).toBe(7);
    expect(names).toEqual(campaigns.map((c) => c.name));

    // And back again with hasPrevious()/previous().
    const back: string[] = cursor.map((c) => c.id);
    while (cursor.hasPrevious()) {
      await cursor.previous();
      back.unshift(...cursor.map((c) => c.id));
    }
    expect(back).toEqual(campaigns.map((c) => c.id));
  });

  it('hands the edge summary to the Cursor', async () => {
    const cursor = await new AdAccount(`act_${pagingAccount.id}`).getCampaigns(['name'], { limit: 3, summary: 'total_count' });
    expect(cursor).toHaveLength(3);
    expect(cursor.summary).toEqual({ total_count: 7 });
  });

  it('reads an existing campaign with fields', async () => {
    const campaign = await new Campaign(campaigns[0]!.id).get(['name', 'objective', 'status']);
    expect(campaign._data).toEqual({ id: campaigns[0]!.id, name: 'Campaign 1', objective: 'OUTCOME_TRAFFIC', status: 'ACTIVE' });
  });

  it('turns the Graph error envelope into a FacebookRequestError', async () => {
    const error = await new Campaign('999999999').get(['name']).then(
      () => {
        throw new Error('expected the read to fail');
      },
      (reason: unknown) => reason,
    );
    // The bundle does not export FacebookRequestError; it is known by its name.
    expect((error as Error).name).toBe('FacebookRequestError');
    const { status, response } = error as SdkRequestError;
    expect(status).toBe(400);
    expect(response).toMatchObject({ code: 100, error_subcode: 33, type: 'GraphMethodException', fbtrace_id: expect.any(String) });
  });
});
