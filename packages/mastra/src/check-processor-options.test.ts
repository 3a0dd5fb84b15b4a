import { type CompactionEvent, getContextWindow } from '@compaction/core';
import { invalidSettingOf } from '@compaction/core/testing';
import type { MastraModelConfig } from '@mastra/core/llm';
import { InMemoryStore } from '@mastra/core/storage';
import { Memory } from '@mastra/memory';
import { MockLanguageModelV4 } from 'ai/test';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { coderAgent, lastUserText, SMALL_WINDOW } from './__fixtures__/agent-fixtures.js';
import { type ScriptedModel, scriptedModel } from './__fixtures__/scripted-model.js';
import { CompactionProcessor } from './compaction-processor.js';
import type { CompactionProcessorOptions } from './compaction-processor-options.js';
import { compactionContextTools } from './context-tools.js';
import { withCompaction } from './with-compaction.js';

const processor = (options: unknown) => () => new CompactionProcessor(options as CompactionProcessorOptions);

describe('CompactionProcessor checks its options in the constructor', () => {
  it.each([
    [{ limit: 100_000 }, 'limit'],
    [{ encoding: 'o200k_base' }, 'encoding'],
    [{ settings: { trigger: 80 } }, 'trigger'],
    [{ settings: { trigger: 1.5 } }, 'trigger'],
    [{ settings: { trigger: { tokens: 100_000 } } }, 'trigger'],
    [{ settings: { pruneToolOutputs: 'no' } }, 'pruneToolOutputs'],
    [{ summarizer: 42 }, 'summarizer'],
    [{ summarizer: { summarise() {} } }, 'summarizer'],
    [{ model: {} }, 'model'],
    [{ onEvent: 'log' }, 'onEvent'],
    [{ onCompaction() {} }, 'onCompaction'],
    [{ reserveTokens: 2000 }, 'reserveTokens'],
  ])('%o → InvalidSettingsError naming %s', (options, setting) => {
    expect(invalidSettingOf(processor(options))).toBe(setting);
    expect(invalidSettingOf(() => withCompaction({ id: 'a' }, options as CompactionProcessorOptions))).toBe(setting);
  });

  it("names ours for TokenLimiter's limit and suggests the fraction for trigger: 80", () => {
    expect(processor({ limit: 100_000 })).toThrow(/settings: \{ contextWindow \}/);
    expect(processor({ settings: { trigger: 80 } })).toThrow(/trigger: 0\.8/);
  });

  it("accepts a model-router id, 'llm' and 'structured'", () => {
    expect(processor({ summarizer: 'openai/gpt-5-mini' })).not.toThrow();
    expect(processor({ summarizer: 'llm' })).not.toThrow();
    expect(processor({ summarizer: 'structured' })).not.toThrow();
  });
});

/** Each turn asks for one file: the model reads it, then says so. */
function fileReader(): ScriptedModel {
  return scriptedModel((prompt) =>
    prompt.at(-1)?.role === 'tool'
      ? { text: 'Done reading.' }
      : { toolCalls: [{ toolName: 'readFile', input: { path: lastUserText(prompt).replace('Read ', '') } }] },
  );
}

describe('a model passed as summarizer', () => {
  it('writes the summaries (wrapped as mastraSummarizer), not a silent structured fallback', async () => {
    const agentModel = fileReader();
    const writer = scriptedModel(() => ({ text: 'never asked to chat' }));
    const events: CompactionEvent[] = [];
    const compaction = new CompactionProcessor({
      settings: { ...SMALL_WINDOW, pruneToolOutputs: false },
      summarizer: writer.model,
      onEvent: (event) => events.push(event),
    });
    const agent = coderAgent({
      model: agentModel.model,
      memory: new Memory({ storage: new InMemoryStore(), options: { lastMessages: 1000 } }),
      inputProcessors: [compaction],
      errorProcessors: [compaction],
    });
    for (let turn = 0; turn < 12; turn += 1) {
      await agent.generate(`Read file${turn}.ts`, { memory: { thread: 't1', resource: 'u1' } });
    }
    const ends = events.filter((event) => event.type === 'compaction:end');
    expect(ends.length).toBeGreaterThan(0);
    expect(ends.every((event) => event.strategy === 'llm' && event.fallbacks.length === 0)).toBe(true);
    expect(writer.summaryPrompts.length).toBeGreaterThan(0);
    expect(agentModel.summaryPrompts).toEqual([]);
  });
});

/** An agent model with a known window (by its id), answering every call with `Done.`. */
function modelWithId(modelId: string) {
  return new MockLanguageModelV4({
    provider: 'mock',
    modelId,
    doGenerate: async () => ({
      content: [{ type: 'text' as const, text: 'Done.' }],
      finishReason: { unified: 'stop' as const, raw: 'stop' },
      usage: {
        inputTokens: { total: 50, noCache: 50, cacheRead: 0, cacheWrite: 0 },
        outputTokens: { total: 2, text: 2, reasoning: 0 },
      },
      warnings: [],
    }),
  }) as unknown as MastraModelConfig;
}

/**
 * Every message of an error and of its causes, joined. Mastra runs processors as workflow
 * steps: what a processor throws reaches the caller as the message of a serialized cause.
 */
function messagesOf(error: unknown): string {
  const messages: string[] = [];
  for (let at = error as { message?: unknown; cause?: unknown } | undefined; at && messages.length < 10; ) {
    messages.push(String(at.message));
    at = at.cause as typeof at;
  }
  return messages.join(' ← ');
}

describe.each([
  [{ keepRecentTokens: 200_000 }, 'keepRecentTokens'],
  [{ reserveTokens: 150_000 }, 'reserveTokens'],
  [{ trigger: 300_000 }, 'trigger'],
])('window-dependent settings wait for the window: %o', (settings, setting) => {
  it("are not checked against a default window before the agent's model is known (gpt-5: 400K)", async () => {
    expect(getContextWindow('gpt-5')).toBe(400_000);
    const compaction = new CompactionProcessor({ settings });
    const agent = coderAgent({ model: modelWithId('gpt-5'), inputProcessors: [compaction] });
    const result = await agent.generate('Hello');
    expect(result.text).toBe('Done.');
  });

  it("are checked at the first run against the agent's model's window (gpt-4o: 128K), naming the setting", async () => {
    const compaction = new CompactionProcessor({ settings });
    const agent = coderAgent({ model: modelWithId('gpt-4o'), inputProcessors: [compaction] });
    const error = await agent.generate('Hello').then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(messagesOf(error)).toContain(`setting "${setting}"`);
  });

  it('are checked at once when the window is given, by model id or settings.contextWindow', () => {
    expect(invalidSettingOf(processor({ model: 'gpt-4o', settings }))).toBe(setting);
    expect(invalidSettingOf(processor({ settings: { ...settings, contextWindow: 128_000 } }))).toBe(setting);
    expect(invalidSettingOf(() => withCompaction({ id: 'a' }, { model: 'gpt-4o', settings }))).toBe(setting);
    expect(processor({ model: 'gpt-5', settings })).not.toThrow();
    expect(processor({ settings: { ...settings, contextWindow: 400_000 } })).not.toThrow();
  });
});

describe('settings that need no window', () => {
  it('are checked at once even without one', () => {
    expect(invalidSettingOf(processor({ settings: { keepRecentTokens: -1 } }))).toBe('keepRecentTokens');
    expect(invalidSettingOf(processor({ settings: { reserveTokens: 1.5 } }))).toBe('reserveTokens');
  });
});

describe('a newcomer’s mistakes are refused when made, their valid neighbours accepted (session 9)', () => {
  it('a sessionId of only whitespace is refused (core’s rule), one with a visible character kept', () => {
    expect(invalidSettingOf(processor({ sessionId: '   ' }))).toBe('sessionId');
    expect(invalidSettingOf(processor({ sessionId: '\t\n' }))).toBe('sessionId');
    expect(processor({ sessionId: ' chat-1' })).not.toThrow();
  });

  it("a summarizer id Mastra's model router can never parse is refused, with the form to write", () => {
    for (const id of ['gpt-5-mini', 'openai/', '/gpt-5-mini', '   ']) {
      expect(invalidSettingOf(processor({ summarizer: id }))).toBe('summarizer');
      expect(invalidSettingOf(() => withCompaction({ id: 'a' }, { summarizer: id }))).toBe('summarizer');
    }
    expect(processor({ summarizer: 'gpt-5-mini' })).toThrow(/'provider\/model', e\.g\. 'openai\/gpt-5-mini'/);
  });

  it('a provider/model id is accepted: whether its provider is configured is only known at the call', () => {
    for (const id of [
      'openai/gpt-5-mini',
      'openrouter/anthropic/claude-sonnet-4-5',
      'netlify/openai/gpt-5',
      'nosuch/model',
    ]) {
      expect(processor({ summarizer: id })).not.toThrow();
    }
  });

  it('an unconfigured provider falls back to the structured summary at the first compaction, with the error reported', async () => {
    const events: CompactionEvent[] = [];
    const compaction = new CompactionProcessor({
      settings: { ...SMALL_WINDOW, pruneToolOutputs: false },
      summarizer: 'nosuch/model',
      onEvent: (event) => events.push(event),
    });
    const agent = coderAgent({
      model: fileReader().model,
      memory: new Memory({ storage: new InMemoryStore(), options: { lastMessages: 1000 } }),
      inputProcessors: [compaction],
      errorProcessors: [compaction],
    });
    for (let turn = 0; turn < 12 && !events.some((event) => event.type === 'compaction:end'); turn += 1) {
      await agent.generate(`Read file${turn}.ts`, { memory: { thread: 't-nosuch', resource: 'u1' } });
    }
    const end = events.find((event) => event.type === 'compaction:end');
    expect(end).toMatchObject({ strategy: 'structured' });
    expect(end?.type === 'compaction:end' && end.fallbacks[0]?.error).toMatch(/nosuch/);
  });

  it('withCompaction refuses no config and an Agent already made; a config object is extended', () => {
    const agent = coderAgent({ model: modelWithId('gpt-5') });
    expect(invalidSettingOf(() => withCompaction(undefined as unknown as object))).toBe('config');
    expect(invalidSettingOf(() => withCompaction('coder' as unknown as object))).toBe('config');
    expect(invalidSettingOf(() => withCompaction(agent))).toBe('config');
    expect(() => withCompaction(agent)).toThrow(/an Agent already made/);
    const config = withCompaction<{
      id: string;
      name: string;
      instructions: string;
      model: MastraModelConfig;
      inputProcessors?: unknown[];
      errorProcessors?: unknown[];
    }>({
      id: 'coder',
      name: 'coder',
      instructions: 'x',
      model: modelWithId('gpt-5'),
    });
    expect(config.inputProcessors).toHaveLength(1);
    expect(config.errorProcessors).toEqual(config.inputProcessors);
  });
});

describe('the processor and tools sessionId over generated strings', () => {
  it('is refused exactly when it has no visible character (core’s rule)', () => {
    const whitespace = fc.array(fc.constantFrom(' ', '\t', '\n', '\r', '\u00a0', '\u2003', '\ufeff'), { maxLength: 6 });
    const compaction = new CompactionProcessor();
    fc.assert(
      fc.property(whitespace, fc.string({ maxLength: 6 }), whitespace, (before, core, after) => {
        const sessionId = `${before.join('')}${core}${after.join('')}`;
        const blank = sessionId.trim() === '';
        if (blank) {
          expect(invalidSettingOf(processor({ sessionId }))).toBe('sessionId');
          expect(invalidSettingOf(() => compactionContextTools(compaction, { sessionId }))).toBe('sessionId');
        } else {
          expect(processor({ sessionId })).not.toThrow();
          expect(() => compactionContextTools(compaction, { sessionId })).not.toThrow();
        }
      }),
      { numRuns: 200 },
    );
  });
});
