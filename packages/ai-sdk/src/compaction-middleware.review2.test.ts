import {
  clearRegisteredContextWindows,
  getContextWindow,
  InvalidSettingsError,
  registerContextWindows,
} from '@compaction/core';
import { invalidSettingOf } from '@compaction/core/testing';
import { generateText, wrapLanguageModel } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { afterEach, describe, expect, it } from 'vitest';
import { textResult } from './__fixtures__/model-fixtures.js';
import { compactionMiddleware } from './compaction-middleware.js';
import { compactionChat } from './ui/compaction-chat.js';

/**
 * Review (session 9, R2): the window-dependent settings are now checked when `wrapLanguageModel`
 * wraps (`overrideModelId`) and when `compactionChat` is made — against the window of the model's
 * id *at that moment*. The sessions resolve the window when a conversation starts (the first
 * call), so a window added with core's public `registerContextWindows` after the model is wrapped
 * (a module that builds the model, an init step that registers a fine-tune's or deployment's
 * window) was seen before and is refused now: an app that worked fails at start.
 */
const MODEL_ID = 'acme-long-context-deployment';
const settings = { keepRecentTokens: 150_000 };

afterEach(() => clearRegisteredContextWindows());

describe('the window of an id registered before the wrap (sound)', () => {
  it('is the one the wrap checks against: the same settings pass, and answer', async () => {
    expect(getContextWindow(MODEL_ID)).toBe(128_000); // unknown id: the default window
    registerContextWindows({ [MODEL_ID]: 200_000 });
    const base = new MockLanguageModelV4({ modelId: MODEL_ID, doGenerate: async () => textResult('ok') });
    const model = wrapLanguageModel({
      model: base,
      middleware: compactionMiddleware({ summarizer: 'structured', settings }),
    });
    expect((await generateText({ model, prompt: 'hi' })).text).toBe('ok');
  });
});

describe('a window registered after the wrap, before the first call, is the one the first call uses (not refused at the wrap)', () => {
  it('wrapLanguageModel, then registerContextWindows, then the first call', async () => {
    const base = new MockLanguageModelV4({ modelId: MODEL_ID, doGenerate: async () => textResult('ok') });
    const wrap = () =>
      wrapLanguageModel({ model: base, middleware: compactionMiddleware({ summarizer: 'structured', settings }) });
    // The id is unknown at the wrap, so its window is not certain yet: the check waits for the first call.
    const model = wrap();
    registerContextWindows({ [MODEL_ID]: 200_000 });
    expect((await generateText({ model, prompt: 'hi' })).text).toBe('ok');
  });

  it('compactionChat made before registerContextWindows', async () => {
    const base = new MockLanguageModelV4({ modelId: MODEL_ID, doGenerate: async () => textResult('ok') });
    const chat = compactionChat({ model: base, summarizer: 'structured', settings });
    registerContextWindows({ [MODEL_ID]: 200_000 });
    expect((await generateText({ model: chat.model, prompt: 'hi' })).text).toBe('ok');
  });
});

describe('the invalid neighbours stay refused', () => {
  it('a window registered before the wrap that does not hold the settings: refused at the wrap and by compactionChat, at once', () => {
    registerContextWindows({ [MODEL_ID]: 100_000 });
    const base = new MockLanguageModelV4({ modelId: MODEL_ID, doGenerate: async () => textResult('ok') });
    const middleware = compactionMiddleware({ summarizer: 'structured', settings });
    expect(invalidSettingOf(() => wrapLanguageModel({ model: base, middleware }))).toBe('keepRecentTokens');
    expect(invalidSettingOf(() => compactionChat({ model: base, summarizer: 'structured', settings }))).toBe(
      'keepRecentTokens',
    );
  });

  it('a built-in id whose window does not hold them (gpt-4o: 128,000): refused at the wrap, at once', () => {
    const base = new MockLanguageModelV4({ modelId: 'gpt-4o', doGenerate: async () => textResult('ok') });
    const middleware = compactionMiddleware({ summarizer: 'structured', settings });
    expect(invalidSettingOf(() => wrapLanguageModel({ model: base, middleware }))).toBe('keepRecentTokens');
    expect(invalidSettingOf(() => compactionChat({ model: base, summarizer: 'structured', settings }))).toBe(
      'keepRecentTokens',
    );
  });

  it('settings.contextWindow given that does not hold them: refused when made, whatever the id', () => {
    const tooSmall = { ...settings, contextWindow: 100_000 };
    expect(invalidSettingOf(() => compactionMiddleware({ summarizer: 'structured', settings: tooSmall }))).toBe(
      'keepRecentTokens',
    );
  });

  it('an unknown id whose window is never registered: the first call refuses (the 128,000 default), before anything is sent', async () => {
    for (const wrap of ['middleware', 'compactionChat'] as const) {
      const base = new MockLanguageModelV4({ modelId: MODEL_ID, doGenerate: async () => textResult('ok') });
      const model =
        wrap === 'middleware'
          ? wrapLanguageModel({ model: base, middleware: compactionMiddleware({ summarizer: 'structured', settings }) })
          : compactionChat({ model: base, summarizer: 'structured', settings }).model;
      const error = await generateText({ model, prompt: 'hi' }).catch((caught: unknown) => caught);
      expect(InvalidSettingsError.isInstance(error)).toBe(true);
      expect((error as InvalidSettingsError).setting).toBe('keepRecentTokens');
      expect(base.doGenerateCalls).toHaveLength(0);
    }
  });
});
