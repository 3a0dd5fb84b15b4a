import { OpenTelemetry } from '@ai-sdk/otel';
import { generateText, type ModelMessage, wrapLanguageModel } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { recordSpans } from '../../core/test/record-spans.js';
import { conversation, promptTokens, textResult } from './__fixtures__/model-fixtures.js';
import { compactionMiddleware } from './compaction-middleware.js';

const exporter = recordSpans();

const settings = { contextWindow: 8000, reserveTokens: 1000, keepRecentTokens: 1500, trigger: 0.5 };

describe('compaction spans under the AI SDK telemetry', () => {
  it('nests the compaction span inside the SDK call span, with its summarize and save children', async () => {
    const mock = new MockLanguageModelV4({
      doGenerate: async ({ prompt }) => textResult('Done.', promptTokens(prompt)),
    });
    const model = wrapLanguageModel({
      model: mock,
      middleware: compactionMiddleware({ settings, summarizer: 'structured' }),
    });
    const messages: ModelMessage[] = [...conversation(60), { role: 'user', content: 'And now?' }];
    await generateText({
      model,
      messages,
      telemetry: { integrations: new OpenTelemetry(), functionId: 'chat' },
      providerOptions: { compaction: { sessionId: 'traced-chat' } },
    });

    const spans = exporter.getFinishedSpans();
    const compaction = spans.find((span) => span.name === 'compaction');
    expect(compaction, spans.map((span) => span.name).join(', ')).toBeDefined();
    expect(compaction!.attributes).toMatchObject({
      'compaction.session.id': 'traced-chat',
      'compaction.trigger': 'auto',
      'compaction.strategy': 'structured',
    });
    const parent = spans.find((span) => span.spanContext().spanId === compaction!.parentSpanContext?.spanId);
    expect(parent, 'the compaction span has a parent among the SDK spans').toBeDefined();
    expect(parent!.spanContext().traceId).toBe(compaction!.spanContext().traceId);
    expect(parent!.name).not.toMatch(/^compaction/);
    const children = spans.filter((span) => span.parentSpanContext?.spanId === compaction!.spanContext().spanId);
    expect(children.map((span) => span.name).sort()).toEqual(
      expect.arrayContaining(['compaction.save', 'compaction.summarize']),
    );
  });
});
