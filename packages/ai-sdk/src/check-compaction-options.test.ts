import { type CompactionEvent, InvalidSettingsError, type Summarizer } from '@compaction/core';
import { invalidSettingOf } from '@compaction/core/testing';
import { generateText, type ModelMessage, stepCountIs, wrapLanguageModel } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { conversation, promptTokens, SUMMARY_TEXT, textResult } from './__fixtures__/model-fixtures.js';
import type { CompactionMetadata } from './compaction-metadata.js';
import { compactionMiddleware } from './compaction-middleware.js';
import type { CompactionMiddlewareOptions } from './compaction-options.js';
import { compactionPrepareStep } from './compaction-prepare-step.js';
import { compactionChat } from './ui/compaction-chat.js';

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

/** A model as a provider makes it: a mock with its provider and id. */
const providerModel = (modelId = 'gpt-5') =>
  new MockLanguageModelV4({ provider: 'openai', modelId, doGenerate: async () => textResult('ok') });

describe('compactionPrepareStep passed as prepareStep without being called', () => {
  it('the AI SDK calls it with the step: an InvalidSettingsError that says to call it, before any model call', async () => {
    const model = providerModel();
    const error = await generateText({
      model,
      prompt: 'hello',
      stopWhen: stepCountIs(2),
      prepareStep: compactionPrepareStep as never,
    }).catch((caught: unknown) => caught);
    expect(InvalidSettingsError.isInstance(error)).toBe(true);
    expect((error as InvalidSettingsError).setting).toBe('prepareStep');
    expect((error as Error).message).toMatch(/call compactionPrepareStep\(\{ sessionId, … \}\) and pass its result/);
    expect(model.doGenerateCalls).toHaveLength(0);
  });

  it.each([{ steps: [] }, { stepNumber: 0 }, { model: providerModel(), steps: [], stepNumber: 0, messages: [] }])(
    'a step-shaped argument %o is told apart from a mistyped option',
    (step) => {
      expect(invalidSettingOf(() => compactionPrepareStep(step as never))).toBe('prepareStep');
    },
  );

  it('called, its result runs every step', async () => {
    const model = providerModel();
    const result = await generateText({
      model,
      prompt: 'hello',
      stopWhen: stepCountIs(2),
      prepareStep: compactionPrepareStep({ sessionId: 'chat-1', summarizer: 'structured' }),
    });
    expect(result.text).toBe('ok');
    expect(model.doGenerateCalls).toHaveLength(1);
  });
});

describe('a model given to the middleware or prepareStep (whose model is the one they wrap, or the step’s)', () => {
  it.each([
    ['compactionMiddleware', (options: unknown) => compactionMiddleware(loose(options)), /wrapLanguageModel/],
    ['compactionPrepareStep', (options: unknown) => compactionPrepareStep(loose(options)), /generateText/],
  ])('%s({ model }) is refused, saying where the model goes', (_, make, where) => {
    for (const model of [providerModel(), 'gpt-5']) {
      expect(invalidSettingOf(() => make({ model }))).toBe('model');
      expect(() => make({ model })).toThrow(where);
      expect(() => make({ model })).toThrow(/summaryModel/);
    }
  });

  it('the summary model and the window have their own options, and compactionChat takes the chat model', () => {
    expect(() => compactionMiddleware({ summaryModel: providerModel('gpt-5-mini') })).not.toThrow();
    expect(() => compactionPrepareStep({ summaryModel: providerModel('gpt-5-mini') })).not.toThrow();
    expect(() => compactionMiddleware({ settings: { contextWindow: 400_000 } })).not.toThrow();
    expect(() => compactionChat({ model: providerModel(), summarizer: 'structured' })).not.toThrow();
  });
});

describe('window-dependent settings when the model is known at construction', () => {
  it('compactionChat checks keepRecentTokens against its model id’s window at once', () => {
    // gpt-5: 400,000 tokens, less the 16,384 reserved: 383,616.
    expect(
      invalidSettingOf(() => compactionChat({ model: providerModel(), settings: { keepRecentTokens: 500_000 } })),
    ).toBe('keepRecentTokens');
    expect(() => compactionChat({ model: providerModel(), settings: { keepRecentTokens: 500_000 } })).toThrow(/383616/);
  });

  it('an id the table does not know: its window may still be registered, so the first call checks it (core’s default, 128,000), before anything is sent', async () => {
    // Was refused when made (against the 128K guess); a window registered after it was then refused too (R2).
    const mock = providerModel('my-model');
    const chat = compactionChat({ model: mock, settings: { keepRecentTokens: 200_000 } });
    const error = await generateText({ model: chat.model, prompt: 'hello' }).catch((caught: unknown) => caught);
    expect(InvalidSettingsError.isInstance(error)).toBe(true);
    expect((error as InvalidSettingsError).setting).toBe('keepRecentTokens');
    expect(mock.doGenerateCalls).toHaveLength(0);
  });

  it('the valid neighbours are accepted: under the window, or a window given', () => {
    expect(() => compactionChat({ model: providerModel(), settings: { keepRecentTokens: 300_000 } })).not.toThrow();
    expect(() =>
      compactionChat({ model: providerModel(), settings: { keepRecentTokens: 500_000, contextWindow: 1_000_000 } }),
    ).not.toThrow();
  });

  it('the middleware learns its model when wrapLanguageModel wraps it: refused there, at once', () => {
    const middleware = compactionMiddleware({ settings: { keepRecentTokens: 500_000 } }); // no model yet: accepted
    expect(invalidSettingOf(() => wrapLanguageModel({ model: providerModel(), middleware }))).toBe('keepRecentTokens');
    expect(invalidSettingOf(() => wrapLanguageModel({ model: providerModel(), middleware: [middleware] }))).toBe(
      'keepRecentTokens',
    );
    // The valid neighbours: a model whose window holds it (gpt-4.1: 1,047,576 tokens), the id unchanged.
    const wrapped = wrapLanguageModel({ model: providerModel('gpt-4.1'), middleware });
    expect(wrapped.modelId).toBe('gpt-4.1');
    expect(wrapped.provider).toBe('openai');
    expect(() =>
      wrapLanguageModel({
        model: providerModel(),
        middleware: compactionMiddleware({ settings: { keepRecentTokens: 300_000 } }),
      }),
    ).not.toThrow();
  });

  it('wrapped under a modelId of the caller’s, the model’s own window is checked at the first call, before anything is sent', async () => {
    const middleware = compactionMiddleware({ settings: { keepRecentTokens: 500_000 } });
    const mock = providerModel();
    const model = wrapLanguageModel({ model: mock, middleware, modelId: 'my-alias' });
    const error = await generateText({ model, prompt: 'hello' }).catch((caught: unknown) => caught);
    expect((error as InvalidSettingsError).setting).toBe('keepRecentTokens');
    expect(mock.doGenerateCalls).toHaveLength(0);
  });
});

describe('compactionMiddleware given as a middleware without being called', () => {
  it.each([
    [
      'alone',
      (model: ReturnType<typeof providerModel>) =>
        wrapLanguageModel({ model, middleware: compactionMiddleware as never }),
    ],
    [
      'in a list',
      (model: ReturnType<typeof providerModel>) =>
        wrapLanguageModel({ model, middleware: [compactionMiddleware as never] }),
    ],
  ])('%s: wrapLanguageModel throws an InvalidSettingsError that says to call it, at once', (_, wrap) => {
    expect(invalidSettingOf(() => wrap(providerModel()))).toBe('middleware');
    expect(() => wrap(providerModel())).toThrow(/middleware: compactionMiddleware\(\{ store, … \}\)/);
  });

  it('called, its result wraps the model and compacts as before', async () => {
    const mock = providerModel();
    const model = wrapLanguageModel({ model: mock, middleware: [compactionMiddleware({ summarizer: 'structured' })] });
    expect((await generateText({ model, prompt: 'hello' })).text).toBe('ok');
    expect(typeof compactionMiddleware).toBe('function');
    expect(Object.keys(compactionMiddleware)).toEqual([]);
  });
});

describe('a blank session id (an unset variable) wherever an id is given: core’s checkSessionId', () => {
  it.each(['', '   ', '\t\n'])('%o is refused by compactionPrepareStep and middleware.session', (blank) => {
    expect(invalidSettingOf(() => compactionPrepareStep({ sessionId: blank }))).toBe('sessionId');
    expect(invalidSettingOf(() => compactionMiddleware().session(blank, providerModel()))).toBe('sessionId');
  });

  it('an id with a visible character is kept as given, spaces around it included', () => {
    expect(() => compactionPrepareStep({ sessionId: ' chat-1 ' })).not.toThrow();
    expect(compactionMiddleware().session(' chat-1 ', providerModel()).sessionId).toBe(' chat-1 ');
  });
});
