import type { TypeReads } from '../../graphql/projection.ts';
import { ads, adSets, campaigns } from '../store.ts';

/**
 * What the resolvers of Campaign, AdSet and Ad read of their records beyond the ids (src/graphql/projection.ts):
 * their connections read only the columns their items' selected fields need. A resolver not listed here reads
 * the whole row; list one only when every column it reads is named (the edges here read the id and the
 * organization, which every read keeps). `references`: fields that take the object read with the list when the
 * list joined it (src/db/references.ts).
 */
const EDGES_OF_THE_ID = ['ads', 'adSets', 'copies', 'asyncRequests', 'activities'] as const;
const edgesOfTheId = Object.fromEntries(EDGES_OF_THE_ID.map((field) => [field, []]));

export const campaignReads: TypeReads = {
  type: 'Campaign',
  mapping: campaigns as never,
  resolved: { ...edgesOfTheId, account: [] },
};

export const adSetReads: TypeReads = {
  type: 'AdSet',
  references: { campaign: { column: 'campaign_id', reads: campaignReads } },
  mapping: adSets as never,
  resolved: {
    ...edgesOfTheId,
    configuredStatus: ['status'],
    account: [],
    campaign: [],
    sourceAdSetId: [],
    billingEvent: ['billing_event'],
    bidStrategy: ['bid_strategy'],
  },
};

export const adReads: TypeReads = {
  type: 'Ad',
  references: { campaign: { column: 'campaign_id', reads: campaignReads }, adSet: { column: 'adset_id', reads: adSetReads } },
  mapping: ads as never,
  resolved: { configuredStatus: ['status'], account: [], campaign: [], adSet: [] },
};
