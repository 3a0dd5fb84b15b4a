import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { memoryStore } from '../store/memory-store.js';
import { structuredSummarizer } from '../summarize/structured/structured-summarizer.js';
import { invalidSettingOf } from '../testing/invalid-setting-of.js';
import { heuristicCounter } from '../tokens/heuristic-counter.js';
import { type AdapterOptionsTable, checkAdapterOptions } from './check-adapter-options.js';
import type { SummarizerOptionResolver } from './resolve-summarizer-option.js';

/** A framework whose models are objects with `invoke`. */
const summarizer: SummarizerOptionResolver<{ invoke(): void }> = {
  option: 'summarizer',
  accepts: "'structured', a model with invoke, or a Summarizer",
  isModel: (value): value is { invoke(): void } => typeof (value as { invoke?: unknown } | null)?.invoke === 'function',
  fromModel: () => structuredSummarizer(),
};

const table: AdapterOptionsTable = {
  where: 'toyMiddleware',
  known: ['settings', 'summarizer', 'store', 'counter', 'model', 'onEvent', 'onStep', 'sessionId'],
  hints: { maxTokens: { from: 'a token limiter', use: 'settings: { contextWindow }' } },
  shape: '{ settings, store, … }',
  summarizer,
  modelId: 'a model object goes in summarizer',
  window: (given) => (given.model === 'small' ? 8_000 : undefined),
  callbacks: ['onEvent', 'onStep'],
  strings: { sessionId: 'your chat id' },
};

const check = (options: unknown) => () => checkAdapterOptions(options, table);

describe('checkAdapterOptions', () => {
  it('accepts valid options and gives them back; nothing given is nothing to check', () => {
    const options = {
      settings: { trigger: 0.5 },
      summarizer: 'llm',
      store: memoryStore(),
      counter: heuristicCounter(),
      model: 'small',
      onEvent() {},
      sessionId: 'chat-1',
    };
    expect(checkAdapterOptions(options, table)).toBe(options);
    expect(checkAdapterOptions({ summarizer: { invoke() {} } }, table)).toBeDefined();
    expect(checkAdapterOptions(undefined, table)).toBeUndefined();
  });

  it('requires the options object when the table says so', () => {
    expect(invalidSettingOf(() => checkAdapterOptions(undefined, { ...table, required: true }))).toBe('options');
    expect(() => checkAdapterOptions(undefined, { ...table, required: true })).toThrow(/got undefined/);
  });

  it.each([
    [null, 'options'],
    ['fast', 'options'],
    [[], 'options'],
    [{ sumarizer: 'structured' }, 'sumarizer'],
    [{ maxTokens: 8000 }, 'maxTokens'],
    [{ trigger: 0.5 }, 'trigger'],
    [{ model: { invoke() {} } }, 'model'],
    [{ settings: { trigger: -1 } }, 'trigger'],
    [{ settings: 'economy' }, 'settings'],
    [{ settings: { keepRecentTokens: 50_000 }, model: 'small' }, 'keepRecentTokens'],
    [{ summarizer: 'gpt-5' }, 'summarizer'],
    [{ store: {} }, 'store'],
    [{ store: null }, 'store'],
    [{ counter: {} }, 'counter'],
    [{ counter: null }, 'counter'],
    [{ onStep: 'log' }, 'onStep'],
    [{ sessionId: '' }, 'sessionId'],
    [{ sessionId: 7 }, 'sessionId'],
  ])('%o → InvalidSettingsError naming %s', (options, setting) => {
    expect(invalidSettingOf(check(options))).toBe(setting);
  });

  it('says what was wrong and what to do', () => {
    expect(check(42)).toThrow(/toyMiddleware takes an options object \(\{ settings, store, … \}\), got 42/);
    expect(check({ maxTokens: 1 })).toThrow(
      /a token limiter calls it "maxTokens"; here use settings: \{ contextWindow \}/,
    );
    expect(check({ minMessages: 2 })).toThrow(/settings: \{ minMessages \}/);
    expect(check({ model: {} })).toThrow(/model id string .*a model object goes in summarizer/);
    expect(check({ sessionId: '' })).toThrow(/non-empty string \(your chat id\)/);
    expect(check({ store: 1 })).toThrow(/SessionStore/);
  });

  it("answers LangChain's and token limiters' names in every adapter, and lets the table say one its way", () => {
    expect(check({ trigger: { tokens: 100_000 } })).toThrow(/settings: \{ trigger \}.*settings: \{ trigger: N \}/);
    expect(check({ keep: { messages: 20 } })).toThrow(
      /LangChain's summarizationMiddleware calls it "keep".*keepRecentMessages/,
    );
    expect(check({ messagesToKeep: 20 })).toThrow(/keepRecentMessages/);
    expect(check({ tokenCounter: {} })).toThrow(/counter \(a core TokenCounter/);
    const own = { ...table, hints: { keep: { from: 'my framework', use: 'settings: { keepRecentTokens }' } } };
    expect(() => checkAdapterOptions({ keep: 3 }, own)).toThrow(/my framework calls it "keep"/);
  });

  it('checks the settings against the window only when one is known', () => {
    // 50_000 kept tokens cannot fit an 8_000 window, but with no window known only the input checks run.
    expect(check({ settings: { keepRecentTokens: 50_000 } })).not.toThrow();
    expect(invalidSettingOf(check({ settings: { keepRecentTokens: 50_000, contextWindow: 8_000 } }))).toBe(
      'keepRecentTokens',
    );
  });

  it('property: any non-function callback, non-string id or non-object store is named', () => {
    const notFunction = fc.oneof(fc.string(), fc.integer(), fc.boolean(), fc.constant(null), fc.object());
    fc.assert(
      fc.property(fc.constantFrom('onEvent', 'onStep'), notFunction, (key, value) => {
        expect(invalidSettingOf(check({ [key]: value }))).toBe(key);
      }),
    );
    fc.assert(
      fc.property(fc.oneof(fc.constant(''), fc.integer(), fc.boolean(), fc.object(), fc.constant(null)), (value) => {
        expect(invalidSettingOf(check({ sessionId: value }))).toBe('sessionId');
      }),
    );
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.integer(), fc.constant(null), fc.object()), (value) => {
        expect(invalidSettingOf(check({ store: value }))).toBe('store');
      }),
    );
  });

  it('property: a named string of only whitespace is refused like "", one with a visible character is kept', () => {
    const space = fc.constantFrom(' ', '\t', '\n', '\r', '\u00a0', '\u2003', '\ufeff');
    fc.assert(
      fc.property(fc.array(space, { minLength: 1, maxLength: 8 }), (spaces) => {
        expect(invalidSettingOf(check({ sessionId: spaces.join('') }))).toBe('sessionId');
        expect(check({ sessionId: spaces.join('') })).toThrow(/non-empty string \(your chat id\).*only whitespace/);
      }),
    );
    fc.assert(
      fc.property(fc.array(space, { maxLength: 3 }), fc.string({ minLength: 1 }), (spaces, id) => {
        fc.pre(id.trim().length > 0);
        expect(check({ sessionId: `${spaces.join('')}${id}${spaces.join('')}` })).not.toThrow();
      }),
    );
  });

  it('leaves unset keys alone: `{ ...options }` spreads may carry undefined', () => {
    expect(
      check({ store: undefined, counter: undefined, onEvent: undefined, sessionId: undefined, unknown: undefined }),
    ).not.toThrow();
  });
});
