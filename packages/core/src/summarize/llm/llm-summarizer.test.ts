import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InvalidSettingsError } from '../../errors/invalid-settings-error.js';
import { SummaryRejectedError } from '../../errors/summary-rejected-error.js';
import type { Message } from '../../messages/types.js';
import { heuristicCounter } from '../../tokens/heuristic-counter.js';
import { splitLastRequest } from '../framing/split-last-request.js';
import type { GenerateText, GenerateTextResult, SummarizeRequest } from '../types.js';
import { llmSummarizer } from './llm-summarizer.js';
import {
  INITIAL_SUMMARY_PROMPT,
  SUMMARIZATION_SYSTEM_PROMPT,
  TURN_PREFIX_PROMPT,
  UPDATE_SUMMARY_PROMPT,
} from './summary-prompts.js';

type Call = { system: string; prompt: string; maxOutputTokens: number };

/** A `GenerateText` that plays back scripted answers (an `Error` is thrown) and records each call. */
function scripted(...answers: (GenerateTextResult | Error)[]): { generate: GenerateText; calls: Call[] } {
  const calls: Call[] = [];
  const generate: GenerateText = async (system, prompt, { maxOutputTokens }) => {
    calls.push({ system, prompt, maxOutputTokens });
    const answer = answers[calls.length - 1];
    if (answer === undefined) throw new Error(`unexpected call ${calls.length}`);
    if (answer instanceof Error) throw answer;
    return answer;
  };
  return { generate, calls };
}

const GOOD_TEXT = `## Goal
Rename fetchUser to loadUser across src/.

## Constraints & Preferences
- (none)

## Progress
### Done
- [x] Renamed in src/api.ts

### In Progress
- [ ] Updating callers

### Blocked
- (none)

## Key Decisions
- **Keep the old name as an alias**: callers outside src/

## Next Steps
1. Update src/app.ts

## Critical Context
- tsc error: TS2304: Cannot find name 'fetchUser'

<read-files>
src/made-up-by-the-model.ts
</read-files>
<modified-files>
</modified-files>`;

const good: GenerateTextResult = { text: GOOD_TEXT, finishReason: 'stop' };
const bad = {
  empty: { text: '   ', finishReason: 'stop' },
  truncated: { text: GOOD_TEXT, finishReason: 'length' },
  'not-smaller': { text: `${GOOD_TEXT}\n${'- more detail\n'.repeat(2000)}`, finishReason: 'stop' },
  continuation: { text: `Sure! I'll rename the callers next.\n\n${GOOD_TEXT}`, finishReason: 'stop' },
  'missing-headings': { text: 'Error: 429 Too Many Requests', finishReason: 'stop' },
} satisfies Record<string, GenerateTextResult>;

const messages: Message[] = [
  { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'Rename fetchUser to loadUser' }] },
  {
    id: 'a1',
    role: 'assistant',
    parts: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'Edit', input: { file_path: 'src/api.ts' } }],
  },
  { id: 't1', role: 'tool', parts: [{ type: 'tool-result', toolCallId: 'c1', toolName: 'Edit', output: 'ok' }] },
];

function request(overrides: Partial<SummarizeRequest> = {}): SummarizeRequest {
  return {
    kind: 'history',
    messages,
    fileOps: { read: ['README.md'], modified: ['src/api.ts'] },
    lastUserRequest: 'Rename fetchUser to loadUser',
    replacedTokens: 5000,
    counter: heuristicCounter(),
    ...overrides,
  };
}

describe('llmSummarizer', () => {
  it('accepts a good answer on the first call and stores it with the real file lists and the last request', async () => {
    const { generate, calls } = scripted(good);
    const summary = await llmSummarizer({ generate }).summarize(request());
    expect(calls).toHaveLength(1);
    expect(calls[0]?.system).toBe(SUMMARIZATION_SYSTEM_PROMPT);
    expect(calls[0]?.maxOutputTokens).toBe(4096);
    expect(calls[0]?.prompt).toBe(
      `<conversation>\n[User]: Rename fetchUser to loadUser\n[Tool call]: Edit(file_path="src/api.ts")\n[Tool result]: ok\n</conversation>\n\n${INITIAL_SUMMARY_PROMPT}`,
    );
    expect(summary).not.toContain('made-up-by-the-model');
    expect(summary.slice(summary.indexOf('## Critical Context'))).toMatchInlineSnapshot(`
      "## Critical Context
      - tsc error: TS2304: Cannot find name 'fetchUser'

      <read-files>
      README.md
      </read-files>
      <modified-files>
      src/api.ts
      </modified-files>

      Last request from user was: Rename fetchUser to loadUser"
    `);
  });

  it.each(Object.entries(bad))(
    'retries once after a %s answer, with a corrective note, then accepts',
    async (_, answer) => {
      const { generate, calls } = scripted(answer, good);
      const summary = await llmSummarizer({ generate }).summarize(request());
      expect(calls).toHaveLength(2);
      expect(summary.startsWith('## Goal\nRename fetchUser')).toBe(true);
      expect(calls[1]?.prompt.startsWith(calls[0]?.prompt ?? '')).toBe(true);
      expect(calls[1]?.prompt).toMatch(/Your previous answer .*Output ONLY the summary/s);
    },
  );

  it.each(Object.entries(bad))('rejects with reason %s after exactly 2 calls', async (reason, answer) => {
    const { generate, calls } = scripted(answer, answer);
    const error = await llmSummarizer({ generate })
      .summarize(request())
      .catch((caught: unknown) => caught);
    expect(calls).toHaveLength(2);
    expect(SummaryRejectedError.isInstance(error)).toBe(true);
    expect((error as SummaryRejectedError).reason).toBe(reason);
  });

  it('retries a throwing generate once, then accepts', async () => {
    const { generate, calls } = scripted(new Error('socket hang up'), good);
    await expect(llmSummarizer({ generate }).summarize(request())).resolves.toContain('## Goal');
    expect(calls).toHaveLength(2);
    expect(calls[1]?.prompt).toBe(calls[0]?.prompt);
  });

  it('rejects a generate that throws twice with reason "error" and the cause, never an error text', async () => {
    const cause = new Error('503 Service Unavailable');
    const { generate, calls } = scripted(new Error('socket hang up'), cause);
    const error = await llmSummarizer({ generate })
      .summarize(request())
      .catch((caught: unknown) => caught);
    expect(calls).toHaveLength(2);
    expect(error).toBeInstanceOf(SummaryRejectedError);
    expect(error).toMatchObject({ reason: 'error', cause });
    expect((error as Error).message).toContain('503 Service Unavailable');
  });

  it('tells the model the rejection reason in the corrective note', async () => {
    const { generate, calls } = scripted(bad.truncated, good);
    await llmSummarizer({ generate }).summarize(request());
    expect(calls[1]?.prompt.slice(calls[0]?.prompt.length)).toMatchInlineSnapshot(`
      "

      Your previous answer was cut off by the output limit. Write a shorter summary, well under 4096 tokens. Output ONLY the summary in the exact format above; do not reply to, address or continue the conversation."
    `);
  });

  it('update: sends the previous summary and only the new messages with the update prompt', async () => {
    const { generate, calls } = scripted(good);
    await llmSummarizer({ generate }).summarize(request({ previousSummary: '## Goal\nOlder goal' }));
    expect(
      calls[0]?.prompt.startsWith('<previous-summary>\n## Goal\nOlder goal\n</previous-summary>\n\n<conversation>\n'),
    ).toBe(true);
    expect(calls[0]?.prompt.endsWith(UPDATE_SUMMARY_PROMPT)).toBe(true);
  });

  it('turn prefix: its own prompt and limit, no file lists or last request appended', async () => {
    const text =
      '## Turn Request\nRename fetchUser\n\n## Tried So Far\n- Edit src/api.ts\n\n## Intermediate Results\n- ok';
    const { generate, calls } = scripted({ text });
    const summary = await llmSummarizer({ generate }).summarize(request({ kind: 'turn-prefix' }));
    expect(summary).toBe(text);
    expect(calls[0]?.maxOutputTokens).toBe(2048);
    expect(calls[0]?.prompt.endsWith(TURN_PREFIX_PROMPT)).toBe(true);
  });

  it('uses overridden prompts and output limits', async () => {
    const { generate, calls } = scripted(good, { text: '## Turn Request\nx' });
    const summarizer = llmSummarizer({
      generate,
      prompts: { system: 'Summarize only.', initial: 'Write the checkpoint.' },
      maxOutputTokens: 1000,
    });
    await summarizer.summarize(request({ instructions: 'focus on the rename' }));
    await summarizer.summarize(request({ kind: 'turn-prefix' }));
    expect(calls.map((call) => [call.system, call.maxOutputTokens])).toEqual([
      ['Summarize only.', 1000],
      ['Summarize only.', 1000],
    ]);
    expect(calls[0]?.prompt).toMatch(
      /Write the checkpoint\.\n\nAdditional focus for this summary, from the user: focus on the rename$/,
    );
    expect(calls[1]?.prompt.endsWith(TURN_PREFIX_PROMPT)).toBe(true);
  });

  it('takes the summary out of <summary> tags and drops an <analysis> block and a model-written last request', async () => {
    const { generate } = scripted({
      text: `<analysis>thinking out loud</analysis>\n<summary>\n${GOOD_TEXT}\n\nLast request from user was: made up\n</summary>`,
    });
    const summary = await llmSummarizer({ generate }).summarize(request());
    expect(summary).not.toContain('thinking out loud');
    expect(summary).not.toContain('made up');
    expect(summary.endsWith('\n\nLast request from user was: Rename fetchUser to loadUser')).toBe(true);
  });

  it('stops without a retry when the request is aborted', async () => {
    const controller = new AbortController();
    const abort = new Error('aborted by caller');
    const generate: GenerateText = async () => {
      controller.abort(abort);
      throw abort;
    };
    await expect(llmSummarizer({ generate }).summarize(request({ signal: controller.signal }))).rejects.toBe(abort);
    const { generate: never, calls } = scripted(good);
    await expect(llmSummarizer({ generate: never }).summarize(request({ signal: controller.signal }))).rejects.toBe(
      abort,
    );
    expect(calls).toHaveLength(0);
  });

  it('refuses bad options with an error naming the setting', () => {
    expect(() => llmSummarizer({} as never)).toThrow(InvalidSettingsError);
    expect(() => llmSummarizer({ generate: scripted().generate, maxOutputTokens: 0 })).toThrow(/maxOutputTokens/);
  });
});

describe('llmSummarizer: bounded requests', () => {
  const counter = heuristicCounter();
  const headings = (note: string) =>
    ['Goal', 'Constraints & Preferences', 'Progress', 'Key Decisions', 'Next Steps', 'Critical Context']
      .map((heading) => `## ${heading}\n- ${note}`)
      .join('\n\n');
  /** A model that answers with a summary naming every REQ-n it sees (new and in the previous summary). */
  function recordingModel() {
    const calls: { system: string; prompt: string; maxOutputTokens: number }[] = [];
    const generate: GenerateText = async (system, prompt, { maxOutputTokens }) => {
      calls.push({ system, prompt, maxOutputTokens });
      const seen = [...new Set(prompt.match(/REQ-\d+/g) ?? [])].join(' ');
      return { text: headings(seen || 'nothing'), finishReason: 'stop' };
    };
    return { generate, calls };
  }
  const longSpan = (count: number, words: number): Message[] =>
    Array.from({ length: count }, (_, index) => ({
      id: `m${index}`,
      role: index % 2 ? 'assistant' : 'user',
      parts: [{ type: 'text', text: `REQ-${index} ${'lorem ipsum '.repeat(words)}` }],
    }));

  it('summarizes a span larger than the summary model’s window in chunks, each within it', async () => {
    const model = recordingModel();
    const span = longSpan(120, 400);
    const window = 20_000;
    const summary = await llmSummarizer({ generate: model.generate, contextWindow: window }).summarize(
      request({ messages: span, replacedTokens: 1_000_000 }),
    );
    expect(model.calls.length).toBeGreaterThan(3);
    for (const call of model.calls) {
      expect(
        counter.countText(call.system) + counter.countText(call.prompt) + call.maxOutputTokens,
      ).toBeLessThanOrEqual(window);
    }
    // Each chunk after the first updates the previous chunk's summary.
    expect(model.calls[0]!.prompt).not.toContain('<previous-summary>');
    for (const call of model.calls.slice(1)) expect(call.prompt.startsWith('<previous-summary>\n## Goal')).toBe(true);
    // Every message reached the model once, and the final summary carries them all.
    for (let index = 0; index < span.length; index += 1) {
      expect(
        model.calls.filter(
          (call) => call.prompt.includes(`[User]: REQ-${index} `) || call.prompt.includes(`[Assistant]: REQ-${index} `),
        ),
      ).toHaveLength(1);
      expect(summary).toContain(`REQ-${index} `.trim());
    }
  });

  it('chunks are of about even size: no last chunk is a sliver', async () => {
    const model = recordingModel();
    // A little more than one request holds (12 of these messages): a greedy split would send 12, then 2.
    await llmSummarizer({ generate: model.generate, contextWindow: 20_000 }).summarize(
      request({ messages: longSpan(14, 400), replacedTokens: 1_000_000 }),
    );
    const perCall = model.calls.map((call) => (call.prompt.match(/^\[(?:User|Assistant)\]: REQ-/gm) ?? []).length);
    expect(perCall.length).toBeGreaterThan(1);
    expect(perCall).toEqual([7, 7]);
  });

  it('takes the window from the request when the options give none', async () => {
    const model = recordingModel();
    await llmSummarizer({ generate: model.generate }).summarize(
      request({ messages: longSpan(60, 400), replacedTokens: 1_000_000, contextWindow: 16_000 }),
    );
    expect(model.calls.length).toBeGreaterThan(1);
    for (const call of model.calls) {
      expect(
        counter.countText(call.system) + counter.countText(call.prompt) + call.maxOutputTokens,
      ).toBeLessThanOrEqual(16_000);
    }
  });

  it('cuts a single message too long for any request, with a marker', async () => {
    const model = recordingModel();
    const paste: Message = {
      id: 'p',
      role: 'user',
      parts: [{ type: 'text', text: `REQ-1 ${'log line\n'.repeat(50_000)}` }],
    };
    await llmSummarizer({ generate: model.generate, contextWindow: 12_000 }).summarize(
      request({ messages: [paste], replacedTokens: 1_000_000 }),
    );
    expect(model.calls).toHaveLength(1);
    expect(model.calls[0]!.prompt).toMatch(/… \[[\d,]+ more characters cut\]/);
    expect(
      counter.countText(model.calls[0]!.prompt) + counter.countText(model.calls[0]!.system) + 4096,
    ).toBeLessThanOrEqual(12_000);
  });

  it('caps a huge final paste carried as the last request instead of appending it verbatim', async () => {
    const model = recordingModel();
    const paste = `please fix this:\n${'stack frame at foo (src/a.ts:1)\n'.repeat(20_000)}`;
    const summary = await llmSummarizer({ generate: model.generate }).summarize(
      request({ lastUserRequest: paste, replacedTokens: 1_000_000, maxTokens: 2000 }),
    );
    const { lastRequest } = splitLastRequest(summary);
    expect(lastRequest?.startsWith('please fix this:')).toBe(true);
    expect(lastRequest).toMatch(/more characters cut\]$/);
    expect(counter.countText(lastRequest ?? '')).toBeLessThanOrEqual(1000);
  });

  it('property: whatever the span and the window, no request exceeds the window', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 0, max: 3000 }), { minLength: 1, maxLength: 40 }),
        fc.integer({ min: 8_000, max: 40_000 }),
        fc.option(fc.integer({ min: 0, max: 3000 }), { nil: undefined }),
        async (sizes, window, previousWords) => {
          const model = recordingModel();
          const span = sizes.map(
            (words, index): Message => ({
              id: `m${index}`,
              role: index % 2 ? 'assistant' : 'user',
              parts: [{ type: 'text', text: `REQ-${index} ${'w '.repeat(words)}` }],
            }),
          );
          const previousSummary =
            previousWords === undefined ? undefined : headings(`older ${'x '.repeat(previousWords)}`);
          await llmSummarizer({ generate: model.generate, contextWindow: window }).summarize(
            request({ messages: span, replacedTokens: 10_000_000, ...(previousSummary ? { previousSummary } : {}) }),
          );
          for (const call of model.calls) {
            expect(
              counter.countText(call.system) + counter.countText(call.prompt) + call.maxOutputTokens,
            ).toBeLessThanOrEqual(window);
          }
        },
      ),
      { numRuns: 60 },
    );
  });
});
