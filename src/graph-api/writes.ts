import type { RequestContext } from '../context/index.ts';
import type { AdAccountRecord, AdRecord, CampaignRecord } from '../ads/store.ts';
import type { PageRecord } from '../comments/store.ts';
import * as adWrites from '../ads/writes.ts';
import { createFeedPost } from '../comments/writes.ts';
import type { NodeName } from './nodes.ts';

type Params = Record<string, unknown>;

/** The writes each Graph node type accepts: update (POST /<id>), delete (DELETE /<id>), create (POST /<id>/<edge>). */
export interface NodeWrites {
  update?(ctx: RequestContext, record: any, params: Params): Promise<unknown>;
  remove?(ctx: RequestContext, record: any): Promise<unknown>;
  create?: Record<string, (ctx: RequestContext, parent: any, params: Params) => Promise<Record<string, unknown>>>;
}

// Creating answers the new object's id, as the platform does.
const created = async (record: Promise<{ id: string }>) => ({ id: (await record).id });

export const WRITES: Partial<Record<NodeName, NodeWrites>> = {
  AdAccount: {
    create: {
      campaigns: (ctx, account: AdAccountRecord, params) => created(adWrites.createCampaign(ctx, account.id, params)),
      ads: (ctx, account: AdAccountRecord, params) => created(adWrites.createAd(ctx, account.id, params)),
      customaudiences: (ctx, account: AdAccountRecord, params) => created(adWrites.createCustomAudience(ctx, account.id, params)),
      customconversions: (ctx, account: AdAccountRecord, params) => created(adWrites.createCustomConversion(ctx, account.id, params)),
    },
  },
  Campaign: {
    update: (ctx, campaign: CampaignRecord, params) => adWrites.updateCampaign(ctx, campaign.id, params),
    remove: (ctx, campaign: CampaignRecord) => adWrites.deleteCampaign(ctx, campaign.id),
  },
  Ad: {
    update: (ctx, ad: AdRecord, params) => adWrites.updateAd(ctx, ad.id, params),
    remove: (ctx, ad: AdRecord) => adWrites.deleteAd(ctx, ad.id),
  },
  Page: {
    create: {
      feed: (ctx, page: PageRecord, params) => created(createFeedPost(ctx, page.id, params)),
    },
  },
};
