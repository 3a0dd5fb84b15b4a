import type { LanguageModelV4, LanguageModelV4Content, LanguageModelV4StreamPart } from '@ai-sdk/provider';
import type { ReplayStep } from './replay-steps.js';

/** Options of {@link replayModel}. */
export type ReplayModelOptions = {
  /**
   * Model calls one response may make: the last one answers with the recorded text only, so a
   * response ends even in the middle of a long recorded tool loop.
   * @default 4
   */
  maxStepsPerResponse?: number;
  /** @default 'replay' */
  modelId?: string;
};

/** A replay model: a `LanguageModelV4` plus where each conversation is in the recording. */
export type ReplayModel = LanguageModelV4 & {
  /** Puts a conversation at `position` model calls into the recording (the calls its history holds). */
  seek(sessionId: string, position: number): void;
  /** How many recorded model calls there are. */
  readonly steps: number;
};

/** The suffix that keeps replayed tool call ids unique when the recording loops. */
export function replayedCallId(recordedId: string, position: number): string {
  return `${recordedId}-r${position}`;
}

/** The recorded id of a replayed tool call id. */
export function recordedCallId(replayedId: string): string {
  return replayedId.replace(/-r\d+$/, '');
}

/**
 * An offline AI SDK model over a recorded session: each model call of a conversation
 * streams the next recorded assistant message — its text and its tool calls (the
 * replay tools answer them with the recorded results) — starting over after the last.
 * The conversation is told by `providerOptions.compaction.sessionId`; the route puts it
 * at the right place with `seek` before each request, from the history it holds, so a
 * restart or a reload goes on where the conversation was. Usage is reported from the
 * prompt it received (about 4 characters a token), as a provider would report it.
 */
export function replayModel(steps: readonly ReplayStep[], options: ReplayModelOptions = {}): ReplayModel {
  if (steps.length === 0) throw new Error('replayModel: the recording has no assistant messages to replay');
  const maxSteps = options.maxStepsPerResponse ?? 4;
  if (!Number.isInteger(maxSteps) || maxSteps < 1) {
    throw new Error(`replayModel: maxStepsPerResponse must be a whole number ≥ 1, got ${maxSteps}`);
  }
  const cursors = new Map<string, { position: number; inResponse: number }>();

  function next(sessionId: string): { content: LanguageModelV4Content[]; position: number } {
    const cursor = cursors.get(sessionId) ?? { position: 0, inResponse: 0 };
    cursors.set(sessionId, cursor);
    const position = cursor.position;
    const step = steps[position % steps.length]!;
    cursor.position += 1;
    cursor.inResponse += 1;
    const last = cursor.inResponse >= maxSteps;
    const content: LanguageModelV4Content[] = [];
    for (const part of step.message.parts) {
      if (part.type === 'text') content.push({ type: 'text', text: part.text });
      else if (part.type === 'tool-call' && !last) {
        content.push({
          type: 'tool-call',
          toolCallId: replayedCallId(part.toolCallId, position),
          toolName: part.toolName,
          input: JSON.stringify(part.input ?? {}),
        });
      }
    }
    if (content.length === 0) content.push({ type: 'text', text: '(the recording goes on with more tool calls)' });
    return { content, position };
  }

  return {
    specificationVersion: 'v4',
    provider: 'compaction-replay',
    modelId: options.modelId ?? 'replay',
    supportedUrls: {},
    steps: steps.length,
    seek(sessionId, position) {
      cursors.set(sessionId, { position, inResponse: 0 });
    },
    async doGenerate() {
      throw new Error('replayModel streams only: use streamText');
    },
    async doStream({ prompt, providerOptions }) {
      const sessionId = String(providerOptions?.compaction?.sessionId ?? 'default');
      const { content } = next(sessionId);
      const inputTokens = Math.ceil(JSON.stringify(prompt).length / 4);
      const outputTokens = Math.ceil(JSON.stringify(content).length / 4);
      const hasToolCalls = content.some((part) => part.type === 'tool-call');
      const parts: LanguageModelV4StreamPart[] = [{ type: 'stream-start', warnings: [] }];
      for (const [index, part] of content.entries()) {
        if (part.type === 'text') {
          const id = `text-${index}`;
          parts.push({ type: 'text-start', id });
          for (const piece of part.text.match(/[\s\S]{1,80}/g) ?? [])
            parts.push({ type: 'text-delta', id, delta: piece });
          parts.push({ type: 'text-end', id });
        } else if (part.type === 'tool-call') {
          parts.push(part);
        }
      }
      parts.push({
        type: 'finish',
        finishReason: hasToolCalls ? { unified: 'tool-calls', raw: 'tool_use' } : { unified: 'stop', raw: 'end_turn' },
        usage: {
          inputTokens: { total: inputTokens, noCache: inputTokens, cacheRead: undefined, cacheWrite: undefined },
          outputTokens: { total: outputTokens, text: outputTokens, reasoning: undefined },
        },
      });
      return {
        stream: new ReadableStream<LanguageModelV4StreamPart>({
          start(controller) {
            for (const part of parts) controller.enqueue(part);
            controller.close();
          },
        }),
      };
    },
  };
}
