import fc from 'fast-check';
import type { PromptMessage, ProviderPrompt } from '../ai-sdk-types.js';
import { promptArbitrary } from './prompt-arbitraries.js';
import { deepCopy, resent } from './prompt-copies.js';

/** One call's prompt made from the previous call's. */
export type Step = (previous: ProviderPrompt) => ProviderPrompt;

/** Any next prompt of a conversation: another one, the same resent or copied, extended, cut, or with one message replaced. */
export const promptSteps = fc.array(
  fc.oneof(
    promptArbitrary.map(
      (prompt): Step =>
        () =>
          prompt,
    ),
    fc.constant<Step>((previous) => resent(previous)),
    fc.constant<Step>((previous) => deepCopy(previous)),
    promptArbitrary.map(
      (extra): Step =>
        (previous) =>
          resent([...previous, ...extra]),
    ),
    fc.nat().map(
      (cut): Step =>
        (previous) =>
          resent(previous.slice(0, cut % (previous.length + 1))),
    ),
    fc
      .tuple(
        fc.nat(),
        promptArbitrary.filter((prompt) => prompt.length > 0),
      )
      .map(
        ([at, other]): Step =>
          (previous) => {
            if (previous.length === 0) return resent(other);
            const next = resent(previous);
            next[at % next.length] = other[0]! as PromptMessage;
            return next;
          },
      ),
  ),
  { minLength: 1, maxLength: 8 },
);
