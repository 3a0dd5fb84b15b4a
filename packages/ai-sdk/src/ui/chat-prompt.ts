import type { Message } from '@compaction/core';
import { InvalidSettingsError } from '@compaction/core';
import { convertToModelMessages, type ToolSet, type UIMessage } from 'ai';
import { convertToLanguageModelPrompt, standardizePrompt } from 'ai/internal';
import type { LanguageModelV4, ProviderPrompt } from '../ai-sdk-types.js';
import { promptToMessages } from '../convert-prompt.js';

/**
 * A chat request as the route gives it to `streamText`: the UI messages (converted
 * with `convertToModelMessages(messages, { tools })`), the instructions and the tools.
 * `compact` and `stats` must see the same prompt as the model call, so that they
 * find the same conversation (content ids) as the middleware.
 */
export type ChatPrompt = {
  /** The full history, as `useChat` sends it. */
  messages: readonly UIMessage[];
  /**
   * The instructions (system prompt) given to `streamText`.
   * @default undefined (none)
   */
  instructions?: string;
  /**
   * The tools given to `streamText` (their `toModelOutput` shapes tool results).
   * @default undefined (none)
   */
  tools?: ToolSet;
};

/** Checks a chat id and prompt at once, with what to do. */
export function checkChatPrompt(chatId: unknown, prompt: ChatPrompt): void {
  if (typeof chatId !== 'string' || chatId.length === 0) {
    throw new InvalidSettingsError({
      setting: 'chatId',
      problem: `expected a non-empty string (your chat id), got ${JSON.stringify(chatId) ?? String(chatId)}`,
    });
  }
  if (!Array.isArray(prompt?.messages)) {
    throw new InvalidSettingsError({
      setting: 'messages',
      problem: 'expected the array of UI messages useChat sends (the full history)',
    });
  }
  if (prompt.instructions !== undefined && typeof prompt.instructions !== 'string') {
    throw new InvalidSettingsError({ setting: 'instructions', problem: 'expected a string or undefined' });
  }
}

/**
 * The prompt as the middleware sees it — converted the way `streamText` converts it
 * (`convertToModelMessages`, then the provider prompt) — as core messages with content ids.
 */
export async function chatCoreMessages(prompt: ChatPrompt, model: LanguageModelV4): Promise<Message[]> {
  return promptToMessages(await providerPrompt(prompt, model));
}

/**
 * How many provider prompt messages `prompt` makes: the same conversion, without the
 * schema validation (`standardizePrompt`) and the content ids, which a count does not need.
 */
export async function providerMessageCount(prompt: ChatPrompt, model: LanguageModelV4): Promise<number> {
  const messages = await convertToModelMessages(prompt.messages as UIMessage[], {
    ...(prompt.tools ? { tools: prompt.tools } : {}),
  });
  if (messages.length === 0) return 0;
  const converted = await convertToLanguageModelPrompt({
    prompt: { instructions: prompt.instructions, messages },
    supportedUrls: await model.supportedUrls,
    download: undefined,
    provider: providerName(model),
  });
  return converted.length;
}

/** The provider's name as `streamText` passes it (`openai` of `openai.responses`). */
function providerName(model: LanguageModelV4): string {
  const [name = model.provider] = model.provider.split('.');
  return name;
}

/** The provider prompt `streamText` would send for `prompt`. */
async function providerPrompt(prompt: ChatPrompt, model: LanguageModelV4): Promise<ProviderPrompt> {
  const messages = await convertToModelMessages(prompt.messages as UIMessage[], {
    ...(prompt.tools ? { tools: prompt.tools } : {}),
  });
  // A conversation not started yet has nothing for the middleware to find (and `ai` refuses an empty prompt).
  if (messages.length === 0) return [];
  const standardized = await standardizePrompt({
    ...(prompt.instructions !== undefined ? { instructions: prompt.instructions } : {}),
    messages,
  });
  return convertToLanguageModelPrompt({
    prompt: standardized,
    supportedUrls: await model.supportedUrls,
    download: undefined,
    provider: providerName(model),
  });
}
