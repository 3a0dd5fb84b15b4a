import type { LanguageModelV4CallOptions, LanguageModelV4Prompt } from '@ai-sdk/provider';
import { compactionMiddleware, messagesToPrompt, promptToMessages } from '@compaction/ai-sdk';
import { conversationHistory, conversationMessage } from '@compaction/bench-kit/synthetic-history';
import { memoryStore } from '@compaction/core';
import type { LanguageModelMiddleware } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { earlierCalls, NO_COMPACTION, reported, type ScaleDriver } from './scale-driver.ts';

type Middleware = Required<Pick<LanguageModelMiddleware, 'transformParams' | 'wrapGenerate'>>;
type GenerateResult = Awaited<ReturnType<MockLanguageModelV4['doGenerate']>>;

/** What `wrapLanguageModel` hands the middleware each call: the prompt rebuilt, new message and part objects. */
function freshPrompt(prompt: LanguageModelV4Prompt): LanguageModelV4Prompt {
  return prompt.map((message) =>
    typeof message.content === 'string'
      ? { ...message }
      : ({ ...message, content: message.content.map((part) => ({ ...part })) } as typeof message),
  );
}

function result(inputTokens: number): GenerateResult {
  return {
    content: [{ type: 'text', text: 'ok' }],
    finishReason: { unified: 'stop', raw: 'stop' },
    usage: {
      inputTokens: { total: inputTokens, noCache: inputTokens, cacheRead: 0, cacheWrite: 0 },
      outputTokens: { total: 1, text: 1, reasoning: 0 },
    },
    warnings: [],
  } as unknown as GenerateResult;
}

/**
 * `compactionMiddleware`: `transformParams` then `wrapGenerate` (the model
 * answers at once with usage), the conversation named by
 * `providerOptions.compaction.sessionId`. The application holds each
 * conversation's prompt; each call the AI SDK rebuilds it as new objects.
 */
export function aiSdkScale(countedTokens: (messages: number) => number): ScaleDriver {
  const store = memoryStore();
  const middleware = compactionMiddleware({ store, summarizer: 'structured', settings: NO_COMPACTION }) as Middleware;
  const model = new MockLanguageModelV4({ provider: 'openai', modelId: 'gpt-5' });
  const prompts: LanguageModelV4Prompt[] = [];
  const tokens: number[] = [];
  return {
    async setup(conversations, messages) {
      for (let conversation = 0; conversation < conversations; conversation += 1) {
        const history = conversationHistory(conversation, messages);
        const prompt = messagesToPrompt(history) as LanguageModelV4Prompt;
        const lastId = promptToMessages(prompt).at(-1)!.id;
        tokens.push(countedTokens(history.length));
        await store.saveRecord(`c${conversation}`, earlierCalls(history, tokens[conversation]!, lastId));
        prompts.push(prompt);
      }
    },
    async call(conversation) {
      const next = conversationMessage(conversation, prompts[conversation]!.length, true);
      prompts[conversation] = prompts[conversation]!.concat(messagesToPrompt([next]) as LanguageModelV4Prompt);
      tokens[conversation]! += 260;
      const params = {
        prompt: freshPrompt(prompts[conversation]!),
        providerOptions: { compaction: { sessionId: `c${conversation}` } },
      } as unknown as LanguageModelV4CallOptions;
      const started = performance.now();
      const transformed = await middleware.transformParams({ type: 'generate', params, model });
      const answer = result(reported(tokens[conversation]!));
      await middleware.wrapGenerate({
        doGenerate: async () => answer,
        doStream: async () => {
          throw new Error('not streamed');
        },
        params: transformed,
        model,
      });
      const elapsed = performance.now() - started;
      if (transformed.prompt.length !== params.prompt.length) throw new Error('ai-sdk: the prompt changed');
      return elapsed;
    },
  };
}
