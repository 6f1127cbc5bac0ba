import { context, diag, DiagLogLevel, propagation, trace, type Tracer } from '@opentelemetry/api';
import type { Sampler, SpanExporter, SpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
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
export async function startTracing(config: TracingConfig, log: Logger, options: { exporter?: SpanExporter } = {}): Promise<Tracing | undefined> {
  if (running) throw new Error('tracing is already started in this process');
  if (!options.exporter && config.exporter === 'none') return undefined;
  // The SDK is loaded only when traces are exported: a process that does not trace (the default, and every
  // command of the command line) starts without it, about a fifth of a second less.
  const [sdk, { AsyncLocalStorageContextManager }, { W3CTraceContextPropagator }, { resourceFromAttributes }, { ATTR_SERVICE_NAME }] = await Promise.all([
    import('@opentelemetry/sdk-trace'),
    import('@opentelemetry/context-async-hooks'),
    import('@opentelemetry/core'),
    import('@opentelemetry/resources'),
    import('@opentelemetry/semantic-conventions'),
  ]);
  let processor: SpanProcessor;
  if (options.exporter) processor = new sdk.SimpleSpanProcessor({ exporter: options.exporter });
  else if (config.exporter === 'otlp') {
    const { OTLPTraceExporter } = await import('@opentelemetry/exporter-trace-otlp-proto');
    // Batched: spans are queued (at most 2048, then dropped) and sent every 5 s, off the request's path.
    processor = new sdk.BatchSpanProcessor({ exporter: new OTLPTraceExporter({ url: config.endpoint }) });
  } else processor = new sdk.SimpleSpanProcessor({ exporter: new sdk.ConsoleSpanExporter() });
  // Another start may have finished while this one loaded the SDK.
  if (running) throw new Error('tracing is already started in this process');
  const serviceName = config.exporter === 'none' ? 'adgraph' : config.serviceName;
  const provider = new sdk.TracerProvider({
    sampler: samplerOf(sdk, config),
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
function samplerOf(sdk: typeof import('@opentelemetry/sdk-trace'), config: TracingConfig): Sampler {
  const ratio = config.exporter === 'none' ? 1 : config.sampleRatio;
  return new sdk.ParentBasedSampler({ root: ratio < 1 ? new sdk.TraceIdRatioBasedSampler(ratio) : new sdk.AlwaysOnSampler() });
}
