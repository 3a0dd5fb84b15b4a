// The common shapes are checked whole by their codes (`COMMON_CODES`); each check includes the
// message's part count. The one-field edit property never changes a part count, so this file
// adds or takes away a part, with every other value shared with the message sent before.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { COMMON_SHAPES, commonShapesPromptArbitrary } from './__fixtures__/common-shapes.js';
import { resent } from './__fixtures__/prompt-copies.js';
import type { PromptMessage, ProviderPrompt } from './ai-sdk-types.js';
import { countResentMessages, sentMessages } from './count-resent-messages.js';

type Part = Record<string, unknown>;
const extraParts: Part[] = [
  { type: 'text', text: 'more' },
  { type: 'tool-call', toolCallId: 'x9', toolName: 'read', input: {} },
  { type: 'tool-result', toolCallId: 'x9', toolName: 'read', output: { type: 'text', value: 'y' } },
  { type: 'reasoning', text: 'why' },
];

/** Every message of `known`, in turn: a part added at the end, or its last part taken away; every other value shared. */
function expectPartCountEditsSeen(known: ProviderPrompt): void {
  const sent = sentMessages(known);
  for (let index = 0; index < known.length; index += 1) {
    const edits: ((parts: Part[]) => Part[])[] = [
      ...extraParts.map((extra) => (parts: Part[]) => [...parts, extra]),
      (parts: Part[]) => parts.slice(0, -1),
    ];
    for (const edit of edits) {
      const incoming = resent(known) as unknown as { content: Part[] }[];
      incoming[index]!.content = edit(incoming[index]!.content);
      expect(countResentMessages(incoming, 0, incoming.length, sent), `message ${index}`).toBe(index);
    }
  }
}

describe('countResentMessages, a common shape that gained or lost a part', () => {
  it('sees a part added to or taken from each common shape', () => {
    for (const message of Object.values(COMMON_SHAPES)) {
      const known: ProviderPrompt = [
        { role: 'user', content: [{ type: 'text', text: 'first' }] },
        message as PromptMessage,
        { role: 'user', content: [{ type: 'text', text: 'last' }] },
      ];
      expectPartCountEditsSeen(known);
    }
  });

  it('property: the same over generated prompts of the common shapes', () => {
    fc.assert(
      fc.property(commonShapesPromptArbitrary, (known) => expectPartCountEditsSeen(known)),
      { numRuns: 100 },
    );
  });
});
