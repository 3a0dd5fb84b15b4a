import type { Message } from '@compaction/core';
import type { MessageList } from '@mastra/core/agent/message-list';
import type { LanguageModel as MastraLanguageModel } from '@mastra/core/llm';
import type { ProcessLLMRequestArgs } from '@mastra/core/processors';
import { buildPrompt } from './build-prompt.js';
import { fromCoreMessages } from './from-core-messages.js';

type Prompt = ProcessLLMRequestArgs['prompt'];

/** See {@link contextPrompt}. */
export type ContextPrompt = {
  /**
   * The provider prompt for a compacted context: `buildPrompt(fromCoreMessages(context), …)`,
   * converting only what follows the part of `context` converted last time.
   */
  build(
    context: readonly Message[],
    options: { prompt: Prompt; model: MastraLanguageModel; live: MessageList | undefined },
  ): Promise<Prompt>;
};

/** What was converted last: the context up to a user message, and its prompt (system messages left out). */
type Converted = { context: Message[]; prompt: Prompt; model: MastraLanguageModel; drops: boolean };

/**
 * The prompt of a conversation's compacted context, step after step, at the cost
 * of what is new. After a compaction the context only grows until the next one,
 * and Mastra's conversion never joins messages across a user message (assistant
 * steps and tool results merge only up to the next user message), so the prompt
 * of `[…before the last user message] + [the last user message…]` is the two
 * prompts one after the other. The first part is kept (the very core messages,
 * checked by identity) once a second step shows the same head, and only the
 * rest goes through a scratch `MessageList` —
 * whose `add` compares each message with every earlier one, so a whole rebuild
 * each step cost more the further the session ran.
 */
export function contextPrompt(): ContextPrompt {
  let converted: Converted | undefined;
  /** The head of the last context when nothing was kept: kept (converted) once a step shows it again. */
  let candidate: Message[] | undefined;

  async function convert(
    messages: readonly Message[],
    options: { prompt: Prompt; model: MastraLanguageModel; live: MessageList | undefined },
  ): Promise<Prompt> {
    if (messages.length === 0) return [];
    const prompt = await buildPrompt(fromCoreMessages(messages), { ...options, prompt: [] });
    return prompt.filter((message) => message.role !== 'system');
  }

  return {
    async build(context, options) {
      const drops = options.live?.dropsIncompleteToolCalls ?? true;
      const boundary = lastUserIndex(context);
      const kept = converted;
      const reuse =
        kept !== undefined &&
        kept.model === options.model &&
        kept.drops === drops &&
        startsWith(context, kept.context, boundary)
          ? kept
          : undefined;
      const system = systemMessages(options.prompt);
      if (!reuse && !(candidate && startsWith(context, candidate, boundary))) {
        // Nothing to go on from: one conversion of it all (a one-off context costs no more than before).
        candidate = context.slice(0, boundary);
        converted = undefined;
        return [...system, ...(await convert(context, options))];
      }
      const from = reuse?.context.length ?? 0;
      const head = reuse?.prompt ?? [];
      const middle = await convert(context.slice(from, boundary), options);
      const tail = await convert(context.slice(boundary), options);
      converted = {
        context: context.slice(0, boundary),
        prompt: middle.length === 0 ? head : head.concat(middle),
        model: options.model,
        drops,
      };
      candidate = undefined;
      return [...system, ...converted.prompt, ...tail];
    },
  };
}

/**
 * The system messages of the prompt Mastra built (instructions, memory and processor
 * additions): one pass over the whole prompt (it holds the whole history), without a
 * call per message.
 */
function systemMessages(prompt: Prompt): Prompt {
  const system: Prompt = [];
  for (let index = 0; index < prompt.length; index += 1) {
    const message = prompt[index]!;
    if (message.role === 'system') system.push(message);
  }
  return system;
}

/** Whether `context` starts with the very messages of `head`, which end at or before `boundary`. */
function startsWith(context: readonly Message[], head: readonly Message[], boundary: number): boolean {
  if (head.length > boundary) return false;
  for (let index = 0; index < head.length; index += 1) if (context[index] !== head[index]) return false;
  return true;
}

/**
 * Where the context can be cut for conversion: the last user message with
 * something to send that follows an assistant or tool message with something
 * to send. Mastra joins consecutive messages of one role, and a message with
 * nothing to send (no parts, blank text, a call without its result) drops out
 * and lets its neighbours join; a cut between two messages that are both sent
 * and of different roles is never crossed. 0 when there is no such message.
 */
function lastUserIndex(context: readonly Message[]): number {
  for (let index = context.length - 1; index > 0; index -= 1) {
    const message = context[index]!;
    const previous = context[index - 1]!;
    if (message.role !== 'user' || !sends(message)) continue;
    if ((previous.role === 'assistant' || previous.role === 'tool') && sends(previous)) return index;
  }
  return 0;
}

/** Whether a message surely reaches the provider prompt: a non-blank text, a file, or a tool result. */
function sends(message: Message): boolean {
  return message.parts.some(
    (part) =>
      (part.type === 'text' && part.text.trim().length > 0) || part.type === 'file' || part.type === 'tool-result',
  );
}
