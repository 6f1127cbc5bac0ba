/**
 * Readers of stored targeting JSON (the Graph shape, as /v24.0 may have stored it unchecked): each answers what
 * is of the expected type and skips the rest, never throwing. Shared by the rules that read a targeting whole.
 */

export type JsonObject = Record<string, unknown>;

export const asObject = (value: unknown): JsonObject | null =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as JsonObject) : null;

export const nonEmptyString = (value: unknown): string | null => (typeof value === 'string' && value.trim() !== '' ? value.trim() : null);

export const stringsOf = (value: unknown): string[] => (Array.isArray(value) ? value.map(nonEmptyString).filter((s): s is string => s !== null) : []);

/** Integer codes (genders, locales, statuses); digit strings count, as the Graph API reads them. */
export const codesOf = (value: unknown): number[] => {
  if (!Array.isArray(value)) return [];
  const codes: number[] = [];
  for (const entry of value) {
    if (typeof entry === 'number' && Number.isSafeInteger(entry)) codes.push(entry);
    else if (typeof entry === 'string' && /^\d{1,15}$/.test(entry.trim())) codes.push(Number(entry.trim()));
  }
  return codes;
};
