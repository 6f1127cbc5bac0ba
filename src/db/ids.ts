import type { Knex } from 'knex';

export type GraphObjectType =
  | 'ad_account'
  | 'campaign'
  | 'ad_set'
  | 'ad'
  | 'custom_audience'
  | 'custom_conversion'
  | 'async_request'
  | 'async_request_set'
  | 'insights_report_run'
  | 'ad_study'
  | 'ad_creative'
  | 'ad_rule'
  | 'ad_rule_run'
  | 'ad_study_cell'
  | 'page'
  | 'group'
  | 'post'
  | 'comment'
  | 'api_client';

/**
 * Allocate `count` numeric ids of one type. Every Graph-style object takes its id from this one sequence,
 * so an id alone tells which object it is (GET /v24.0/<id>, node(id:)). Call inside the transaction that
 * inserts the objects, so a failed write leaves no ids behind.
 */
export async function allocateIds(trx: Knex, type: GraphObjectType, count = 1): Promise<string[]> {
  const ids: string[] = [];
  // SQLite compiles a multi-row insert into a compound SELECT, which it caps at 500 terms.
  for (let done = 0; done < count; done += ID_BATCH) {
    const rows: Array<{ id: string | number }> = await trx('graph_objects')
      .insert(Array.from({ length: Math.min(ID_BATCH, count - done) }, () => ({ type })))
      .returning('id');
    ids.push(...rows.map((row) => String(row.id)));
  }
  return ids.sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : 1));
}

const ID_BATCH = 500;

export const isNumericId = (value: string) => /^[1-9][0-9]{0,18}$/.test(value);
export const isUuid = (value: string) => /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i.test(value);
