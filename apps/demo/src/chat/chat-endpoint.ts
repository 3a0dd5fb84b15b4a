import { CliError } from '../cli/cli-error.js';

/** An OpenAI-compatible endpoint (`/chat/completions`). */
export type ChatEndpoint = { baseUrl: string; apiKey?: string; model: string };

/**
 * The endpoint configured by the environment: `COMPACTION_DEMO_BASE_URL` (e.g.
 * `http://localhost:11434/v1`), `COMPACTION_DEMO_MODEL` (required with it) and
 * `COMPACTION_DEMO_API_KEY` (optional, sent as a bearer token). Undefined when no base URL is set.
 *
 * @throws CliError when the base URL is not a URL or the model is missing.
 */
export function chatEndpointFromEnv(env: Readonly<Record<string, string | undefined>>): ChatEndpoint | undefined {
  const baseUrl = env.COMPACTION_DEMO_BASE_URL?.trim();
  if (!baseUrl) return undefined;
  if (!URL.canParse(baseUrl)) throw new CliError(`COMPACTION_DEMO_BASE_URL is not a URL: "${baseUrl}"`);
  const model = env.COMPACTION_DEMO_MODEL?.trim();
  if (!model)
    throw new CliError('COMPACTION_DEMO_BASE_URL is set but COMPACTION_DEMO_MODEL is not; set the model name');
  const apiKey = env.COMPACTION_DEMO_API_KEY?.trim();
  return { baseUrl: baseUrl.replace(/\/+$/, ''), model, ...(apiKey ? { apiKey } : {}) };
}
