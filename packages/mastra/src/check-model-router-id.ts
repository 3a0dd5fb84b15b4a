import { describeValue, InvalidSettingsError, isBlankString } from '@compaction/core';
import * as llm from '@mastra/core/llm';

/** Mastra's model router (read through the namespace: a release without it checks nothing but the type). */
const Router = (llm as { ModelRouterLanguageModel?: new (id: string) => unknown }).ModelRouterLanguageModel;

/**
 * Checks, when a summarizer is made, a model-router id string the way Mastra's model router
 * reads it: a `provider/model` id (`'openai/gpt-5-mini'`, `'openrouter/anthropic/claude-…'`,
 * a gateway's `'netlify/openai/gpt-5'`). An id the router can never parse — no provider
 * (`'gpt-5-mini'`), an empty part (`'openai/'`) — is an `InvalidSettingsError` naming `setting`
 * that says to write `provider/model`. Whether the provider is configured (its API key, a
 * gateway enabled by an environment variable or a Mastra instance) is only known at the call:
 * that summary falls back to the structured one and the error is reported.
 *
 * @param setting - the option or argument the id was given as, for the error.
 * @example
 * ```ts
 * checkModelRouterId('openai/gpt-5-mini', 'summarizer'); // passes
 * checkModelRouterId('gpt-5-mini', 'summarizer'); // throws InvalidSettingsError
 * ```
 */
export function checkModelRouterId(id: unknown, setting: string): asserts id is string {
  const advice = "write it as Mastra's model router does: 'provider/model', e.g. 'openai/gpt-5-mini'";
  if (typeof id !== 'string' || isBlankString(id)) {
    throw new InvalidSettingsError({
      setting,
      problem: `must be a model-router id (${advice}), got ${describeValue(id)}`,
    });
  }
  if (!Router) return;
  try {
    new Router(id); // parses the id and picks its gateway; nothing is called
  } catch (error) {
    throw new InvalidSettingsError({
      setting,
      problem: `${describeValue(id)} is no id Mastra's model router can resolve (${(error as Error).message}); ${advice}, or pass a model`,
    });
  }
}
