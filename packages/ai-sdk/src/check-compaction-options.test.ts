import type { CompactionEvent, Summarizer } from '@compaction/core';
import { invalidSettingOf } from '@compaction/core/testing';
import { generateText, type ModelMessage, wrapLanguageModel } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { conversation, promptTokens, SUMMARY_TEXT, textResult } from './__fixtures__/model-fixtures.js';
import type { CompactionMetadata } from './compaction-metadata.js';
import { compactionMiddleware } from './compaction-middleware.js';
import type { CompactionMiddlewareOptions } from './compaction-options.js';
import { compactionPrepareStep } from './compaction-prepare-step.js';

const settings = { contextWindow: 8000, reserveTokens: 1000, keepRecentTokens: 1500, trigger: 0.5 };

/** What a user's JavaScript (or a cast) might pass. */
const loose = (options: unknown) => options as CompactionMiddlewareOptions;

describe("summarizer: 'llm' (the default) at construction", () => {
  it('is accepted with no model in the options: the wrapped model, or summaryModel, writes at the call', () => {
    expect(() => compactionMiddleware({ summarizer: 'llm' })).not.toThrow();
    expect(() => compactionPrepareStep({ summarizer: 'llm' })).not.toThrow();
  });
});

describe.each([
  ['compactionMiddleware', (options: unknown) => compactionMiddleware(loose(options))],
  ['compactionPrepareStep', (options: unknown) => compactionPrepareStep(loose(options))],
])('%s checks its options at construction', (_, make) => {
  it.each([
    [{ settings: { trigger: -1 } }, 'trigger'],
    [{ settings: { contextWindow: -5 } }, 'contextWindow'],
    [{ settings: { trigger: 80, contextWindow: 200_000 } }, 'trigger'],
    [{ settings: { trigger: 1.5 } }, 'trigger'],
    [{ settings: { trigger: { tokens: 100_000 } } }, 'trigger'],
    [{ settings: { keep: { messages: 20 } } }, 'keep'],
    [{ trigger: { tokens: 100_000 } }, 'trigger'],
    [{ keep: { messages: 20 } }, 'keep'],
    [{ settings: { minReduction: '0.5' } }, 'minReduction'],
    [{ summarizer: 'gpt-5-mini' }, 'summarizer'],
    [{ summarizer: { generate() {} } }, 'summarizer'],
    [{ summaryModel: 'openai/gpt-5-mini' }, 'summaryModel'],
    [{ store: {} }, 'store'],
    [{ onEvent: 'log' }, 'onEvent'],
    [{ onEvent() {}, onCompaction() {} }, 'onCompaction'],
    [{ sumarizer: 'structured' }, 'sumarizer'],
    [{ reserveTokens: 2000 }, 'reserveTokens'],
  ])('%o → InvalidSettingsError naming %s', (options, setting) => {
    expect(invalidSettingOf(() => make(options))).toBe(setting);
  });

  it("names our settings for LangChain's trigger: { tokens } and keep: { messages }", () => {
    expect(() => make({ trigger: { tokens: 100_000 } })).toThrow(/settings: \{ trigger \}/);
    expect(() => make({ settings: { trigger: { tokens: 100_000 } } })).toThrow(/trigger: 100000/);
    expect(() => make({ keep: { messages: 20 } })).toThrow(/keepRecentMessages/);
  });

  it('tells where a setting given at the top level goes', () => {
    expect(() => make({ minMessages: 4 })).toThrow(/settings: \{ minMessages \}/);
  });

  it('suggests the fraction for trigger: 80', () => {
    expect(() => make({ settings: { trigger: 80, contextWindow: 200_000 } })).toThrow(/trigger: 0\.8/);
  });
});

/** A long conversation through a wrapped mock, with the given middleware options. */
async function run(options: CompactionMiddlewareOptions) {
  const mock = new MockLanguageModelV4({
    doGenerate: async ({ prompt }) => textResult('Done.', promptTokens(prompt)),
  });
  const model = wrapLanguageModel({ model: mock, middleware: compactionMiddleware({ settings, ...options }) });
  const messages: ModelMessage[] = [...conversation(60), { role: 'user', content: 'Turn 60: and now?' }];
  const result = await generateText({ model, messages });
  return result.providerMetadata?.compaction as CompactionMetadata | undefined;
}

describe('what the AI SDK users pass', () => {
  it('an AI SDK model as summarizer writes the summary (not a silent structured fallback)', async () => {
    // Each chunk's summary names the turns it read (an answer that ignored its chunk would be rejected as an echo).
    const writer = new MockLanguageModelV4({
      doGenerate: async ({ prompt }) => {
        const turns = [...JSON.stringify(prompt).matchAll(/Turn (\d+)/g)].map((match) => match[1]);
        return textResult(`${SUMMARY_TEXT}\n- Turns ${turns[0] ?? '?'}–${turns.at(-1) ?? '?'} read.`);
      },
    });
    const compaction = await run({ summarizer: writer });
    expect(compaction).toMatchObject({ strategy: 'llm', fallbacks: [] });
    expect(writer.doGenerateCalls.length).toBeGreaterThanOrEqual(1);
  });

  it('a core Summarizer and structured work as before', async () => {
    const custom: Summarizer = { name: 'custom', summarize: async () => SUMMARY_TEXT };
    expect(await run({ summarizer: custom })).toMatchObject({ strategy: 'custom' });
    expect(await run({ summarizer: 'structured' })).toMatchObject({ strategy: 'structured' });
  });

  it('onEvent gets every event; onCompaction still works as its deprecated alias', async () => {
    const events: CompactionEvent[] = [];
    await run({ summarizer: 'structured', onEvent: (event) => events.push(event) });
    expect(events.map((event) => event.type)).toContain('compaction:end');
    const legacy: CompactionEvent[] = [];
    await run({ summarizer: 'structured', onCompaction: (event) => legacy.push(event) });
    expect(legacy.map((event) => event.type)).toContain('compaction:end');
  });
});
