import { fixtureTexts } from '@compaction/bench-kit/fixture-texts';

/**
 * A mixed corpus of about `bytes` UTF-8 bytes: the recorded sessions' texts —
 * prose, tool inputs (JSON) and tool outputs (code, shell output) — in file
 * order, repeated from the start until the size is reached (the fixtures hold
 * ~1 MB of text). Returned as pieces, one fixture text each (the last one cut).
 */
export function mixedCorpus(bytes: number): string[] {
  const texts = fixtureTexts().map((piece) => piece.text);
  const pieces: string[] = [];
  let total = 0;
  for (let index = 0; total < bytes; index += 1) {
    const text = texts[index % texts.length]!;
    const size = Buffer.byteLength(text);
    if (total + size <= bytes) {
      pieces.push(text);
      total += size;
      continue;
    }
    // The last piece: cut to fit, on a character boundary.
    let cut = text.slice(0, bytes - total);
    while (Buffer.byteLength(cut) > bytes - total) cut = cut.slice(0, -1);
    if (cut) pieces.push(cut);
    break;
  }
  return pieces;
}

/**
 * `count` short strings (8–200 characters, ~100 on average) cut from the
 * fixture texts at spread positions: the size of chat messages, titles and
 * tool arguments. Deterministic.
 */
export function shortStrings(count: number): string[] {
  const joined = fixtureTexts()
    .map((piece) => piece.text)
    .join('\n');
  return Array.from({ length: count }, (_, index) => {
    const length = 8 + ((index * 37) % 193);
    const start = (index * 7_919) % (joined.length - length);
    return joined.slice(start, start + length);
  });
}

/**
 * `count` message-sized texts (1,000 characters, ~250 tokens): consecutive,
 * non-overlapping slices of the fixture texts, so no text repeats (a tokenizer
 * cache sees each once). Wraps around when the fixtures run out.
 */
export function messageTexts(count: number): string[] {
  const joined = fixtureTexts()
    .map((piece) => piece.text)
    .join('\n');
  return Array.from({ length: count }, (_, index) => {
    const start = (index * 1_000) % (joined.length - 1_000);
    return joined.slice(start, start + 1_000);
  });
}
