import { conversationHistory, conversationMessage } from '@compaction/bench-kit/synthetic-history';
import { compactionMiddleware, fromCoreMessages } from '@compaction/langchain';
import { AIMessage, type BaseMessage } from '@langchain/core/messages';
import { Command } from '@langchain/langgraph';
import { fakeModel } from 'langchain';
import { earlierCalls, NO_COMPACTION, reported, type ScaleDriver } from './scale-driver.ts';

type State = { messages: BaseMessage[]; _compaction?: unknown };
type Handler = (request: unknown) => Promise<AIMessage>;
type WrapModelCall = (request: unknown, handler: Handler) => Promise<AIMessage | Command>;

/**
 * A diagnostic, never the page's figure: with `BENCH_SCALE_COUNTER=chars` the middleware counts
 * with this (characters / 4) instead of core's default gpt-tokenizer counter, to tell what of a
 * call's cost is counting the new message from what is the adapter's and core's own path.
 */
const CHARS_COUNTER = { name: 'chars-4', countText: (text: string) => Math.ceil(text.length / 4) };

/**
 * `compactionMiddleware`'s `wrapModelCall`, called as `createAgent` calls it:
 * each conversation a thread whose agent state holds its messages and the
 * compaction record (`_compaction`); the handler (the model) answers at once
 * with usage, and a returned `Command` updates the state as the graph would.
 */
export function langchainScale(countedTokens: (messages: number) => number): ScaleDriver {
  const middleware = compactionMiddleware({
    summarizer: 'structured',
    model: 'gpt-5',
    settings: NO_COMPACTION,
    ...(process.env.BENCH_SCALE_COUNTER === 'chars' ? { counter: CHARS_COUNTER } : {}),
  }) as unknown as { wrapModelCall: WrapModelCall };
  const model = fakeModel();
  const states: State[] = [];
  const tokens: number[] = [];
  return {
    async setup(conversations, messages) {
      for (let conversation = 0; conversation < conversations; conversation += 1) {
        const history = conversationHistory(conversation, messages);
        tokens.push(countedTokens(history.length));
        const record = earlierCalls(history, tokens[conversation]!, history.at(-1)!.id);
        states.push({ messages: fromCoreMessages(history), _compaction: record });
      }
    },
    async call(conversation) {
      const state = states[conversation]!;
      const next = conversationMessage(conversation, state.messages.length, true);
      const messages = state.messages.concat(fromCoreMessages([next]));
      tokens[conversation]! += 260;
      const inputTokens = reported(tokens[conversation]!);
      const request = {
        model,
        messages,
        systemPrompt: '',
        tools: [],
        state: { ...state, messages },
        runtime: { configurable: { thread_id: `c${conversation}` }, context: {} },
      };
      let sent = 0;
      const handler: Handler = async (call) => {
        sent = (call as { messages: BaseMessage[] }).messages.length;
        return new AIMessage({
          content: 'ok',
          usage_metadata: { input_tokens: inputTokens, output_tokens: 1, total_tokens: inputTokens + 1 },
        });
      };
      const started = performance.now();
      const returned = await middleware.wrapModelCall(request, handler);
      const elapsed = performance.now() - started;
      if (sent !== messages.length) throw new Error('langchain: the context changed');
      const update =
        returned instanceof Command ? ((returned as { update?: Record<string, unknown> }).update ?? {}) : {};
      states[conversation] = { ...state, ...update, messages };
      return elapsed;
    },
  };
}
