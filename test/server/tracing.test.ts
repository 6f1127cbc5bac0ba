import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { context, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { InMemorySpanExporter, type ReadableSpan } from '@opentelemetry/sdk-trace';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { advertiserWithAdTree, type AdTree } from '../helpers/insights.ts';
import { createRequestContext } from '../../src/context/index.ts';
import { dialect } from '../../src/db/index.ts';
import { restorePrincipal } from '../../src/identity/principals.ts';
import { startJobRunner } from '../../src/jobs/index.ts';
import { createReportRun } from '../../src/insights/reports/service.ts';
import { reportRuns } from '../../src/insights/reports/store.ts';
import { createLogger } from '../../src/logging/index.ts';
import { JOB_KINDS } from '../../src/server/jobs.ts';
import { startTracing, tracingActive, type Tracing } from '../../src/telemetry/tracing.ts';

/**
 * OpenTelemetry traces of a real server on loopback: a GraphQL request continuing the caller's `traceparent`
 * gives an HTTP span, the operation's span under it and its SQL statements under those; a job run gives a trace
 * of its own; a server configured for OTLP sends protobuf to the collector; an unconfigured one registers nothing.
 * (Describe blocks run in order: tracing is one per process.)
 */

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const CALLER_SPAN_ID = '00f067aa0ba902b7';

const NESTED = `query NestedRead($account: ID!) {
  adSets(accountId: $account, first: 10) { nodes { name campaign { name } ads(first: 5) { nodes { name } } } }
}`;

const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

/** Waits (a response's span ends when its connection is done with it, just after the client read it) for `found`. */
async function eventually<T>(found: () => T | undefined, what: string): Promise<T> {
  for (let i = 0; i < 200; i++) {
    const value = found();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`not found in time: ${what}`);
}

describe('tracing off (no OTEL_* variables)', () => {
  it('registers no provider: the tracer is the no-op one and a traceparent starts nothing', async () => {
    const server = await startTestServer();
    try {
      expect(tracingActive()).toBe(false);
      expect(trace.getTracer('probe').startSpan('probe').isRecording()).toBe(false);
      const response = await post(server.url, { query: '{ __typename }' }, { traceparent: `00-${TRACE_ID}-${CALLER_SPAN_ID}-01` });
      expect(response.status).toBe(200);
      expect(tracingActive()).toBe(false);
    } finally {
      await server.close();
    }
  });
});

describe('a traced server', () => {
  const exporter = new InMemorySpanExporter();
  let tracing: Tracing;
  let server: TestServer;
  let token: string;
  let userId: string;
  let tree: AdTree;

  beforeAll(async () => {
    tracing = (await startTracing({ exporter: 'none' }, createLogger('silent'), { exporter }))!;
    // Every statement a span (TRACE_SQL_MIN_MS=0), to see where each one lands; the default is shown below.
    server = await startTestServer({ ASYNC_RUNNER: 'false', TRACE_SQL_MIN_MS: '0' });
    ({ token, userId, tree } = await advertiserWithAdTree(server.deps, { campaigns: 2, adSetsPerCampaign: 2, adsPerAdSet: 2 }));
  });
  afterAll(async () => {
    await server?.close();
    await tracing?.shutdown();
  });

  const spansOf = (traceId: string) => exporter.getFinishedSpans().filter((span) => span.spanContext().traceId === traceId);
  const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;

  it('continues the caller’s traceparent: HTTP span, then the operation, then its SQL statements', async () => {
    const response = await post(
      server.url,
      { query: NESTED, variables: { account: tree.account.id }, operationName: 'NestedRead' },
      { 'service-session-token': token, traceparent: `00-${TRACE_ID}-${CALLER_SPAN_ID}-01` },
    );
    expect(((await response.json()) as { errors?: unknown }).errors).toBeUndefined();
    const http = await eventually(() => spansOf(TRACE_ID).find((span) => span.kind === SpanKind.SERVER), 'the HTTP span');
    const spans = spansOf(TRACE_ID);

    expect(parentOf(http)).toBe(CALLER_SPAN_ID);
    expect(http.name).toBe('POST /graphql');
    expect(http.attributes).toMatchObject({
      'http.request.method': 'POST',
      'http.route': '/graphql',
      'url.path': '/graphql',
      'http.response.status_code': 200,
      'adgraph.caller.kind': 'user',
      'adgraph.caller.user_id': userId,
    });
    expect(http.status.code).toBe(SpanStatusCode.UNSET);

    const operation = spans.find((span) => span.attributes['graphql.operation.name'] === 'NestedRead');
    expect(operation?.name).toBe('query NestedRead');
    expect(operation?.attributes['graphql.operation.type']).toBe('query');
    expect(parentOf(operation!)).toBe(http.spanContext().spanId);

    const statements = spans.filter((span) => span.kind === SpanKind.CLIENT);
    expect(statements.length).toBe(http.attributes['adgraph.sql.statements']);
    expect(http.attributes['adgraph.sql.duration_ms']).toBeGreaterThan(0);
    // Authentication reads the session before GraphQL runs; the operation's reads are under the operation.
    const underOperation = statements.filter((span) => parentOf(span) === operation!.spanContext().spanId);
    expect(underOperation.length).toBeGreaterThan(0);
    expect(statements.every((span) => [http.spanContext().spanId, operation!.spanContext().spanId].includes(parentOf(span)!))).toBe(true);
    const system = dialect(server.deps.db) === 'postgres' ? 'postgresql' : 'sqlite';
    for (const span of statements) {
      expect(span.attributes['db.system.name']).toBe(system);
      expect(span.attributes['db.query.text']).toMatch(/^select /i);
      expect(span.name).toBe('SELECT');
    }
    // Bound values stay out: the account's id is a value of the operation's first read, never in its text.
    const recorded = JSON.stringify(spans.map((span) => [span.name, span.attributes]));
    expect(recorded).not.toContain(tree.account.id);
    expect(recorded).not.toContain(token);
  });

  it('records nothing of a request whose caller did not sample its trace (traceparent flags 00), and answers it', async () => {
    const unsampled = '5bf92f3577b34da6a3ce929d0e0e4737';
    const response = await post(
      server.url,
      { query: NESTED, variables: { account: tree.account.id }, operationName: 'NestedRead' },
      { 'service-session-token': token, traceparent: `00-${unsampled}-${CALLER_SPAN_ID}-00` },
    );
    const body = (await response.json()) as { data?: { adSets: { nodes: unknown[] } }; errors?: unknown };
    expect(body.errors).toBeUndefined();
    expect(body.data!.adSets.nodes.length).toBe(4);
    // A sampled request after it: once its span is out, the unsampled one's would have been too.
    await post(server.url, { query: '{ __typename }' }, { traceparent: `00-${TRACE_ID.replace('4', '6')}-${CALLER_SPAN_ID}-01` });
    await eventually(() => spansOf(TRACE_ID.replace('4', '6')).find((span) => span.kind === SpanKind.SERVER), 'the sampled request’s span');
    expect(spansOf(unsampled)).toEqual([]);
  });

  it('starts a trace of its own for a request without traceparent, and never records the query string', async () => {
    const before = new Set(exporter.getFinishedSpans().map((span) => span.spanContext().spanId));
    const secret = 'not-a-real-token-but-secret';
    const response = await fetch(`${server.url}/v24.0/me?access_token=${secret}`);
    await response.arrayBuffer();
    const http = await eventually(
      () => exporter.getFinishedSpans().find((span) => span.kind === SpanKind.SERVER && !before.has(span.spanContext().spanId)),
      'the HTTP span',
    );
    expect(http.parentSpanContext).toBeUndefined();
    expect(http.spanContext().traceId).not.toBe(TRACE_ID);
    expect(http.attributes['url.path']).toBe('/v24.0/me');
    expect(http.attributes['http.response.status_code']).toBe(response.status);
    expect(JSON.stringify(exporter.getFinishedSpans().map((span) => span.attributes))).not.toContain(secret);
  });

  it('runs each background job in a trace of its own, its statements under it', async () => {
    const viewer = (await restorePrincipal(server.deps, { kind: 'user', userId }))!;
    const ctx = createRequestContext(server.deps, { requestId: 'tracing-test', viewer });
    const day = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    const run = await createReportRun(
      ctx,
      { kind: 'account', id: tree.account.id },
      { fields: ['impressions'], level: 'ad', timeRange: { since: day, until: day }, breakdowns: [], actionBreakdowns: [], filtering: [], sort: [] },
    );
    const runner = startJobRunner(server.deps, JOB_KINDS, { pollMs: 20, leaseSeconds: 60 });
    let job: ReadableSpan;
    try {
      job = await eventually(
        () => exporter.getFinishedSpans().find((span) => span.name === 'job insights_report' && span.attributes['adgraph.job.id'] === run.id),
        'the job span',
      );
    } finally {
      await runner.stop();
    }
    const { status } = reportRuns.fromRow(await server.deps.db(reportRuns.table).where({ id: run.id }).first());
    expect(job.parentSpanContext).toBeUndefined();
    expect(job.attributes).toMatchObject({ 'adgraph.job.kind': 'insights_report', 'adgraph.job.attempt': 1 });
    const outcomes: Record<string, string> = { COMPLETED: 'done', FAILED: 'failed' };
    expect(job.attributes['adgraph.job.outcome']).toBe(outcomes[status]);
    const statements = spansOf(job.spanContext().traceId).filter((span) => span.kind === SpanKind.CLIENT);
    expect(statements.length).toBeGreaterThan(0);
    expect(statements.every((span) => parentOf(span) === job.spanContext().spanId)).toBe(true);
  });
});

describe('a traced server with a floor for statement spans (TRACE_SQL_MIN_MS)', () => {
  const exporter = new InMemorySpanExporter();
  let tracing: Tracing;
  let server: TestServer;

  beforeAll(async () => {
    tracing = (await startTracing({ exporter: 'none' }, createLogger('silent'), { exporter }))!;
    // A floor no statement of the test reaches: only failed ones become spans.
    server = await startTestServer({ ASYNC_RUNNER: 'false', TRACE_SQL_MIN_MS: '60000' });
  });
  afterAll(async () => {
    await server?.close();
    await tracing?.shutdown();
  });

  it('makes no span of a fast statement, but counts it and its time on the request’s span', async () => {
    const { token, tree } = await advertiserWithAdTree(server.deps, { campaigns: 1, adSetsPerCampaign: 2, adsPerAdSet: 1 });
    const response = await post(
      server.url,
      { query: NESTED, variables: { account: tree.account.id } },
      { 'service-session-token': token, traceparent: `00-${TRACE_ID}-${CALLER_SPAN_ID}-01` },
    );
    expect(((await response.json()) as { errors?: unknown }).errors).toBeUndefined();
    const http = await eventually(
      () => exporter.getFinishedSpans().find((span) => span.kind === SpanKind.SERVER && span.spanContext().traceId === TRACE_ID),
      'the HTTP span',
    );
    expect(http.attributes['adgraph.sql.statements']).toBeGreaterThan(2);
    expect(http.attributes['adgraph.sql.duration_ms']).toBeGreaterThan(0);
    expect(exporter.getFinishedSpans().filter((span) => span.kind === SpanKind.CLIENT && span.spanContext().traceId === TRACE_ID)).toEqual([]);
  });

  it('always makes a span of a failed statement, with the driver’s code and not its message', async () => {
    const parent = trace.getTracer('test').startSpan('caller');
    await expect(
      // Awaited inside: a knex statement runs when it is awaited, and must run in the caller's context.
      context.with(trace.setSpan(context.active(), parent), async () => await server.deps.db.raw('select secret_value from no_such_table')),
    ).rejects.toThrow(/no_such_table|does not exist/);
    parent.end();
    const failed = exporter
      .getFinishedSpans()
      .filter((span) => span.kind === SpanKind.CLIENT && span.parentSpanContext?.spanId === parent.spanContext().spanId);
    expect(failed).toHaveLength(1);
    expect(failed[0]!.name).toBe('SELECT');
    expect(failed[0]!.status.code).toBe(SpanStatusCode.ERROR);
    expect(failed[0]!.attributes['error.type']).toMatch(dialect(server.deps.db) === 'postgres' ? /^42P01$/ : /^SQLITE_ERROR$/);
    expect(failed[0]!.attributes['db.query.text']).toBe('select secret_value from no_such_table');
    expect(JSON.stringify([failed[0]!.attributes, failed[0]!.events, failed[0]!.status])).not.toMatch(/no such table|does not exist/);
  });
});

describe('a server configured for OTLP (OTEL_EXPORTER_OTLP_ENDPOINT)', () => {
  let collector: Server;
  const received: Array<{ path: string; contentType: string; body: Buffer }> = [];

  beforeAll(async () => {
    collector = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        received.push({ path: req.url ?? '', contentType: req.headers['content-type'] ?? '', body: Buffer.concat(chunks) });
        res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
      });
    });
    await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
  });
  afterAll(() => new Promise<void>((resolve) => collector.close(() => resolve())));

  it('exports the spans as OTLP protobuf to <endpoint>/v1/traces, sent at the latest when the server stops', async () => {
    const { port } = collector.address() as AddressInfo;
    const server = await startTestServer({ OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${port}`, OTEL_SERVICE_NAME: 'adgraph-under-test' });
    try {
      expect(tracingActive()).toBe(true);
      const response = await post(server.url, { query: 'query Probe { __typename }' }, { traceparent: `00-${TRACE_ID}-${CALLER_SPAN_ID}-01` });
      expect(response.status).toBe(200);
    } finally {
      await server.close();
    }
    expect(tracingActive()).toBe(false);
    expect(received.length).toBeGreaterThan(0);
    expect(received[0]).toMatchObject({ path: '/v1/traces', contentType: 'application/x-protobuf' });
    const sent = Buffer.concat(received.map((request) => request.body));
    // Protobuf keeps strings and ids as their bytes: the service, the operation's span and the caller's trace id.
    expect(sent.includes('adgraph-under-test')).toBe(true);
    expect(sent.includes('query Probe')).toBe(true);
    expect(sent.includes(Buffer.from(TRACE_ID, 'hex'))).toBe(true);
  });
});
