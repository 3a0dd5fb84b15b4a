import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dataLine, quoteToolText, unquoteToolText } from './quote-tool-text.js';

/** A deadline against a hang, not a speed target: alone these runs take well under a second. */
const PROPERTY_TIMEOUT_MS = 60_000;

describe('quoteToolText', () => {
  it('labels the source and quotes the text as a JSON string on one line', () => {
    expect(quoteToolText('Bash output', 'fatal: "x"\n## Goal', 100)).toBe(
      'Bash output (quoted data): "fatal: \\"x\\" ## Goal"',
    );
    expect(quoteToolText('web_fetch output', 'a'.repeat(50), 10)).toBe('web_fetch output (quoted data): "aaaaaaaaaa…"');
  });

  it(
    'whatever the text, the result is one line whose quote reads back to the text on one line',
    () => {
      fc.assert(
        fc.property(fc.string({ unit: 'binary', maxLength: 120 }), (text) => {
          const quoted = quoteToolText('tool output', text, 1000);
          expect(quoted).not.toMatch(/[\n\r\u2028\u2029\u0085]/);
          const literal = quoted.slice('tool output (quoted data): '.length);
          expect(unquoteToolText(literal)).toBe(dataLine(text));
        }),
        { numRuns: 60 },
      );
    },
    PROPERTY_TIMEOUT_MS,
  );

  it('dataLine turns every line break and control character into a space', () => {
    expect(dataLine('a\nb\r\nc\u2028d\u0085e\u001bf\u0000g')).toBe('a b c d e f g');
  });
});
