import type { Knex } from 'knex';
import { timeNow, type RequestContext } from '../context/index.ts';
import { lockRow } from '../db/locks.ts';
import { findReadable, readable } from '../authz/guards.ts';
import type { Edge } from '../authz/edges.ts';
import { countRows, fetchSlice, type Filters } from '../db/batch.ts';
import { insertObjects } from '../db/objects.ts';
import { defineTable } from '../db/rows.ts';
import { dateTime, decodeJsonText, type Params } from '../graph-api/params.ts';
import { objectDelivery } from '../insights/delivery.ts';
import { countEvents, optimizationEventOf } from '../insights/rules/learning-stage.ts';
import { todayIn } from '../insights/rules/windows.ts';
import { checkStudy, compareCells, type CellComparison, type StudyCell, type StudyFacts } from './rules/studies.ts';
import { refuseFirst } from './rules/violations.ts';
import type { AdAccountRecord, AdSetRecord, CampaignRecord } from './store.ts';
import { accountForCreate } from './writes/common.ts';

/**
 * Ad studies (split tests, issue 21): an account's study over a time window, whose cells each take a share of the
 * audience and name ad sets or campaigns. Created through one service (/act_<id>/ad_studies and GraphQL's
 * createAdStudy), checked by rules/studies.ts (shares summing to 100, objects of the account, an ad set in one
 * study at a time), read as campaigns are (the policy's resource for studies), and compared from the statistics.
 */

export interface AdStudyRecord {
  id: string;
  organizationId: string;
  accountId: string;
  name: string;
  description: string | null;
  type: string;
  startTime: Date;
  endTime: Date;
  createdBy: string | null;
  createdTime: Date;
  updatedTime: Date;
}

export interface AdStudyCellRecord {
  id: string;
  organizationId: string;
  studyId: string;
  name: string;
  treatmentPercentage: number;
  createdTime: Date;
  updatedTime: Date;
}

export const adStudies = defineTable<AdStudyRecord>('ad_studies', {
  id: 'id',
  organization_id: 'string',
  account_id: 'id',
  name: 'string',
  description: 'string',
  type: 'string',
  start_time: 'date',
  end_time: 'date',
  created_by: 'string',
  created_time: 'date',
  updated_time: 'date',
});

export const adStudyCells = defineTable<AdStudyCellRecord>('ad_study_cells', {
  id: 'id',
  organization_id: 'string',
  study_id: 'id',
  name: 'string',
  treatment_percentage: 'int',
  created_time: 'date',
  updated_time: 'date',
});

/** Studies are authorized as campaigns are: they split campaigns' and ad sets' audiences. */
const STUDY_RESOURCE = 'campaign';

export const findAdStudy = (ctx: RequestContext, id: string) =>
  findReadable(ctx, STUDY_RESOURCE, id, async (key) => {
    const row = await ctx.db(adStudies.table).where({ id: key }).first();
    return row ? adStudies.fromRow(row) : null;
  });

/** A cell by its id, with what it names. */
export const findAdStudyCell = (ctx: RequestContext, id: string) =>
  findReadable(ctx, STUDY_RESOURCE, id, async (key) => {
    const row = await ctx.db(adStudyCells.table).where({ id: key }).first();
    return row ? ((await withObjects(ctx.db, [adStudyCells.fromRow(row)]))[0] ?? null) : null;
  });

/** A cell with what it names. */
export interface AdStudyCellView extends AdStudyCellRecord {
  adSetIds: string[];
  campaignIds: string[];
}

/** Cells with what each names: one statement for their objects, however many cells. */
async function withObjects(q: Knex, cells: readonly AdStudyCellRecord[]): Promise<AdStudyCellView[]> {
  const objectRows: Array<Record<string, unknown>> =
    cells.length === 0
      ? []
      : await q('ad_study_objects')
          .whereIn(
            'cell_id',
            cells.map((cell) => cell.id),
          )
          .orderBy('object_id');
  return cells.map((cell) => {
    const objects = objectRows.filter((o) => String(o.cell_id) === cell.id);
    return {
      ...cell,
      adSetIds: objects.filter((o) => o.object_type === 'ad_set').map((o) => String(o.object_id)),
      campaignIds: objects.filter((o) => o.object_type === 'campaign').map((o) => String(o.object_id)),
    };
  });
}

/** A study's cells, in the order they were given, with their objects. */
export async function cellsOf(q: Knex, studyId: string): Promise<AdStudyCellView[]> {
  const rows: Array<Record<string, unknown>> = await q(adStudyCells.table).where({ study_id: studyId }).orderBy('id');
  return withObjects(
    q,
    rows.map((row) => adStudyCells.fromRow(row)),
  );
}

/** What the rules need of the account: its live ad sets and campaigns, and the studies overlapping the window. */
async function studyFacts(q: Knex, now: Date, account: AdAccountRecord, start: Date | null, end: Date | null): Promise<StudyFacts> {
  // One after another: `q` is the write's transaction, whose one connection runs one statement at a time.
  const adSets = await q('ad_sets').where({ account_id: account.id }).whereNot({ status: 'DELETED' }).select('id', 'campaign_id');
  const campaigns = await q('campaigns').where({ account_id: account.id }).whereNot({ status: 'DELETED' }).select('id');
  const overlapping: StudyFacts['overlapping'][number][] = [];
  if (start && end) {
    const studies = (await q(adStudies.table).where({ account_id: account.id }).where('start_time', '<', end).where('end_time', '>', start)).map((row) =>
      adStudies.fromRow(row),
    );
    // Every overlapping study's objects in one statement, however many studies overlap.
    const objects: Array<Record<string, unknown>> =
      studies.length === 0
        ? []
        : await q('ad_study_objects').whereIn(
            'study_id',
            studies.map((study) => study.id),
          );
    for (const study of studies) {
      const own = objects.filter((o) => String(o.study_id) === study.id);
      const idsOf = (type: string) => new Set(own.filter((o) => o.object_type === type).map((o) => String(o.object_id)));
      overlapping.push({ id: study.id, name: study.name, adSetIds: idsOf('ad_set'), campaignIds: idsOf('campaign') });
    }
  }
  return {
    now,
    adSets: new Map(adSets.map((row: Record<string, unknown>) => [String(row.id), String(row.campaign_id)])),
    campaigns: new Set(campaigns.map((row: Record<string, unknown>) => String(row.id))),
    overlapping,
  };
}

const optionalTime = (value: unknown, name: string) => (value === undefined || value === null || value === '' ? null : dateTime(value, name));

/**
 * POST /act_<id>/ad_studies (GraphQL createAdStudy): a split test. Checked whole (every violation, the first
 * refused), then the study, its cells and their objects in one transaction, which holds the account's row so two
 * studies cannot claim the same ad set at once.
 */
export async function createAdStudy(ctx: RequestContext, accountId: string, params: Params): Promise<AdStudyRecord> {
  const account = await accountForCreate(ctx, accountId, STUDY_RESOURCE, 'ad studies');
  const input = {
    name: params.name,
    description: params.description,
    type: params.type,
    startTime: optionalTime(params.start_time, 'start_time'),
    endTime: optionalTime(params.end_time, 'end_time'),
    cells: decodeJsonText(params.cells, 'cells'),
  };
  return ctx.db.transaction(async (trx) => {
    await lockRow(ctx.db, trx, 'ad_accounts', account.id);
    const { cells, violations } = checkStudy(input, await studyFacts(trx, timeNow(ctx), account, input.startTime, input.endTime));
    refuseFirst(violations);
    const now = timeNow(ctx);
    const [study] = await insertObjects<AdStudyRecord>(trx, 'ad_study', adStudies, [
      {
        organizationId: account.organizationId,
        accountId: account.id,
        name: String(input.name).trim(),
        description: typeof input.description === 'string' ? input.description : null,
        type: 'SPLIT_TEST',
        startTime: input.startTime!,
        endTime: input.endTime!,
        createdBy: ctx.viewer.kind === 'user' ? ctx.viewer.userId : ctx.viewer.kind === 'client' ? ctx.viewer.apiClientId : null,
        createdTime: now,
        updatedTime: now,
      },
    ]);
    const cellRecords = await insertObjects<AdStudyCellRecord>(
      trx,
      'ad_study_cell',
      adStudyCells,
      cells.map((cell: StudyCell) => ({
        organizationId: account.organizationId,
        studyId: study!.id,
        name: cell.name,
        treatmentPercentage: cell.treatmentPercentage,
      })),
    );
    const objects = cells.flatMap((cell, i) => [
      ...cell.adSetIds.map((id) => ({ study_id: study!.id, cell_id: cellRecords[i]!.id, object_type: 'ad_set', object_id: id })),
      ...cell.campaignIds.map((id) => ({ study_id: study!.id, cell_id: cellRecords[i]!.id, object_type: 'campaign', object_id: id })),
    ]);
    if (objects.length > 0) await trx('ad_study_objects').insert(objects);
    return study!;
  });
}

/** The studies an ad set is in (itself, or through its campaign), or a campaign's, or an account's: newest first. */
function studiesEdge<P extends { id: string; organizationId: string }>(
  type: 'ad_set' | 'campaign' | 'ad_account',
  condition: (parent: P) => Filters,
): Edge<P, AdStudyRecord> {
  return {
    list: (ctx, parent, page) =>
      readable(ctx, type, parent) && readable(ctx, STUDY_RESOURCE, parent)
        ? fetchSlice(ctx.db, adStudies, { ...page, descending: true }, condition(parent))
        : Promise.resolve({ items: [], hasNextPage: false, hasPreviousPage: false }),
    count: (ctx, parent) =>
      readable(ctx, type, parent) && readable(ctx, STUDY_RESOURCE, parent) ? countRows(ctx.db, adStudies.table, condition(parent)) : Promise.resolve(0),
  };
}

const objectsIn = (pairs: Array<[string, string]>) => ({
  sql: `ad_studies.id in (select study_id from ad_study_objects where ${pairs.map(() => '(object_type = ? and object_id = ?)').join(' or ')})`,
  bindings: pairs.flat(),
});

export const studyEdges = {
  ofAdSet: studiesEdge<AdSetRecord>('ad_set', (adSet) => ({
    objects: objectsIn([
      ['ad_set', adSet.id],
      ['campaign', adSet.campaignId],
    ]),
  })),
  ofCampaign: studiesEdge<CampaignRecord>('campaign', (campaign) => ({ objects: objectsIn([['campaign', campaign.id]]) })),
  ofAccount: studiesEdge<AdAccountRecord>('ad_account', (account) => ({ account_id: account.id })),
  /** A study's cells, in order, with what each names. */
  cells: {
    list: async (ctx, study, page) => {
      if (!readable(ctx, STUDY_RESOURCE, study)) return { items: [], hasNextPage: false, hasPreviousPage: false };
      const slice = await fetchSlice(ctx.db, adStudyCells, page, { study_id: study.id });
      return { ...slice, items: await withObjects(ctx.db, slice.items) };
    },
    count: (ctx, study) => (readable(ctx, STUDY_RESOURCE, study) ? countRows(ctx.db, adStudyCells.table, { study_id: study.id }) : Promise.resolve(0)),
  } satisfies Edge<AdStudyRecord, AdStudyCellView>,
};

/** A study's results so far: each cell's delivery over the study's days, compared with the best cell. */
export interface StudyResults {
  since: string;
  until: string;
  bestCell: string | null;
  cells: CellComparison[];
}

/**
 * Each cell's impressions, spend and results over the study's days (from its start to its end or today, in the
 * account's time zone): an ad set's results are its own optimization goal's events, a campaign cell's those of its
 * ad sets. Compared by rules/studies.ts (a two-proportion z-test of results per impression against the best cell).
 */
export async function studyResults(ctx: RequestContext, study: AdStudyRecord): Promise<StudyResults> {
  const account = await ctx.loaders.ads.adAccountById.load(study.accountId);
  const timeZone = account?.timezoneName ?? 'Etc/UTC';
  const today = todayIn(timeZone, timeNow(ctx));
  const end = todayIn(timeZone, study.endTime);
  const days = { since: todayIn(timeZone, study.startTime), until: end < today ? end : today };
  const cells = await cellsOf(ctx.db, study.id);
  const delivered = await Promise.all(
    cells.map(async (cell) => {
      const adSetIds = [
        ...cell.adSetIds,
        ...(cell.campaignIds.length > 0
          ? (await ctx.db('ad_sets').whereIn('campaign_id', cell.campaignIds).select('id')).map((row: Record<string, unknown>) => String(row.id))
          : []),
      ];
      const adSets = (await Promise.all(adSetIds.map((id) => ctx.loaders.ads.adSetById.load(id)))).filter((a): a is AdSetRecord => a !== null);
      // Loaded together: the delivery loader reads every ad set's days in one statement.
      const totals = await Promise.all(adSets.map((adSet) => objectDelivery(ctx, 'adset', adSet.id, days)));
      let impressions = 0;
      let spend = 0;
      let results = 0;
      adSets.forEach((adSet, i) => {
        const delivered = totals[i]!;
        impressions += delivered.impressions;
        spend += delivered.spend;
        const event = optimizationEventOf(adSet.optimizationGoal, adSet.promotedObject);
        if (event) results += countEvents(event, [{ impressions: delivered.impressions, actions: delivered.actions }]);
      });
      return { cellName: cell.name, impressions, spend, results };
    }),
  );
  const compared = compareCells(delivered);
  return { since: days.since, until: days.until, bestCell: compared.bestCell, cells: compared.cells };
}
