/** Reading a server's /metrics (Prometheus text), over real HTTP. */

/** The sum of a counter's series whose labels include `labels` (all of them by default); 0 before its first sample. */
export async function counterTotal(url: string, name: string, labels: Record<string, string> = {}): Promise<number> {
  const response = await fetch(`${url}/metrics`);
  if (response.status !== 200) throw new Error(`${url}/metrics answered ${response.status}`);
  const text = await response.text();
  if (!text.includes(`# TYPE ${name} counter`)) throw new Error(`${url}/metrics has no counter ${name}`);
  const wanted = Object.entries(labels).map(([label, value]) => `${label}="${value}"`);
  let total = 0;
  for (const line of text.split('\n')) {
    const sample = new RegExp(`^${name}(?:\\{([^}]*)\\})? (\\S+)$`).exec(line);
    const present = sample?.[1]?.split(',') ?? [];
    if (sample && wanted.every((label) => present.includes(label))) total += Number(sample[2]);
  }
  return total;
}

const VERIFICATIONS = 'adgraph_password_verifications_total';

/** The bcrypt comparisons a server has made so far (src/hashing), or only those with `result` match or mismatch. */
export const passwordVerifications = (url: string, result?: 'match' | 'mismatch') => counterTotal(url, VERIFICATIONS, result ? { result } : {});
