import type { FilePart, Message, Part, Role } from '../../messages/types.js';
import { cutText } from './cut-text.js';
import { escapeFraming } from './escape-framing.js';
import { isErrorOutput, safeJson, toolOutputText } from './tool-output-text.js';

/** How {@link serializeConversation} renders messages. */
export type SerializeConversationOptions = {
  /**
   * Tool outputs (and each string argument of a tool call) longer than this are cut,
   * with a marker saying how much was cut.
   * @default 2000
   */
  maxToolOutputChars?: number;
  /**
   * Include reasoning ("thinking") parts as `[Reasoning]: …` lines.
   * @default false
   */
  includeReasoning?: boolean;
};

/** The default of `maxToolOutputChars`. */
export const DEFAULT_MAX_TOOL_OUTPUT_CHARS = 2000;

const ROLE_LABELS: Record<Role, string> = {
  system: '[System]',
  user: '[User]',
  assistant: '[Assistant]',
  tool: '[Tool result]',
};

/**
 * The transcript a summarizer reads, in a form a model will not continue as a chat, wrapped
 * in `<conversation>` tags:
 *
 * ```
 * <conversation>
 * [User]: What files are in src/?
 * [Assistant]: Let me check.
 * [Tool call]: bash(command="ls src/")
 * [Tool result]: main.rs lib.rs
 * </conversation>
 * ```
 *
 * Tool errors read `[Tool error]: …`, files and images `[File: name (mediaType)]`, system
 * messages `[System]: …`. Every piece of message data goes through `escapeFraming`, so no
 * text, tool output, argument or name can close the transcript (`</conversation>` in any
 * spelling) or start a line that reads as a turn (`[User]: …`): the only turn markers at
 * the start of a line are the serializer's own. Reasoning is left out unless `includeReasoning` is set. The
 * serializer only reads: it never changes a message, so reasoning stays in the history
 * and the kept context untouched. The engine never summarizes the latest turn's reasoning:
 * it reaches the model verbatim in the kept messages (a split turn's prefix is serialized
 * without reasoning, whatever `includeReasoning` says).
 *
 * @example
 * ```ts
 * const transcript = serializeConversation(messages, { maxToolOutputChars: 500 });
 * ```
 */
export function serializeConversation(
  messages: readonly Message[],
  options: SerializeConversationOptions = {},
): string {
  return wrapTranscript(
    serializeMessages(messages, options)
      .filter((lines) => lines !== '')
      .join('\n'),
  );
}

/** `body` (transcript lines) inside the `<conversation>` tags, as {@link serializeConversation} frames it. */
export function wrapTranscript(body: string): string {
  return body ? `<conversation>\n${body}\n</conversation>` : '<conversation>\n</conversation>';
}

/**
 * The transcript lines of each message, one string per message (empty when a message
 * renders nothing), escaped as in {@link serializeConversation}: joined by newlines and
 * wrapped with {@link wrapTranscript}, they are its output. Lets a summarizer split a long
 * transcript into chunks at message boundaries.
 */
export function serializeMessages(messages: readonly Message[], options: SerializeConversationOptions = {}): string[] {
  const maxChars = options.maxToolOutputChars ?? DEFAULT_MAX_TOOL_OUTPUT_CHARS;
  const includeReasoning = options.includeReasoning ?? false;
  const rendered: string[] = [];
  for (const message of messages) {
    const lines: string[] = [];
    let text: string[] = [];
    const flushText = () => {
      if (text.length > 0) lines.push(`${ROLE_LABELS[message.role]}: ${escapeFraming(text.join('\n\n'))}`);
      text = [];
    };
    for (const part of message.parts) {
      if (part.type === 'text') {
        if (part.text.trim()) text.push(part.text.trim());
        continue;
      }
      flushText();
      const line = partLine(part, { maxChars, includeReasoning });
      if (line !== undefined) lines.push(line);
    }
    flushText();
    rendered.push(lines.join('\n'));
  }
  return rendered;
}

function partLine(
  part: Exclude<Part, { type: 'text' }>,
  { maxChars, includeReasoning }: { maxChars: number; includeReasoning: boolean },
): string | undefined {
  switch (part.type) {
    case 'reasoning':
      return includeReasoning && part.text.trim() ? `[Reasoning]: ${escapeFraming(part.text.trim())}` : undefined;
    case 'tool-call':
      return `[Tool call]: ${escapeFraming(`${oneLine(part.toolName)}(${toolArguments(part.input, maxChars)})`)}`;
    case 'tool-result': {
      const label = isErrorOutput(part) ? '[Tool error]' : '[Tool result]';
      return `${label}: ${escapeFraming(cutText(toolOutputText(part.output).trim(), maxChars))}`;
    }
    case 'file':
      return filePlaceholder(part);
    default:
      return undefined;
  }
}

/** `key="value", count=3` for an object input; the input as JSON otherwise. */
function toolArguments(input: unknown, maxChars: number): string {
  if (input === undefined || input === null) return '';
  if (typeof input !== 'object' || Array.isArray(input)) return cutText(safeJson(input), maxChars);
  return Object.entries(input)
    .map(([key, value]) => {
      const rendered = typeof value === 'string' ? JSON.stringify(cutText(value, maxChars)) : safeJson(value);
      return `${key}=${typeof value === 'string' ? rendered : cutText(rendered, maxChars)}`;
    })
    .join(', ');
}

/** `[File: name (mediaType)]`, named by `filename`, else the URL, else `unnamed`. */
function filePlaceholder(part: Pick<FilePart, 'filename' | 'url' | 'mediaType'>): string {
  const name = part.filename ?? (typeof part.url === 'string' ? part.url : undefined) ?? 'unnamed';
  return `[File: ${nameText(name)} (${nameText(part.mediaType || 'unknown type')})]`;
}

/** A name on one line (a tool name is never allowed to start a new transcript line). */
function oneLine(text: unknown): string {
  return String(text).replace(/\s+/g, ' ');
}

/** A name inside the file placeholder: one line, escaped, unable to close its bracket. */
function nameText(text: unknown): string {
  return escapeFraming(oneLine(text))
    .replace(/\n/g, ' ')
    .replace(/[[\uff3b]/gu, '(')
    .replace(/[\]\uff3d]/gu, ')');
}
