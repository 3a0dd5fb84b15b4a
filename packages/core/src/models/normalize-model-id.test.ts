import { describe, expect, it } from 'vitest';
import { normalizeModelId } from './normalize-model-id.js';

describe('normalizeModelId', () => {
  it.each([
    ['gpt-4o', 'gpt-4o'],
    ['GPT-4.1-mini', 'gpt-4-1-mini'],
    ['openai/gpt-5', 'gpt-5'],
    ['models/gemini-2.5-pro', 'gemini-2-5-pro'],
    ['publishers/google/models/gemini-2.0-flash-001', 'gemini-2-0-flash-001'],
    ['anthropic.claude-3-5-sonnet-20240620-v1:0', 'claude-3-5-sonnet-20240620-v-1-0'],
    ['us.anthropic.claude-sonnet-4-20250514-v1:0', 'claude-sonnet-4-20250514-v-1-0'],
    ['global.anthropic.claude-haiku-4-5-20251001-v1:0', 'claude-haiku-4-5-20251001-v-1-0'],
    ['claude-3-5-sonnet-v2@20241022', 'claude-3-5-sonnet-v-2-20241022'],
    ['anthropic/claude-3.7-sonnet', 'claude-3-7-sonnet'],
    ['llama3.1:8b', 'llama-3-1-8b'],
    ['meta.llama3-1-70b-instruct-v1:0', 'llama-3-1-70b-instruct-v-1-0'],
    ['meta-llama/Meta-Llama-3.1-8B-Instruct', 'llama-3-1-8b-instruct'],
    ['ft:gpt-4o-mini-2024-07-18:acme::abc123', 'gpt-4o-mini-2024-07-18-acme-abc-123'],
    ['  o3-mini  ', 'o-3-mini'],
    ['qwen2.5-coder:32b', 'qwen-2-5-coder-32b'],
    ['/', ''],
  ])('%s → %s', (id, normalized) => {
    expect(normalizeModelId(id)).toBe(normalized);
  });
});
