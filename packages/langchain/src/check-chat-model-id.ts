import { describeValue, InvalidSettingsError, isBlankString } from '@compaction/core';
import * as universal from 'langchain/chat_models/universal';

/** LangChain's own table and inference (read through the namespace: an older `langchain` without them checks nothing). */
const providers = (universal as { MODEL_PROVIDER_CONFIG?: Readonly<Record<string, unknown>> }).MODEL_PROVIDER_CONFIG;
const inferProvider = (universal as { _inferModelProvider?: (model: string) => string | undefined })
  ._inferModelProvider;

/**
 * The provider LangChain's `initChatModel` would load for a model id, as it reads it:
 * the part before the first `:` when that is one of its providers (`'openai:gpt-5-mini'`),
 * else the provider it infers from the name (`'gpt-5-mini'` → openai, `'claude-…'` →
 * anthropic), else undefined: `initChatModel` throws "Unable to infer model provider".
 * Null when this `langchain` exposes neither its table nor its inference (nothing can be told).
 */
export function chatModelProviderOf(id: string): string | undefined | null {
  if (!providers || typeof inferProvider !== 'function') return null;
  const colon = id.indexOf(':');
  if (colon > 0 && Object.hasOwn(providers, id.slice(0, colon))) return id.slice(0, colon);
  return inferProvider(id);
}

/**
 * Checks, when a summarizer is made, a model id string for `initChatModel`: a non-empty
 * string whose provider LangChain can find (a known `provider:` prefix, or a model name it
 * infers one from). An id that can never resolve (`'nosuchprovider:model'`, `'llama3'`) is an
 * `InvalidSettingsError` naming `setting`, with LangChain's providers. A known provider whose
 * integration package is not installed (`'anthropic:…'` without `@langchain/anthropic`) can only
 * be found when the model is first called: that summary falls back and the error is reported.
 *
 * @param setting - the option or argument the id was given as, for the error.
 * @example
 * ```ts
 * checkChatModelId('openai:gpt-5-mini', 'summarizer'); // passes
 * checkChatModelId('gpt5mini', 'summarizer'); // throws InvalidSettingsError
 * ```
 */
export function checkChatModelId(id: unknown, setting: string): asserts id is string {
  if (typeof id !== 'string' || isBlankString(id)) {
    throw new InvalidSettingsError({
      setting,
      problem: `must be a model id initChatModel resolves ('openai:gpt-5-mini'), got ${describeValue(id)}`,
    });
  }
  if (chatModelProviderOf(id) !== undefined) return;
  const colon = id.indexOf(':');
  const prefix = colon > 0 ? id.slice(0, colon) : undefined;
  const known = Object.keys(providers ?? {}).join(', ');
  throw new InvalidSettingsError({
    setting,
    problem: `${describeValue(id)} is no model id LangChain's initChatModel can resolve: ${
      prefix === undefined
        ? 'it has no provider prefix and LangChain infers none from the name'
        : `"${prefix}" is not one of its providers`
    }; write it as 'provider:model' (e.g. 'openai:gpt-5-mini', 'anthropic:claude-haiku-4-5') with a provider among ${known}, or pass a chat model`,
  });
}
