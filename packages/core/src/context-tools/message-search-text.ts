import type { Message } from '../messages/types.js';
import { safeJson, toolOutputText } from '../summarize/framing/tool-output-text.js';

/**
 * The text of a message as search and `read_message` see it: text parts, each
 * tool call as `name(arguments)`, each tool result's output, a file as
 * `[file: type name]`. Reasoning is left out (the model never re-reads it).
 * A tool output longer than `maxToolOutputChars` keeps its head and tail
 * around a marker that says how much was cut.
 */
export function messageSearchText(message: Message, maxToolOutputChars = Number.POSITIVE_INFINITY): string {
  const lines: string[] = [];
  for (const part of message.parts) {
    switch (part.type) {
      case 'text':
        lines.push(part.text);
        break;
      case 'tool-call':
        lines.push(`${part.toolName}(${safeJson(part.input)})`);
        break;
      case 'tool-result':
        lines.push(cutMiddle(toolOutputText(part.output), maxToolOutputChars));
        break;
      case 'file':
        lines.push(`[file: ${part.mediaType}${part.filename ? ` ${part.filename}` : ''}]`);
        break;
      default:
        break;
    }
  }
  return lines.join('\n');
}

function cutMiddle(text: string, max: number): string {
  if (text.length <= max) return text;
  const head = Math.ceil(max * 0.7);
  const tail = Math.max(0, Math.floor(max - head));
  return `${text.slice(0, head)}\n[… ${text.length - head - tail} characters cut …]\n${tail > 0 ? text.slice(-tail) : ''}`;
}
