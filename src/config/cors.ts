/**
 * Which browser origins may call the API from their pages (CORS). Credentials travel in headers the page sets
 * itself (Service-Session-Token, Authorization), never in cookies, so an allowed origin gains nothing a page
 * could not already do with a token it holds; what CORS_ORIGINS decides is which pages may read the answers.
 */
export interface CorsSettings {
  /** Exact origins (`https://app.example.com`), or '*' for any. Empty: no page on another origin may call the API. */
  origins: string[] | '*';
  /** Send Access-Control-Allow-Credentials (cookies or TLS client certificates added by a proxy in front). Never with '*'. */
  credentials: boolean;
  /** How long a browser may reuse a preflight's answer (Access-Control-Max-Age). */
  maxAgeSeconds: number;
}

/**
 * One origin exactly as a browser sends it in `Origin`: scheme, lower-case host and a port only when not the
 * scheme's default. Anything else (a path, a trailing slash, upper case, `null`) would never match, so it is refused.
 */
function isExactOrigin(item: string): boolean {
  try {
    const parsed = new URL(item);
    return (parsed.protocol === 'http:' || parsed.protocol === 'https:') && parsed.origin === item;
  } catch {
    return false;
  }
}

/** The CORS_ORIGINS list, or what is wrong with it, worded to follow the variable's name. */
export function parseCorsOrigins(raw: string | undefined, credentials: boolean): string[] | '*' | { problem: string } {
  const items = (raw ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
  if (items.includes('*')) {
    if (items.length > 1) return { problem: 'is either * alone or a comma list of origins, not both' };
    // The CORS standard forbids it (browsers refuse the answer), and reflecting every origin instead would hand any site the caller's cookies.
    if (credentials) return { problem: 'may not be * while CORS_CREDENTIALS is true: list the origins that may send credentials' };
    return '*';
  }
  const bad = items.find((item) => !isExactOrigin(item));
  if (bad !== undefined) {
    return {
      problem: `must be a comma list of origins as browsers send them, like https://app.example.com or http://localhost:5173 (lower case; no path, trailing slash or default port), got "${bad}"`,
    };
  }
  return [...new Set(items)];
}
