import { contentFingerprint, sameContent } from '@compaction/core/internal';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { promptArbitrary } from './__fixtures__/prompt-arbitraries.js';
import { deepCopy } from './__fixtures__/prompt-copies.js';

// Core's sameContent over what the AI SDK re-sends: provider prompts, edited anywhere.
describe('sameContent on provider prompts', () => {
  it('property: two messages are the same exactly when their content ids are', () => {
    const edited = promptArbitrary.chain((prompt) =>
      fc.tuple(
        fc.constant(prompt),
        fc.array(fc.tuple(fc.nat(), fc.jsonValue({ maxDepth: 1 })), { maxLength: 2 }).map((edits) => {
          const copy = deepCopy(prompt) as unknown as Record<string, unknown>[];
          for (const [at, value] of edits) {
            const message = copy[at % Math.max(1, copy.length)];
            if (!message) continue;
            const content = message.content;
            if (Array.isArray(content) && content.length > 0) {
              (content[at % content.length] as Record<string, unknown>).edited = value;
            } else message.providerOptions = { edit: { value } };
          }
          return copy;
        }),
      ),
    );
    fc.assert(
      fc.property(edited, ([known, incoming]) => {
        for (const [index, message] of incoming.entries()) {
          const sameId = contentFingerprint(message) === contentFingerprint(known[index]);
          expect(sameContent(message, known[index])).toBe(sameId);
        }
      }),
      { numRuns: 300 },
    );
  });
});
