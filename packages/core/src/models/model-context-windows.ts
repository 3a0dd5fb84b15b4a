/**
 * Context windows (input + output tokens) of current models, as their makers
 * publish them, keyed by id prefix. Looked up by `getContextWindow`: keys and ids are
 * both normalized (`normalizeModelId`) and the longest whole-segment prefix wins, so
 * `gpt-4.1-mini-2025-04-14` finds `gpt-4.1` and `claude-opus-4-1-20250805` finds `claude`.
 *
 * Notes on values that depend on where a model runs:
 * - Claude Sonnet 4 / 4.5 offer a 1M window behind a beta header; 200K is the default.
 * - GPT-5 chat variants (`gpt-5-chat-latest`, `gpt-5.1-chat-latest`) have 128K, the
 *   rest of the GPT-5 family 400K.
 * - Open-weight models are often served with a smaller window than published
 *   (Llama 4 Scout is published at 10M, hosts commonly serve 128K–1M).
 * - Qwen values are the least certain: Qwen3 dense/MoE models are 32,768 native and
 *   131,072 with YaRN (what most hosts serve, used here); the 2507 updates,
 *   Qwen3-Coder, Qwen3-Max and Qwen3-Next are 262,144 native, but `qwen3-235b-…-2507`
 *   still matches the plain `qwen3` entry. Qwen2.5 is 32,768 native (131,072 with YaRN).
 *
 * Use `registerContextWindows` or the `overrides` of `getContextWindow` for a
 * deployment whose window differs.
 */
export const MODEL_CONTEXT_WINDOWS: Readonly<Record<string, number>> = Object.freeze({
  // OpenAI
  'gpt-5': 400_000,
  'gpt-5-chat': 128_000,
  'gpt-5.1-chat': 128_000,
  'gpt-4.1': 1_047_576,
  'gpt-4.5': 128_000,
  'gpt-4o': 128_000,
  'chatgpt-4o': 128_000,
  'gpt-4-turbo': 128_000,
  'gpt-4-1106': 128_000,
  'gpt-4-0125': 128_000,
  'gpt-4': 8_192,
  'gpt-4-32k': 32_768,
  'gpt-3.5-turbo': 16_385,
  o1: 200_000,
  'o1-mini': 128_000,
  'o1-preview': 128_000,
  o3: 200_000,
  'o3-mini': 200_000,
  'o4-mini': 200_000,
  'codex-mini': 200_000,
  'gpt-oss': 131_072,
  // Anthropic
  claude: 200_000,
  'claude-2': 100_000,
  'claude-2.1': 200_000,
  'claude-instant': 100_000,
  // Google
  'gemini-3': 1_048_576,
  'gemini-2.5': 1_048_576,
  'gemini-2.0': 1_048_576,
  'gemini-1.5-pro': 2_097_152,
  'gemini-1.5-flash': 1_048_576,
  'gemma-3': 131_072,
  'gemma-3-1b': 32_768,
  // Mistral
  'mistral-large': 128_000,
  'mistral-medium': 128_000,
  'mistral-small': 128_000,
  'mistral-nemo': 128_000,
  'open-mistral-nemo': 128_000,
  ministral: 128_000,
  pixtral: 128_000,
  codestral: 256_000,
  devstral: 128_000,
  'mistral-7b': 32_768,
  'open-mistral-7b': 32_768,
  'mixtral-8x7b': 32_768,
  'open-mixtral-8x7b': 32_768,
  'mixtral-8x22b': 65_536,
  'open-mixtral-8x22b': 65_536,
  // Meta Llama
  'llama-3': 8_192,
  'llama-3.1': 128_000,
  'llama-3.2': 128_000,
  'llama-3.3': 128_000,
  'llama-4-scout': 10_000_000,
  'llama-4-maverick': 1_000_000,
  // Qwen (see the note above)
  qwen3: 131_072,
  'qwen3-coder': 262_144,
  'qwen3-max': 262_144,
  'qwen3-next': 262_144,
  'qwen2.5': 32_768,
  qwq: 131_072,
  // DeepSeek
  'deepseek-chat': 128_000,
  'deepseek-reasoner': 128_000,
  'deepseek-v3': 128_000,
  'deepseek-r1': 128_000,
  // xAI
  'grok-4': 256_000,
  'grok-4-fast': 2_000_000,
  'grok-4.1-fast': 2_000_000,
  'grok-code-fast': 256_000,
  'grok-3': 131_072,
  // Cohere
  'command-a': 256_000,
  'command-r': 128_000,
  // Amazon
  'nova-micro': 128_000,
  'nova-lite': 300_000,
  'nova-pro': 300_000,
  'nova-premier': 1_000_000,
});
