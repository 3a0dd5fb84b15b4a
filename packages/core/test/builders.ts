import {
  COMPACTION_STATE_SCHEMA,
  type CompactionState,
  type Message,
  type SummarizeRequest,
  type Summarizer,
} from '../src/index.js';

/** Small builders for test conversations. Ids are sequential per builder. */
export function conversation() {
  let next = 0;
  const id = (prefix: string) => {
    next += 1;
    return `${prefix}${next}`;
  };
  return {
    user: (text: string, extra: Partial<Message> = {}): Message => ({
      id: id('u'),
      role: 'user',
      parts: [{ type: 'text', text }],
      ...extra,
    }),
    assistant: (text: string): Message => ({ id: id('a'), role: 'assistant', parts: [{ type: 'text', text }] }),
    system: (text: string): Message => ({ id: id('s'), role: 'system', parts: [{ type: 'text', text }] }),
    /** An assistant message with tool calls, and the tool message with their results. */
    toolStep: (
      calls: { name: string; input: unknown; output: string; isError?: boolean }[],
      text?: string,
    ): Message[] => {
      const callIds = calls.map(() => id('call'));
      const assistant: Message = {
        id: id('a'),
        role: 'assistant',
        parts: [
          ...(text ? [{ type: 'text' as const, text }] : []),
          ...calls.map((call, index) => ({
            type: 'tool-call' as const,
            toolCallId: callIds[index]!,
            toolName: call.name,
            input: call.input,
          })),
        ],
      };
      const tool: Message = {
        id: id('t'),
        role: 'tool',
        parts: calls.map((call, index) => ({
          type: 'tool-result' as const,
          toolCallId: callIds[index]!,
          toolName: call.name,
          output: call.output,
          ...(call.isError ? { isError: true } : {}),
        })),
      };
      return [assistant, tool];
    },
  };
}

/** A deterministic summarizer that records its requests. */
export function recordingSummarizer(name = 'test'): Summarizer & { requests: SummarizeRequest[] } {
  const requests: SummarizeRequest[] = [];
  return {
    name,
    requests,
    async summarize(request) {
      requests.push(request);
      const ids = request.messages.map((message) => message.id).join(',');
      const previous = request.previousSummary ? `${request.previousSummary}\n` : '';
      return `${previous}[${request.kind}] ${ids}`;
    },
  };
}

/** Text of `tokens` heuristic tokens (4 chars each). */
export function words(tokens: number): string {
  return 'abcd'.repeat(tokens);
}

/**
 * `turns` coding turns — a request, a `read` tool call with a 200-token result,
 * an answer — about 300 heuristic tokens each: a few turns cross a 4 000-token window's trigger.
 */
export function longConversation(turns: number): Message[] {
  const c = conversation();
  return Array.from({ length: turns }, (_, turn) => [
    c.user(`request ${turn}: ${words(40)}`),
    ...c.toolStep([{ name: 'read', input: { path: `src/file${turn}.ts` }, output: words(200) }]),
    c.assistant(`done ${turn}: ${words(40)}`),
  ]).flat();
}

/** A small compaction state whose summary ('S') stands for one message and keeps `firstKeptMessageId` on. */
export function stateKeeping(
  firstKeptMessageId: string,
  version = 1,
  extra: Partial<CompactionState> = {},
): CompactionState {
  return {
    schema: COMPACTION_STATE_SCHEMA,
    version,
    summary: 'S',
    firstKeptMessageId,
    summarizedRange: { fromIndex: 0, toIndex: 0, messageCount: 1 },
    prunedToolCallIds: [],
    fileOps: { read: [], modified: [] },
    tokensBefore: 10,
    tokensAfter: 5,
    strategy: 'structured',
    createdAt: '2026-01-01T00:00:00.000Z',
    ...extra,
  };
}
