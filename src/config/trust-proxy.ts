import { isIP } from 'node:net';

/**
 * Which proxies may tell the server the client's address (X-Forwarded-For), in the forms Express's
 * `trust proxy` takes: none (false), every hop (true), a hop count, or a list of addresses, CIDR ranges and
 * the names loopback, linklocal and uniquelocal. The brute-force limits count per client address, so
 * trusting a proxy that is not there lets any caller choose its own address.
 */
export type TrustProxy = boolean | number | string[];

const NAMED_RANGES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function isAddressOrRange(item: string): boolean {
  if (NAMED_RANGES.has(item)) return true;
  const [address = '', prefix, ...rest] = item.split('/');
  const version = isIP(address);
  if (version === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (version === 4 ? 32 : 128);
}

/** The setting's value, or what is wrong with it, worded to follow the variable's name. */
export function parseTrustProxy(raw: string | undefined): TrustProxy | { problem: string } {
  const value = raw?.trim().toLowerCase() ?? '';
  if (['', 'false', 'off', 'no', '0'].includes(value)) return false;
  if (['true', 'on', 'yes'].includes(value)) return true;
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    return hops <= 100 ? hops : { problem: `must be a hop count of at most 100, got ${hops}` };
  }
  const items = value.split(',').map((item) => item.trim());
  const bad = items.find((item) => !isAddressOrRange(item));
  if (bad !== undefined) {
    return {
      problem: `must be false, true, a hop count, or a comma list of IP addresses, CIDR ranges and loopback, linklocal, uniquelocal; got "${bad}"`,
    };
  }
  return items;
}
