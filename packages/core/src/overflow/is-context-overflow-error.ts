import { matchContextOverflowError } from './match-context-overflow-error.js';

/**
 * Whether a provider rejected a request because the prompt does not fit the
 * model's context window; the caller can then compact and retry once.
 *
 * Recognizes the texts in `CONTEXT_OVERFLOW_PATTERNS` (OpenAI, Azure OpenAI,
 * Anthropic, Google Gemini / Vertex, AWS Bedrock, Mistral, Groq, OpenRouter, xAI,
 * Cohere, Ollama, llama.cpp, vLLM, LM Studio, GitHub Copilot, TGI, MiniMax, Kimi,
 * z.ai), the general shapes of that wording ("context window exceeds limit",
 * `*_context_window_exceeded`, "exceeded model token limit", "too many total text
 * bytes", "input is too long") and HTTP 413,
 * wherever they sit on the error: `message`, an AI SDK `APICallError`'s
 * `responseBody` and `data`, `error.message`, `data.error.code`, `cause` chains,
 * `lastError` of a retry error. Rate-limit and quota errors (HTTP 429,
 * "tokens per minute") are never reported as overflow. Never throws: any value,
 * including `null`, strings and circular objects, is accepted.
 *
 * @example
 * ```ts
 * try {
 *   await generateText({ model, messages });
 * } catch (error) {
 *   if (!isContextOverflowError(error)) throw error;
 *   // compact the context, then retry the call once
 * }
 * ```
 */
export function isContextOverflowError(error: unknown): boolean {
  return matchContextOverflowError(error) !== undefined;
}
