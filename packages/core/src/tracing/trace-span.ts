import type { SpanAttributes } from './span-attributes.js';

/** The slice of `@opentelemetry/api` this module uses. */
type OtelApi = {
  trace: {
    getTracer(name: string, version?: string): OtelTracer;
    getActiveSpan(): OtelSpan | undefined;
  };
  SpanStatusCode: { OK: number; ERROR: number };
};
type OtelTracer = {
  startActiveSpan<T>(name: string, options: { attributes?: Record<string, unknown> }, fn: (span: OtelSpan) => T): T;
};
type OtelSpan = {
  setAttributes(attributes: Record<string, unknown>): unknown;
  setStatus(status: { code: number; message?: string }): unknown;
  recordException(exception: unknown): unknown;
  end(): void;
  isRecording(): boolean;
};

/** The tracer's instrumentation scope. */
export const TRACER_NAME = '@compaction/core';

let api: OtelApi | null | undefined;
let loading: Promise<OtelApi | null> | undefined;

/**
 * Loads `@opentelemetry/api` on first use: an optional peer dependency, so when
 * it is not installed nothing is traced and nothing else is loaded.
 */
async function loadApi(): Promise<OtelApi | null> {
  if (api !== undefined) return api;
  loading ??= import('@opentelemetry/api').then(
    (module) => ((module as unknown as OtelApi).trace !== undefined ? (module as unknown as OtelApi) : null),
    () => null,
  );
  api = await loading;
  return api;
}

/** What a traced function may add to its span while it runs. */
export type SpanRecorder = {
  /** Adds attributes (undefined values are left out). */
  set(attributes: SpanAttributes): void;
  /** Marks the span failed with `message`, for a failure reported without a throw. */
  fail(message: string): void;
  /** Whether anything is recorded: false without `@opentelemetry/api` or a registered tracer provider. */
  readonly recording: boolean;
};

const NOOP_RECORDER: SpanRecorder = { set() {}, fail() {}, recording: false };

/**
 * Runs `fn` inside a span named `name`, the active span while it runs, so spans
 * started inside it (ours, or a framework's) become its children, and it
 * becomes a child of whatever span was active (the AI SDK's call span when its
 * telemetry is on). A thrown error is recorded on the span and rethrown.
 * Without `@opentelemetry/api` installed (or with no tracer provider
 * registered) `fn` just runs.
 */
export async function traceSpan<T>(
  name: string,
  attributes: SpanAttributes,
  fn: (span: SpanRecorder) => Promise<T>,
): Promise<T> {
  const otel = await loadApi();
  if (!otel) return fn(NOOP_RECORDER);
  const tracer = otel.trace.getTracer(TRACER_NAME);
  return tracer.startActiveSpan(name, { attributes: definedAttributes(attributes) }, async (span) => {
    let failure: string | undefined;
    const recorder: SpanRecorder = {
      set: (more) => void span.setAttributes(definedAttributes(more)),
      fail: (message) => {
        failure = message;
      },
      recording: span.isRecording(),
    };
    try {
      const result = await fn(recorder);
      span.setStatus(
        failure === undefined
          ? { code: otel.SpanStatusCode.OK }
          : { code: otel.SpanStatusCode.ERROR, message: failure },
      );
      return result;
    } catch (error) {
      span.recordException(error instanceof Error ? error : new Error(String(error)));
      span.setStatus({
        code: otel.SpanStatusCode.ERROR,
        message: error instanceof Error ? error.message : String(error),
      });
      throw error;
    } finally {
      span.end();
    }
  });
}

/**
 * Adds attributes to the active span, if tracing is loaded and a span is
 * active: how a summarizer reports its model id and token usage on the
 * `compaction.summarize` span around it.
 */
export function annotateActiveSpan(attributes: SpanAttributes): void {
  api?.trace.getActiveSpan()?.setAttributes(definedAttributes(attributes));
}

function definedAttributes(attributes: SpanAttributes): Record<string, unknown> {
  const defined: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(attributes)) {
    if (value === undefined) continue;
    if (typeof value === 'number' && !Number.isFinite(value)) continue;
    defined[key] = value;
  }
  return defined;
}
