/**
 * `/compact [focus]` typed in the input: `{ focus }` (undefined focus without one),
 * or undefined when the text is a message for the model. `/compacted` is a message.
 */
export function parseCompactCommand(text: string): { focus: string | undefined } | undefined {
  const match = /^\s*\/compact(?:\s+([\s\S]*))?$/.exec(text);
  if (!match) return undefined;
  const focus = match[1]?.trim();
  return { focus: focus ? focus : undefined };
}
