import type { ObjectStatus } from './enums.ts';
import { violation, type Violation } from './violations.ts';

/**
 * The specification's state table, for ad sets and, as decided, for campaigns and ads too:
 *
 * | state    | accepts                                                                    |
 * |----------|----------------------------------------------------------------------------|
 * | DELETED  | only `name`                                                                |
 * | ARCHIVED | only `name` and the status (`status`, or `campaign_status` on ad sets) set |
 * |          | to DELETED (or repeated as ARCHIVED, which changes nothing)                |
 * | others   | anything                                                                   |
 *
 * `sent` names the parameters the caller sent; `statusParams` those that set the status, with the value asked.
 */
export function stateViolations(
  kind: string,
  id: string,
  current: ObjectStatus,
  sent: readonly string[],
  statuses: Readonly<Record<string, ObjectStatus | undefined>>,
): Violation[] {
  if (current !== 'DELETED' && current !== 'ARCHIVED') return [];
  const allowedStatuses: ObjectStatus[] = current === 'DELETED' ? ['DELETED'] : ['ARCHIVED', 'DELETED'];
  const rule = current === 'DELETED' ? 'only name may be changed' : 'only name may be changed, and the status only to DELETED';
  const out: Violation[] = [];
  for (const name of sent) {
    if (name === 'name') continue;
    const status = statuses[name];
    if (name in statuses && status !== undefined && allowedStatuses.includes(status)) continue;
    out.push(
      violation(name, `Param ${name} cannot be changed: ${kind} ${id} is ${current}, and ${rule}`, {
        userTitle: `${capitalize(kind)} is ${current.toLowerCase()}`,
        userMessage:
          current === 'DELETED'
            ? `This ${kind} is deleted. You can only change its name.`
            : `This ${kind} is archived. You can only change its name or delete it.`,
      }),
    );
  }
  return out;
}

const capitalize = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
