import { Readable } from 'node:stream';
import { loadConfig } from '../../src/config/index.ts';
import { closeAppDeps, createAppDeps, type AppDeps } from '../../src/context/index.ts';
import { createLogger } from '../../src/logging/index.ts';
import type { AdAccountRecord, AdRecord, AdSetRecord, CampaignRecord } from '../../src/ads/store.ts';
import { importDelivery, type ImportTotals } from '../../src/insights/intake/import.ts';
import type { ImportFormat } from '../../src/insights/intake/lines.ts';
import { createTestDatabase, type TestDatabase } from './database.ts';
import { worldBuilder } from './world.ts';
import { Random } from '../../src/insights/synthetic.ts';

/**
 * Statistics for test worlds: delivery imported through the real import service (src/insights/intake/import.ts),
 * so facts and rollups are exactly what `adgraph stats import` would write.
 */

/** One delivery event as an import line has it (the README's "Statistics" section documents the format). */
export interface DeliveryEvent {
  type: 'impression' | 'click' | 'action';
  ad_id: string;
  /** ISO 8601 with an offset, or seconds since 1970. */
  time: string | number;
  person: string;
  age?: string;
  gender?: string;
  country?: string;
  publisher_platform?: string;
  platform_position?: string;
  device_platform?: string;
  /** Minor units of the account currency. */
  spend?: number;
  /** A click on a link (counts in inline_link_clicks and the link_click action). */
  link?: boolean;
  action_type?: string;
  /** Minor units of the account currency. */
  value?: number;
}

/** Breakdown values an event gets unless it names its own. */
export const DEFAULT_PLACEMENT = {
  age: '25-34',
  gender: 'female',
  country: 'US',
  publisher_platform: 'facebook',
  platform_position: 'feed',
  device_platform: 'mobile',
} as const;

/** An event with the default breakdown values filled in. */
export function deliveryEvent(event: Omit<DeliveryEvent, keyof typeof DEFAULT_PLACEMENT> & Partial<DeliveryEvent>): DeliveryEvent {
  return { ...DEFAULT_PLACEMENT, ...event } as DeliveryEvent;
}

/** NDJSON text of some lines (objects are written as JSON, strings as they are). */
export function ndjson(lines: Array<object | string>): string {
  return lines.map((line) => (typeof line === 'string' ? line : JSON.stringify(line))).join('\n') + '\n';
}

/** Imports delivery lines (events by default; missing breakdown values of events take DEFAULT_PLACEMENT). */
export async function importLines(
  deps: Pick<AppDeps, 'db'>,
  lines: Array<object | string>,
  options: { format?: ImportFormat; name?: string } = {},
): Promise<ImportTotals> {
  const format = options.format ?? 'events';
  const filled = format === 'events' ? lines.map((line) => (typeof line === 'string' ? line : { ...DEFAULT_PLACEMENT, ...line })) : lines;
  return importDelivery(deps, Readable.from([Buffer.from(ndjson(filled))]), { name: options.name ?? 'test.ndjson', format });
}

/** Imports delivery events (missing breakdown values take DEFAULT_PLACEMENT). */
export function importEvents(deps: Pick<AppDeps, 'db'>, events: Array<Partial<DeliveryEvent> & Pick<DeliveryEvent, 'type' | 'ad_id' | 'time' | 'person'>>) {
  return importLines(deps, events);
}

/** A fresh database with the application's dependencies (no server) and a world builder over them. */
export async function statsTestBed(): Promise<{ deps: AppDeps; database: TestDatabase; world: ReturnType<typeof worldBuilder>; close(): Promise<void> }> {
  const database = await createTestDatabase();
  const deps = createAppDeps(loadConfig({ DATABASE_URL: database.url, BCRYPT_COST: '4', LOG_LEVEL: 'silent' }), {
    db: database.db,
    log: createLogger('silent'),
  });
  return {
    deps,
    database,
    world: worldBuilder(deps),
    async close() {
      await closeAppDeps(deps);
      await database.dispose().catch(() => undefined);
    },
  };
}

export interface AdTree {
  account: AdAccountRecord;
  campaigns: CampaignRecord[];
  adSets: AdSetRecord[];
  ads: AdRecord[];
}

/** An ad account with campaigns, ad sets under each and ads under each ad set (every ad set and ad active). */
export async function adTree(
  world: ReturnType<typeof worldBuilder>,
  organizationId: string,
  shape: { campaigns?: number; adSetsPerCampaign?: number; adsPerAdSet?: number; account?: Partial<AdAccountRecord> } = {},
): Promise<AdTree> {
  const account = await world.adAccount(organizationId, shape.account);
  const campaigns = await world.campaigns(account, shape.campaigns ?? 1);
  const adSets: AdSetRecord[] = [];
  const ads: AdRecord[] = [];
  for (const campaign of campaigns) {
    for (const adSet of await world.adSets(campaign, shape.adSetsPerCampaign ?? 1)) {
      adSets.push(adSet);
      ads.push(...(await world.ads(adSet, shape.adsPerAdSet ?? 1)));
    }
  }
  return { account, campaigns, adSets, ads };
}

/** A deterministic generator of numbers in [0, 1) (the synthetic delivery's seeded Random): the same bytes every run. */
/** A signed-in advertiser of a new organization and an ad tree of that organization's (the observability tests' world). */
export async function advertiserWithAdTree(deps: AppDeps, shape: Parameters<typeof adTree>[2] = {}): Promise<{ token: string; userId: string; tree: AdTree }> {
  const world = worldBuilder(deps);
  const org = await world.organization();
  const { token, user } = await world.user({ organizationId: org.id, role: 'advertiser' });
  return { token, userId: user.id, tree: await adTree(world, org.id, shape) };
}

export function random(seed: number): () => number {
  const generator = new Random(seed);
  return () => generator.next();
}

const AGES = ['18-24', '25-34', '45-54', '65+'];
const GENDERS = ['male', 'female', 'unknown'];
const COUNTRIES = ['US', 'MX', 'CA'];
const PLACEMENTS = [
  ['facebook', 'feed', 'mobile'],
  ['facebook', 'right_hand_column', 'desktop'],
  ['instagram', 'instagram_stories', 'mobile'],
  ['audience_network', 'an_classic', 'mobile'],
];

export const daysAgo = (days: number) => Date.now() - days * 86_400_000;

/** `count` events (deterministic for a seed and day) over the tree's ads and the last `days` days, times written both ways (ISO with offset, seconds). */
export function randomEvents(tree: AdTree, count: number, options: { seed: number; people: number; days: number }): DeliveryEvent[] {
  const next = random(options.seed);
  const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)]!;
  // Counted back from the start of today (UTC), not from now: the same seed puts the same events on the same
  // days of the account whatever the time of day, so a reach checked within 2% is the same estimate every run.
  const startOfToday = Math.floor(Date.now() / 86_400_000) * 86_400_000;
  return Array.from({ length: count }, (_, i) => {
    const ms = startOfToday - (1 + next() * options.days) * 86_400_000;
    const [publisher, position, device] = pick(PLACEMENTS);
    const roll = next();
    const type = roll < 0.8 ? 'impression' : roll < 0.95 ? 'click' : 'action';
    const event: DeliveryEvent = {
      type,
      ad_id: pick(tree.ads).id,
      // Seconds since 1970 for half of them; ISO 8601 with a -05:00 offset for the others (the same instant).
      time: i % 2 ? Math.floor(ms / 1000) : new Date(Math.floor(ms / 1000) * 1000 - 5 * 3_600_000).toISOString().replace('Z', '-05:00'),
      person: `person-${Math.floor(next() * options.people)}`,
      age: pick(AGES),
      gender: pick(GENDERS),
      country: pick(COUNTRIES),
      publisher_platform: publisher!,
      platform_position: position!,
      device_platform: device!,
    };
    if (type === 'impression') event.spend = Math.floor(next() * 5);
    if (type === 'click') event.link = next() < 0.6;
    if (type === 'action') {
      event.action_type = pick(['purchase', 'lead', 'video_view']);
      if (event.action_type === 'purchase') event.value = 500 + Math.floor(next() * 5000);
    }
    return event;
  });
}
