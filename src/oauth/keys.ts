import { calculateJwkThumbprint, exportJWK, exportPKCS8, generateKeyPair, importPKCS8, importJWK, type JWK, type CryptoKey } from 'jose';
import type { Config } from '../config/index.ts';
import type { Db } from '../db/index.ts';
import { defineTable } from '../db/rows.ts';

interface SigningKeyRecord {
  kid: string;
  algorithm: string;
  publicJwk: JWK;
  privateKeyPem: string;
  active: boolean;
  createdAt: Date;
  retiredAt: Date | null;
  publishUntil: Date | null;
}

const signingKeys = defineTable<SigningKeyRecord>('signing_keys', {
  kid: 'string',
  algorithm: 'string',
  public_jwk: 'json',
  private_key_pem: 'string',
  active: 'bool',
  created_at: 'date',
  retired_at: 'date',
  publish_until: 'date',
});

export interface ActiveKey {
  kid: string;
  privateKey: CryptoKey;
}

async function newKeyRecord(now: Date): Promise<SigningKeyRecord> {
  const { publicKey, privateKey } = await generateKeyPair('RS256', { modulusLength: 2048, extractable: true });
  const jwk = await exportJWK(publicKey);
  const kid = await calculateJwkThumbprint(jwk);
  return {
    kid,
    algorithm: 'RS256',
    publicJwk: { ...jwk, kid, alg: 'RS256', use: 'sig' },
    privateKeyPem: await exportPKCS8(privateKey),
    active: true,
    createdAt: now,
    retiredAt: null,
    publishUntil: null,
  };
}

const isUniqueViolation = (error: unknown) => /unique|duplicate/i.test((error as Error)?.message ?? '');

/** Creates the first signing key unless one is active; safe when several instances start at once. */
export async function ensureActiveKey(db: Db): Promise<void> {
  if (await db(signingKeys.table).where('active', true).first()) return;
  try {
    await db(signingKeys.table).insert(signingKeys.toRow(await newKeyRecord(new Date())));
  } catch (error) {
    if (!isUniqueViolation(error)) throw error; // another instance won the race: its key is the one
  }
}

/**
 * A new key becomes active; the old one stays published until every token it signed has expired
 * (token lifetime plus clock tolerance).
 */
export async function rotateKeys(db: Db, config: Config): Promise<{ kid: string; retired: string[] }> {
  const now = new Date();
  const fresh = await newKeyRecord(now);
  const publishUntil = new Date(now.getTime() + (config.tokenTtlSeconds + config.tokenClockToleranceSeconds) * 1000);
  return db.transaction(async (trx) => {
    // A no-op write first locks the active rows (PostgreSQL), so the read below cannot go stale when two
    // rotations run at once. SQLite's transactions hold the write lock from their start (src/db/sqlite-client.ts).
    await trx(signingKeys.table).where('active', true).update({ active: true });
    const retired = (await trx(signingKeys.table).where('active', true).select('kid')).map((row: { kid: string }) => row.kid);
    await trx(signingKeys.table).where('active', true).update({ active: false, retired_at: now, publish_until: publishUntil });
    await trx(signingKeys.table).insert(signingKeys.toRow(fresh));
    return { kid: fresh.kid, retired };
  });
}

// Keys change rarely (rotation); a running server rereads them this often, and at once for an unknown kid.
const REFRESH_MS = 10_000;
const MISS_REFRESH_MS = 2_000;

/**
 * The signing keys as one instance sees them, read from the database (shared by every instance) and cached
 * briefly: the active key signs, every published key verifies.
 */
export class KeyRing {
  private loadedAt = 0;
  private loading?: Promise<void>;
  private activeKey?: ActiveKey;
  private published = new Map<string, { jwk: JWK; key?: CryptoKey }>();

  constructor(private readonly db: Db) {}

  private async load(): Promise<void> {
    await ensureActiveKey(this.db);
    const now = new Date();
    const rows = (await this.db(signingKeys.table).where('active', true).orWhere('publish_until', '>', now)).map(signingKeys.fromRow);
    const active = rows.find((row) => row.active);
    if (!active) throw new Error('no active signing key');
    if (this.activeKey?.kid !== active.kid) this.activeKey = { kid: active.kid, privateKey: await importPKCS8(active.privateKeyPem, 'RS256') };
    const previous = this.published;
    this.published = new Map(rows.map((row) => [row.kid, previous.get(row.kid) ?? { jwk: row.publicJwk }]));
    this.loadedAt = Date.now();
  }

  private refresh(maxAgeMs: number): Promise<void> {
    if (Date.now() - this.loadedAt < maxAgeMs) return Promise.resolve();
    this.loading ??= this.load().finally(() => (this.loading = undefined));
    return this.loading;
  }

  /** Forget what was read, so the next use rereads the keys (after a rotation in this process). */
  invalidate(): void {
    this.loadedAt = 0;
  }

  async active(): Promise<ActiveKey> {
    await this.refresh(REFRESH_MS);
    return this.activeKey!;
  }

  /** The public keys to publish (JWKS). */
  async publicJwks(): Promise<JWK[]> {
    await this.refresh(REFRESH_MS);
    return [...this.published.values()].map((entry) => entry.jwk);
  }

  /** The key that verifies tokens with this kid, or undefined when no published key has it. */
  async verificationKey(kid: string | undefined): Promise<CryptoKey | undefined> {
    if (!kid) return undefined;
    await this.refresh(this.published.has(kid) ? REFRESH_MS : MISS_REFRESH_MS);
    const entry = this.published.get(kid);
    if (!entry) return undefined;
    entry.key ??= (await importJWK(entry.jwk, 'RS256')) as CryptoKey;
    return entry.key;
  }
}
