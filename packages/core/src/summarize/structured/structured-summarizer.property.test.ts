import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Message, Part } from '../../messages/types.js';
import { heuristicCounter } from '../../tokens/heuristic-counter.js';
import { extractFileOperations } from '../file-operations/extract-file-operations.js';
import { structuredSummarizer } from './structured-summarizer.js';

/** A deadline against a hang, not a speed target: alone these runs take well under a second. */
const PROPERTY_TIMEOUT_MS = 60_000;

const counter = heuristicCounter();
const TOOLS = [
  'Bash',
  'Edit',
  'Write',
  'MultiEdit',
  'Read',
  'apply_patch',
  'TodoWrite',
  'update_plan',
  'web_fetch',
  'custom',
];

/** Tool inputs of every shape: the right keys with wrong types, patches, argv arrays, anything. */
const input = fc.oneof(
  fc.anything(),
  fc.record({ command: fc.oneof(fc.string(), fc.array(fc.anything()), fc.integer()), description: fc.anything() }),
  fc.record({
    file_path: fc.oneof(fc.string(), fc.constant('/repo/src/a.ts')),
    old_string: fc.anything(),
    new_string: fc.anything(),
  }),
  fc.record({ file_path: fc.string(), content: fc.oneof(fc.string(), fc.anything()) }),
  fc.record({ file_path: fc.string(), edits: fc.array(fc.anything()) }),
  fc.record({
    input: fc
      .string()
      .map(
        (text) => `*** Begin Patch\n*** Update File: src/x.ts\n+${text}\n*** Add File: ${text}\n+export const a_b = 1;`,
      ),
  }),
  fc.record({ todos: fc.array(fc.record({ content: fc.anything(), status: fc.anything() })) }),
  fc.record({ plan: fc.anything() }),
);
const output = fc.oneof(
  fc.string(),
  fc.anything(),
  fc.string().map((text) => `Exit code ${text.length % 3}\n${text}`),
  fc.record({ type: fc.constantFrom('text', 'error-text', 'json', 'error-json', 'content'), value: fc.anything() }),
);

const part: fc.Arbitrary<Part> = fc.oneof(
  fc.record({ type: fc.constant('text' as const), text: fc.string() }),
  fc.record({ type: fc.constant('reasoning' as const), text: fc.string() }),
  fc.record({
    type: fc.constant('tool-call' as const),
    toolCallId: fc.constantFrom('c1', 'c2', 'c3'),
    toolName: fc.constantFrom(...TOOLS),
    input,
  }),
  fc.record(
    {
      type: fc.constant('tool-result' as const),
      toolCallId: fc.constantFrom('c1', 'c2', 'c3', 'c4'),
      toolName: fc.constantFrom(...TOOLS, ''),
      output,
      isError: fc.boolean(),
    },
    { requiredKeys: ['type', 'toolCallId', 'toolName', 'output'] },
  ),
  fc.record({ type: fc.constant('file' as const), mediaType: fc.constantFrom('image/png', 'text/plain') }),
);

const message: fc.Arbitrary<Message> = fc.record(
  {
    id: fc.uuid(),
    role: fc.constantFrom('user' as const, 'assistant' as const, 'tool' as const, 'system' as const),
    parts: fc.array(part, { maxLength: 5 }),
    metadata: fc.oneof(
      fc.constant({ synthetic: true }),
      fc.constant({ compaction: { type: 'summary' } }),
      fc.constant({}),
    ),
  },
  { requiredKeys: ['id', 'role', 'parts'] },
);

describe('structuredSummarizer on any valid request', () => {
  it(
    'never throws and never exceeds its budget, first summary or update',
    async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(message, { maxLength: 25 }),
          fc.array(message, { maxLength: 25 }),
          fc.integer({ min: 1, max: 3000 }),
          fc.option(fc.string(), { nil: undefined }),
          async (first, second, maxTokens, lastUserRequest) => {
            const summarizer = structuredSummarizer({ maxTokens });
            const base = { replacedTokens: Number.POSITIVE_INFINITY, counter };
            const summary = await summarizer.summarize({
              ...base,
              kind: 'history',
              messages: first,
              fileOps: extractFileOperations(first),
              ...(lastUserRequest !== undefined ? { lastUserRequest } : {}),
            });
            expect(counter.countText(summary)).toBeLessThanOrEqual(maxTokens);
            const update = await summarizer.summarize({
              ...base,
              kind: 'history',
              messages: second,
              previousSummary: summary,
              fileOps: extractFileOperations([...first, ...second]),
            });
            expect(counter.countText(update)).toBeLessThanOrEqual(maxTokens);
            const prefix = await summarizer.summarize({
              ...base,
              kind: 'turn-prefix',
              messages: second,
              fileOps: extractFileOperations(second),
            });
            expect(counter.countText(prefix)).toBeLessThanOrEqual(maxTokens);
          },
        ),
        { numRuns: 150 },
      );
    },
    PROPERTY_TIMEOUT_MS,
  );
});
