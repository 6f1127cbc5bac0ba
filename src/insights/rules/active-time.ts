/**
 * A campaign's running length (campaign_active_time): the seconds its status has been ACTIVE, each ACTIVE spell
 * counted only within its schedule (start_time to stop_time), up to now. Ended spells are summed into
 * active_seconds when the status changes; the current one is added when read. Pure.
 */
export interface CampaignActivity {
  status: string;
  /** Seconds of the ended ACTIVE spells (a numeric string, as bigint columns read). */
  activeSeconds: string;
  /** When the current status began; null: at creation. */
  statusChangedTime: Date | null;
  createdTime: Date;
  startTime: Date | null;
  stopTime: Date | null;
}

/** Whole seconds of [from, to) that fall within the schedule. */
export function spellSeconds(from: Date, to: Date, schedule: Pick<CampaignActivity, 'startTime' | 'stopTime'>): number {
  const start = Math.max(from.getTime(), schedule.startTime?.getTime() ?? -Infinity);
  const end = Math.min(to.getTime(), schedule.stopTime?.getTime() ?? Infinity);
  return end > start ? Math.floor((end - start) / 1000) : 0;
}

/** The running length at `now`, in seconds. */
export function campaignActiveSeconds(campaign: CampaignActivity, now: Date): number {
  const ended = Number(campaign.activeSeconds);
  if (campaign.status !== 'ACTIVE') return ended;
  return ended + spellSeconds(campaign.statusChangedTime ?? campaign.createdTime, now, campaign);
}

/** The columns a status change writes: the spell that ends is added to the running length. */
export function afterStatusChange(campaign: CampaignActivity, now: Date): { activeSeconds: string; statusChangedTime: Date } {
  return { activeSeconds: String(campaignActiveSeconds(campaign, now)), statusChangedTime: now };
}
