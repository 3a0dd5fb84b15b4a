import { type TokenCounter, tiktokenCounter } from '@compaction/core';

let made = 0;

/**
 * A real token counter that remembers every text it was asked to count, in order.
 * Each has its own name, so it gets its own process-wide token cache.
 */
export function countingCounter(): TokenCounter & { readonly texts: string[] } {
  const inner = tiktokenCounter();
  const texts: string[] = [];
  made += 1;
  return {
    name: `${inner.name}-counting-${made}`,
    texts,
    countText(text) {
      texts.push(text);
      return inner.countText(text);
    },
  };
}
