/** Bedrock ids: optional cross-region inference prefix, then the vendor (`us.anthropic.`, `meta.`). */
const BEDROCK_PREFIX =
  /^(?:(?:us|us-gov|eu|apac|jp|au|ca|global)\.)?(?:anthropic|meta|mistral|amazon|cohere|ai21|openai|qwen|writer)\./;

/**
 * The form model ids are compared in: lowercase, provider prefixes removed, every
 * run of separators (`.` `_` `:` `@` `/` spaces) turned into one `-`, and a `-`
 * inserted between a letter and a following digit, so spellings of one model meet:
 *
 * | id | normalized |
 * | --- | --- |
 * | `openai/gpt-4.1-mini` | `gpt-4-1-mini` |
 * | `us.anthropic.claude-sonnet-4-20250514-v1:0` | `claude-sonnet-4-20250514-v-1-0` |
 * | `models/gemini-2.5-pro` | `gemini-2-5-pro` |
 * | `llama3.1:8b`, `meta.llama3-1-8b-instruct-v1:0`, `Meta-Llama-3.1-8B` | `llama-3-1-8b…` |
 * | `ft:gpt-4o-mini-2024-07-18:acme::abc` | `gpt-4o-mini-2024-07-18-acme-abc` |
 * | `openai:gpt-5` (LangChain), `openai/gpt-5` (Mastra, gateways) | `gpt-5` |
 *
 * Everything before the last `/` is dropped (`openai/`, `models/`,
 * `publishers/google/models/`, `meta-llama/`), as are OpenAI's `ft:` prefix and a
 * LangChain `provider:` prefix. Date and
 * version suffixes stay: lookups match whole segments from the start (longest first),
 * so `gpt-4o-2024-08-06` finds `gpt-4o` and `claude-3-5-sonnet@20241022` finds `claude`.
 *
 * @example
 * ```ts
 * normalizeModelId('anthropic/claude-3.7-sonnet'); // 'claude-3-7-sonnet'
 * ```
 */
export function normalizeModelId(modelId: string): string {
  let id = modelId.trim().toLowerCase();
  if (id.startsWith('ft:')) id = id.slice(3);
  // LangChain's `provider:model` (`openai:gpt-5`, `google-genai:gemini-2.5-pro`, `azure_openai:gpt-4o`);
  // a prefix of letters only, so Ollama tags (`llama3.1:8b`) and Bedrock versions (`…-v1:0`) stay.
  id = id.replace(/^[a-z][a-z_-]*:(?=[^:])/, '');
  id = id.slice(id.lastIndexOf('/') + 1);
  id = id.replace(BEDROCK_PREFIX, '');
  id = id.replace(/[^\p{L}\p{N}]+/gu, '-');
  id = id.replace(/(\p{L})(\p{N})/gu, '$1-$2');
  id = id.replace(/^meta-(?=llama)/, '');
  return id.replace(/^-+|-+$/g, '');
}
