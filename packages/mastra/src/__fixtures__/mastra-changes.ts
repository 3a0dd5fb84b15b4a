import type { MastraDBMessage, MastraMessagePart } from '@mastra/core/agent/message-list';
import fc from 'fast-check';
import { hasToolOutput } from '../part-to-core.js';

type ToolPart = Extract<MastraMessagePart, { type: 'tool-invocation' }>;

/** What Mastra and other processors do to a run's message list between two model calls. */
export const change = fc.oneof(
  fc.record({ kind: fc.constant('add' as const) }),
  // MessageMerger.merge: the latest message gets new parts, or a tool's result.
  fc.record({ kind: fc.constant('step' as const), text: fc.string() }),
  fc.record({ kind: fc.constant('answer-latest' as const), result: fc.string() }),
  // updateToolInvocation on any message waiting for a result: the part and the metadata are replaced.
  fc.record({ kind: fc.constant('answer-any' as const), result: fc.string(), at: fc.nat() }),
  // A processor that returns an edited or shorter list.
  fc.record({ kind: fc.constant('replace' as const), text: fc.string(), at: fc.nat() }),
  fc.record({ kind: fc.constant('remove' as const), at: fc.nat() }),
  // Memory recalls the thread from storage on a new run: new objects, as stored, one of them
  // perhaps edited under its id (same size, another size) or stored under another id.
  fc.record({
    kind: fc.constant('recall' as const),
    edit: fc.option(fc.record({ at: fc.nat(), how: fc.constantFrom('same-size', 'resized', 'new-id') }), {
      nil: undefined,
    }),
  }),
);

/** One change {@link change} generates. */
export type Change = typeof change extends fc.Arbitrary<infer T> ? T : never;

/** Makes `next` to `list` as Mastra would, taking added messages from `pool`. */
export function apply(list: MastraDBMessage[], pool: MastraDBMessage[], next: Change): void {
  const latest = list.at(-1);
  switch (next.kind) {
    case 'add':
      if (pool.length > 0) list.push(pool.shift()!);
      return;
    case 'step':
      latest?.content.parts.push({ type: 'step-start' }, { type: 'text', text: next.text });
      return;
    case 'answer-latest': {
      const part = latest?.content.parts.find(
        (candidate): candidate is ToolPart => candidate.type === 'tool-invocation',
      );
      if (part) part.toolInvocation = { ...part.toolInvocation, state: 'result', result: next.result };
      return;
    }
    case 'answer-any': {
      const message = list[next.at % Math.max(1, list.length)];
      const index =
        message?.content.parts.findIndex((part) => part.type === 'tool-invocation' && !hasToolOutput(part)) ?? -1;
      if (!message || index < 0) return;
      const part = message.content.parts[index] as ToolPart;
      message.content.parts[index] = {
        ...part,
        toolInvocation: { ...part.toolInvocation, state: 'result', result: next.result },
      };
      message.content.metadata = { ...message.content.metadata };
      return;
    }
    case 'replace': {
      const at = next.at % Math.max(1, list.length);
      const message = list[at];
      if (!message) return;
      list[at] = {
        ...message,
        content: { ...message.content, parts: [...message.content.parts, { type: 'text', text: next.text }] },
      };
      return;
    }
    case 'remove':
      list.splice(next.at % Math.max(1, list.length), 1);
      return;
    case 'recall': {
      const recalled = structuredClone(list);
      const edited = next.edit && recalled[next.edit.at % Math.max(1, recalled.length)];
      if (edited && next.edit) editRecalled(edited, next.edit.how);
      list.splice(0, list.length, ...recalled);
      return;
    }
  }
}


/**
 * Edits a recalled message as an app may edit a stored one: its first text keeps its length
 * (`same-size`: other characters) or grows (`resized`; a text part is added when it has none),
 * or the message is stored under another id (`new-id`).
 */
export function editRecalled(message: MastraDBMessage, how: 'same-size' | 'resized' | 'new-id'): void {
  if (how === 'new-id') {
    message.id = `${message.id}-edited`;
    return;
  }
  const part = message.content.parts.find((candidate) => candidate.type === 'text');
  if (!part) {
    if (how === 'resized') message.content.parts.push({ type: 'text', text: 'added' });
    return;
  }
  if (how === 'resized') part.text = `${part.text}!`;
  else part.text = (part.text.startsWith('x') ? 'y' : 'x').repeat(part.text.length);
}
