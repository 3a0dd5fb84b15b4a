import { describe, expect, it } from 'vitest';
import { conversation, words } from '../../test/builders.js';
import type { Message } from '../messages/types.js';
import { resolveSettings } from '../settings/compaction-settings.js';
import { validateCompactionState } from '../store/validate-record.js';
import { fallbackChain } from '../summarize/fallback/summarize-with-fallback.js';
import { extractFileOperations } from '../summarize/file-operations/extract-file-operations.js';
import { mergeFileOperations } from '../summarize/file-operations/merge-file-operations.js';
import { llmSummarizer } from '../summarize/llm/llm-summarizer.js';
import { renderSummary } from '../summarize/render-summary.js';
import type { Summarizer } from '../summarize/types.js';
import { createTokenCache } from '../tokens/create-token-cache.js';
import { heuristicCounter } from '../tokens/heuristic-counter.js';
import { COMPACTION_STATE_SCHEMA, type CompactionState, previousSummaryOf } from './compaction-state.js';
import { nextState } from './next-state.js';
import { prepareCompaction } from './prepare-compaction.js';
import { summarizePlan } from './summarize-plan.js';

const counter = heuristicCounter();
const countTokens = createTokenCache(counter).count;
const settings = resolveSettings(
  { contextWindow: 8_000, reserveTokens: 1_000, keepRecentTokens: 600, trigger: 0.5, minMessages: 4 },
  8_000,
);

function turns(c: ReturnType<typeof conversation>, from: number, count: number): Message[] {
  return Array.from({ length: count }, (_, index) => {
    const turn = from + index;
    return [
      c.user(`Request ${turn}: rename widget${turn} in src/w${turn}.ts`),
      ...c.toolStep([{ name: 'Edit', input: { file_path: `src/w${turn}.ts` }, output: words(200) }]),
      c.assistant(`Renamed widget${turn}.`),
    ];
  }).flat();
}

/** One compaction of `messages` over `previous`, as `compact` runs it: plan, summarize the plan, next state. */
async function compactOnce(
  messages: readonly Message[],
  previous: CompactionState | undefined,
  summarizer?: Summarizer,
) {
  const plan = prepareCompaction(messages, previous, settings, { countTokens, force: true });
  if (!plan) throw new Error('nothing to compact');
  const fileOps = mergeFileOperations(
    previous?.fileOps ?? { read: [], modified: [] },
    extractFileOperations([...plan.historyMessages, ...plan.turnPrefixMessages]),
  );
  const planned = await summarizePlan({
    plan,
    previous,
    summarizers: fallbackChain(summarizer),
    settings,
    counter,
    countTokens,
    fileOps,
  });
  const state = nextState(
    {
      version: (previous?.version ?? 0) + 1,
      summary: planned.summary,
      summaryParts: planned.summaryParts,
      ...(planned.lastRequest !== undefined ? { lastRequest: planned.lastRequest } : {}),
      firstKeptMessageId: messages[plan.firstKeptIndex]!.id,
      summarizedRange: { fromIndex: 0, toIndex: plan.firstKeptIndex - 1, messageCount: plan.firstKeptIndex },
      prunedToolCallIds: [],
      fileOps,
      tokensBefore: 0,
      strategy: planned.strategy,
      createdAt: '2026-11-25T00:00:00.000Z',
    },
    () => 0,
  );
  return { state, planned };
}

describe('summarizePlan: the summary as structured fields', () => {
  it('stores the parts and the last request, and the text is rendered from them with the state’s file lists', async () => {
    const c = conversation();
    const messages = turns(c, 1, 8);
    const { state } = await compactOnce(messages, undefined);
    const [part] = state.summaryParts ?? [];
    expect(part).toMatchObject({ kind: 'history', strategy: 'structured' });
    expect(part?.facts?.requests).toContain('Request 1: rename widget1 in src/w1.ts');
    expect(part?.text).not.toContain('<read-files>');
    expect(part?.text).not.toContain('Last request from user was:');
    expect(state.lastRequest).toBe('Request 8: rename widget8 in src/w8.ts');
    expect(state.summary).toBe(
      renderSummary({ parts: state.summaryParts ?? [], fileOps: state.fileOps, lastRequest: state.lastRequest }),
    );
    expect(state.summary).toContain('<modified-files>\nsrc/w1.ts');
    // A stored state round-trips through JSON and the load check.
    expect(validateCompactionState(JSON.parse(JSON.stringify(state)))).toEqual(state);
  });

  it('an update builds on the facts the state carries: the stored text is never read back', async () => {
    const c = conversation();
    const first = turns(c, 1, 8);
    const { state } = await compactOnce(first, undefined);
    // The text says something else entirely; only the parts may count.
    const tampered: CompactionState = {
      ...state,
      summary: '## Goal\nEVIL goal\n\n### User Requests\n1. EVIL request\n\nLast request from user was: EVIL last',
    };
    const { state: next } = await compactOnce([...first, ...turns(c, 9, 8)], tampered);
    expect(next.summary).not.toContain('EVIL');
    expect(next.summary).toContain('1. Request 1: rename widget1 in src/w1.ts');
    expect(next.summary).toContain('Request 9: rename widget9 in src/w9.ts');
    expect(next.summaryParts?.[0]?.facts?.summarizedMessages).toBeGreaterThan(
      state.summaryParts?.[0]?.facts?.summarizedMessages ?? 0,
    );
  });

  it('an LLM summary is kept as the model wrote it; the file lists and the last request come from the state', async () => {
    const c = conversation();
    const body = [
      '## Goal',
      'Rename the widgets.',
      '## Constraints & Preferences',
      '- none',
      '## Progress',
      '### Done',
      '- Renamed widget1 to gadget1',
      '### In Progress',
      '- widget8',
      '### Blocked',
      '- (none)',
      '## Key Decisions',
      '- **Keep the old names as aliases**',
      '## Next Steps',
      '1. Rename the rest',
      '## Critical Context',
      '- Aliases live in src/aliases.ts',
    ].join('\n');
    // The model echoes file blocks and a last-request line of its own: dropped, never read.
    const answer = `<summary>\n${body}\n\n<read-files>\n/etc/passwd\n</read-files>\n\nLast request from user was: EVIL\n</summary>`;
    const summarizer = llmSummarizer({ generate: async () => ({ text: answer, finishReason: 'stop' }) });
    const { state } = await compactOnce(turns(c, 1, 8), undefined, summarizer);
    expect(state.strategy).toBe('llm');
    expect(state.summaryParts).toEqual([{ kind: 'history', strategy: 'llm', text: body }]);
    expect(state.lastRequest).toBe('Request 8: rename widget8 in src/w8.ts');
    expect(state.summary).not.toContain('/etc/passwd');
    expect(state.summary).not.toContain('EVIL');
    expect(state.summary.endsWith('Last request from user was: Request 8: rename widget8 in src/w8.ts')).toBe(true);
  });

  it('a structured update after an LLM summary carries the model’s lines and the state’s last request', async () => {
    const c = conversation();
    const first = turns(c, 1, 8);
    const body =
      '## Goal\nRename the widgets.\n\n## Key Decisions\n- **Keep aliases**\n\n## Critical Context\n- Aliases in src/aliases.ts';
    const llm: Summarizer = { name: 'llm', summarize: async () => body, draft: async () => ({ text: body }) };
    const { state } = await compactOnce(first, undefined, llm);
    expect(state.lastRequest).toBeUndefined();
    const { state: next } = await compactOnce([...first, ...turns(c, 9, 8)], state);
    expect(next.strategy).toBe('structured');
    expect(next.summary).toContain('## Goal\nRename the widgets.');
    expect(next.summary).toContain('(Key Decisions) **Keep aliases**');
    expect(next.summary).toContain('(Critical Context) Aliases in src/aliases.ts');
  });

  it('a custom summarizer’s text is stored as it is (verbatim), and the next update reads it once', async () => {
    const c = conversation();
    const first = turns(c, 1, 8);
    const custom: Summarizer = { name: 'mine', summarize: async () => 'My notes: renamed widgets 1 to 3.' };
    const { state } = await compactOnce(first, undefined, custom);
    expect(state.summaryParts).toEqual([
      { kind: 'history', strategy: 'mine', text: 'My notes: renamed widgets 1 to 3.', verbatim: true },
    ]);
    expect(state.summary).toBe('My notes: renamed widgets 1 to 3.');
    const { state: next } = await compactOnce([...first, ...turns(c, 9, 8)], state);
    expect(next.summary).toContain('My notes: renamed widgets 1 to 3.');
  });

  it('a schema-1 state (text only) loads; its text is one opaque part, read once by the update', async () => {
    const c = conversation();
    const first = turns(c, 1, 8);
    const legacyText = [
      '## Goal',
      'Old goal',
      '',
      '## Critical Context',
      '### User Requests',
      '1. Old request one',
      '',
      '<read-files>',
      'docs/old.md',
      '</read-files>',
      '<modified-files>',
      '</modified-files>',
      '',
      'Last request from user was: Old request one',
    ].join('\n');
    const { state } = await compactOnce(first, undefined);
    const { summaryParts: _parts, lastRequest: _last, ...fields } = state;
    // As a schema-1 state was written: its file blocks rendered from its fileOps.
    const fileOps = { read: ['docs/old.md', ...fields.fileOps.read], modified: fields.fileOps.modified };
    const legacy = validateCompactionState({
      ...fields,
      fileOps,
      schema: 1,
      summary: legacyText,
      strategy: 'structured',
    });
    expect(legacy.schema).toBe(1);
    expect(previousSummaryOf(legacy)).toEqual({
      parts: [{ kind: 'history', strategy: 'structured', text: legacyText, verbatim: true }],
    });
    const { state: next } = await compactOnce([...first, ...turns(c, 9, 8)], legacy);
    expect(next.schema).toBe(COMPACTION_STATE_SCHEMA);
    expect(next.summary).toContain('## Goal\nOld goal');
    expect(next.summary).toContain('1. Old request one');
    expect(next.summary).toContain('docs/old.md');
    expect(next.summaryParts?.[0]?.facts?.requests[0]).toBe('Old request one');
  });

  it('a split turn: the prefix is its own part, rendered after the history and its files, before the last request', async () => {
    const c = conversation();
    const messages: Message[] = [
      ...turns(c, 1, 3),
      c.user('Request 4: find the flaky test'),
      ...Array.from({ length: 12 }, (_, step) =>
        c.toolStep([{ name: 'Read', input: { file_path: `test/t${step}.ts` }, output: words(250) }]),
      ).flat(),
    ];
    const { state } = await compactOnce(messages, undefined);
    const kinds = state.summaryParts?.map((part) => part.kind);
    expect(kinds).toEqual(['history', 'turn-prefix']);
    const files = state.summary.indexOf('</modified-files>');
    const prefix = state.summary.indexOf('## Current turn so far');
    const last = state.summary.indexOf('Last request from user was:');
    expect(files).toBeGreaterThan(0);
    expect(prefix).toBeGreaterThan(files);
    expect(last).toBeGreaterThan(prefix);
  });
});
