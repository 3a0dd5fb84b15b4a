import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { PromptPart } from './ai-sdk-types.js';
import { partFromCore } from './part-from-core.js';
import { partToCore } from './part-to-core.js';

const providerOptions = fc.constantFrom(undefined, { acme: { cache: true } });
const withOptions = <T extends object>(part: T, options: object | undefined) =>
  (options === undefined ? part : { ...part, providerOptions: options }) as unknown as PromptPart;

/** Parts whose core view holds everything: the generic way back (no original) rebuilds them exactly. */
const plainPart: fc.Arbitrary<PromptPart> = fc.oneof(
  fc
    .tuple(fc.constantFrom('text' as const, 'reasoning' as const), fc.string(), providerOptions)
    .map(([type, text, o]) => withOptions({ type, text }, o)),
  fc
    .tuple(fc.string({ minLength: 1 }), fc.jsonValue(), providerOptions)
    .map(([toolCallId, input, o]) => withOptions({ type: 'tool-call', toolCallId, toolName: 'bash', input }, o)),
  fc
    .tuple(
      fc.oneof(
        fc.string().map((value) => ({ type: 'text' as const, value })),
        fc.string().map((value) => ({ type: 'error-text' as const, value })),
        fc
          .oneof(fc.integer(), fc.boolean(), fc.array(fc.string()), fc.dictionary(fc.string(), fc.integer()))
          .map((value) => ({ type: 'json' as const, value })),
        fc.dictionary(fc.string(), fc.string()).map((value) => ({ type: 'error-json' as const, value })),
      ),
      providerOptions,
    )
    .map(([output, o]) => withOptions({ type: 'tool-result', toolCallId: 'c1', toolName: 'read', output }, o)),
  fc
    .tuple(
      fc.oneof(
        fc.uint8Array().map((data) => ({ type: 'data' as const, data })),
        fc.webUrl().map((url) => ({ type: 'url' as const, url: new URL(url) })),
      ),
      fc.option(fc.string(), { nil: undefined }),
    )
    .map(([data, filename]) =>
      filename === undefined
        ? ({ type: 'file', mediaType: 'image/png', data } as PromptPart)
        : ({ type: 'file', mediaType: 'image/png', data, filename } as PromptPart),
    ),
);

describe('partFromCore', () => {
  it('property: inverts partToCore for every part core fully represents', () => {
    fc.assert(
      fc.property(plainPart, (part) => {
        expect(partFromCore(partToCore(part)!)).toStrictEqual(part);
      }),
    );
  });

  it('wraps outputs core wrote: strings as text, flagged ones as errors, anything else as JSON', () => {
    const result = (output: unknown, isError?: boolean) =>
      partFromCore({ type: 'tool-result', toolCallId: 'c', toolName: 't', output, ...(isError ? { isError } : {}) });
    expect(result('[cleared]')).toMatchObject({ output: { type: 'text', value: '[cleared]' } });
    expect(result('no result', true)).toMatchObject({ output: { type: 'error-text', value: 'no result' } });
    expect(result({ code: 1 }, true)).toMatchObject({ output: { type: 'error-json', value: { code: 1 } } });
    expect(result(undefined)).toMatchObject({ output: { type: 'json', value: null } });
  });
});
