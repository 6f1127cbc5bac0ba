import { createHash, randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import type { Readable } from 'node:stream';
import type { Knex } from 'knex';
import type { AppDeps } from '../../context/index.ts';
import { DomainError } from '../../errors/index.ts';
import { MINOR_UNIT_DIGITS, type CurrencyCode } from '../../ads/rules/currencies.ts';
import { addFacts } from '../facts-store.ts';
import { FactsAggregator, type AdParents } from './aggregate.ts';
import { AccountCalendar } from './calendar.ts';
import { readLine, wholeMoneyProblem, type ImportFormat, type ReadLine } from './lines.ts';

/**
 * The import of delivery data (`adgraph stats import`, and tests): a file of NDJSON lines, streamed, checked line
 * by line, aggregated in memory into daily facts and added to insight_facts in batches, all in ONE transaction
 * with the file's row in insight_imports. So a file lands whole or not at all (a killed import leaves nothing and
 * is simply run again), any bad line means nothing lands (every bad line is still read and reported, up to
 * MAX_PROBLEMS), and the same bytes imported twice change nothing (insight_imports.sha256 is unique).
 */

/** Longest line read, in bytes (a daily row with a dense sketch is about 22 KB). */
export const MAX_LINE_BYTES = 64 * 1024;
/** Bad lines listed; past this many only counted. */
export const MAX_PROBLEMS = 100;
/** Lines read before their ads are looked up together. */
const LOOKUP_BATCH = 4096;
/** Facts held in memory before they are added to the database (inside the one transaction). */
const FLUSH_FACTS = 20_000;
const FLUSH_PEOPLE = 1_000_000;

export interface ImportOptions {
  /** The file name, or '-' for standard input (recorded in insight_imports). */
  name: string;
  format: ImportFormat;
  onProgress?: (progress: ImportProgress) => void;
}

export interface ImportProgress {
  bytes: number;
  lines: number;
  records: number;
}

export interface ImportTotals {
  /** 'already_imported': the same bytes were imported before; nothing changed. */
  status: 'imported' | 'already_imported';
  sha256: string;
  source: string;
  format: ImportFormat;
  bytes: number;
  lines: number;
  /** Events or daily rows read (blank lines are not records). */
  records: number;
  /** Fact rows written (ad level and rollups, every breakdown family; a row is counted at each batch it is added in). */
  factsWritten: number;
  ads: number;
  accounts: number;
  impressions: number;
  clicks: number;
  /** Minor units, by account currency. */
  spend: Record<string, number>;
  firstDay: string | null;
  lastDay: string | null;
}

export interface LineProblemReport {
  line: number;
  reason: string;
}

/** A file with bad lines: nothing of it was imported. */
export class ImportRejected extends DomainError {
  constructor(
    readonly problems: LineProblemReport[],
    readonly problemCount: number,
    readonly source: string,
  ) {
    super('BAD_USER_INPUT', `${source}: ${problemCount} bad line${problemCount === 1 ? '' : 's'}; nothing was imported`, {
      validations: problems.map((p) => ({ field: `line ${p.line}`, detail: p.reason })),
    });
  }
}

/** The same bytes were imported before: thrown inside the transaction to roll it back. */
class AlreadyImported extends Error {}

interface AdInfo extends AdParents {
  currency: string;
  calendar: AccountCalendar;
}

/** Ads by id, looked up in batches as lines name them; an account's calendar is shared by its ads. */
class AdDirectory {
  private readonly ads = new Map<string, AdInfo | null>();
  private readonly calendars = new Map<string, AccountCalendar>();

  constructor(
    private readonly trx: Knex.Transaction,
    private readonly now: number,
  ) {}

  get(adId: string): AdInfo | null | undefined {
    return this.ads.get(adId);
  }

  known(): AdInfo[] {
    return [...this.ads.values()].filter((ad): ad is AdInfo => ad !== null);
  }

  async load(adIds: Iterable<string>): Promise<void> {
    const missing = [...new Set(adIds)].filter((id) => !this.ads.has(id));
    for (let start = 0; start < missing.length; start += 500) {
      const ids = missing.slice(start, start + 500);
      const rows: Array<Record<string, unknown>> = await this.trx('ads')
        .join('ad_accounts', 'ad_accounts.id', 'ads.account_id')
        .whereIn('ads.id', ids)
        .select('ads.id', 'ads.adset_id', 'ads.campaign_id', 'ads.account_id', 'ad_accounts.timezone_name', 'ad_accounts.currency');
      for (const id of ids) this.ads.set(id, null);
      for (const row of rows) {
        const accountId = String(row.account_id);
        let calendar = this.calendars.get(accountId);
        if (!calendar) {
          calendar = new AccountCalendar(row.timezone_name as string, this.now);
          this.calendars.set(accountId, calendar);
        }
        this.ads.set(String(row.id), {
          adsetId: String(row.adset_id),
          campaignId: String(row.campaign_id),
          accountId,
          currency: row.currency as string,
          calendar,
        });
      }
    }
  }
}

type Line = string | { tooLong: number };

/**
 * Splits a byte stream into lines, a chunk's lines at a time, hashing every byte. Lines longer than MAX_LINE_BYTES
 * are not kept whole: they are reported as too long and skipped up to their end.
 */
async function* linesOf(source: Readable, hash: ReturnType<typeof createHash>, counted: { bytes: number }): AsyncGenerator<Line[]> {
  let carry: Buffer[] = [];
  let carryBytes = 0;
  let skipping = false;
  for await (const chunk of source as AsyncIterable<Buffer | string>) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    hash.update(bytes);
    counted.bytes += bytes.length;
    const lines: Line[] = [];
    let start = 0;
    for (;;) {
      const end = bytes.indexOf(10, start);
      if (end === -1) break;
      if (skipping) {
        skipping = false;
      } else if (carryBytes + end - start > MAX_LINE_BYTES) {
        lines.push({ tooLong: carryBytes + end - start });
      } else if (carryBytes > 0) {
        carry.push(bytes.subarray(start, end));
        lines.push(Buffer.concat(carry).toString('utf8'));
      } else {
        lines.push(bytes.toString('utf8', start, end));
      }
      carry = [];
      carryBytes = 0;
      start = end + 1;
    }
    if (start < bytes.length && !skipping) {
      carry.push(bytes.subarray(start));
      carryBytes += bytes.length - start;
      if (carryBytes > MAX_LINE_BYTES) {
        lines.push({ tooLong: carryBytes });
        skipping = true;
        carry = [];
        carryBytes = 0;
      }
    }
    yield lines;
  }
  if (!skipping && carryBytes > 0) yield [Buffer.concat(carry).toString('utf8')];
}

/** The work of one import, inside its transaction. */
class ImportRun {
  readonly aggregator = new FactsAggregator();
  readonly problems: LineProblemReport[] = [];
  problemCount = 0;
  lines = 0;
  records = 0;
  factsWritten = 0;
  impressions = 0;
  clicks = 0;
  readonly spend: Record<string, number> = {};
  firstDay: string | null = null;
  lastDay: string | null = null;
  /**
   * Lines read whose ads are not looked up yet, and every line after them (lines are placed in order): their
   * numbers and what they held, side by side. A line of a known ad, with none waiting, is placed at once.
   */
  private pendingLines: number[] = [];
  private pendingReads: ReadLine[] = [];

  constructor(
    private readonly trx: Knex.Transaction,
    readonly ads: AdDirectory,
    private readonly format: ImportFormat,
  ) {}

  problem(line: number, reason: string): void {
    this.problemCount++;
    if (this.problems.length < MAX_PROBLEMS) this.problems.push({ line, reason });
  }

  async take(lines: Line[]): Promise<void> {
    for (const text of lines) {
      const line = ++this.lines;
      let read: ReadLine;
      if (typeof text !== 'string') read = { problem: `longer than ${MAX_LINE_BYTES} bytes (${text.tooLong} bytes or more)` };
      else if (text.charCodeAt(0) > 32 || text.trim() !== '') {
        this.records++;
        read = readLine(text, this.format);
      } else continue;
      if (this.pendingLines.length === 0) {
        // Placed at once when its ad is looked up already (or it has none to look up: a bad line).
        const ad = this.adOf(read);
        if (ad !== undefined) {
          this.place(line, read, ad);
          continue;
        }
      }
      this.pendingLines.push(line);
      this.pendingReads.push(read);
    }
    if (this.pendingLines.length >= LOOKUP_BATCH) await this.settle();
    else await this.flushWhenFull();
  }

  /** Looks up the ads of the lines waiting and places them, in line order. */
  async settle(): Promise<void> {
    const lines = this.pendingLines;
    const reads = this.pendingReads;
    this.pendingLines = [];
    this.pendingReads = [];
    const unknown = new Set<string>();
    for (const read of reads) if (!('problem' in read) && this.ads.get(read.adId) === undefined) unknown.add(read.adId);
    if (unknown.size > 0) await this.ads.load(unknown);
    for (let i = 0; i < reads.length; i++) this.place(lines[i]!, reads[i]!, this.adOf(reads[i]!));
    await this.flushWhenFull();
  }

  /** A line's ad: undefined while not looked up yet, null when there is none (a bad line, or no such ad). */
  private adOf(read: ReadLine): AdInfo | null | undefined {
    return 'problem' in read ? null : this.ads.get(read.adId);
  }

  /** Reports a line or adds its cell (its ad looked up already). */
  private place(line: number, read: ReadLine, ad: AdInfo | null | undefined): void {
    if ('problem' in read) {
      this.problem(line, read.problem);
      return;
    }
    if (!ad) {
      this.problem(line, `ad ${read.adId} does not exist`);
      return;
    }
    if (read.time !== null) read.day = ad.calendar.dayOf(read.time);
    const refusal = ad.calendar.refusal(read.day) ?? wholeMoneyProblem(read, ad.currency, MINOR_UNIT_DIGITS[ad.currency as CurrencyCode] ?? 2);
    if (refusal) {
      this.problem(line, refusal);
      return;
    }
    // Once a line is bad nothing will land: the rest is only checked.
    if (this.problemCount > 0) return;
    this.aggregator.add(read);
    this.impressions += read.impressions;
    this.clicks += read.clicks;
    this.spend[ad.currency] = (this.spend[ad.currency] ?? 0) + read.spend;
    if (this.firstDay === null || read.day < this.firstDay) this.firstDay = read.day;
    if (this.lastDay === null || read.day > this.lastDay) this.lastDay = read.day;
  }

  /**
   * Writes what is held once memory reaches its bound: first the days before the latest one seen (a file in
   * time order then writes each day once, not again at every batch that had a part of it), and everything when
   * the latest day alone holds more than half the bound.
   */
  private async flushWhenFull(): Promise<void> {
    if (this.problemCount > 0) this.aggregator.clear();
    else if (this.full(1)) {
      await this.flush(this.lastDay ?? undefined);
      if (this.full(0.5)) await this.flush();
    }
  }

  private full(share: number): boolean {
    return this.aggregator.size >= FLUSH_FACTS * share || this.aggregator.people >= FLUSH_PEOPLE * share;
  }

  /** Adds the facts held (of the days before `before`, or all) to insight_facts. */
  async flush(before?: string): Promise<void> {
    const facts = this.aggregator.drain((adId) => this.ads.get(adId) ?? undefined, before);
    if (facts.length > 0) this.factsWritten += await addFacts(this.trx, facts);
  }
}

/**
 * Imports one file of delivery data. Throws ImportRejected when any line is bad (nothing lands); answers
 * status 'already_imported' when these exact bytes were imported before (nothing changes).
 */
export async function importDelivery(deps: Pick<AppDeps, 'db'>, source: Readable, options: ImportOptions): Promise<ImportTotals> {
  const hash = createHash('sha256');
  const counted = { bytes: 0 };
  let run: ImportRun | undefined;
  let sha256 = '';
  const now = Date.now();
  try {
    await deps.db.transaction(async (trx) => {
      const current = new ImportRun(trx, new AdDirectory(trx, now), options.format);
      run = current;
      let reported = 0;
      for await (const lines of linesOf(source, hash, counted)) {
        await current.take(lines);
        if (options.onProgress && counted.bytes - reported >= 256 * 1024) {
          reported = counted.bytes;
          options.onProgress({ bytes: counted.bytes, lines: current.lines, records: current.records });
        }
      }
      await current.settle();
      sha256 = hash.digest('hex');
      if (current.problemCount > 0) throw new ImportRejected(current.problems, current.problemCount, options.name);
      if (await trx('insight_imports').where({ sha256 }).first()) throw new AlreadyImported();
      await current.flush();
      await trx('insight_imports').insert({
        id: randomUUID(),
        sha256,
        source: options.name.slice(0, 512),
        format: options.format,
        lines: current.lines,
        records: current.records,
        facts_written: current.factsWritten,
        created_at: new Date(),
      });
      options.onProgress?.({ bytes: counted.bytes, lines: current.lines, records: current.records });
    });
  } catch (error) {
    if (!(error instanceof AlreadyImported) && !isDuplicateImport(error)) throw error;
    return totals(run!, 'already_imported', sha256, options, counted.bytes);
  }
  return totals(run!, 'imported', sha256, options, counted.bytes);
}

/** A concurrent import of the same bytes committed first (the unique sha256 refused this one's row). */
function isDuplicateImport(error: unknown): boolean {
  const { code, message } = error as { code?: string; message?: string };
  return (code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE') && /sha256/.test(message ?? '');
}

function totals(run: ImportRun, status: ImportTotals['status'], sha256: string, options: ImportOptions, bytes: number): ImportTotals {
  const landed = status === 'imported';
  const known = run.ads.known();
  return {
    status,
    sha256,
    source: options.name,
    format: options.format,
    bytes,
    lines: run.lines,
    records: run.records,
    factsWritten: landed ? run.factsWritten : 0,
    ads: known.length,
    accounts: new Set(known.map((ad) => ad.accountId)).size,
    impressions: run.impressions,
    clicks: run.clicks,
    spend: run.spend,
    firstDay: run.firstDay,
    lastDay: run.lastDay,
  };
}

/** The SHA-256 of a file's bytes (hex), streamed. */
export async function sha256OfFile(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 })) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** The totals of an earlier import of the same bytes (status 'already_imported'), or undefined when there was none. */
export async function importedBefore(
  deps: Pick<AppDeps, 'db'>,
  sha256: string,
  file: { name: string; format: ImportFormat; bytes: number },
): Promise<ImportTotals | undefined> {
  const row = await deps.db('insight_imports').where({ sha256 }).first();
  if (!row) return undefined;
  return {
    status: 'already_imported',
    sha256,
    source: file.name,
    format: file.format,
    bytes: file.bytes,
    lines: Number(row.lines),
    records: Number(row.records),
    factsWritten: 0,
    ads: 0,
    accounts: 0,
    impressions: 0,
    clicks: 0,
    spend: {},
    firstDay: null,
    lastDay: null,
  };
}
