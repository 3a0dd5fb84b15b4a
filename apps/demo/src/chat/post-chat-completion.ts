import { CliError } from '../cli/cli-error.js';
import type { ChatEndpoint } from './chat-endpoint.js';
import { EndpointError } from './endpoint-error.js';

/** A message of the OpenAI chat format. */
export type OpenAiMessage = { role: 'system' | 'user' | 'assistant'; content: string };

/** The parts of a `/chat/completions` answer the demo reads. */
export type ChatCompletion = {
  text: string;
  finishReason?: string;
  usage?: { inputTokens?: number; outputTokens?: number };
};

type CompletionBody = {
  choices?: { message?: { content?: string | null }; finish_reason?: string }[];
  usage?: { prompt_tokens?: number; completion_tokens?: number };
};

/**
 * One `POST {baseUrl}/chat/completions` with `fetch`.
 *
 * @throws CliError when the endpoint cannot be reached or answers something that is not a completion.
 * @throws EndpointError for an error status (a context overflow among them).
 */
export async function postChatCompletion(
  fetchImpl: typeof fetch,
  endpoint: ChatEndpoint,
  body: { messages: OpenAiMessage[]; max_tokens?: number },
  signal?: AbortSignal,
): Promise<ChatCompletion> {
  const url = `${endpoint.baseUrl}/chat/completions`;
  let response: Response;
  try {
    response = await fetchImpl(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(endpoint.apiKey ? { authorization: `Bearer ${endpoint.apiKey}` } : {}),
      },
      body: JSON.stringify({ model: endpoint.model, ...body }),
      ...(signal ? { signal } : {}),
    });
  } catch (error) {
    const cause = (error as { cause?: { message?: string } }).cause?.message ?? (error as Error).message;
    throw new CliError(`cannot reach ${url}: ${cause}`, { cause: error });
  }
  const text = await response.text();
  if (!response.ok) throw new EndpointError(response.status, text, url);
  let parsed: CompletionBody;
  try {
    parsed = JSON.parse(text) as CompletionBody;
  } catch {
    throw new CliError(`${url} did not answer JSON: ${text.slice(0, 200)}`);
  }
  const choice = parsed.choices?.[0];
  if (!choice) throw new CliError(`${url} answered without choices: ${text.slice(0, 200)}`);
  return {
    text: choice.message?.content ?? '',
    ...(choice.finish_reason ? { finishReason: choice.finish_reason } : {}),
    usage: { inputTokens: parsed.usage?.prompt_tokens, outputTokens: parsed.usage?.completion_tokens },
  };
}
