import { SUMMARY_PREFIX } from '@compaction/core';
import { Agent } from '@mastra/core/agent';
import { type InputProcessor, TokenLimiterProcessor } from '@mastra/core/processors';
import { InMemoryStore } from '@mastra/core/storage';
import { createTool } from '@mastra/core/tools';
import { Memory } from '@mastra/memory';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { lastUserText, promptText, toolTraffic } from './__fixtures__/agent-fixtures.js';
import { type ModelPrompt, scriptedModel } from './__fixtures__/scripted-model.js';
import { CompactionProcessor } from './compaction-processor.js';

const HITS = 'lorem ipsum dolor sit amet '.repeat(450);

const search = createTool({
  id: 'search',
  description: 'Search the docs',
  inputSchema: z.object({ query: z.string() }),
  execute: async () => ({ hits: HITS }), // about 2,250 tokens
});

/**
 * Eight earlier turns of plain talk (about 1,200 tokens), then a request that
 * needs one large search (about 2,250 tokens): more than either processor's
 * budget. The limiter's limit (2,000) is below the size of the run's own tool
 * traffic, the situation of mastra-ai/mastra#24110; compaction works to a
 * 4,000-token window (trigger 3,200), which the result fits but the whole
 * conversation does not.
 */
async function sendLongConversation(processor: InputProcessor) {
  const scripted = scriptedModel((prompt: ModelPrompt) => {
    if (prompt.at(-1)?.role === 'tool') return { text: 'Found it.' };
    const request = lastUserText(prompt);
    if (request.startsWith('Search')) return { toolCalls: [{ toolName: 'search', input: { query: 'retries' } }] };
    return { text: `About ${request}: ${'some background worth a few words. '.repeat(20)}` };
  });
  const storage = new InMemoryStore();
  const thread = { memory: { thread: 't1', resource: 'u1' } };
  const base = {
    id: 'docs',
    name: 'docs',
    instructions: 'Answer from the docs.',
    model: scripted.model,
    tools: { search },
  };
  const memory = () => new Memory({ storage, options: { lastMessages: 1000 } });
  const plain = new Agent({ ...base, memory: memory() });
  for (let turn = 0; turn < 8; turn += 1) await plain.generate(`topic ${turn}`, thread);

  const firstCall = scripted.agentPrompts.length;
  const agent = new Agent({ ...base, memory: memory(), inputProcessors: [processor] });
  const result = await agent.generate('Search the docs for retries.', { ...thread, maxSteps: 3 });
  return { result, sent: scripted.agentPrompts.slice(firstCall), summaryPrompts: scripted.summaryPrompts };
}

describe('the same long conversation through TokenLimiterProcessor and CompactionProcessor', () => {
  it('TokenLimiterProcessor drops the run’s own tool call and result: the model calls the tool again (mastra-ai/mastra#24110)', async () => {
    const { result, sent } = await sendLongConversation(new TokenLimiterProcessor(2000));
    const afterTheCall = sent[1]!;
    expect(afterTheCall.map((message) => message.role)).not.toContain('tool');
    expect(toolTraffic(afterTheCall).calls.size).toBe(0);
    expect(promptText(afterTheCall)).not.toContain(SUMMARY_PREFIX);
    expect(promptText(afterTheCall)).toContain('topic 7'); // older turns kept instead
    expect(result.finishReason).toBe('tool-calls');
    expect(sent).toHaveLength(3);
    expect(result.steps.flatMap((step) => step.toolCalls)).toHaveLength(3);
  });

  it('CompactionProcessor keeps the run’s tool call and result and sends a summary of the earlier turns', async () => {
    const processor = new CompactionProcessor({
      settings: { contextWindow: 4000, reserveTokens: 500, keepRecentTokens: 1000 },
    });
    const { result, sent, summaryPrompts } = await sendLongConversation(processor);
    const afterTheCall = sent[1]!;
    const { calls, results } = toolTraffic(afterTheCall);
    expect([...calls.values()]).toEqual([{ query: 'retries' }]);
    expect(JSON.stringify([...results.values()])).toContain(HITS.slice(0, 200));
    expect(promptText(afterTheCall)).toContain(SUMMARY_PREFIX);
    expect(promptText(afterTheCall)).toContain('SCRIPTED-SUMMARY');
    // What was cut is what the agent's model summarized: every earlier turn, none of the current run.
    expect(summaryPrompts).toHaveLength(1);
    const summarized = promptText(summaryPrompts[0]!);
    for (let turn = 0; turn < 8; turn += 1) expect(summarized).toContain(`topic ${turn}`);
    expect(summarized).not.toContain(HITS.slice(0, 200));
    expect(afterTheCall.map((message) => message.role)).toEqual([
      'system',
      'user',
      'assistant',
      'user',
      'assistant',
      'tool',
    ]);
    expect(result.finishReason).toBe('stop');
    expect(result.text).toBe('Found it.');
    expect(sent).toHaveLength(2);
  });
});
