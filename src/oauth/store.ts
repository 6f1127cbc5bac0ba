import type { Db } from '../db/index.ts';
import { defineTable } from '../db/rows.ts';

export interface ApiClientRecord {
  id: string;
  clientId: string;
  clientName: string;
  /** bcrypt hash; never leaves the store layer except to be verified */
  clientSecret: string;
  secretVersion: number;
  scope: string;
  organizationId: string;
  createdAt: Date;
  updatedAt: Date;
}

export const apiClients = defineTable<ApiClientRecord>('api_clients', {
  id: 'id',
  client_id: 'string',
  client_name: 'string',
  client_secret: 'string',
  secret_version: 'int',
  scope: 'string',
  organization_id: 'string',
  created_at: 'date',
  updated_at: 'date',
});

export async function findClientByClientId(db: Db, clientId: string): Promise<ApiClientRecord | null> {
  const row = await db(apiClients.table).where('client_id', clientId).first();
  return row ? apiClients.fromRow(row) : null;
}
