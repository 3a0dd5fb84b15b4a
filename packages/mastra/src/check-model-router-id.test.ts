import { InvalidSettingsError } from '@compaction/core';
import { invalidSettingOf } from '@compaction/core/testing';
import { Agent } from '@mastra/core/agent';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkModelRouterId } from './check-model-router-id.js';

/** Whether a Mastra `Agent` given `id` as its model can resolve it to a model (nothing is called). */
async function agentResolves(id: string): Promise<boolean> {
  try {
    await new Agent({ id: 'probe', name: 'probe', instructions: 'x', model: id as `${string}/${string}` }).getModel();
    return true;
  } catch {
    return false;
  }
}

function refused(id: string): boolean {
  try {
    checkModelRouterId(id, 'summarizer');
    return false;
  } catch (error) {
    if (InvalidSettingsError.isInstance(error) && error.setting === 'summarizer') return true;
    throw error;
  }
}

describe("checkModelRouterId: what Mastra's model router can never resolve", () => {
  it.each(['gpt-5-mini', 'openai:gpt-5-mini', 'openai/', '/gpt-5-mini', '', '  '])('refuses %o', (id) => {
    expect(invalidSettingOf(() => checkModelRouterId(id, 'summarizer'))).toBe('summarizer');
  });

  it.each([42, undefined, {}])('refuses %o (no string)', (id) => {
    expect(invalidSettingOf(() => checkModelRouterId(id, 'model'))).toBe('model');
  });

  it.each([
    'openai/gpt-5-mini',
    'anthropic/claude-sonnet-4-5',
    'openrouter/anthropic/claude-sonnet-4-5',
    'netlify/openai/gpt-5',
    'nosuch/model',
  ])('accepts %s', (id) => {
    expect(refused(id)).toBe(false);
  });

  it('agrees with a Mastra Agent on generated ids: refused exactly when the Agent cannot resolve its model', async () => {
    const part = fc.stringMatching(/^[a-z0-9.:-]{0,10}$/);
    const id = fc.oneof(
      part,
      fc.tuple(part, part).map(([provider, model]) => `${provider}/${model}`),
      fc.tuple(fc.constantFrom('openai', 'anthropic', 'openrouter', 'netlify'), part, part).map((p) => p.join('/')),
    );
    await fc.assert(
      fc.asyncProperty(id, async (candidate) => {
        expect(refused(candidate)).toBe(!(await agentResolves(candidate)));
      }),
      { numRuns: 150 },
    );
  });
});
