import {
  type CompactionEvent,
  type CompactionSettings,
  type Message,
  type Summarizer,
  structuredSummarizer,
  type TokenCounter,
  tiktokenCounter,
} from '@compaction/core';
import { createPromptMeter, type PromptMeasure, type PromptMeter } from '../replay/prompt-meter.js';
import { recordedReplies } from '../replay/recorded-replies.js';
import type { AdapterName } from './adapter-name.js';
import { cachedPrefixTokens } from './cached-prefix-tokens.js';
import { driverFor } from './driver-for.js';
import { IDENTITY_SCALE, type TokenScale } from './fit-token-scale.js';
import { meteredSummarizer } from './metered-summarizer.js';
import type { ReplayCall, ReplayRun } from './replay-result.js';

/** Options of {@link runReplay}. */
export type RunReplayOptions = {
  adapter: AdapterName;
  /** The conversation; every assistant message is one model call, answered by the replay model. */
  messages: readonly Message[];
  /** Recorded context tokens per assistant message id, when the recording has them. */
  recorded?: ReadonlyMap<string, number>;
  settings?: Partial<CompactionSettings>;
  model?: string;
  /** @default structuredSummarizer() */
  summarizer?: Summarizer;
  /** @default tiktokenCounter() */
  counter?: TokenCounter;
  /** A meter to reuse (with its counts); built from `counter` when omitted. */
  meter?: PromptMeter;
  /** How counted tokens map to the recorded model's: overhead per call and tokenizer ratio. @default IDENTITY_SCALE */
  scale?: TokenScale;
  /**
   * Messages before which the recorded user ran `/compact` by hand: drivers that can
   * (core) compact manually there too, as the same user would have.
   */
  manualCompactionsBefore?: ReadonlySet<string>;
  /** Called after every model call. */
  onCall?: (call: ReplayCall, total: number) => void;
  onCompaction?: (event: CompactionEvent) => void;
};

/**
 * Replays a conversation through one adapter on the replay model and measures every
 * call: the context sent (ours) beside the recorded one and the full history, and what a
 * prefix cache would read and write. Every compaction is kept with its summary.
 */
export async function runReplay(options: RunReplayOptions): Promise<ReplayRun> {
  const counter = options.meter?.counter ?? options.counter ?? tiktokenCounter();
  const meter = options.meter ?? createPromptMeter(counter);
  const { overheadTokens, tokenRatio } = options.scale ?? IDENTITY_SCALE;
  const scaled = (tokens: number): number => Math.round(tokens * tokenRatio);
  const run: ReplayRun = {
    adapter: options.adapter,
    calls: [],
    compactions: [],
    compactionErrors: [],
    summarizations: [],
    overheadTokens,
    tokenRatio,
  };
  const historyTokensBefore = new Map<string, number>();
  let historyTokens = 0;
  for (const message of options.messages) {
    if (message.role === 'assistant') historyTokensBefore.set(message.id, overheadTokens + scaled(historyTokens));
    historyTokens += meter.measure([message]).tokens;
  }
  const total = historyTokensBefore.size;
  let previous: PromptMeasure | undefined;
  let compactedBefore = false;
  const replies = recordedReplies(options.messages, {
    meter,
    overheadTokens,
    tokenRatio,
    onReply(reply) {
      const ours = reply.usage.inputTokens;
      const cacheRead = previous
        ? Math.min(ours, overheadTokens + scaled(cachedPrefixTokens(previous, reply.measure)))
        : 0;
      const recorded = options.recorded?.get(reply.message.id);
      const call: ReplayCall = {
        call: reply.call,
        messageId: reply.message.id,
        ...(recorded === undefined ? {} : { recorded }),
        ours,
        uncompacted: historyTokensBefore.get(reply.message.id) ?? ours,
        cacheRead,
        cacheWrite: ours - cacheRead,
        outputTokens: reply.usage.outputTokens,
        compactedBefore,
      };
      previous = reply.measure;
      compactedBefore = false;
      run.calls.push(call);
      options.onCall?.(call, total);
    },
  });
  const summarizer = meteredSummarizer(options.summarizer ?? structuredSummarizer(), counter, (tokens) =>
    run.summarizations.push({ inputTokens: scaled(tokens.inputTokens), outputTokens: scaled(tokens.outputTokens) }),
  );
  const onEvent = (event: CompactionEvent): void => {
    const beforeCall = run.calls.length + 1;
    if (event.type === 'compaction:end') {
      compactedBefore = true;
      run.compactions.push({
        beforeCall,
        trigger: event.trigger,
        messagesSummarized: event.messagesSummarized,
        messagesBefore: event.messagesBefore,
        messagesAfter: event.messagesAfter,
        tokensBefore: event.tokensBefore,
        tokensAfter: event.tokensAfter,
        strategy: event.strategy,
        fallbacks: event.fallbacks,
        toolOutputsPruned: event.result.state.prunedToolCallIds.length,
        summary: event.result.state.summary,
      });
    } else if (event.type === 'compaction:error') {
      run.compactionErrors.push({ beforeCall, message: event.message });
    }
    options.onCompaction?.(event);
  };
  await driverFor(options.adapter)({
    messages: options.messages,
    replies,
    sessionId: `replay-${options.adapter}`,
    settings: options.settings ?? {},
    ...(options.model === undefined ? {} : { model: options.model }),
    summarizer,
    counter,
    onEvent,
    ...(options.manualCompactionsBefore ? { manualCompactionsBefore: options.manualCompactionsBefore } : {}),
  });
  return run;
}
