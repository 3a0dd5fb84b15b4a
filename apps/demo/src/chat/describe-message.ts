import type { Message } from '@compaction/core';

const cut = (text: string, length: number): string => (text.length > length ? `${text.slice(0, length)}…` : text);

/** A message as display text: its text parts, and a short bracketed line for each other part. */
export function describeMessage(message: Message, options: { maxToolChars?: number } = {}): string {
  const maxToolChars = options.maxToolChars ?? 200;
  return message.parts
    .map((part) => {
      switch (part.type) {
        case 'text':
          return part.text;
        case 'reasoning':
          return `[reasoning] ${cut(part.text, maxToolChars)}`;
        case 'tool-call':
          return `[tool call ${part.toolName}] ${cut(JSON.stringify(part.input) ?? '', maxToolChars)}`;
        case 'tool-result':
          return `[tool result ${part.toolName}${part.isError ? ', error' : ''}] ${cut(typeof part.output === 'string' ? part.output : (JSON.stringify(part.output) ?? ''), maxToolChars)}`;
        case 'file':
          return `[file ${part.mediaType}]`;
        default:
          return '';
      }
    })
    .filter(Boolean)
    .join('\n');
}
