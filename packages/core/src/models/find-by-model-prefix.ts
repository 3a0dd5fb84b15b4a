/**
 * The value of the longest key of `windows` that is a whole-segment prefix of the
 * normalized `id` (`gpt-4o` matches `gpt-4o-mini-2024-07-18`; `gpt-4` does not match `gpt-4o`). Internal.
 */
export function findByModelPrefix(windows: ReadonlyMap<string, number>, id: string): number | undefined {
  if (windows.size === 0 || id === '') return undefined;
  const segments = id.split('-');
  for (let length = segments.length; length > 0; length -= 1) {
    const value = windows.get(segments.slice(0, length).join('-'));
    if (value !== undefined) return value;
  }
  return undefined;
}
