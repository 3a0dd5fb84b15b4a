import type { LanguageModelV4 } from '../ai-sdk-types.js';
import { type ChatPrompt, chatCoreMessages, providerMessageCount } from './chat-prompt.js';

/**
 * The index of the UI message that holds the model message with content id
 * `coreId`, or -1 when no message of `prompt.messages` does.
 *
 * One pass: the id's position in the whole prompt, then each UI message's share of
 * the prompt (a UI message never merges with its neighbours: each starts with a user
 * or assistant message). When the shares do not add up to the whole prompt (an SDK
 * conversion that crosses messages), a binary search over prefixes decides instead:
 * content ids chain, so "the first `j` messages hold it" is monotone in `j`.
 */
export async function locateUiMessage(prompt: ChatPrompt, coreId: string, model: LanguageModelV4): Promise<number> {
  const whole = await chatCoreMessages(prompt, model);
  const position = whole.findIndex((message) => message.id === coreId);
  if (position < 0) return -1;
  const bare = (messages: ChatPrompt['messages']): ChatPrompt => ({
    messages,
    ...(prompt.tools ? { tools: prompt.tools } : {}),
  });
  // The instructions' system messages lead the prompt.
  const leading = whole.length - (await providerMessageCount(bare(prompt.messages), model));
  let end = leading;
  const shares: number[] = [];
  for (const message of prompt.messages) {
    end += await providerMessageCount(bare([message]), model);
    shares.push(end);
  }
  if (end === whole.length) {
    const index = shares.findIndex((share) => position < share);
    return position < leading ? 0 : index;
  }
  return searchPrefixes(prompt, coreId, model);
}

/** The shortest prefix of UI messages whose prompt holds `coreId`, by binary search. */
async function searchPrefixes(prompt: ChatPrompt, coreId: string, model: LanguageModelV4): Promise<number> {
  const holds = async (count: number) =>
    (await chatCoreMessages({ ...prompt, messages: prompt.messages.slice(0, count) }, model)).some(
      (message) => message.id === coreId,
    );
  let low = 1;
  let high = prompt.messages.length;
  if (high === 0 || !(await holds(high))) return -1;
  while (low < high) {
    const middle = Math.floor((low + high) / 2);
    if (await holds(middle)) high = middle;
    else low = middle + 1;
  }
  return low - 1;
}
