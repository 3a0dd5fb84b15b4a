import { afterEach, describe, expect, it } from 'vitest';
import { InvalidSettingsError } from '../errors/invalid-settings-error.js';
import { DEFAULT_CONTEXT_WINDOW, getContextWindow } from './get-context-window.js';
import { clearRegisteredContextWindows, registerContextWindows } from './register-context-windows.js';

afterEach(() => clearRegisteredContextWindows());

describe('getContextWindow', () => {
  it.each([
    // OpenAI
    ['gpt-5', 400_000],
    ['gpt-5-mini-2025-08-07', 400_000],
    ['gpt-5.1-codex', 400_000],
    ['gpt-5-chat-latest', 128_000],
    ['gpt-4.1', 1_047_576],
    ['openai/gpt-4.1-nano-2025-04-14', 1_047_576],
    ['gpt-4o-2024-08-06', 128_000],
    ['gpt-4o-mini', 128_000],
    ['gpt-4', 8_192],
    ['gpt-4-0613', 8_192],
    ['gpt-4-turbo-2024-04-09', 128_000],
    ['gpt-4-1106-preview', 128_000],
    ['o3', 200_000],
    ['o3-mini-2025-01-31', 200_000],
    ['o4-mini', 200_000],
    ['o1-mini', 128_000],
    ['gpt-oss-120b', 131_072],
    ['openai.gpt-oss-20b-1:0', 131_072],
    ['ft:gpt-4o-mini-2024-07-18:acme::abc123', 128_000],
    // Anthropic
    ['claude-sonnet-4-5-20250929', 200_000],
    ['claude-opus-4-1', 200_000],
    ['claude-haiku-4-5', 200_000],
    ['claude-3-5-sonnet-latest', 200_000],
    ['anthropic/claude-3.7-sonnet', 200_000],
    ['us.anthropic.claude-sonnet-4-20250514-v1:0', 200_000],
    ['anthropic.claude-3-haiku-20240307-v1:0', 200_000],
    ['claude-3-5-sonnet-v2@20241022', 200_000],
    ['claude-2.0', 100_000],
    ['claude-2.1', 200_000],
    // Google
    ['gemini-2.5-pro', 1_048_576],
    ['models/gemini-2.5-flash-lite', 1_048_576],
    ['gemini-3-pro-preview', 1_048_576],
    ['publishers/google/models/gemini-2.0-flash-001', 1_048_576],
    ['gemini-1.5-pro-002', 2_097_152],
    ['gemma3:27b', 131_072],
    // Mistral
    ['mistral-large-latest', 128_000],
    ['mistral-large-2411', 128_000],
    ['codestral-2501', 256_000],
    ['mistral-small-latest', 128_000],
    ['mistral.mixtral-8x7b-instruct-v0:1', 32_768],
    // Llama
    ['llama-3.3-70b-versatile', 128_000],
    ['meta-llama/Meta-Llama-3.1-8B-Instruct', 128_000],
    ['llama3.1:8b', 128_000],
    ['us.meta.llama3-2-90b-instruct-v1:0', 128_000],
    ['meta-llama/llama-4-scout-17b-16e-instruct', 10_000_000],
    ['llama-4-maverick-17b-128e-instruct', 1_000_000],
    ['llama3:8b', 8_192],
    // Qwen
    ['qwen3:32b', 131_072],
    ['Qwen/Qwen3-Coder-480B-A35B-Instruct', 262_144],
    ['qwen2.5-coder:7b', 32_768],
    // DeepSeek, xAI, Cohere, Amazon
    ['deepseek-chat', 128_000],
    ['deepseek/deepseek-reasoner', 128_000],
    ['deepseek.r1-v1:0', 128_000],
    ['grok-4-0709', 256_000],
    ['x-ai/grok-4-fast', 2_000_000],
    ['grok-3-mini', 131_072],
    ['command-a-03-2025', 256_000],
    ['command-r-plus-08-2024', 128_000],
    ['us.amazon.nova-pro-v1:0', 300_000],
  ])('%s → %i', (modelId, window) => {
    expect(getContextWindow(modelId)).toBe(window);
  });

  it('falls back to 128K for unknown or missing ids', () => {
    expect(DEFAULT_CONTEXT_WINDOW).toBe(128_000);
    expect(getContextWindow(undefined)).toBe(128_000);
    expect(getContextWindow('')).toBe(128_000);
    expect(getContextWindow('my-own-model')).toBe(128_000);
    expect(getContextWindow('gpt')).toBe(128_000);
  });

  it('matches whole segments only', () => {
    // `gpt-4` (8K) must not catch `gpt-4o`, nor `o1` catch `o10`
    expect(getContextWindow('gpt-4o')).toBe(128_000);
    expect(getContextWindow('o10-preview')).toBe(DEFAULT_CONTEXT_WINDOW);
  });

  it('prefers per-call overrides, normalized and prefix-matched like the table', () => {
    expect(getContextWindow('gpt-4o', { 'gpt-4o': 64_000 })).toBe(64_000);
    expect(getContextWindow('openai/gpt-4o-mini', { 'GPT-4o': 64_000 })).toBe(64_000);
    expect(getContextWindow('gpt-4o', { 'gpt-4o-mini': 64_000 })).toBe(128_000);
    expect(getContextWindow('my-model', { 'my-model': 32_000 })).toBe(32_000);
  });

  it('uses registered windows process-wide, below per-call overrides', () => {
    registerContextWindows({ 'qwen3:32b': 40_960, 'my-azure-deployment': 128_000 });
    expect(getContextWindow('qwen3-32b')).toBe(40_960);
    expect(getContextWindow('qwen3-8b')).toBe(131_072);
    expect(getContextWindow('my-azure-deployment')).toBe(128_000);
    expect(getContextWindow('qwen3:32b', { qwen3: 10_000 })).toBe(10_000);

    clearRegisteredContextWindows();
    expect(getContextWindow('qwen3-32b')).toBe(131_072);
  });

  it('rejects invalid windows with the key named, registering nothing', () => {
    expect(() => registerContextWindows({ good: 1_000, bad: 0 })).toThrow(InvalidSettingsError);
    expect(() => registerContextWindows({ bad: 1.5 })).toThrow(/contextWindows\["bad"\].*positive integer/);
    expect(getContextWindow('good')).toBe(DEFAULT_CONTEXT_WINDOW);
    expect(() => getContextWindow('x', { x: Number.NaN })).toThrow(/overrides\["x"\]/);
    expect(() => registerContextWindows({ '::': 1_000 })).toThrow(/is empty/);
  });
});
