import type { Message, Part } from '@compaction/core';
import { sameContent } from '@compaction/core/internal';
import type { PromptMessage } from './ai-sdk-types.js';
import { partFromCore } from './part-from-core.js';
import { type AiSdkPart, partToCore } from './part-to-core.js';
import { type AiSdkMessage, contentParts, originalMessage } from './to-core-messages.js';

/**
 * A core message back in AI SDK form. A message core left as it was is the
 * original object; in a message core changed (a pruned tool output), the
 * parts it did not change stay the original objects and the message keeps its
 * `providerOptions`; messages core wrote (summary, acknowledgement, synthetic
 * results) are built from their parts.
 */
export function fromCoreMessage(message: Message): AiSdkMessage {
  const original = originalMessage(message);
  if (original?.role === message.role) {
    const parts = restoreParts(contentParts(original), message.parts);
    return parts === undefined ? original : buildMessage(message.role, parts, original.providerOptions);
  }
  return buildMessage(message.role, message.parts.map(partFromCore), undefined);
}

/** The parts to send, or `undefined` when core changed none of them. */
function restoreParts(originals: readonly AiSdkPart[], parts: readonly Part[]): AiSdkPart[] | undefined {
  const restored: AiSdkPart[] = [];
  let changed = false;
  let next = 0;
  for (const original of originals) {
    const projected = partToCore(original);
    if (projected === undefined) {
      restored.push(original); // a part core does not model rides along
      continue;
    }
    const part = parts[next];
    next += 1;
    if (part === undefined) changed = true;
    else if (sameContent(part, projected)) restored.push(original);
    else {
      changed = true;
      restored.push(partFromCore(part));
    }
  }
  for (; next < parts.length; next += 1) {
    changed = true;
    restored.push(partFromCore(parts[next]!));
  }
  return changed ? restored : undefined;
}

function buildMessage(
  role: Message['role'],
  parts: readonly AiSdkPart[],
  providerOptions: AiSdkMessage['providerOptions'],
): AiSdkMessage {
  const content =
    role === 'system' ? parts.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('\n\n') : parts;
  return { role, content, ...(providerOptions === undefined ? {} : { providerOptions }) } as PromptMessage;
}
