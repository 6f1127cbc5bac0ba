import type { Db } from './index.ts';
import { migrationSource } from '../../db/migrations/index.ts';

export async function migrateToLatest(db: Db): Promise<string[]> {
  const [, applied] = (await db.migrate.latest({ migrationSource })) as [number, string[]];
  return applied;
}

/** Names of migrations not yet applied; empty when the schema is current. */
export async function pendingMigrations(db: Db): Promise<string[]> {
  const [, pending] = (await db.migrate.list({ migrationSource })) as [unknown[], Array<{ file?: string } | string>];
  return pending.map((entry) => (typeof entry === 'string' ? entry : entry.file ?? String(entry)));
}
