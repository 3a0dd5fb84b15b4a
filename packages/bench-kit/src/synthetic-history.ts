import type { Message } from '@compaction/core';
import { type FixtureText, fixtureTexts } from './fixture-texts.ts';

/**
 * One turn of the synthetic conversation, message by message: a user request,
 * an assistant reply that calls a tool, a long tool output, a second call, a
 * shorter output, and the assistant's answer. Lengths are in characters
 * (≈ 3.5–4 per token on this content); the mix averages ~250 tokens a message.
 */
const TURN = [
  { role: 'user', chars: 420 },
  { role: 'assistant', chars: 300, call: 160 },
  { role: 'tool', chars: 2_200 },
  { role: 'assistant', chars: 0, call: 220 },
  { role: 'tool', chars: 1_000 },
  { role: 'assistant', chars: 900 },
] as const;

/** The tool names of the recorded sessions, used in turn. */
const TOOL_NAMES = ['Read', 'Bash', 'Grep', 'Edit', 'Glob'] as const;

type Pools = Record<FixtureText['kind'], string>;

let pools: Pools | undefined;

/** Each kind of fixture text joined into one long string, to cut slices from. */
function textPools(): Pools {
  if (pools) return pools;
  const joined: Pools = { prose: '', 'tool-input': '', 'tool-output': '' };
  for (const kind of Object.keys(joined) as FixtureText['kind'][]) {
    joined[kind] = fixtureTexts()
      .filter((piece) => piece.kind === kind)
      .map((piece) => piece.text)
      .join('\n');
  }
  pools = joined;
  return joined;
}

/** A slice of `length` characters of a pool, starting at a position derived from `seed` (deterministic). */
function slice(pool: string, seed: number, length: number): string {
  const start = (seed * 7_919) % Math.max(1, pool.length - length);
  return pool.slice(start, start + length);
}

/**
 * Message `index` of the synthetic conversation (ids `m<index>`). Deterministic:
 * the same index always gives the same message, so every framework is measured
 * on identical histories. Tool calls are answered by the next message, so any
 * prefix that ends at a turn's end has every call paired.
 */
export function syntheticMessage(index: number): Message {
  const { prose, 'tool-output': output } = textPools();
  const step = TURN[index % TURN.length]!;
  const turn = Math.floor(index / TURN.length);
  const id = `m${index}`;
  if (step.role === 'user') {
    return { id, role: 'user', parts: [{ type: 'text', text: `(${index}) ${slice(prose, index, step.chars)}` }] };
  }
  if (step.role === 'tool') {
    const call = index - 1;
    return {
      id,
      role: 'tool',
      parts: [
        {
          type: 'tool-result',
          toolCallId: `call_${call}`,
          toolName: toolName(turn, call),
          output: `(${index}) ${slice(output, index, step.chars)}`,
        },
      ],
    };
  }
  const parts: Message['parts'] = [];
  if (step.chars > 0) parts.push({ type: 'text', text: `(${index}) ${slice(prose, index, step.chars)}` });
  if ('call' in step) {
    parts.push({
      type: 'tool-call',
      toolCallId: `call_${index}`,
      toolName: toolName(turn, index),
      input: { query: slice(prose, index + 1, step.call), path: `src/file-${index % 97}.ts` },
    });
  }
  return { id, role: 'assistant', parts };
}

function toolName(turn: number, index: number): string {
  return TOOL_NAMES[(turn + index) % TOOL_NAMES.length]!;
}

/**
 * The first `count` messages of the synthetic conversation: mixed text, tool
 * calls and long tool outputs, ~250 tokens a message. `count` is rounded up to
 * a whole turn (6 messages) so every tool call has its result.
 */
export function syntheticHistory(count: number): Message[] {
  const whole = Math.ceil(count / TURN.length) * TURN.length;
  return Array.from({ length: whole }, (_, index) => syntheticMessage(index));
}

/**
 * A plain text message of ~250 tokens that continues the conversation after
 * message `index - 1` (role alternates user/assistant), the "one new message"
 * appended before each measured call. It has no tool call, so the history stays
 * paired whatever was appended before it. A `variant` gives it content of its
 * own (same id, same length within a few characters), for a case that must
 * count its new messages although another case in the process counted the plain ones.
 */
export function appendedMessage(index: number, variant?: string): Message {
  const { prose } = textPools();
  const label = variant === undefined ? `${index}` : `${index} ${variant}`;
  return {
    id: `m${index}`,
    role: index % 2 === 0 ? 'user' : 'assistant',
    parts: [{ type: 'text', text: `(${label}) ${slice(prose, index, 1_000)}` }],
  };
}

/**
 * Message `index` of conversation `conversation`: `syntheticMessage(index)` with
 * ids (`c<conversation>-m<index>`, tool calls too) and texts of its own (each
 * text starts with the conversation's tag), so that conversations neither share
 * ids nor content while costing the same to convert and count. Each text is a
 * string of its own, flat, as an application has it from its database or from
 * JSON (not a slice of a shared pool, which V8 would flatten on first read and
 * so charge to whoever reads it first).
 */
export function conversationMessage(conversation: number, index: number, appended = false): Message {
  const message = appended ? appendedMessage(index) : syntheticMessage(index);
  const tag = `[c${conversation}] `;
  const own = (text: string): string => JSON.parse(JSON.stringify(`${tag}${text}`)) as string;
  return {
    id: `c${conversation}-${message.id}`,
    role: message.role,
    parts: message.parts.map((part) => {
      switch (part.type) {
        case 'text':
          return { ...part, text: own(part.text) };
        case 'tool-call':
          return { ...part, toolCallId: `c${conversation}-${part.toolCallId}` };
        case 'tool-result':
          return {
            ...part,
            toolCallId: `c${conversation}-${part.toolCallId}`,
            output: typeof part.output === 'string' ? own(part.output) : part.output,
          };
        default:
          return part;
      }
    }),
  };
}

/** The first `count` messages of conversation `conversation` (see {@link conversationMessage}), whole turns. */
export function conversationHistory(conversation: number, count: number): Message[] {
  const whole = Math.ceil(count / TURN.length) * TURN.length;
  return Array.from({ length: whole }, (_, index) => conversationMessage(conversation, index));
}
