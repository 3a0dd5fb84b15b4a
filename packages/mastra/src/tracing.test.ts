import { describe, expect, it } from 'vitest';
import { recordSpans } from '../../core/test/record-spans.js';
import { coderAgent, SMALL_WINDOW } from './__fixtures__/agent-fixtures.js';
import { scriptedModel } from './__fixtures__/scripted-model.js';
import { CompactionProcessor } from './compaction-processor.js';

const exporter = recordSpans();

describe('compaction spans in a Mastra agent', () => {
  it('records each compaction of a long run as a compaction span with its children', async () => {
    const scripted = scriptedModel((_prompt, call) =>
      call < 12 ? { toolCalls: [{ toolName: 'readFile', input: { path: `file${call}.ts` } }] } : { text: 'All read.' },
    );
    const agent = coderAgent({
      model: scripted.model,
      inputProcessors: [
        new CompactionProcessor({ settings: { ...SMALL_WINDOW, pruneToolOutputs: false }, sessionId: 'mastra-traced' }),
      ],
    });
    await agent.generate('Read all the files.', { maxSteps: 14 });
    const spans = exporter.getFinishedSpans().filter((span) => span.name === 'compaction');
    expect(spans.length).toBeGreaterThan(0);
    for (const span of spans) {
      expect(span.attributes['compaction.session.id']).toBe('mastra-traced');
      expect(span.attributes['compaction.trigger']).toBe('auto');
    }
    const done = spans.find((span) => span.attributes['compaction.strategy'] === 'llm')!;
    const children = exporter
      .getFinishedSpans()
      .filter((span) => span.parentSpanContext?.spanId === done.spanContext().spanId);
    const summarize = children.find((span) => span.name === 'compaction.summarize')!;
    expect(summarize.attributes['gen_ai.request.model']).toBe('mock-model');
    expect(summarize.attributes['gen_ai.usage.input_tokens']).toBeGreaterThan(0);
  });
});
