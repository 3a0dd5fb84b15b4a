import { describe, expect, it } from 'vitest';
import { conversation } from '../../../test/builders.js';
import { heuristicCounter } from '../../tokens/heuristic-counter.js';
import { splitLastRequest } from '../framing/split-last-request.js';
import type { SummarizeRequest } from '../types.js';
import { truncateSummarizer } from './truncate-summarizer.js';

const counter = heuristicCounter();

describe('truncateSummarizer', () => {
  it('writes role counts, file-op tags and the last request', async () => {
    const c = conversation();
    const messages = [
      c.system('You are helpful.'),
      c.user('Fix the build'),
      ...c.toolStep([{ name: 'Read', input: { file_path: 'package.json' }, output: '{}' }]),
      ...c.toolStep([{ name: 'Edit', input: { file_path: 'tsconfig.json' }, output: 'ok' }]),
      c.assistant('Fixed.'),
      c.user('Thanks, now run the tests'),
    ];
    const summary = await truncateSummarizer().summarize({
      kind: 'history',
      messages,
      fileOps: { read: ['package.json'], modified: ['tsconfig.json'] },
      lastUserRequest: 'Thanks, now run the tests',
      replacedTokens: 1000,
      counter,
    });
    expect(summary).toMatchInlineSnapshot(`
      "[Compacted 8 messages: 2 user, 3 assistant, 2 tool, 1 system]

      <read-files>
      package.json
      </read-files>
      <modified-files>
      tsconfig.json
      </modified-files>

      Last request from user was: Thanks, now run the tests"
    `);
  });

  it('carries the start of an earlier summary and its files', async () => {
    const summary = await truncateSummarizer({ maxPreviousSummaryChars: 20 }).summarize({
      kind: 'history',
      messages: [],
      previousSummary:
        '## Goal\nShip the CSV export quickly\n\n<read-files>\n</read-files>\n<modified-files>\nsrc/export.ts\n</modified-files>\n\nLast request from user was: add a test',
      fileOps: { read: ['a.ts'], modified: [] },
      replacedTokens: 1000,
      counter,
    });
    expect(summary).toBe(
      '[Compacted 0 messages]\n\nEarlier summary:\n## Goal\nShip the CSV… [15 more characters cut]\n\n<read-files>\na.ts\n</read-files>\n<modified-files>\nsrc/export.ts\n</modified-files>\n\nLast request from user was: add a test',
    );
  });

  it.each([
    ['no request at all', undefined],
    ['null', null],
    ['messages not an array', { kind: 'history', messages: 'nope', fileOps: null }],
    [
      'odd messages',
      {
        kind: 'history',
        messages: [null, 42, { role: 7 }, { role: 'wizard', parts: null }],
        fileOps: { read: [3, 'ok.ts'] },
      },
    ],
    [
      'a getter that throws',
      Object.defineProperty({}, 'messages', {
        get: () => {
          throw new Error('boom');
        },
      }),
    ],
    [
      'a circular previous summary object',
      (() => {
        const previousSummary: Record<string, unknown> = {};
        previousSummary.self = previousSummary;
        return { kind: 'history', messages: [], previousSummary, lastUserRequest: 12 };
      })(),
    ],
  ])('never throws: %s', async (_, request) => {
    const summary = await truncateSummarizer().summarize(request as unknown as SummarizeRequest);
    expect(summary).toMatch(/^\[Compacted \d+ messages?/);
  });

  it('counts unknown roles after the known ones', async () => {
    const summary = await truncateSummarizer().summarize({
      kind: 'turn-prefix',
      messages: [{ role: 'wizard' }, { role: 'user' }] as never,
      fileOps: { read: [], modified: [] },
      replacedTokens: 1,
      counter,
    });
    expect(summary).toBe('[Compacted 2 messages: 1 user, 1 wizard]');
  });
});

describe('truncateSummarizer: a huge final paste', () => {
  it('is carried cut with a marker, not verbatim', async () => {
    const paste = `fix this:\n${'at frame (src/a.ts:1)\n'.repeat(50_000)}`;
    const summary = await truncateSummarizer().summarize({
      kind: 'history',
      messages: [],
      fileOps: { read: [], modified: [] },
      lastUserRequest: paste,
      replacedTokens: 1_000_000,
      maxTokens: 2_000,
      counter,
    });
    const { lastRequest } = splitLastRequest(summary);
    expect(lastRequest?.startsWith('fix this:')).toBe(true);
    expect(lastRequest).toMatch(/more characters cut\]$/);
    expect(counter.countText(summary)).toBeLessThan(1_200);
  });
});
