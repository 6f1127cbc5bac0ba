import type { Edge } from '../authz/edges.ts';
import type { PageRecord } from '../comments/store.ts';
import type { ApiClientRecord } from '../oauth/store.ts';
import { appsOfPage, subscriptionsOf } from './service.ts';
import type { PageSubscribedAppRecord, WebhookSubscriptionRecord } from './store.ts';

/**
 * `/<app>/subscriptions` and `/<page>/subscribed_apps`: a few rows each (one subscription per object type, the
 * apps a page chose), answered whole on one page.
 */
const whole = <P, T extends { id: string }>(all: (ctx: Parameters<Edge<P, T>['list']>[0], parent: P) => Promise<T[]>): Edge<P, T> => ({
  list: async (ctx, parent) => ({ items: await all(ctx, parent), hasNextPage: false, hasPreviousPage: false }),
  count: async (ctx, parent) => (await all(ctx, parent)).length,
});

export const appSubscriptions = whole<ApiClientRecord, WebhookSubscriptionRecord>(subscriptionsOf);

export type PageAppRecord = PageSubscribedAppRecord & { id: string; name: string };

export const pageApps = whole<PageRecord, PageAppRecord>(async (ctx, page) => (await appsOfPage(ctx, page)).map((row) => ({ ...row, id: row.apiClientId })));
