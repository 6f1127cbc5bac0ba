import type { Resolvers } from '../../graphql/__generated__/resolvers-types.ts';
import { connectionFields } from '../../graphql/connections.ts';
import { lowercaseEnum } from '../../graphql/helpers.ts';
import { ACTOR_KINDS } from '../activities.ts';
import type { ActivityFilter } from '../edges.ts';
import type { ActivityCategory } from '../rules/activity-events.ts';

/** GraphQL's change history arguments as the edges' filter (the edge checks that until is later than since). */
export function activityFilter(args: { since?: Date | null; until?: Date | null; category?: readonly ActivityCategory[] | null }): ActivityFilter {
  return {
    ...(args.since ? { since: args.since } : {}),
    ...(args.until ? { until: args.until } : {}),
    ...(args.category ? { categories: args.category } : {}),
  };
}

/** AdActivity reads its record's fields by name; its actor kind is the store's lower case. */
export const activityResolvers: Pick<Resolvers, 'ActivityActorKind' | 'AdActivityConnection'> = {
  ActivityActorKind: lowercaseEnum(ACTOR_KINDS),
  AdActivityConnection: connectionFields,
};
