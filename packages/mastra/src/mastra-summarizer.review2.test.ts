import { Agent } from '@mastra/core/agent';
import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { checkModelRouterId } from './check-model-router-id.js';
import { mastraSummarizer } from './mastra-summarizer.js';

/**
 * Review (session 9, R2): `mastraSummarizer` and the summarizer option now check a model-router
 * id with Mastra's own `ModelRouterLanguageModel`, and refuse what is no model object. What a
 * Mastra `Agent` takes as its model must stay accepted.
 */
async function agentResolves(id: string): Promise<boolean> {
  try {
    await new Agent({ id: 'probe', name: 'probe', instructions: 'x', model: id as `${string}/${string}` }).getModel();
    return true;
  } catch {
    return false;
  }
}

describe('model-router ids an Agent resolves are accepted (sound)', () => {
  it.each([
    'openrouter/anthropic/claude-3.5-sonnet',
    'openrouter/meta-llama/llama-3.1-405b-instruct:free',
    'netlify/openai/gpt-5',
    'vercel/anthropic/claude-sonnet-4',
    'azure-openai/my-gpt4o-deployment',
    'ollama/llama3.1:8b',
    'mycorp-gateway/some/model/v2',
    'openai/ft:gpt-4o-mini:org::abc123',
  ])('%s', async (id) => {
    expect(await agentResolves(id)).toBe(true);
    expect(() => checkModelRouterId(id, 'summarizer')).not.toThrow();
    expect(() => mastraSummarizer(id)).not.toThrow();
  });
});

describe('model configs an Agent takes are accepted without a router check (sound)', () => {
  it.each<[string, Parameters<typeof mastraSummarizer>[0]]>([
    ['{ id, url }', { id: 'custom/llama-3', url: 'http://localhost:11434/v1' }],
    ['{ providerId, modelId, apiKey }', { providerId: 'acme', modelId: 'm-1', apiKey: 'sk-not-echoed' }],
    ['an AI SDK v4 model', new MockLanguageModelV4({ modelId: 'mock' }) as never],
  ])('%s', (_, model) => {
    expect(() => mastraSummarizer(model)).not.toThrow();
  });
});
