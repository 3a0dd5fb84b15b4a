import { context, trace } from '@opentelemetry/api';
import { InMemorySpanExporter, NodeTracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-node';
import { afterAll, beforeEach } from 'vitest';

/**
 * Records the OpenTelemetry spans of one test file in memory: registers a global
 * tracer provider for the file, empties the exporter before each test, and shuts
 * the provider down and unregisters the global API after the file. Returns the
 * exporter to read the finished spans from. For the tracing tests of core and
 * the adapters (private: it needs vitest and the SDK, which the packages do not ship).
 */
export function recordSpans(): InMemorySpanExporter {
  const exporter = new InMemorySpanExporter();
  const provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  provider.register();
  beforeEach(() => exporter.reset());
  afterAll(async () => {
    await provider.shutdown();
    trace.disable();
    context.disable();
  });
  return exporter;
}
