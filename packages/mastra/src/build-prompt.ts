import { MessageList } from '@mastra/core/agent';
import type { MastraDBMessage } from '@mastra/core/agent/message-list';
import type { LanguageModel as MastraLanguageModel } from '@mastra/core/llm';
import type { ProcessLLMRequestArgs } from '@mastra/core/processors';

type Prompt = ProcessLLMRequestArgs['prompt'];

/**
 * The provider prompt for `messages`, made by Mastra's own conversion (the one
 * the agent loop runs on its message list) on a scratch `MessageList`, with the
 * system messages of `prompt` (instructions, memory and processor additions) first.
 * Nothing is added to the run's own message list, so nothing of it is stored.
 */
export async function buildPrompt(
  messages: readonly MastraDBMessage[],
  { prompt, model, live }: { prompt: Prompt; model: MastraLanguageModel; live: MessageList | undefined },
): Promise<Prompt> {
  const list = new MessageList({ filterIncompleteToolCalls: live?.dropsIncompleteToolCalls ?? true });
  // Shallow copies: adding hydrates a message in place.
  list.add(
    messages.map((message) => ({ ...message, content: { ...message.content } })),
    'memory',
  );
  const options = { supportedUrls: await model.supportedUrls, targetProvider: model.provider };
  const converted =
    model.specificationVersion === 'v4'
      ? await list.get.all.aiV7.llmPrompt(options)
      : model.specificationVersion === 'v3'
        ? await list.get.all.aiV6.llmPrompt(options)
        : await list.get.all.aiV5.llmPrompt(options);
  return [
    ...prompt.filter((message) => message.role === 'system'),
    ...converted.filter((message) => message.role !== 'system'),
  ];
}
