/**
 * Currencies an ad account may use: each one's minor unit (ISO 4217: JPY and KRW have none) and how many of
 * its major units one US dollar buys, to convert the specification's USD budget minimums. The rates are a
 * fixed default table, replaceable with BUDGET_CURRENCY_RATES (config), since the platform converts at its
 * own current rates, which this gateway cannot know.
 */
export const CURRENCY_CODES = ['USD', 'EUR', 'GBP', 'JPY', 'KRW', 'CAD', 'AUD', 'CHF', 'SEK', 'NOK', 'DKK', 'PLN', 'BRL', 'INR', 'MXN'] as const;
export type CurrencyCode = (typeof CURRENCY_CODES)[number];

/** Digits after the decimal point: amounts are stored in units of 10^-digits of the currency. */
export const MINOR_UNIT_DIGITS: Record<CurrencyCode, number> = {
  USD: 2,
  EUR: 2,
  GBP: 2,
  JPY: 0,
  KRW: 0,
  CAD: 2,
  AUD: 2,
  CHF: 2,
  SEK: 2,
  NOK: 2,
  DKK: 2,
  PLN: 2,
  BRL: 2,
  INR: 2,
  MXN: 2,
};

/** Major units of each currency per US dollar (the default table; mid-2026 magnitudes, rounded). */
export const DEFAULT_RATES_PER_USD: Record<CurrencyCode, number> = {
  USD: 1,
  EUR: 0.92,
  GBP: 0.79,
  JPY: 155,
  KRW: 1380,
  CAD: 1.37,
  AUD: 1.52,
  CHF: 0.88,
  SEK: 10.6,
  NOK: 10.8,
  DKK: 6.9,
  PLN: 3.95,
  BRL: 5.4,
  INR: 84,
  MXN: 18.5,
};

export type RateTable = Record<string, number>;

export const isCurrencyCode = (value: string): value is CurrencyCode => (CURRENCY_CODES as readonly string[]).includes(value);

/**
 * `EUR=0.92,JPY=155`: rates that replace the defaults for the currencies named (major units per US dollar).
 * Returns an error sentence instead of throwing, so the configuration can name its variable.
 */
export function parseRateTable(raw: string): RateTable | string {
  const rates: RateTable = { ...DEFAULT_RATES_PER_USD };
  for (const entry of raw
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean)) {
    const match = /^([A-Z]{3})=([0-9]+(?:\.[0-9]+)?)$/.exec(entry);
    if (!match) return `each entry must look like EUR=0.92, got "${entry}"`;
    const [, code, rate] = match as unknown as [string, string, string];
    if (!isCurrencyCode(code)) return `${code} is not a supported currency (${CURRENCY_CODES.join(', ')})`;
    if (code === 'USD' && Number(rate) !== 1) return 'USD is the base of the table: its rate is 1';
    // Below a millionth the exact arithmetic of convertUsdCents would see 0.
    if (!(Number(rate) >= 0.000001)) return `the rate of ${code} must be at least 0.000001`;
    rates[code] = Number(rate);
  }
  return rates;
}

/**
 * A US-cent amount in the account currency's minor units, rounded up to a whole minor unit (a minimum
 * must not shrink in conversion).
 */
export function convertUsdCents(usdCents: bigint, currency: string, rates: RateTable): bigint {
  const digits = MINOR_UNIT_DIGITS[currency as CurrencyCode] ?? 2;
  const rate = rates[currency] ?? DEFAULT_RATES_PER_USD[currency as CurrencyCode] ?? 1;
  // Exact arithmetic in millionths of a rate unit, so 0.92 or 10.6 do not pick up float noise.
  const rateMicros = BigInt(Math.round(rate * 1_000_000));
  const numerator = usdCents * rateMicros * 10n ** BigInt(digits);
  const denominator = 100n * 1_000_000n;
  return (numerator + denominator - 1n) / denominator;
}

/** "12.50 EUR", "750 JPY": an amount in minor units, written as a person reads it. */
export function formatMoney(minor: bigint, currency: string): string {
  const digits = MINOR_UNIT_DIGITS[currency as CurrencyCode] ?? 2;
  if (digits === 0) return `${minor} ${currency}`;
  const scale = 10n ** BigInt(digits);
  const whole = minor / scale;
  const fraction = (minor % scale).toString().padStart(digits, '0');
  return `${whole}.${fraction} ${currency}`;
}
