import { context, diag, DiagLogLevel, propagation, trace, type Tracer } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  AlwaysOnSampler,
  BatchSpanProcessor,
  ConsoleSpanExporter,
  ParentBasedSampler,
  SimpleSpanProcessor,
  TraceIdRatioBasedSampler,
  TracerProvider,
  type Sampler,
  type SpanExporter,
} from '@opentelemetry/sdk-trace';
import { ATTR_SERVICE_NAME } from '@opentelemetry/semantic-conventions';
import type { TracingConfig } from '../config/index.ts';
import type { Logger } from '../logging/index.ts';

/**
 * OpenTelemetry traces, started by hand (no auto-instrumentation: its ESM import hooks are fragile, and each
 * layer here already has a hook of its own, see ./spans.ts). Off unless configured (TracingConfig): then no
 * provider is registered, the spans' hooks are not installed at all, and the API's tracer is its no-op one.
 * One provider per process: the server that starts it stops it (flushing what is queued).
 */
export interface Tracing {
  /** Exports what is still queued, then unregisters the provider, the context manager and the propagator. */
  shutdown(): Promise<void>;
}

let running: TracerProvider | undefined;

/** How long a stop waits for the spans still queued to be exported. */
const FLUSH_BOUND_MS = 2_000;

/** Whether this process records spans: the hooks of ./spans.ts are installed only then. */
export function tracingActive(): boolean {
  return running !== undefined;
}

let runningTracer: Tracer | undefined;

/** The tracer every span of this server comes from: the running provider's (asked once, not per span), else the API's no-op one. */
export function tracer(): Tracer {
  return runningTracer ?? trace.getTracer('adgraph');
}

/**
 * Registers the provider that exports spans as `config` says, or `options.exporter` (tests: an in-memory
 * exporter, each span handed over as it ends). Export failures (a collector that is down) are logged at warn.
 */
export function startTracing(config: TracingConfig, log: Logger, options: { exporter?: SpanExporter } = {}): Tracing | undefined {
  if (running) throw new Error('tracing is already started in this process');
  const processor = options.exporter
    ? new SimpleSpanProcessor({ exporter: options.exporter })
    : config.exporter === 'otlp'
      ? // Batched: spans are queued (at most 2048, then dropped) and sent every 5 s, off the request's path.
        new BatchSpanProcessor({ exporter: new OTLPTraceExporter({ url: config.endpoint }) })
      : config.exporter === 'console'
        ? new SimpleSpanProcessor({ exporter: new ConsoleSpanExporter() })
        : undefined;
  if (!processor) return undefined;
  const serviceName = config.exporter === 'none' ? 'adgraph' : config.serviceName;
  const provider = new TracerProvider({
    sampler: samplerOf(config),
    resource: resourceFromAttributes({ [ATTR_SERVICE_NAME]: serviceName }),
    spanProcessors: [processor],
  });
  // The SDK reports its own troubles (an export refused) through `diag`; the messages name no header values.
  diag.setLogger(
    {
      error: (message) => log.warn({ tracing: message }, 'tracing: export failed'),
      warn: (message) => log.warn({ tracing: message }, 'tracing'),
      info: () => undefined,
      debug: () => undefined,
      verbose: () => undefined,
    },
    { logLevel: DiagLogLevel.WARN, suppressOverrideMessage: true },
  );
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(provider);
  running = provider;
  runningTracer = provider.getTracer('adgraph');
  return {
    async shutdown() {
      if (running !== provider) return;
      running = undefined;
      runningTracer = undefined;
      try {
        // A collector that is down would hold the stop for the exporter's retries (five, backing off): what it
        // has not taken by then is lost, as a log line is that was never written.
        await Promise.race([provider.shutdown(), new Promise((resolve) => setTimeout(resolve, FLUSH_BOUND_MS).unref())]);
      } finally {
        trace.disable();
        propagation.disable();
        context.disable();
        diag.disable();
      }
    },
  };
}

/**
 * Which traces are recorded: every one (the default), or the share OTEL_TRACES_SAMPLER_ARG says of those that
 * start here; a trace the caller started follows the caller's `sampled` flag either way (parent-based).
 */
function samplerOf(config: TracingConfig): Sampler {
  const ratio = config.exporter === 'none' ? 1 : config.sampleRatio;
  return new ParentBasedSampler({ root: ratio < 1 ? new TraceIdRatioBasedSampler(ratio) : new AlwaysOnSampler() });
}
