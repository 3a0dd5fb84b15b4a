import type { GenerateText } from '@compaction/core';
import type { ChatEndpoint } from './chat-endpoint.js';
import type { ChatModel } from './chat-model.js';
import { postChatCompletion } from './post-chat-completion.js';
import { toOpenAiMessages } from './to-openai-messages.js';

/** A chat model over an OpenAI-compatible endpoint (`fetch` to `/chat/completions`). */
export function openAiChatModel(endpoint: ChatEndpoint, fetchImpl: typeof fetch): ChatModel {
  return {
    description: `${endpoint.model} at ${endpoint.baseUrl}`,
    async reply(context, options = {}) {
      const completion = await postChatCompletion(
        fetchImpl,
        endpoint,
        { messages: toOpenAiMessages(context) },
        options.signal,
      );
      return { text: completion.text, ...(completion.usage ? { usage: completion.usage } : {}) };
    },
  };
}

/** The `generate` of core's `llmSummarizer`, over the same endpoint. */
export function openAiGenerate(endpoint: ChatEndpoint, fetchImpl: typeof fetch): GenerateText {
  return async (system, prompt, { maxOutputTokens, signal }) => {
    const completion = await postChatCompletion(
      fetchImpl,
      endpoint,
      {
        messages: [
          { role: 'system', content: system },
          { role: 'user', content: prompt },
        ],
        max_tokens: maxOutputTokens,
      },
      signal,
    );
    return { text: completion.text, ...(completion.finishReason ? { finishReason: completion.finishReason } : {}) };
  };
}
