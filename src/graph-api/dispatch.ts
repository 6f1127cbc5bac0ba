import type { AppDeps, RequestContext } from '../context/index.ts';
import { createRequestContext } from '../context/index.ts';
import { findObject } from '../authz/objects.ts';
import { readReportRunInsights } from './report-runs.ts';
import type { ReportRunRecord } from '../insights/reports/store.ts';
import { encodeCursor, type PageRequest } from '../db/pagination.ts';
import { DomainError } from '../errors/index.ts';
import { decodeJsonText, optionalParam, paramError } from './params.ts';
import { refuseDiscontinuedId } from '../comments/service.ts';
import { graphErrorResponse } from '../http/errors/graph.ts';
import { resolvePrincipal } from '../http/authenticate.ts';
import type { Logger } from '../logging/index.ts';
import { parsedFields, graphTime, unknownField, type FieldSelection } from './fields.ts';
import { selectionPlan } from './projection.ts';
import { modifiersFilter } from './edge-filters.ts';
import { edgePage, pageRequest } from './paging.ts';
import { joinedReference } from '../db/references.ts';
import { NODE_OF_KIND, NODES, type AnyGraphNode, type GraphEdge, type NodeName } from './nodes.ts';
import { writeOf, writtenNode } from './writes.ts';
import { datePreset as readDatePreset, expandInsights, hasInsights, insightsTargetOf, readInsights, type ReportingWindow } from './insights.ts';
import { accountUsage, checkAccountAllowance, recordAccountCall } from './account-limits.ts';

export const CURRENT_VERSION = 'v24.0';

/** The edges whose writes take `fields` as a parameter of their own, not as the fields to read back. */
const FIELDS_ARE_PARAMETERS = new Set(['insights', 'subscriptions']);
export const SUPPORTED_VERSIONS = ['v24.0', 'v23.0'];

/** One Graph API call, however it arrived (HTTP or an item of a batch). */
export interface GraphRequest {
  method: string;
  version: string;
  /** Path segments after the version: [id] or [id, edge]. */
  path: string[];
  params: Record<string, unknown>;
  /** A token from the Authorization header (access_token in params wins). */
  headerToken?: string;
  requestId: string;
  ip?: string;
  /** The request's logger, made on its first use (src/server/http-logging.ts). */
  logger: () => Logger;
}

export interface GraphResponse {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

const deprecatedVersion = () =>
  new DomainError('BAD_USER_INPUT', `You are calling a deprecated version of the Ads API. Please update to the latest version: ${CURRENT_VERSION}.`, {
    graph: { code: 2635 },
  });
const missingToken = () =>
  new DomainError('UNAUTHENTICATED', 'An access token is required to request this resource.', { graph: { code: 190, type: 'OAuthException' } });
const invalidToken = () =>
  new DomainError('UNAUTHENTICATED', 'Invalid OAuth access token - Cannot parse access token', { graph: { code: 190, type: 'OAuthException' } });
const unsupported = (method: string, id: string) =>
  new DomainError(
    'BAD_USER_INPUT',
    `Unsupported ${method.toLowerCase()} request. Object with ID '${id}' does not exist, cannot be loaded due to missing permissions, or does not support this operation`,
    {
      graph: { code: 100, subcode: 33, type: 'GraphMethodException' },
    },
  );

/** v24.0 and v23.0 are served; an older vX.Y is deprecated (2635); anything else names no object. */
function checkVersion(method: string, version: string): void {
  if (SUPPORTED_VERSIONS.includes(version)) return;
  const match = /^v(\d+)\.(\d+)$/.exec(version);
  if (match && Number(match[1]) < 24) throw deprecatedVersion();
  throw unsupported(method, version);
}

function stringParam(params: Record<string, unknown>, name: string): string | undefined {
  const value = params[name];
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value !== 'string' && typeof value !== 'number') throw paramError(name, `Param ${name} must be a string`);
  return String(value);
}

/**
 * date_preset (the enum; `lifetime`, disabled since v10.0, reads as `maximum`) and time_range ({since, until};
 * an invalid range is ignored, as the platform ignores it). They scope the `insights{...}` a read expands
 * (insights.ts); a wrong preset is error 100.
 */
function checkReportingWindow(params: Record<string, unknown>): ReportingWindow {
  const datePreset = params.date_preset === '' ? undefined : optionalParam(params, 'date_preset', readDatePreset);
  let timeRange: { since: string; until: string } | undefined;
  try {
    const range = decodeJsonText(params.time_range, 'time_range') as { since?: unknown; until?: unknown } | undefined;
    const day = /^\d{4}-\d{2}-\d{2}$/;
    if (
      range &&
      typeof range.since === 'string' &&
      typeof range.until === 'string' &&
      day.test(range.since) &&
      day.test(range.until) &&
      !Number.isNaN(Date.parse(range.since)) &&
      !Number.isNaN(Date.parse(range.until)) &&
      range.since <= range.until
    ) {
      timeRange = { since: range.since, until: range.until };
    }
  } catch {
    timeRange = undefined;
  }
  return { datePreset, timeRange };
}

interface Output {
  ctx: RequestContext;
  dateFormat: 'iso' | 'unix';
  window: ReportingWindow;
}

function formatValue(out: Output, kind: string, value: unknown): unknown {
  if (value === null || value === undefined) return undefined;
  if (value instanceof Date) return graphTime(value, out.dateFormat);
  if (kind === 'money') return String(value);
  return value;
}

/** Frozen selections (parsedFields) found good for a node: an edge's children are checked at every parent. */
const checkedSelections = new WeakMap<FieldSelection[], Set<AnyGraphNode>>();

/** Every field asked for exists, even where there is nothing to print it on (an empty edge, an empty reference). */
function checkSelection(node: AnyGraphNode, selection: FieldSelection[] | undefined): void {
  if (selection === undefined) return;
  const frozen = Object.isFrozen(selection);
  if (frozen && checkedSelections.get(selection)?.has(node)) return;
  checkFields(node, selection);
  if (!frozen) return;
  let nodes = checkedSelections.get(selection);
  if (!nodes) checkedSelections.set(selection, (nodes = new Set()));
  nodes.add(node);
}

function checkFields(node: AnyGraphNode, selection: FieldSelection[]): void {
  for (const item of selection) {
    const edge = node.edges[item.name];
    if (item.name === 'insights' && hasInsights(node.name)) continue;
    if (edge) {
      checkSelection(NODES[edge.node], item.children);
      continue;
    }
    const field = node.fields[item.name];
    if (!field) throw unknownField(item.name, node.name);
    if (field.ref) checkSelection(NODES[field.ref], item.children);
    else if (item.children) throw unknownField(`${item.name}{${item.children.map((c) => c.name).join(',')}}`, node.name);
  }
}

/** The most objects `GET /?ids=` reads in one call. */
export const MAX_IDS = 50;

/**
 * `GET /v24.0/?ids=a,b,c`: each object read as `GET /<id>` would (same fields, same permissions, counted against
 * its account), keyed by id; an id that names nothing the caller may read answers its own error there, and the
 * others are still read.
 */
async function readMany(deps: AppDeps, request: GraphRequest): Promise<Record<string, unknown>> {
  const raw = request.params.ids;
  const list = typeof raw === 'string' ? raw.split(',') : Array.isArray(raw) ? raw.map(String) : [];
  const ids = [...new Set(list.map((id) => id.trim()).filter(Boolean))];
  if (ids.length === 0) throw paramError('ids', 'Param ids must list at least one id, separated by commas');
  if (ids.length > MAX_IDS) throw paramError('ids', `Param ids may list at most ${MAX_IDS} ids, got ${ids.length}`);
  const { ids: _ids, ...params } = request.params;
  const out: Record<string, unknown> = {};
  for (const id of ids) out[id] = (await dispatch(deps, { ...request, method: 'GET', path: [id], params })).body;
  return out;
}

/** `/me`: the person (User), API client (Application) or page (a page token) the token belongs to. */
async function callerOf(ctx: RequestContext): Promise<{ node: NodeName; record: unknown } | null> {
  const viewer = ctx.viewer;
  if (viewer.kind === 'user') {
    const user = await ctx.loaders.identity.userById.load(viewer.userId);
    return user ? { node: 'User', record: user } : null;
  }
  if (viewer.kind === 'client') {
    const client = await ctx.loaders.oauth.apiClientById.load(viewer.apiClientId);
    return client ? { node: 'Application', record: client } : null;
  }
  // A page token is the page, as the platform's /me answers with one.
  if (viewer.kind === 'page') {
    const page = await ctx.loaders.comments.pageById.load(viewer.pageId);
    return page ? { node: 'Page', record: page } : null;
  }
  return null;
}

const isPromiseLike = (value: unknown): value is PromiseLike<unknown> =>
  typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';

const isAnswerObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** An object with the selected fields; without a selection, its id alone. Empty values are left out. */
async function renderNode(out: Output, node: AnyGraphNode, record: unknown, selection: FieldSelection[] | undefined): Promise<Record<string, unknown>> {
  const result: Record<string, unknown> = { id: node.id(record) };
  for (const item of selection ?? node.defaultSelection ?? []) {
    const field = node.fields[item.name];
    const edge = node.edges[item.name];
    if (edge) {
      const filter = edge.filter && modifiersFilter(edge.filter, item.modifiers);
      result[item.name] = (await renderEdge(out, edge, record, edgePage(item.modifiers), item.children, filter)).body;
      continue;
    }
    const target = item.name === 'insights' ? insightsTargetOf(node.name, record) : undefined;
    if (target) {
      const insights = await expandInsights(out.ctx, target, item, out.window);
      if (insights) result.insights = insights;
      continue;
    }
    if (!field) throw unknownField(item.name, node.name);
    // A reference the list read with its items (projection.ts) is not loaded again. Most fields are a record's
    // own values: awaited only when a field gives a promise (a wait per field was a turn of the queue each).
    const got = (field.joins && joinedReference(record as object, field.joins.column)) ?? field.get(record, out.ctx);
    const value = isPromiseLike(got) ? await got : got;
    if (field.ref) {
      if (value) result[item.name] = await renderNode(out, NODES[field.ref], value, item.children);
      continue;
    }
    if (item.children) throw unknownField(`${item.name}{${item.children.map((c) => c.name).join(',')}}`, node.name);
    const formatted = formatValue(out, field.kind, value);
    if (formatted !== undefined) result[item.name] = formatted;
  }
  return result;
}

interface EdgeBody {
  data: Array<Record<string, unknown>>;
  paging?: { cursors: { before: string; after: string }; next?: string; previous?: string };
  summary?: { total_count: number };
}

async function renderEdge(
  out: Output,
  edge: GraphEdge<unknown>,
  parent: unknown,
  page: PageRequest,
  children: FieldSelection[] | undefined,
  filter?: unknown,
): Promise<{ body: EdgeBody; hasNext: boolean; hasPrevious: boolean }> {
  const node = NODES[edge.node];
  checkSelection(node, children);
  const shown = children ?? edge.defaultSelection;
  const slice = await edge.edge.list(out.ctx, parent, page, filter, selectionPlan(node, shown ?? node.defaultSelection ?? []));
  const data = await Promise.all(slice.items.map((item) => renderNode(out, node, item, shown)));
  const body: EdgeBody = { data };
  const first = slice.items[0];
  const last = slice.items.at(-1);
  if (first && last) body.paging = { cursors: { before: encodeCursor(first.id), after: encodeCursor(last.id) } };
  return { body, hasNext: slice.hasNextPage, hasPrevious: slice.hasPreviousPage };
}

/**
 * The link to the neighbouring page: the same call with after (or before) moved to this page's edge, at the server's
 * configured address (PUBLIC_URL), never at one the request named (its Host header is the caller's to choose).
 */
function pagingLink(publicUrl: string, request: GraphRequest, direction: 'after' | 'before', cursor: string): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(request.params)) {
    if (name === 'after' || name === 'before' || value === undefined || value === null) continue;
    query.set(name, typeof value === 'string' ? value : JSON.stringify(value));
  }
  query.set(direction, cursor);
  return `${publicUrl}/${request.version}/${request.path.join('/')}?${query.toString()}`;
}

async function handle(deps: AppDeps, request: GraphRequest, headers: Record<string, string>): Promise<unknown> {
  checkVersion(request.method, request.version);
  const token = stringParam(request.params, 'access_token') ?? request.headerToken;
  if (!token) throw missingToken();
  const viewer = await resolvePrincipal(deps, token);
  if (!viewer) throw invalidToken();
  const ctx = createRequestContext(deps, {
    requestId: request.requestId,
    viewer,
    ip: request.ip,
    log: request.logger,
    origin: { application: 'Graph API' },
    sharedCaches: true,
  });

  if (request.path.length === 0 && request.method.toUpperCase() === 'GET' && request.params.ids !== undefined) return readMany(deps, request);
  const [id, edgeName, ...rest] = request.path;
  if (!id) throw unsupported(request.method, '');
  if (rest.length > 0) throw unsupported(request.method, request.path.join('/'));
  refuseDiscontinuedId(id);
  const found = id === 'me' ? await callerOf(ctx) : await findObject(ctx, id);
  const nodeName = found ? ('node' in found ? found.node : NODE_OF_KIND[found.kind]) : undefined;
  if (!found || !nodeName) throw unsupported(request.method, id);
  const node = NODES[nodeName];
  const record = found.record;

  // Every call about an ad account counts against it, and says how much of the allowance is used.
  const accountId = node.accountId?.(record);
  let started: Awaited<ReturnType<typeof checkAccountAllowance>> | undefined;
  try {
    if (accountId) started = await checkAccountAllowance(deps, accountId);
    const method = request.method.toUpperCase();
    const out: Output = {
      ctx,
      dateFormat: stringParam(request.params, 'date_format') === 'U' ? 'unix' : 'iso',
      window: method === 'GET' ? checkReportingWindow(request.params) : {},
    };
    const fieldsParam = stringParam(request.params, 'fields');
    const selection = fieldsParam !== undefined ? parsedFields(fieldsParam) : undefined;

    if (method === 'POST' || method === 'DELETE') {
      const write = writeOf(nodeName, method, edgeName);
      if (!write) throw unsupported(method, edgeName === undefined ? id : `${id}/${edgeName}`);
      // Read after write: `fields` on a POST answers the object written (updated, or created on the edge) with
      // those fields. They are checked before the write, so a bad field refuses the call with nothing written.
      // POST /<object>/insights and /<app>/subscriptions take `fields` as their own parameter (the report's, the
      // webhook fields).
      const readBack = method === 'POST' && selection !== undefined && !FIELDS_ARE_PARAMETERS.has(edgeName ?? '');
      const written = readBack ? writtenNode(nodeName, edgeName) : undefined;
      if (readBack) {
        if (!written) throw paramError('fields', `Param fields cannot be used with POST /${id}/${edgeName}: it writes no object to read back`);
        checkSelection(NODES[written], selection!);
      }
      const answer = await write(ctx, record, request.params);
      if (!written || !isAnswerObject(answer)) return answer;
      const writtenId = edgeName === undefined ? id : answer.id;
      const after = typeof writtenId === 'string' ? await findObject(ctx, writtenId) : null;
      return after ? { ...answer, ...(await renderNode(out, NODES[written], after.record, selection)) } : answer;
    }
    if (nodeName === 'AdReportRun' && edgeName === 'insights' && method === 'GET') {
      // The result of an asynchronous report, printed as the report asked when it was made (report-runs.ts).
      const page = pageRequest({
        limit: stringParam(request.params, 'limit'),
        after: stringParam(request.params, 'after'),
        before: stringParam(request.params, 'before'),
      });
      return await readReportRunInsights(ctx, record as ReportRunRecord, page, (to, cursor) => pagingLink(deps.config.publicUrl, request, to, cursor));
    }
    if (edgeName === undefined) {
      if (method !== 'GET') throw unsupported(method, id);
      checkSelection(node, selection);
      return await renderNode(out, node, record, selection);
    }
    const target = edgeName === 'insights' && method === 'GET' ? insightsTargetOf(nodeName, record) : undefined;
    if (target) return await readInsights(ctx, target, request.params, (to, cursor) => pagingLink(deps.config.publicUrl, request, to, cursor));
    const edge = node.edges[edgeName];
    if (method !== 'GET' || !edge) throw unsupported(method, `${id}/${edgeName}`);
    const page = pageRequest({
      limit: stringParam(request.params, 'limit'),
      after: stringParam(request.params, 'after'),
      before: stringParam(request.params, 'before'),
    });
    const filter = edge.filter?.(request.params);
    const { body, hasNext, hasPrevious } = await renderEdge(out, edge, record, page, selection, filter);
    if (body.paging) {
      if (hasNext) body.paging.next = pagingLink(deps.config.publicUrl, request, 'after', body.paging.cursors.after);
      if (hasPrevious) body.paging.previous = pagingLink(deps.config.publicUrl, request, 'before', body.paging.cursors.before);
    }
    const summary = stringParam(request.params, 'summary');
    if (summary === 'total_count' || summary === 'true') body.summary = { total_count: await edge.edge.count(ctx, record, filter) };
    return body;
  } finally {
    if (accountId) {
      const counted = started ? await recordAccountCall(deps, accountId, started) : undefined;
      headers['X-Business-Use-Case-Usage'] = JSON.stringify(await accountUsage(deps, accountId, counted));
    }
  }
}

/** Answers one call: the object, the edge page or the write's result, or the Graph error envelope. */
export async function dispatch(deps: AppDeps, request: GraphRequest): Promise<GraphResponse> {
  const headers: Record<string, string> = { 'x-fb-trace-id': request.requestId };
  try {
    const body = await handle(deps, request, headers);
    return { status: 200, headers, body };
  } catch (error) {
    const refusal = graphErrorResponse(error, request.requestId, request.logger());
    return { status: refusal.status, headers: { ...headers, ...refusal.headers }, body: refusal.body };
  }
}
