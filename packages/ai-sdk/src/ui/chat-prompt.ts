import type { Message } from '@compaction/core';
import { checkSessionId, describeValue, InvalidSettingsError } from '@compaction/core';
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
  /**
   * The full history, as `useChat` sends it: UI messages (`{ id, role, parts }`). `ModelMessage`s
   * are refused with an `InvalidSettingsError`: the boundary a compaction reports is a UI message id.
   */
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

/**
 * Checks a chat id and prompt at once, with what to do: the id is core's session id
 * (`checkSessionId`: a string with a visible character), `messages` the UI messages
 * `useChat` sends (each with `parts`; `ModelMessage`s, with `content`, are told to give
 * the UI messages instead), `instructions` a string.
 */
export function checkChatPrompt(chatId: unknown, prompt: ChatPrompt): void {
  checkSessionId(chatId, { setting: 'chatId' });
  if (!Array.isArray(prompt?.messages)) {
    throw new InvalidSettingsError({
      setting: 'messages',
      problem: 'expected the array of UI messages useChat sends (the full history)',
    });
  }
  for (const [index, message] of prompt.messages.entries()) {
    const given = message as unknown as Record<string, unknown> | null;
    if (typeof given === 'object' && given !== null && Array.isArray(given.parts)) continue;
    const modelMessage = typeof given === 'object' && given !== null && 'content' in given;
    throw new InvalidSettingsError({
      setting: `messages[${index}]`,
      problem: modelMessage
        ? 'is a ModelMessage ({ role, content }); give the UI messages useChat sends ({ id, role, parts }), the ones you convert with convertToModelMessages for streamText'
        : `expected a UI message as useChat sends it ({ id, role, parts }), got ${describeValue(message)}`,
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
