import { conversationHistory, conversationMessage } from '@compaction/bench-kit/synthetic-history';
import { memoryStore } from '@compaction/core';
import { CompactionProcessor, fromCoreMessages, toCoreMessages } from '@compaction/mastra';
import { MessageList } from '@mastra/core/agent';
import type { MastraDBMessage } from '@mastra/core/agent/message-list';
import type {
  ProcessInputArgs,
  ProcessInputStepArgs,
  ProcessLLMRequestArgs,
  ProcessLLMResponseArgs,
} from '@mastra/core/processors';
import { RequestContext } from '@mastra/core/request-context';
import { MockLanguageModelV4 } from 'ai/test';
import { earlierCalls, NO_COMPACTION, reported, type ScaleDriver } from './scale-driver.ts';

/** Appended messages are dated after every history message (those date from 1970 + index ms). */
const APPENDED_FROM = Date.UTC(2030, 0, 1);
const abort = (reason?: string): never => {
  throw new Error(`processor aborted: ${reason}`);
};

/**
 * `CompactionProcessor` as a `Memory`-backed agent runs it for a new
 * `generate()` on a thread: `processInput`, `processInputStep` and
 * `processLLMRequest` before the model call, `processLLMResponse` with the
 * reported usage after. Each call gets a new message list loaded with the
 * thread's stored messages (Mastra's work, not timed).
 */
export function mastraScale(countedTokens: (messages: number) => number): ScaleDriver {
  const store = memoryStore();
  const processor = new CompactionProcessor({
    summarizer: 'structured',
    model: 'gpt-5',
    store,
    settings: NO_COMPACTION,
  });
  const model = new MockLanguageModelV4({ provider: 'openai', modelId: 'gpt-5' });
  const threads: MastraDBMessage[][] = [];
  const tokens: number[] = [];
  return {
    async setup(conversations, messages) {
      for (let conversation = 0; conversation < conversations; conversation += 1) {
        const history = conversationHistory(conversation, messages);
        const stored = fromCoreMessages(history).map((message) => ({
          ...message,
          threadId: `c${conversation}`,
          resourceId: 'user',
        }));
        // Loaded into a message list once, as Memory does on every run: Mastra hydrates the messages in
        // place, which is the framework's memory (in the histories figure), not the adapter's.
        new MessageList({ threadId: `c${conversation}`, resourceId: 'user' }).add(stored, 'memory');
        const core = toCoreMessages(stored, { ids: 'message' });
        tokens.push(countedTokens(history.length));
        await store.saveRecord(`c${conversation}`, {
          ...earlierCalls(core, tokens[conversation]!, core.at(-1)!.id),
        });
        threads.push(stored);
      }
    },
    async call(conversation) {
      const thread = threads[conversation]!;
      const [next] = fromCoreMessages([conversationMessage(conversation, 100_000 + thread.length, true)]);
      thread.push({
        ...next!,
        createdAt: new Date(APPENDED_FROM + thread.length),
        threadId: `c${conversation}`,
        resourceId: 'user',
      });
      tokens[conversation]! += 260;
      const messageList = new MessageList({ threadId: `c${conversation}`, resourceId: 'user' });
      messageList.add(thread, 'memory');
      const requestContext = new RequestContext();
      requestContext.set('MastraMemory', {
        thread: { id: `c${conversation}`, resourceId: 'user' },
        resourceId: 'user',
      });
      const state: Record<string, unknown> = {};
      const args = {
        messages: messageList.get.all.db(),
        messageList,
        stepNumber: 0,
        steps: [],
        systemMessages: [],
        state,
        model,
        retryCount: 0,
        requestContext,
        abort,
      };
      const inputTokens = reported(tokens[conversation]!);
      const finish = { type: 'finish', payload: { output: { usage: { inputTokens, outputTokens: 1 } } } };
      const started = performance.now();
      await processor.processInput({ ...args, agent: undefined } as unknown as ProcessInputArgs);
      await processor.processInputStep(args as unknown as ProcessInputStepArgs);
      const request = await processor.processLLMRequest({ ...args, prompt: [] } as unknown as ProcessLLMRequestArgs);
      await processor.processLLMResponse({ ...args, chunks: [finish] } as unknown as ProcessLLMResponseArgs);
      const elapsed = performance.now() - started;
      if (request?.prompt) throw new Error('mastra: the prompt changed');
      return elapsed;
    },
  };
}
