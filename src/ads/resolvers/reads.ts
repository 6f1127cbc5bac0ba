import type { TypeReads } from '../../graphql/projection.ts';
import { statusFilter } from '../../graphql/edges.ts';
import { adSetEdges, campaignEdges } from '../edges.ts';
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

/** The status filters of a connection's arguments, as its resolver reads them (ad-set.ts, objects.ts). */
const effectiveStatusOf = (args: Record<string, unknown>) => statusFilter({ effectiveStatus: args.effectiveStatus as readonly string[] | null | undefined });
const statusesOf = (args: Record<string, unknown>) =>
  statusFilter({ effectiveStatus: args.effectiveStatus as readonly string[] | null | undefined, status: args.status as readonly string[] | null | undefined });

// Connections whose first page is read with the list of their parents (src/db/child-pages.ts). Set here, after
// the three: each type's reads name another's.
adSetReads.children = { ads: { edge: adSetEdges.ads as never, reads: adReads, filter: effectiveStatusOf } };
campaignReads.children = {
  adSets: { edge: campaignEdges.adsets as never, reads: adSetReads, filter: statusesOf },
  ads: { edge: campaignEdges.ads as never, reads: adReads, filter: effectiveStatusOf },
};
