/**
 * Stable ids for frameworks whose messages carry none (the AI SDK prompt):
 * each id hashes the message's content together with the id before it, so an
 * id names the whole conversation up to and including that message. The same
 * history re-sent on the next request gets the same ids; an edited message
 * changes its id and every id after it.
 *
 * The hash is a pure-JS 64-bit string hash over the canonical JSON (sorted keys),
 * so it runs anywhere (Node, edge runtimes, browsers) and across processes.
 */

/**
 * A fast 64-bit non-cryptographic hash (cyrb53-style, two 32-bit lanes) of a
 * string, as 16 hex digits. Not for security: for recognizing content.
 */
export function hashString(text: string, seed = ''): string {
  const input = seed ? `${seed}\n${text}` : text;
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let index = 0; index < input.length; index += 1) {
    const code = input.charCodeAt(index);
    h1 = Math.imul(h1 ^ code, 2654435761);
    h2 = Math.imul(h2 ^ code, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507);
  h1 ^= Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507);
  h2 ^= Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (h2 >>> 0).toString(16).padStart(8, '0') + (h1 >>> 0).toString(16).padStart(8, '0');
}

/** JSON with object keys sorted, so equal content always serializes the same. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) => {
    if (item && typeof item === 'object' && !Array.isArray(item) && !(item instanceof Uint8Array)) {
      const sorted: Record<string, unknown> = {};
      for (const key of Object.keys(item).sort()) sorted[key] = (item as Record<string, unknown>)[key];
      return sorted;
    }
    if (item instanceof Uint8Array)
      return { $bytes: hashString(Array.from(item, (b) => String.fromCharCode(b)).join('')) };
    return item;
  });
}

/**
 * Content-derived ids for a list of message contents: `ids[i]` depends on
 * `contents[0..i]`. `prefix` namespaces them (e.g. `m_`).
 */
export function chainedContentIds(contents: readonly unknown[], prefix = 'm_'): string[] {
  const ids: string[] = [];
  let previous = '';
  for (const content of contents) {
    previous = hashString(canonicalJson(content), previous);
    ids.push(`${prefix}${previous}`);
  }
  return ids;
}
