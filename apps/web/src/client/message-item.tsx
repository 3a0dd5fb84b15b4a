import type { CompactionUIMessage } from '@compaction/ai-sdk/ui';
import { ToolCall } from './tool-call.js';

type Part = CompactionUIMessage['parts'][number];

/** A tool part of either kind (a static `tool-<name>` part or a `dynamic-tool` part). */
function isToolPart(part: Part): part is Part & { toolCallId: string; state: string; input?: unknown } {
  return part.type === 'dynamic-tool' || part.type.startsWith('tool-');
}

/** One message: its text, and its tool calls one line each. Summarized messages are dimmed. */
export function MessageItem({ message, summarized }: { message: CompactionUIMessage; summarized: boolean }) {
  const parts = message.parts.filter((part) => (part.type === 'text' && part.text.trim() !== '') || isToolPart(part));
  if (parts.length === 0) return null;
  return (
    <article
      className={`message ${message.role}${summarized ? ' summarized' : ''}`}
      data-id={message.id}
      data-role={message.role}
      data-summarized={summarized}
    >
      <div className="role">{message.role === 'user' ? 'You' : 'Assistant'}</div>
      <div className="parts">
        {parts.map((part, index) =>
          part.type === 'text' ? (
            <p key={index} className="text">
              {part.text.trim()}
            </p>
          ) : isToolPart(part) ? (
            <ToolCall key={part.toolCallId} part={part} />
          ) : null,
        )}
      </div>
    </article>
  );
}
