import { trace } from '@opentelemetry/api';
import { describe, expect, it } from 'vitest';
import { recordSpans } from '../../test/record-spans.js';
import { SPAN_ATTRIBUTES, SPAN_NAMES } from './span-attributes.js';
import { annotateActiveSpan, traceSpan } from './trace-span.js';

const exporter = recordSpans();

describe('traceSpan', () => {
  it('records a span with its attributes, children nested inside it, and an OK status', async () => {
    const result = await traceSpan(SPAN_NAMES.compaction, { [SPAN_ATTRIBUTES.sessionId]: 's1' }, async (span) => {
      await traceSpan(SPAN_NAMES.summarize, { [SPAN_ATTRIBUTES.summarizer]: 'llm' }, async () => {
        annotateActiveSpan({ [SPAN_ATTRIBUTES.requestModel]: 'gpt-5-mini', [SPAN_ATTRIBUTES.inputTokens]: 1200 });
      });
      span.set({ [SPAN_ATTRIBUTES.tokensAfter]: 300, [SPAN_ATTRIBUTES.summaryTokens]: undefined });
      return 42;
    });
    expect(result).toBe(42);
    const spans = exporter.getFinishedSpans();
    const parent = spans.find((span) => span.name === 'compaction')!;
    const child = spans.find((span) => span.name === 'compaction.summarize')!;
    expect(child.parentSpanContext?.spanId).toBe(parent.spanContext().spanId);
    expect(parent.attributes).toEqual({ 'compaction.session.id': 's1', 'compaction.tokens.after': 300 });
    expect(child.attributes).toEqual({
      'compaction.summarizer': 'llm',
      'gen_ai.request.model': 'gpt-5-mini',
      'gen_ai.usage.input_tokens': 1200,
    });
    expect(parent.status.code).toBe(1);
  });

  it('becomes a child of the span active when it starts', async () => {
    const tracer = trace.getTracer('app');
    await tracer.startActiveSpan('app.call', async (outer) => {
      await traceSpan(SPAN_NAMES.save, {}, async () => undefined);
      outer.end();
    });
    const spans = exporter.getFinishedSpans();
    const outer = spans.find((span) => span.name === 'app.call')!;
    const save = spans.find((span) => span.name === 'compaction.save')!;
    expect(save.parentSpanContext?.spanId).toBe(outer.spanContext().spanId);
  });

  it('records a thrown error on the span and rethrows it', async () => {
    await expect(
      traceSpan(SPAN_NAMES.summarize, {}, async () => {
        throw new Error('model timed out');
      }),
    ).rejects.toThrow('model timed out');
    const [span] = exporter.getFinishedSpans();
    expect(span!.status).toEqual({ code: 2, message: 'model timed out' });
    expect(span!.events.map((event) => event.name)).toEqual(['exception']);
  });
});
