import { describe, expect, it } from 'vitest';
import { createCompactionSession } from '../session/create-compaction-session.js';
import type { CompactionSessionOptions } from '../session/types.js';
import { fileStore } from '../store/file-store.js';
import { memoryStore } from '../store/memory-store.js';
import { invalidSettingOf } from '../testing/invalid-setting-of.js';

/** Options as a user's JavaScript (or a cast) might pass them. */
const make = (options: unknown) => () => createCompactionSession(options as CompactionSessionOptions);

describe('createCompactionSession option checks', () => {
  it('requires a sessionId, on a fileStore too (not a TypeError from the file name)', () => {
    expect(invalidSettingOf(make({ store: fileStore('/tmp/never-written') }))).toBe('sessionId');
    expect(invalidSettingOf(make({ store: memoryStore() }))).toBe('sessionId');
    expect(invalidSettingOf(make({ sessionId: '' }))).toBe('sessionId');
    expect(invalidSettingOf(make({ sessionId: 42 }))).toBe('sessionId');
  });

  it('rejects a summarizer that is a name or a model, saying what to pass', () => {
    expect(invalidSettingOf(make({ sessionId: 's', summarizer: 'llm' }))).toBe('summarizer');
    expect(() => make({ sessionId: 's', summarizer: { specificationVersion: 'v4', doGenerate() {} } })()).toThrow(
      /llmSummarizer\(\{ generate \}\)/,
    );
    expect(() => make({ sessionId: 's', summarizer: 'structured' })()).toThrow(/structuredSummarizer\(\)/);
  });

  it('names unknown options, and settings given at the top level', () => {
    expect(invalidSettingOf(make({ sessionId: 's', sumarizer: {} }))).toBe('sumarizer');
    expect(() => make({ sessionId: 's', trigger: 0.5 })()).toThrow(/pass it inside settings/);
  });

  it('checks the settings and their types', () => {
    expect(invalidSettingOf(make({ sessionId: 's', settings: 'fast' }))).toBe('settings');
    expect(invalidSettingOf(make({ sessionId: 's', settings: { keepRecent: 100 } }))).toBe('keepRecent');
    expect(invalidSettingOf(make({ sessionId: 's', settings: { minReduction: '0.5' } }))).toBe('minReduction');
    expect(invalidSettingOf(make({ sessionId: 's', settings: { pruneToolOutputs: 'no' } }))).toBe('pruneToolOutputs');
    expect(invalidSettingOf(make({ sessionId: 's', settings: { trigger: 1.5 } }))).toBe('trigger');
  });

  it.each([
    [{ store: {} }, 'store'],
    [{ counter: { name: 'x' } }, 'counter'],
    [{ tokenCache: 3 }, 'tokenCache'],
    [{ model: { modelId: 'gpt-5' } }, 'model'],
    [{ persistHistory: 'yes' }, 'persistHistory'],
    [{ onEvent: 'log' }, 'onEvent'],
  ])('rejects %o naming %s', (extra, setting) => {
    expect(invalidSettingOf(make({ sessionId: 's', ...extra }))).toBe(setting);
  });
});
