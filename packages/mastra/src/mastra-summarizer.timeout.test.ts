import { Agent } from '@mastra/core/agent';
import type { MastraModelConfig } from '@mastra/core/llm';
import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { deadlineSettings, expectSummaryDeadlineFallback, neverAnswering } from '../../core/test/summary-deadline.js';
import { scriptedModel } from './__fixtures__/scripted-model.js';
import { CompactionProcessor } from './compaction-processor.js';
import { mastraSummarizer } from './mastra-summarizer.js';

const settings = deadlineSettings(200);

describe('mastraSummarizer under a deadline (r09)', () => {
  it.each([
    ['listens to its abort signal', true],
    ['ignores its abort signal', false],
  ])(
    'a model behind a Mastra Agent that never answers and %s: aborted, and compaction falls back',
    async (_label, listens) => {
      const never = neverAnswering(listens);
      const model = new MockLanguageModelV4({ doGenerate: never.call });
      const summarizer = mastraSummarizer(model as unknown as MastraModelConfig);
      await expectSummaryDeadlineFallback(summarizer, () => never.signals, 200);
    },
  );
});

describe('CompactionProcessor on a Mastra Agent with a summary model that never answers (r09)', () => {
  it('agent.generate returns: the summary call is abandoned and the structured summary is used', async () => {
    const hanging = new MockLanguageModelV4({ doGenerate: () => new Promise(() => {}) });
    const scripted = scriptedModel(() => ({ text: 'Noted.' }));
    const ends: string[] = [];
    const agent = new Agent({
      id: 'chat',
      name: 'chat',
      instructions: 'Be brief.',
      model: scripted.model,
      inputProcessors: [
        new CompactionProcessor({
          settings,
          summarizer: mastraSummarizer(hanging as unknown as MastraModelConfig),
          onEvent: (event) => {
            if (event.type === 'compaction:end')
              ends.push(`${event.strategy} after ${event.fallbacks.map((f) => f.strategy)}`);
          },
        }),
      ],
    });
    const conversation = Array.from({ length: 27 }, (_, index) =>
      index % 2
        ? { role: 'assistant' as const, content: `Note ${index}: ${'w '.repeat(300)}` }
        : { role: 'user' as const, content: `Note ${index}: ${'w '.repeat(300)}` },
    );
    const result = await agent.generate(conversation);
    expect(result.text).toBe('Noted.');
    expect(ends).toEqual(['structured after llm']);
  });
});
