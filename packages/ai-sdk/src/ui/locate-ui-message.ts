import type { LanguageModelV4 } from '../ai-sdk-types.js';
import { type ChatPrompt, chatCoreMessages } from './chat-prompt.js';

/**
 * The index of the UI message that holds the model message with content id
 * `coreId`, or -1 when no message of `prompt.messages` does. Content ids chain
 * (each names the conversation up to it), so "the first `j` messages hold it"
 * is monotone in `j`: a binary search converts O(log n) prefixes.
 */
export async function locateUiMessage(prompt: ChatPrompt, coreId: string, model: LanguageModelV4): Promise<number> {
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
