import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { conversation, words } from '../../test/builders.js';
import type { Message } from '../messages/types.js';
import { createCompactionSession } from '../session/create-compaction-session.js';
import { fileStore } from '../store/file-store.js';
import { heuristicCounter } from '../tokens/heuristic-counter.js';
import {
  COMPACTION_STATE_SCHEMA,
  type CompactionState,
  carriedSummary,
  previousSummaryOf,
} from './compaction-state.js';

const state: CompactionState = {
  schema: COMPACTION_STATE_SCHEMA,
  version: 2,
  summary: 'rendered',
  summaryParts: [{ kind: 'history', strategy: 'llm', text: '## Goal\nx' }],
  lastRequest: 'go on',
  firstKeptMessageId: 'm9',
  summarizedRange: { fromIndex: 0, toIndex: 8, messageCount: 9 },
  prunedToolCallIds: [],
  fileOps: { read: [], modified: ['a.ts'] },
  tokensBefore: 900,
  tokensAfter: 300,
  strategy: 'llm',
  createdAt: '2026-11-25T00:00:00.000Z',
};

describe('previousSummaryOf', () => {
  it('gives the parts and the carried last request; the text is not used', () => {
    expect(previousSummaryOf(state)).toEqual({ parts: state.summaryParts, lastRequest: 'go on' });
  });

  it('a state without parts (schema 1) is one opaque verbatim part; no summary, no previous', () => {
    const { summaryParts: _parts, lastRequest: _last, ...legacy } = state;
    expect(previousSummaryOf({ ...legacy, schema: 1 })).toEqual({
      parts: [{ kind: 'history', strategy: 'llm', text: 'rendered', verbatim: true }],
    });
    expect(previousSummaryOf({ ...legacy, summary: '  ' })).toBeUndefined();
    expect(previousSummaryOf(undefined)).toBeUndefined();
  });
});

describe('carriedSummary', () => {
  it('carries the text, the parts and the last request unchanged (a prune-only compaction)', () => {
    expect(carriedSummary(state)).toEqual({
      summary: 'rendered',
      summaryParts: state.summaryParts,
      lastRequest: 'go on',
    });
    expect(carriedSummary(undefined)).toEqual({ summary: '' });
  });
});

describe('a schema-1 state in a file store', () => {
  const dirs: string[] = [];
  afterEach(async () => {
    for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
  });

  function turns(c: ReturnType<typeof conversation>, from: number, count: number): Message[] {
    return Array.from({ length: count }, (_, index) => [
      c.user(`Request ${from + index}: update src/f${from + index}.ts`),
      ...c.toolStep([{ name: 'Edit', input: { file_path: `src/f${from + index}.ts` }, output: words(150) }]),
      c.assistant(`Updated f${from + index}.`),
    ]).flat();
  }

  it('loads; the next compaction reads its text once and stores schema 2 with the parts, which a restart reads back', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'compaction-state-'));
    dirs.push(dir);
    const counter = heuristicCounter();
    const settings = { contextWindow: 6_000, keepRecentTokens: 500 };
    const c = conversation();
    const first = createCompactionSession({ sessionId: 's', store: fileStore(dir), counter, settings });
    await first.append(turns(c, 1, 10));
    await first.compact();
    // Rewrite the stored record as a release of schema 1 wrote it: the text only.
    const store = fileStore(dir);
    const record = await store.loadRecord('s');
    const written = record?.state;
    expect(written?.summaryParts?.length).toBeGreaterThan(0);
    const { summaryParts: _parts, lastRequest: _last, ...fields } = written!;
    const legacy = { ...fields, schema: 1 as const };
    await store.saveRecord('s', { ...record!, state: legacy }, { expectedRevision: record!.revision ?? 0 });

    const second = createCompactionSession({ sessionId: 's', store: fileStore(dir), counter, settings });
    expect((await second.state())?.schema).toBe(1);
    await second.append(turns(c, 11, 10));
    await second.compact();
    const upgraded = await second.state();
    expect(upgraded?.schema).toBe(COMPACTION_STATE_SCHEMA);
    expect(upgraded?.summaryParts?.[0]?.facts?.requests[0]).toBe('Request 1: update src/f1.ts');
    expect(upgraded?.summary).toContain('1. Request 1: update src/f1.ts');
    expect(upgraded?.summary).toContain('Request 12: update src/f12.ts');

    const restarted = createCompactionSession({ sessionId: 's', store: fileStore(dir), counter, settings });
    expect(await restarted.state()).toEqual(upgraded);
  });
});
