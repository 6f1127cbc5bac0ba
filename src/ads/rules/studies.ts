/**
 * Ad studies (split tests): the checks a study passes before it is stored, and the comparison of its cells'
 * results. Pure tables and functions, no I/O: the service looks up the account's ad sets and campaigns and the
 * studies overlapping the new one's dates first, and hands them over as facts; it reads the statistics and hands
 * each cell's delivery to compareCells.
 */
import { asObject } from './stored-json.ts';
import { violation, type Violation } from './violations.ts';

export const STUDY_TYPES = ['SPLIT_TEST'] as const;
export type StudyType = (typeof STUDY_TYPES)[number];

export const MIN_CELLS = 2;
export const MAX_CELLS = 10;
/** A study runs at most this long (end_time - start_time). */
export const MAX_STUDY_DAYS = 90;
const MAX_NAME_LENGTH = 400;
const MAX_DESCRIPTION_LENGTH = 2000;
const DAY_MS = 24 * 60 * 60 * 1000;

/** A study as the caller sent it, already parsed from JSON but NOT type-checked (values are unknown). */
export interface StudyInput {
  name: unknown;
  description?: unknown;
  type?: unknown;
  startTime: Date | null;
  endTime: Date | null;
  cells: unknown;
}

/** The checked cells. */
export interface StudyCell {
  name: string;
  treatmentPercentage: number;
  adSetIds: string[];
  campaignIds: string[];
}

/** What the account holds and what other studies already test (looked up by the caller). */
export interface StudyFacts {
  now: Date;
  /** The account's ad sets (not DELETED): id -> campaign id. */
  adSets: ReadonlyMap<string, string>;
  /** The account's campaigns (not DELETED). */
  campaigns: ReadonlySet<string>;
  /** Other studies of the account whose time overlaps [startTime, endTime): their objects. */
  overlapping: ReadonlyArray<{ id: string; name: string; adSetIds: ReadonlySet<string>; campaignIds: ReadonlySet<string> }>;
}

const missing = (value: unknown) => value === undefined || value === null;
/** Length in characters (code points), as the platform counts them. */
const length = (text: string) => [...text].length;

/** An object id as the caller may send it: a string of digits or a non-negative whole number; null otherwise. */
function idOf(value: unknown): string | null {
  if (typeof value === 'string') return /^\d+$/.test(value) ? value : null;
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return String(value);
  return null;
}

function nameViolations(input: StudyInput): Violation[] {
  const out: Violation[] = [];
  const { name, description, type } = input;
  if (missing(name) || (typeof name === 'string' && name.trim() === '')) out.push(violation('name', 'The parameter name is required'));
  else if (typeof name !== 'string') out.push(violation('name', 'Param name must be a string'));
  else if (length(name) > MAX_NAME_LENGTH) out.push(violation('name', `Param name must be at most ${MAX_NAME_LENGTH} characters long`));
  if (!missing(description)) {
    if (typeof description !== 'string') out.push(violation('description', 'Param description must be a string'));
    else if (length(description) > MAX_DESCRIPTION_LENGTH) {
      out.push(violation('description', `Param description must be at most ${MAX_DESCRIPTION_LENGTH} characters long`));
    }
  }
  if (!missing(type) && !(STUDY_TYPES as readonly unknown[]).includes(type)) {
    out.push(violation('type', 'Param type must be SPLIT_TEST: only SPLIT_TEST studies are supported'));
  }
  return out;
}

/**
 * Both times are required; the end comes after the start and after now (both said when both are wrong); a study
 * lasts at most MAX_STUDY_DAYS.
 */
function scheduleViolations(input: StudyInput, now: Date): Violation[] {
  const out: Violation[] = [];
  const times: Array<[string, Date | null]> = [
    ['start_time', input.startTime],
    ['end_time', input.endTime],
  ];
  for (const [field, time] of times) {
    if (time === null) out.push(violation(field, `The parameter ${field} is required`));
    else if (Number.isNaN(time.getTime())) out.push(violation(field, `Param ${field} must be a valid time`));
  }
  if (out.length > 0) return out;
  const start = input.startTime!.getTime();
  const end = input.endTime!.getTime();
  if (end <= start) {
    out.push(
      violation('end_time', 'Param end_time must be after start_time', {
        userTitle: 'End before start',
        userMessage: 'The end date must come after the start date.',
      }),
    );
  }
  if (end <= now.getTime()) {
    out.push(
      violation('end_time', 'Param end_time must be in the future', { userTitle: 'End date in the past', userMessage: 'Choose an end date in the future.' }),
    );
  }
  if (end > start && end - start > MAX_STUDY_DAYS * DAY_MS) {
    out.push(
      violation('end_time', `Param end_time must be at most ${MAX_STUDY_DAYS} days after start_time: a study runs at most ${MAX_STUDY_DAYS} days`, {
        userTitle: 'Study too long',
        userMessage: `A study can run for at most ${MAX_STUDY_DAYS} days.`,
      }),
    );
  }
  return out;
}

/** Where each object already sits among the cells read so far (the first cell naming it). */
interface Placement {
  adSets: Map<string, number>;
  campaigns: Map<string, number>;
  /** campaign id -> the account's ad sets in it (built once, from facts.adSets). */
  adSetsByCampaign: Map<string, string[]>;
}

const ONE_STUDY = 'an ad set may be in one study at a time';
const ONE_CELL = 'an ad set may be in one cell of a study';

/** An ad set entry of a cell: of the account, in no other cell (nor through its campaign), in no overlapping study. */
function adSetViolations(field: string, id: string, cell: number, facts: StudyFacts, placed: Placement): Violation[] {
  const campaign = facts.adSets.get(id);
  // Unknown ids and ids of other accounts or organizations read the same: never say which.
  if (campaign === undefined) return [violation(field, `Param ${field}: ${id} is not an ad set of this ad account`)];
  const out: Violation[] = [];
  const directly = placed.adSets.get(id);
  const throughCampaign = placed.campaigns.get(campaign);
  if (directly !== undefined) {
    out.push(
      directly === cell
        ? violation(field, `Param ${field}: ad set ${id} is named twice in cells[${cell}]`)
        : violation(field, `Param ${field}: ad set ${id} is already in cells[${directly}]: ${ONE_CELL}`),
    );
  } else if (throughCampaign !== undefined && throughCampaign !== cell) {
    out.push(violation(field, `Param ${field}: ad set ${id} is already in cells[${throughCampaign}] through its campaign ${campaign}: ${ONE_CELL}`));
  } else {
    placed.adSets.set(id, cell);
  }
  for (const other of facts.overlapping) {
    if (other.adSetIds.has(id))
      out.push(violation(field, `Param ${field}: ad set ${id} is already in study "${other.name}" (${other.id}) during these dates: ${ONE_STUDY}`));
    else if (other.campaignIds.has(campaign)) {
      out.push(
        violation(
          field,
          `Param ${field}: ad set ${id} is already in study "${other.name}" (${other.id}) through its campaign ${campaign} during these dates: ${ONE_STUDY}`,
        ),
      );
    }
  }
  return out;
}

/** A campaign entry of a cell: of the account, in no other cell (nor any of its ad sets), in no overlapping study (nor any of its ad sets). */
function campaignViolations(field: string, id: string, cell: number, facts: StudyFacts, placed: Placement): Violation[] {
  if (!facts.campaigns.has(id)) return [violation(field, `Param ${field}: ${id} is not a campaign of this ad account`)];
  const out: Violation[] = [];
  const adSets = placed.adSetsByCampaign.get(id) ?? [];
  const directly = placed.campaigns.get(id);
  const inside = adSets.find((adSet) => placed.adSets.has(adSet) && placed.adSets.get(adSet) !== cell);
  if (directly !== undefined) {
    out.push(
      directly === cell
        ? violation(field, `Param ${field}: campaign ${id} is named twice in cells[${cell}]`)
        : violation(field, `Param ${field}: campaign ${id} is already in cells[${directly}]: ${ONE_CELL}`),
    );
  } else if (inside !== undefined) {
    out.push(violation(field, `Param ${field}: campaign ${id} holds ad set ${inside}, which is already in cells[${placed.adSets.get(inside)}]: ${ONE_CELL}`));
  } else {
    placed.campaigns.set(id, cell);
  }
  for (const other of facts.overlapping) {
    const otherAdSet = adSets.find((adSet) => other.adSetIds.has(adSet));
    if (other.campaignIds.has(id))
      out.push(violation(field, `Param ${field}: campaign ${id} is already in study "${other.name}" (${other.id}) during these dates: ${ONE_STUDY}`));
    else if (otherAdSet !== undefined) {
      out.push(
        violation(
          field,
          `Param ${field}: campaign ${id} holds ad set ${otherAdSet}, which is already in study "${other.name}" (${other.id}) during these dates: ${ONE_STUDY}`,
        ),
      );
    }
  }
  return out;
}

/** One cell's list of ids (`adsets` or `campaigns`): a list of ids, each checked against the account and the other cells. */
function idListViolations(
  path: string,
  value: unknown,
  kind: 'adsets' | 'campaigns',
  cell: number,
  facts: StudyFacts,
  placed: Placement,
): { ids: string[]; violations: Violation[] } {
  const field = `${path}.${kind}`;
  const noun = kind === 'adsets' ? 'ad set' : 'campaign';
  if (missing(value)) return { ids: [], violations: [] };
  if (!Array.isArray(value)) return { ids: [], violations: [violation(field, `Param ${field} must be a list of ${noun} ids`)] };
  const ids: string[] = [];
  const out: Violation[] = [];
  value.forEach((entry: unknown, j) => {
    const entryField = `${field}[${j}]`;
    const id = idOf(entry);
    if (id === null) {
      out.push(violation(entryField, `Param ${entryField} must be ${noun === 'ad set' ? 'an' : 'a'} ${noun} id (a string of digits)`));
      return;
    }
    ids.push(id);
    out.push(...(kind === 'adsets' ? adSetViolations(entryField, id, cell, facts, placed) : campaignViolations(entryField, id, cell, facts, placed)));
  });
  return { ids, violations: out };
}

/**
 * The cells: MIN_CELLS..MAX_CELLS objects, each with a treatment percentage (a whole number 1..99, all adding up
 * to 100), a name (default `Cell <n>`, distinct, since results are reported by cell name), and ad sets or
 * campaigns of the account (one kind per cell), no object in two cells or in an overlapping study.
 */
function cellsOf(value: unknown, facts: StudyFacts): { cells: StudyCell[]; violations: Violation[] } {
  if (missing(value)) return { cells: [], violations: [violation('cells', 'The parameter cells is required')] };
  if (!Array.isArray(value)) return { cells: [], violations: [violation('cells', `Param cells must be a list of ${MIN_CELLS} to ${MAX_CELLS} cells`)] };
  const head: Violation[] = [];
  const body: Violation[] = [];
  if (value.length < MIN_CELLS || value.length > MAX_CELLS) {
    head.push(violation('cells', `Param cells must hold ${MIN_CELLS} to ${MAX_CELLS} cells, got ${value.length}`));
  }
  const adSetsByCampaign = new Map<string, string[]>();
  for (const [adSet, campaign] of facts.adSets) adSetsByCampaign.set(campaign, [...(adSetsByCampaign.get(campaign) ?? []), adSet]);
  const placed: Placement = { adSets: new Map(), campaigns: new Map(), adSetsByCampaign };
  const names = new Map<string, number>();
  const cells: StudyCell[] = [];
  let percentagesValid = true;
  value.forEach((entry: unknown, i) => {
    const path = `cells[${i}]`;
    const raw = asObject(entry);
    if (raw === null) {
      body.push(violation(path, `Param ${path} must be an object with treatment_percentage and adsets or campaigns`));
      percentagesValid = false;
      if (!names.has(`Cell ${i + 1}`)) names.set(`Cell ${i + 1}`, i);
      cells.push({ name: `Cell ${i + 1}`, treatmentPercentage: 0, adSetIds: [], campaignIds: [] });
      return;
    }
    const cell = raw;
    const out: Violation[] = [];

    let name = `Cell ${i + 1}`;
    if (!missing(cell.name) && cell.name !== '') {
      if (typeof cell.name !== 'string') out.push(violation(`${path}.name`, `Param ${path}.name must be a string`));
      else if (length(cell.name) > MAX_NAME_LENGTH)
        out.push(violation(`${path}.name`, `Param ${path}.name must be at most ${MAX_NAME_LENGTH} characters long`));
      else name = cell.name;
    }
    const sameName = names.get(name);
    if (sameName !== undefined)
      out.push(violation(`${path}.name`, `Param ${path}.name must differ from the other cells' names: "${name}" is the name of cells[${sameName}]`));
    else names.set(name, i);

    const percentage = cell.treatment_percentage;
    let treatmentPercentage = 0;
    if (typeof percentage === 'number' && Number.isFinite(percentage)) treatmentPercentage = percentage;
    if (missing(percentage)) {
      out.push(violation(`${path}.treatment_percentage`, `The parameter ${path}.treatment_percentage is required`));
      percentagesValid = false;
    } else if (typeof percentage !== 'number' || !Number.isInteger(percentage) || percentage < 1 || percentage > 99) {
      out.push(violation(`${path}.treatment_percentage`, `Param ${path}.treatment_percentage must be a whole number from 1 to 99`));
      percentagesValid = false;
    }

    const adSets = idListViolations(path, cell.adsets, 'adsets', i, facts, placed);
    const campaigns = idListViolations(path, cell.campaigns, 'campaigns', i, facts, placed);
    const namesAdSets = Array.isArray(cell.adsets) && cell.adsets.length > 0;
    const namesCampaigns = Array.isArray(cell.campaigns) && cell.campaigns.length > 0;
    // Said on the cell itself, ahead of its fields (field order).
    if (namesAdSets && namesCampaigns) {
      body.push(violation(path, `Param ${path} names both ad sets and campaigns: a cell holds ad sets or campaigns, not both`));
    } else if (!namesAdSets && !namesCampaigns && Array.isArray(cell.adsets ?? []) && Array.isArray(cell.campaigns ?? [])) {
      body.push(violation(path, `Param ${path} must name at least one ad set (adsets) or campaign (campaigns)`));
    }
    body.push(...out, ...adSets.violations, ...campaigns.violations);
    cells.push({ name, treatmentPercentage, adSetIds: adSets.ids, campaignIds: campaigns.ids });
  });
  if (percentagesValid && value.length > 0) {
    const sum = cells.reduce((total, cell) => total + cell.treatmentPercentage, 0);
    if (sum !== 100) head.push(violation('cells', `Param cells must have treatment percentages adding up to 100, they add up to ${sum}`));
  }
  return { cells, violations: [...head, ...body] };
}

/**
 * Checks a study before it is stored: every violation found (not only the first), in field order (name,
 * description, type, start_time, end_time, cells, then each cell's own fields), and the cells as read. The cells
 * are meaningful only without violations: otherwise they are the best reading (a cell that is no object reads
 * as an empty one, a percentage that is no number as 0, ids that are no ids are left out); empty when cells is
 * not a list.
 */
export function checkStudy(input: StudyInput, facts: StudyFacts): { cells: StudyCell[]; violations: Violation[] } {
  const { cells, violations } = cellsOf(input.cells, facts);
  return { cells, violations: [...nameViolations(input), ...scheduleViolations(input, facts.now), ...violations] };
}

/** One cell's delivery over the study's days, from the statistics. */
export interface CellDelivery {
  cellName: string;
  impressions: number;
  spend: number;
  results: number;
}

export interface CellComparison {
  cellName: string;
  impressions: number;
  spend: number;
  results: number;
  /** Minor units per result; null without results. */
  costPerResult: number | null;
  /** Results per impression; null without impressions. */
  resultRate: number | null;
  /** Against the best cell (the highest result rate); null for the best cell itself or when either has no impressions. */
  versusBest: { z: number; pValue: number; significant: boolean } | null;
}

export const SIGNIFICANCE_LEVEL = 0.05;

// Abramowitz & Stegun, Handbook of Mathematical Functions, 7.1.26: for x >= 0,
// erf(x) = 1 - (a1 t + a2 t^2 + a3 t^3 + a4 t^4 + a5 t^5) e^(-x^2), t = 1 / (1 + p x), |error| <= 1.5e-7.
const AS_P = 0.3275911;
const AS_A = [0.254829592, -0.284496736, 1.421413741, -1.453152027, 1.061405429] as const;

/** erfc(x) = 1 - erf(x) for x >= 0, by A&S 7.1.26 (absolute error at most 1.5e-7), without cancellation in the tail. */
function erfcNonNegative(x: number): number {
  // Exact at 0 (the coefficients add up to 0.999999999), so equal cells answer p = 1 and Φ(0) = 0.5.
  if (x === 0) return 1;
  const t = 1 / (1 + AS_P * x);
  const polynomial = t * (AS_A[0] + t * (AS_A[1] + t * (AS_A[2] + t * (AS_A[3] + t * AS_A[4]))));
  return polynomial * Math.exp(-x * x);
}

/** The error function, by Abramowitz & Stegun 7.1.26 (absolute error at most 1.5e-7); odd: erf(-x) = -erf(x). */
export function erf(x: number): number {
  return x >= 0 ? 1 - erfcNonNegative(x) : erfcNonNegative(-x) - 1;
}

/** Φ, the standard normal cumulative distribution: Φ(z) = (1 + erf(z / √2)) / 2 (absolute error below 1e-7). */
export function normalCdf(z: number): number {
  return z >= 0 ? 1 - erfcNonNegative(z / Math.SQRT2) / 2 : erfcNonNegative(-z / Math.SQRT2) / 2;
}

/**
 * The pooled two-proportion z-test of results per impression, best cell against another: z = (p1 - p2) / √(p̂ (1 -
 * p̂) (1/n1 + 1/n2)), p̂ = (x1 + x2) / (n1 + n2), two-sided p = 2 (1 - Φ(|z|)) = erfc(|z| / √2). When p̂ is 0
 * (no results at all) or at least 1 (a result for every impression), the cells cannot be told apart: z 0, p 1.
 */
export function twoProportionZTest(
  best: { impressions: number; results: number },
  other: { impressions: number; results: number },
): { z: number; pValue: number } {
  const pooled = (best.results + other.results) / (best.impressions + other.impressions);
  if (!(pooled > 0 && pooled < 1)) return { z: 0, pValue: 1 };
  const standardError = Math.sqrt(pooled * (1 - pooled) * (1 / best.impressions + 1 / other.impressions));
  const z = (best.results / best.impressions - other.results / other.impressions) / standardError;
  return { z, pValue: Math.min(1, erfcNonNegative(Math.abs(z) / Math.SQRT2)) };
}

/**
 * Compares the cells' results: cost per result and result rate per cell, and each cell against the best one (the
 * highest result rate; the first of equals) by a pooled two-proportion z-test, significant when p <
 * SIGNIFICANCE_LEVEL. No best cell when no cell has impressions. The cells come back in the order given.
 */
export function compareCells(cells: readonly CellDelivery[]): { bestCell: string | null; cells: CellComparison[] } {
  const rateOf = (cell: CellDelivery) => (cell.impressions > 0 ? cell.results / cell.impressions : null);
  let best: CellDelivery | null = null;
  for (const cell of cells) {
    const rate = rateOf(cell);
    if (rate !== null && (best === null || rate > rateOf(best)!)) best = cell;
  }
  return {
    bestCell: best?.cellName ?? null,
    cells: cells.map((cell) => {
      const resultRate = rateOf(cell);
      let versusBest: CellComparison['versusBest'] = null;
      if (best !== null && cell !== best && resultRate !== null) {
        const { z, pValue } = twoProportionZTest(best, cell);
        versusBest = { z, pValue, significant: pValue < SIGNIFICANCE_LEVEL };
      }
      return {
        cellName: cell.cellName,
        impressions: cell.impressions,
        spend: cell.spend,
        results: cell.results,
        costPerResult: cell.results > 0 ? cell.spend / cell.results : null,
        resultRate,
        versusBest,
      };
    }),
  };
}
