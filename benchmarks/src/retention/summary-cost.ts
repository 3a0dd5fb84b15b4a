import {
  extractFileOperations,
  type FileOperations,
  gptTokenizerCounter,
  type Message,
  mergeFileOperations,
  type PreviousSummary,
  renderSummary,
  type SummarizeRequest,
  structuredSummarizer,
} from '@compaction/core';

/** One turn of a generated coding chat: a request, an intent with an edit, its result. */
function turn(index: number): Message[] {
  return [
    {
      id: `u${index}`,
      role: 'user',
      parts: [{ type: 'text', text: `Question ${index}: status of ticket ${index}? See src/ticket_${index}.ts` }],
    },
    {
      id: `a${index}`,
      role: 'assistant',
      parts: [
        { type: 'text', text: `I'll update \`src/ticket_${index}.ts\` because the ticket points there.` },
        {
          type: 'tool-call',
          toolCallId: `k${index}`,
          toolName: 'Edit',
          input: {
            file_path: `src/ticket_${index}.ts`,
            old_string: 'a',
            new_string: `export const ticket_${index} = 1;`,
          },
        },
      ],
    },
    {
      id: `r${index}`,
      role: 'tool',
      parts: [{ type: 'tool-result', toolCallId: `k${index}`, toolName: 'Edit', output: 'ok' }],
    },
  ];
}

function span(from: number, turns: number): Message[] {
  return Array.from({ length: turns }, (_, offset) => turn(from + offset)).flat();
}

/** What one stacked update costs after `age` earlier turns. */
export type SummaryCost = { age: number; summaryTokens: number; fastestMs: number };

/**
 * The cost of one structured update of the same-sized span (`spanTurns` turns) after `age`
 * earlier turns, themselves summarized by stacked updates of `spanTurns` turns each: the
 * fastest of `runs` timed calls (the least disturbed by other work on the machine), and the
 * size of the summary it updates. The cost should
 * depend on the span, not on the age (issue 14, r12).
 */
export async function structuredUpdateCost(
  age: number,
  options: {
    maxTokens: number;
    spanTurns?: number;
    runs?: number;
    /**
     * What the update builds on: `state` the previous summary's parts as the engine stores them
     * (its draft, the facts carried), `text` the previous summary's text read back.
     * @default 'text'
     */
    from?: 'text' | 'state';
  },
): Promise<SummaryCost> {
  const spanTurns = options.spanTurns ?? 50;
  const counter = gptTokenizerCounter();
  const summarizer = structuredSummarizer({ maxTokens: options.maxTokens });
  const fromState = options.from === 'state';
  let summary: string | undefined;
  let previous: PreviousSummary | undefined;
  let fileOps: FileOperations = { read: [], modified: [] };
  const requestOf = (messages: Message[]): SummarizeRequest => ({
    kind: 'history',
    messages,
    ...(summary !== undefined ? { previousSummary: summary } : {}),
    ...(fromState && previous ? { previous } : {}),
    fileOps,
    replacedTokens: Number.POSITIVE_INFINITY,
    counter,
  });
  for (let start = 0; start < age; start += spanTurns) {
    const messages = span(start, spanTurns);
    fileOps = mergeFileOperations(fileOps, extractFileOperations(messages));
    const request = requestOf(messages);
    if (fromState) {
      const { lastRequest, ...part } = await summarizer.draft!(request);
      const parts = [{ ...part, kind: 'history' as const, strategy: summarizer.name }];
      previous = { parts, ...(lastRequest !== undefined ? { lastRequest } : {}) };
      summary = renderSummary({ parts, fileOps, lastRequest });
    } else summary = await summarizer.summarize(request);
  }
  const messages = span(age, spanTurns);
  fileOps = mergeFileOperations(fileOps, extractFileOperations(messages));
  const request = requestOf(messages);
  const times: number[] = [];
  for (let run = 0; run < (options.runs ?? 15); run++) {
    const started = performance.now();
    if (fromState) await summarizer.draft!(request);
    else await summarizer.summarize(request);
    times.push(performance.now() - started);
  }
  return {
    age,
    summaryTokens: summary === undefined ? 0 : counter.countText(summary),
    fastestMs: Math.min(...times),
  };
}
