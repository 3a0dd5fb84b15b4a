import { type Message, messageText } from '@compaction/core';
import { CliError } from '../cli/cli-error.js';
import { recordedReplies } from '../replay/recorded-replies.js';
import type { ChatModel } from './chat-model.js';

/**
 * The offline chat model: answers each message with the text of the next recorded
 * assistant reply that has text (starting over after the last), with usage computed
 * from the context it received.
 *
 * @throws CliError when the recording has no assistant text to replay.
 */
export function replayChatModel(messages: readonly Message[], source: string): ChatModel {
  const withText = messages.filter((message) => message.role === 'assistant' && messageText(message).trim() !== '');
  if (withText.length === 0) throw new CliError(`${source} has no assistant replies with text to replay`);
  const replies = recordedReplies(
    withText.map(({ id, role }, index) => ({
      id,
      role,
      parts: [{ type: 'text', text: messageText(withText[index]!).trim() }],
    })),
    { loop: true },
  );
  return {
    description: `the replay model over ${source} (${withText.length} recorded replies; offline)`,
    async reply(context) {
      const { message, usage } = replies.next(context);
      return { text: messageText(message), usage };
    },
  };
}
