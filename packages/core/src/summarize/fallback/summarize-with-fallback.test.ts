import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compactWith } from '../../compaction/compact-with.js';
import type { Message } from '../../messages/types.js';
import { createCompactionSession } from '../../session/create-compaction-session.js';
import { resolveSettings } from '../../settings/compaction-settings.js';
import { gptTokenizerCounter } from '../../tokens/gpt-tokenizer-counter.js';
import { heuristicCounter } from '../../tokens/heuristic-counter.js';
import { llmSummarizer } from '../llm/llm-summarizer.js';
import { HISTORY_SUMMARY_HEADINGS } from '../quality/summary-headings.js';
import type { SummarizeRequest, Summarizer } from '../types.js';
import { callWithTimeout } from './call-with-timeout.js';
import { fallbackChain, summarizeWithFallback } from './summarize-with-fallback.js';

const counter = heuristicCounter();
const SMALL = { contextWindow: 8000, keepRecentTokens: 1500, reserveTokens: 1000 };
const history = (count = 20, words = 500): Message[] =>
  Array.from({ length: count }, (_, index) => ({
    id: `m${index}`,
    role: index % 2 ? 'assistant' : 'user',
    parts: [{ type: 'text', text: `REQ-${index} ${'w '.repeat(words)}` }],
  }));
const valid = (note: string) => HISTORY_SUMMARY_HEADINGS.map((heading) => `## ${heading}\n- ${note}`).join('\n\n');
const request = (overrides: Partial<SummarizeRequest> = {}): SummarizeRequest => ({
  kind: 'history',
  messages: history(4, 50),
  fileOps: { read: [], modified: [] },
  replacedTokens: 5_000,
  maxTokens: 400,
  counter,
  ...overrides,
});

describe('summarizeWithFallback: deadlines (r09)', () => {
  it('a summarizer that never answers is abandoned at the deadline; the chain goes on', async () => {
    let seen: AbortSignal | undefined;
    const hanging: Summarizer = {
      name: 'llm',
      summarize: (req) => {
        seen = req.signal;
        return new Promise(() => {});
      },
    };
    const fallbacks: { strategy: string; error: string }[] = [];
    const result = await summarizeWithFallback(fallbackChain(hanging), request(), fallbacks, { timeoutMs: 50 });
    expect(result.strategy).toBe('structured');
    expect(fallbacks).toEqual([{ strategy: 'llm', error: expect.stringMatching(/timeout.*50 ms/) }]);
    expect(seen?.aborted).toBe(true);
  });

  it('prepare() returns with a hanging LLM, and so does the next prepare() on that session', async () => {
    const signals: (AbortSignal | undefined)[] = [];
    const session = createCompactionSession({
      sessionId: 's',
      settings: { ...SMALL, summaryTimeoutMs: 100 },
      summarizer: llmSummarizer({
        generate: (_system, _prompt, { signal }) => {
          signals.push(signal);
          return new Promise(() => {});
        },
      }),
    });
    const ends: string[] = [];
    session.on((event) => {
      if (event.type === 'compaction:end') ends.push(event.strategy);
    });
    await session.append(history());
    const first = await session.prepare();
    expect(ends).toEqual(['structured']);
    expect(first.tokens).toBeLessThan(8000);
    expect(signals.length).toBeGreaterThan(0);
    expect(signals.every((signal) => signal?.aborted)).toBe(true);
    await session.append(history(4).map((message) => ({ ...message, id: `${message.id}-next` })));
    await expect(session.prepare()).resolves.toBeDefined();
  });

  it('an abort of the caller’s signal settles at once even when the summarizer ignores it', async () => {
    const ignoring: Summarizer = { name: 'mine', summarize: () => new Promise(() => {}) };
    const controller = new AbortController();
    const pending = compactWith(history(), {
      settings: resolveSettings(SMALL, SMALL.contextWindow),
      counting: { counter: gptTokenizerCounter() },
      summarizer: ignoring,
      signal: controller.signal,
      force: true,
    });
    setTimeout(() => controller.abort(new Error('user cancelled')), 20);
    await expect(pending).rejects.toThrow('user cancelled');
  });

  it('prepare({ signal }) settles when the caller aborts, though the summarizer ignores it; the session goes on', async () => {
    const session = createCompactionSession({
      sessionId: 's',
      settings: { ...SMALL, summaryTimeoutMs: 500 },
      summarizer: llmSummarizer({ generate: () => new Promise(() => {}) }),
    });
    await session.append(history());
    // The caller's abort comes long before the deadline: prepare() rejects with it.
    await expect(session.prepare({ signal: AbortSignal.timeout(20) })).rejects.toThrow();
    // Nothing is left holding the session: the next call gets the deadline's fallback.
    await expect(session.prepare()).resolves.toMatchObject({ compaction: { strategy: 'structured' } });
  });

  it('property: an answer before the deadline is used, one after it is not waited for', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(0, 1, 5, 'never' as const), fc.boolean(), async (delay, honorsSignal) => {
        const summarizer: Summarizer = {
          name: 'mine',
          summarize: (req) =>
            new Promise((resolve, reject) => {
              if (honorsSignal) req.signal?.addEventListener('abort', () => reject(req.signal?.reason));
              if (delay !== 'never') setTimeout(() => resolve(valid('REQ-0 REQ-1 REQ-2 REQ-3')), delay);
            }),
        };
        const fallbacks: { strategy: string; error: string }[] = [];
        const result = await summarizeWithFallback(fallbackChain(summarizer), request(), fallbacks, {
          timeoutMs: delay === 'never' ? 30 : 2_000,
        });
        expect(result.strategy).toBe(delay === 'never' ? 'structured' : 'mine');
      }),
      { numRuns: 16 },
    );
  });

  it('callWithTimeout leaves no listener on the caller’s signal', async () => {
    const controller = new AbortController();
    await callWithTimeout(async () => 'ok', 1_000, controller.signal);
    await expect(callWithTimeout(() => new Promise(() => {}), 10, controller.signal)).rejects.toMatchObject({
      reason: 'timeout',
    });
    // Aborting later reaches nobody: no unhandled rejection, nothing thrown.
    controller.abort();
  });
});

describe('summarizeWithFallback: the gate judges every summarizer (r15, r04)', () => {
  it('a custom summary larger than what it replaces falls back, and the context fits (r15)', async () => {
    const session = createCompactionSession({
      sessionId: 's',
      settings: SMALL,
      summarizer: { name: 'mine', summarize: async () => 'z '.repeat(200_000) },
    });
    const events: { type: string; strategy?: string }[] = [];
    session.on((event) => events.push(event as { type: string; strategy?: string }));
    await session.append(history(40, 250));
    const { tokens } = await session.prepare();
    expect(tokens).toBeLessThan(8000);
    expect(events.find((event) => event.type === 'compaction:end')?.strategy).toBe('structured');
  });

  it('an oversized custom summary (smaller than the span, far over the size asked for) falls back', async () => {
    const fallbacks: { strategy: string; error: string }[] = [];
    const big: Summarizer = { name: 'mine', summarize: async () => valid('x '.repeat(3_000)) };
    const result = await summarizeWithFallback(fallbackChain(big), request({ replacedTokens: 100_000 }), fallbacks);
    expect(result.strategy).toBe('structured');
    expect(fallbacks[0]?.error).toMatch(/oversized/);
  });

  it('a custom update that echoes the previous summary falls back (stale)', async () => {
    const previousSummary = valid('REQ-0 earlier work');
    const echo: Summarizer = { name: 'mine', summarize: async (req) => req.previousSummary ?? '' };
    const fallbacks: { strategy: string; error: string }[] = [];
    const result = await summarizeWithFallback(fallbackChain(echo), request({ previousSummary }), fallbacks);
    expect(result.strategy).not.toBe('mine');
    expect(fallbacks[0]?.error).toMatch(/stale/);
  });

  it('an LLM that echoes the previous summary does not lose the newly summarized turns (r04)', async () => {
    const generate = async (_system: string, prompt: string) => {
      const previous = /<previous-summary>\n([\s\S]*?)\n<\/previous-summary>/.exec(prompt)?.[1];
      if (previous) return { text: previous, finishReason: 'stop' };
      const reqs = [...prompt.matchAll(/REQ-\d+/g)].map((match) => match[0]).join(' ');
      return { text: valid(reqs), finishReason: 'stop' };
    };
    const session = createCompactionSession({
      sessionId: 's',
      settings: SMALL,
      summarizer: llmSummarizer({ generate }),
    });
    const strategies: string[] = [];
    const fallbacks: string[] = [];
    session.on((event) => {
      if (event.type !== 'compaction:end') return;
      strategies.push(event.strategy);
      fallbacks.push(...event.fallbacks.map((fallback) => fallback.error));
    });
    for (let turn = 0; turn < 40; turn += 1) {
      await session.append([
        { id: `u${turn}`, role: 'user', parts: [{ type: 'text', text: `REQ-${turn}` }] },
        { id: `a${turn}`, role: 'assistant', parts: [{ type: 'text', text: 'x '.repeat(500) }] },
      ]);
      await session.prepare();
    }
    // The first summary is the model's own; every later one is an update the model echoes
    // (and so is every chunk after the first, when a span is summarized in chunks). An echo
    // is never stored.
    expect(strategies.length).toBeGreaterThan(1);
    expect(strategies.slice(1)).not.toContain('llm');
    expect(fallbacks.every((error) => /stale/.test(error))).toBe(true);
    const context = JSON.stringify(await session.context());
    const absent = Array.from({ length: 40 }, (_, turn) => turn).filter(
      (turn) => !new RegExp(`REQ-${turn}\\b`).test(context),
    );
    expect(absent).toEqual([]);
  });

  it('property: whatever a summarizer returns, the result is a non-empty string', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.string(), fc.constant(undefined), fc.integer(), fc.constant(null), fc.constant('   ')),
        async (answer) => {
          const odd: Summarizer = { name: 'odd', summarize: async () => answer as string };
          const result = await summarizeWithFallback(fallbackChain(odd), request(), []);
          expect(typeof result.text).toBe('string');
          expect(result.text.trim()).not.toBe('');
        },
      ),
      { numRuns: 50 },
    );
  });
});
