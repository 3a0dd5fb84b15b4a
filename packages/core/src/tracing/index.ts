export { SPAN_ATTRIBUTES, SPAN_NAMES, type SpanAttributes, type SpanAttributeValue } from './span-attributes.js';
export { annotateActiveSpan, type SpanRecorder, TRACER_NAME, traceSpan } from './trace-span.js';
