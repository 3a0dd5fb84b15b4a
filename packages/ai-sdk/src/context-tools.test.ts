import { SUMMARY_PREFIX } from '@compaction/core';
import { invalidSettingOf } from '@compaction/core/testing';
import { generateText, type ModelMessage, stepCountIs, wrapLanguageModel } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { conversation, promptTokens, textResult } from './__fixtures__/model-fixtures.js';
import type { GenerateResult, ProviderPrompt } from './ai-sdk-types.js';
import { compactionMiddleware } from './compaction-middleware.js';
import { contextTools } from './context-tools.js';

const settings = { contextWindow: 8000, reserveTokens: 1000, keepRecentTokens: 1500, trigger: 0.5 };

/** A 60-turn conversation whose turn 3 read a file holding a value nothing else mentions. */
function conversationWithSecret(): ModelMessage[] {
  const messages = conversation(60);
  const tool = messages[3 * 4 + 2]!;
  if (tool.role !== 'tool' || tool.content[0]?.type !== 'tool-result') throw new Error('fixture shape changed');
  tool.content[0].output = { type: 'text', value: 'export const SECRET_PORT = 48213; // the staging port' };
  return [...messages, { role: 'user', content: 'Which port did the staging file use?' }];
}

function toolCall(toolName: string, input: unknown, prompt: ProviderPrompt): GenerateResult {
  return {
    content: [{ type: 'tool-call', toolCallId: `tc-${toolName}`, toolName, input: JSON.stringify(input) }],
    finishReason: { unified: 'tool-calls', raw: 'tool_use' },
    usage: textResult('', promptTokens(prompt)).usage,
    warnings: [],
  };
}

function lastToolOutput(prompt: ProviderPrompt): string | undefined {
  const last = prompt.at(-1);
  if (last?.role !== 'tool') return undefined;
  return JSON.stringify(last.content);
}

describe('contextTools (AI SDK)', () => {
  it('lets the model find, with search_history, a value that only a summarized tool output held', async () => {
    const prompts: ProviderPrompt[] = [];
    const mock = new MockLanguageModelV4({
      doGenerate: async ({ prompt }) => {
        prompts.push(prompt);
        const output = lastToolOutput(prompt);
        return output === undefined
          ? toolCall('search_history', { query: 'staging port' }, prompt)
          : textResult(output.includes('48213') ? 'The staging port was 48213.' : 'Not found.', promptTokens(prompt));
      },
    });
    const middleware = compactionMiddleware({ settings, summarizer: 'structured' });
    const model = wrapLanguageModel({ model: mock, middleware });

    const result = await generateText({
      model,
      messages: conversationWithSecret(),
      tools: contextTools(() => middleware.session('chat-1', mock)),
      stopWhen: stepCountIs(3),
      providerOptions: { compaction: { sessionId: 'chat-1' } },
    });

    expect(JSON.stringify(prompts[0])).not.toContain('48213');
    expect(prompts[0]!.length).toBeLessThan(120);
    expect(result.steps[0]!.toolResults[0]).toMatchObject({ toolName: 'search_history' });
    const output = result.steps[0]!.toolResults[0]!.output as { hits: { role: string; snippet: string }[] };
    expect(output.hits[0]).toMatchObject({ role: 'tool' });
    expect(output.hits[0]!.snippet).toContain('SECRET_PORT = 48213');
    expect(result.text).toBe('The staging port was 48213.');
  });

  it('context_stats reports what session.stats() says', async () => {
    const mock = new MockLanguageModelV4({
      doGenerate: async ({ prompt }) =>
        lastToolOutput(prompt) === undefined
          ? toolCall('context_stats', {}, prompt)
          : textResult('ok', promptTokens(prompt)),
    });
    const middleware = compactionMiddleware({ settings, summarizer: 'structured' });
    const model = wrapLanguageModel({ model: mock, middleware });
    const result = await generateText({
      model,
      messages: conversationWithSecret(),
      tools: contextTools(middleware.session('chat-2', mock)),
      stopWhen: stepCountIs(2),
      providerOptions: { compaction: { sessionId: 'chat-2' } },
    });
    const stats = await middleware.session('chat-2', mock).stats();
    const output = result.steps[0]!.toolResults[0]!.output as Record<string, unknown>;
    expect(output).toMatchObject({ compactions: 1, contextWindow: 8000, triggerTokens: stats.triggerTokens });
    expect(output.historyMessages).toBe(stats.historyMessages - 2);
  });

  it('compact_context compacts before the next step, with the focus, and not during the current one', async () => {
    const prompts: ProviderPrompt[] = [];
    const mock = new MockLanguageModelV4({
      doGenerate: async ({ prompt }) => {
        prompts.push(prompt);
        return lastToolOutput(prompt) === undefined
          ? toolCall('compact_context', { focus: 'the date helpers' }, prompt)
          : textResult('ok', promptTokens(prompt));
      },
    });
    const middleware = compactionMiddleware({ settings, summarizer: 'structured' });
    const model = wrapLanguageModel({ model: mock, middleware });
    const messages: ModelMessage[] = [...conversation(20), { role: 'user', content: 'Tidy up your context.' }];
    const result = await generateText({
      model,
      messages,
      tools: contextTools(() => middleware.session('chat-3', mock)),
      stopWhen: stepCountIs(3),
      providerOptions: { compaction: { sessionId: 'chat-3' } },
    });
    expect(result.text).toBe('ok');
    expect(JSON.stringify(prompts[0])).not.toContain(SUMMARY_PREFIX); // under the trigger: nothing compacted
    expect(prompts[1]!.length).toBeLessThan(prompts[0]!.length - 10);
    expect(JSON.stringify(prompts[1])).toContain(SUMMARY_PREFIX);
    expect(JSON.stringify(prompts[1])).toContain('the date helpers');
    expect(await middleware.session('chat-3', mock).state()).toMatchObject({ version: 1 });
  });
});

describe('contextTools checks its session argument when the tools are made', () => {
  it.each([undefined, null, 'chat-1', {}, { sessionId: 'chat-1' }])(
    '%o → InvalidSettingsError naming session, not a failure when the model calls a tool',
    (session) => {
      expect(invalidSettingOf(() => contextTools(session as never))).toBe('session');
      expect(() => contextTools(session as never)).toThrow(/middleware\.session\(chatId, model\)/);
    },
  );

  it('takes the session itself, or a function that returns it (resolved when a tool runs)', async () => {
    const middleware = compactionMiddleware({ summarizer: 'structured' });
    const model = new MockLanguageModelV4({ provider: 'openai', modelId: 'gpt-5' });
    const session = middleware.session('chat-1', model);
    for (const given of [session, () => session, async () => session]) {
      const tools = contextTools(given);
      const stats = await tools.context_stats.execute?.({}, { toolCallId: 'tc', messages: [] } as never);
      expect(stats).toMatchObject({ contextWindow: 400_000 });
    }
  });
});
