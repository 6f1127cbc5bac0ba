import { expect } from 'vitest';
import { passwordVerifications } from './metrics.ts';

/** Guesses sent at the same moment, and what the servers compared: the brute-force tests of issue 25. */

export interface Answer {
  status: number;
  body: unknown;
}

/** Client addresses to claim in X-Forwarded-For (under TRUST_PROXY), a new one at each call. */
export function freshAddresses(): () => string {
  let n = 0;
  return () => {
    n += 1;
    return `198.51.${Math.floor(n / 250)}.${n % 250}`;
  };
}

/** One answer as a table key, `<status> <body as JSON>`. */
export const answerKey = ({ status, body }: Answer) => `${status} ${JSON.stringify(body)}`;

/** How many times each distinct answer came, by answerKey: one table to compare. */
export function tally(answers: Answer[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const answer of answers) counts[answerKey(answer)] = (counts[answerKey(answer)] ?? 0) + 1;
  return counts;
}

export interface Burst<T extends Answer> {
  answers: T[];
  /** bcrypt comparisons that did not match, and that did, made by the servers while the burst ran. */
  mismatches: number;
  matches: number;
}

/**
 * Sends `count` attempts at the same moment (`attempt(i)` sends the i-th) and answers with the responses, in
 * order, and the bcrypt comparisons the servers made meanwhile (summed over every server's /metrics).
 */
export async function guessBurst<T extends Answer>(servers: Array<{ url: string }>, count: number, attempt: (i: number) => Promise<T>): Promise<Burst<T>> {
  const sum = async (result: 'match' | 'mismatch') =>
    (await Promise.all(servers.map((server) => passwordVerifications(server.url, result)))).reduce((a, b) => a + b, 0);
  const before = { mismatches: await sum('mismatch'), matches: await sum('match') };
  const answers = await Promise.all(Array.from({ length: count }, (_, i) => attempt(i)));
  return { answers, mismatches: (await sum('mismatch')) - before.mismatches, matches: (await sum('match')) - before.matches };
}

/**
 * A burst of wrong guesses with one right guess at `rightAt`, over an allowance of `limit`: `limit` wrong guesses
 * were compared and answered `wrong`, every other wrong one got `refused` without a comparison, and the right one
 * was either compared and answered `success` or refused with the very same answer as the wrong ones.
 *
 * A right guess that is compared takes a point while its comparison runs, so `limit - 1` wrong guesses may have
 * been compared. Whether the allowance is then spent depends on the order the points came back in (a match gives
 * its own back): `oneMoreWrong` is sent, and is either compared (answered `wrong`, spending the last point) or
 * refused, so the allowance is spent either way before what the caller checks next.
 */
export async function expectOnlyTheLimitCompared<T extends Answer>(
  burst: Burst<T>,
  expected: { limit: number; rightAt: number; wrong: string; refused: string; success: number },
  oneMoreWrong: () => Promise<T>,
): Promise<void> {
  const wrong = burst.answers.filter((_, i) => i !== expected.rightAt);
  const right = burst.answers[expected.rightAt]!;
  const rightCompared = right.status === expected.success;
  const compared = wrong.filter((answer) => answerKey(answer) === expected.wrong).length;
  const wrongCompared = rightCompared && compared === expected.limit - 1 ? compared : expected.limit;
  expect(tally(wrong)).toEqual({ [expected.wrong]: wrongCompared, [expected.refused]: wrong.length - wrongCompared });
  expect(burst.mismatches).toBe(wrongCompared);
  if (rightCompared) expect(burst.matches).toBe(1);
  else expect({ answer: answerKey(right), matches: burst.matches }).toEqual({ answer: expected.refused, matches: 0 });
  if (wrongCompared < expected.limit) expect([expected.wrong, expected.refused]).toContain(answerKey(await oneMoreWrong()));
}
