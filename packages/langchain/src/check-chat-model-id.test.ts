import { InvalidSettingsError } from '@compaction/core';
import { invalidSettingOf } from '@compaction/core/testing';
import fc from 'fast-check';
import { initChatModel } from 'langchain';
import { _inferModelProvider, MODEL_PROVIDER_CONFIG } from 'langchain/chat_models/universal';
import { describe, expect, it } from 'vitest';
import { chatModelProviderOf, checkChatModelId } from './check-chat-model-id.js';

const PROVIDERS = Object.keys(MODEL_PROVIDER_CONFIG);

/** What initChatModel itself says of an id: resolved, or the message it rejects with. */
async function initChatModelVerdict(id: string): Promise<string> {
  try {
    await initChatModel(id);
    return 'resolved';
  } catch (error) {
    return (error as Error).message;
  }
}

/** initChatModel's two errors for an id whose provider it can never find. */
const NEVER_RESOLVES = /Unable to infer model provider|Unsupported \{ modelProvider/;

describe('checkChatModelId refuses at once what initChatModel can never resolve', () => {
  it.each([
    'nosuchprovider:model',
    'no-such-provider:some-model',
    'openai',
    'llama3',
    'llama3:8b',
    'OpenAI:gpt-5-mini',
    ':gpt-5-mini',
  ])('%s → InvalidSettingsError naming the option, with the providers', (id) => {
    expect(invalidSettingOf(() => checkChatModelId(id, 'summarizer'))).toBe('summarizer');
    expect(() => checkChatModelId(id, 'summarizer')).toThrow(/'provider:model'.*openai, anthropic/);
  });

  it.each([42, '', '   ', undefined, {}])('%o → InvalidSettingsError', (id) => {
    expect(invalidSettingOf(() => checkChatModelId(id, 'model'))).toBe('model');
  });

  it.each([
    'openai:gpt-5-mini',
    'anthropic:claude-haiku-4-5',
    'ollama:llama3:8b',
    'google-genai:gemini-2.5-flash',
    'gpt-5-mini',
    'gpt-4o',
    'o3-mini',
    'claude-haiku-4-5',
    'gemini-2.5-pro',
    'mistral-large-latest',
    'command-r',
  ])('accepts %s, an id LangChain resolves (by prefix or by inference)', (id) => {
    expect(() => checkChatModelId(id, 'summarizer')).not.toThrow();
  });

  it('agrees with initChatModel on generated ids: refused exactly when initChatModel can never find the provider', async () => {
    const name = fc.stringMatching(/^[a-z][a-z0-9.-]{0,12}$/);
    const id = fc.oneof(
      name, // a bare name: resolves only when LangChain infers its provider
      fc.tuple(fc.constantFrom(...PROVIDERS), name).map(([provider, model]) => `${provider}:${model}`),
      fc.tuple(name, name).map(([provider, model]) => `${provider}:${model}`),
      fc.tuple(fc.constantFrom('gpt-5', 'claude-', 'gemini-', 'o4'), name).map(([head, tail]) => `${head}${tail}`),
    );
    await fc.assert(
      fc.asyncProperty(id, async (candidate) => {
        let refused = false;
        try {
          checkChatModelId(candidate, 'summarizer');
        } catch (error) {
          refused = InvalidSettingsError.isInstance(error) && error.setting === 'summarizer';
          if (!refused) throw error;
        }
        const verdict = await initChatModelVerdict(candidate);
        // Accepted ids either resolve or fail only for a missing integration package (found at the first summary).
        expect(refused).toBe(NEVER_RESOLVES.test(verdict));
        if (!refused)
          expect(chatModelProviderOf(candidate)).toBe(
            candidate.includes(':') && PROVIDERS.includes(candidate.slice(0, candidate.indexOf(':')))
              ? candidate.slice(0, candidate.indexOf(':'))
              : _inferModelProvider(candidate),
          );
      }),
      { numRuns: 150 },
    );
  });
});
