import { existsSync } from 'node:fs';

/**
 * Debian's Chromium for the browser tests, driven by playwright-core. Without it those suites are skipped locally,
 * with a warning, and fail under CI=true so the check cannot silently disappear there.
 */
export const CHROMIUM = '/usr/bin/chromium';
export const hasChromium = existsSync(CHROMIUM);
export const chromiumRequired = process.env.CI === 'true';

/** Warns once per suite that it is skipped for want of Chromium (nothing under CI, where the suite fails instead). */
export function warnIfSkipped(file: string): void {
  if (!hasChromium && !chromiumRequired) console.warn(`\n*** SKIPPING ${file}: ${CHROMIUM} is missing (apt-get install -y chromium) ***\n`);
}

/** Thrown from a suite's beforeAll under CI when Chromium is missing. */
export function assertChromium(): void {
  if (!hasChromium) throw new Error(`CI=true but ${CHROMIUM} is missing: apt-get install -y chromium`);
}

// The machine's network is closed: without the background-networking flags Chromium keeps trying
// (and failing) to reach Google's hosts, which would also pollute the tests' foreign-request checks.
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
