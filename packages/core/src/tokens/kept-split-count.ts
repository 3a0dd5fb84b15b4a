/**
 * What a gpt-tokenizer 4 encoding (`GptEncoding`) holds in its field
 * `bytePairEncodingCoreProcessor` (TypeScript-private, a plain property at run time):
 * the pre-split regex and the two lookups its own `countNative` makes of each piece.
 */
type BytePairProcessor = {
  tokenSplitRegex: RegExp;
  getBpeRankFromString(piece: string): number | undefined;
  bytePairEncode(piece: string): readonly number[];
};

/**
 * A count equal to gpt-tokenizer's `countTokens(text, { disallowedSpecial: new Set() })`
 * (special-token text counted as ordinary text) that splits with one regex kept for the
 * process instead of `String.prototype.matchAll`, or undefined when `encoding` does not
 * hold what it reads (another gpt-tokenizer layout: the caller keeps `countTokens`).
 *
 * Why: `matchAll` clones its regex on every call, and a clone's compiled code comes only
 * from V8's regexp compilation cache, which two major GCs empty. The encoding's pre-split
 * regex (Unicode property classes) then compiles again on the next count: 5–8 ms, once a
 * count after every second mark-compact — on a server whose other conversations allocate,
 * that is nearly every count that comes after a pause (LangChain's new run at 10,000
 * messages: 9–11 ms of our hook with another thread's runs in between, 2 ms without).
 * A regex object kept alive keeps its compiled code across GCs.
 *
 * The pieces and what each counts are exactly `countNative`'s: every match of the split
 * regex, one token when the piece is a token of its own, else its byte-pair encoding's
 * length (gpt-tokenizer's merge cache included); an empty match advances one code point,
 * as `matchAll` does. Synchronous, so the kept regex's `lastIndex` is never shared.
 */
export function keptSplitCount(encoding: unknown): ((text: string) => number) | undefined {
  const processor = bytePairProcessorOf(encoding);
  if (!processor) return undefined;
  const source = processor.tokenSplitRegex;
  const split = new RegExp(source.source, source.flags.includes('g') ? source.flags : `${source.flags}g`);
  const unicode = /[uv]/.test(split.flags);
  return (text) => {
    let tokens = 0;
    split.lastIndex = 0;
    for (let match = split.exec(text); match !== null; match = split.exec(text)) {
      const piece = match[0];
      tokens += processor.getBpeRankFromString(piece) !== undefined ? 1 : processor.bytePairEncode(piece).length;
      if (piece.length === 0) split.lastIndex = advance(text, split.lastIndex, unicode);
    }
    return tokens;
  };
}

function bytePairProcessorOf(encoding: unknown): BytePairProcessor | undefined {
  if (typeof encoding !== 'object' || encoding === null) return undefined;
  const processor = (encoding as { bytePairEncodingCoreProcessor?: unknown }).bytePairEncodingCoreProcessor;
  if (typeof processor !== 'object' || processor === null) return undefined;
  const { tokenSplitRegex, getBpeRankFromString, bytePairEncode } = processor as Partial<BytePairProcessor>;
  if (!(tokenSplitRegex instanceof RegExp)) return undefined;
  if (typeof getBpeRankFromString !== 'function' || typeof bytePairEncode !== 'function') return undefined;
  return processor as BytePairProcessor;
}

/** `AdvanceStringIndex`: one code unit, or one code point under the `u`/`v` flag. */
function advance(text: string, index: number, unicode: boolean): number {
  if (!unicode || index + 1 >= text.length) return index + 1;
  const code = text.charCodeAt(index);
  if (code < 0xd800 || code > 0xdbff) return index + 1;
  const next = text.charCodeAt(index + 1);
  return next >= 0xdc00 && next <= 0xdfff ? index + 2 : index + 1;
}
