/** Reading a server's /metrics (Prometheus text), over real HTTP. */

/** The sum of every series of a counter (all label values) on the server at `url`; 0 before its first sample. */
export async function counterTotal(url: string, name: string): Promise<number> {
  const response = await fetch(`${url}/metrics`);
  if (response.status !== 200) throw new Error(`${url}/metrics answered ${response.status}`);
  const text = await response.text();
  if (!text.includes(`# TYPE ${name} counter`)) throw new Error(`${url}/metrics has no counter ${name}`);
  let total = 0;
  for (const line of text.split('\n')) {
    const sample = new RegExp(`^${name}(?:\\{[^}]*\\})? (\\S+)$`).exec(line);
    if (sample) total += Number(sample[1]);
  }
  return total;
}

/** The bcrypt comparisons a server has made so far (src/hashing). */
export const passwordVerifications = (url: string) => counterTotal(url, 'adgraph_password_verifications_total');
