/** The input limit a LangChain model declares in its profile (`profile.maxInputTokens`), if any. */
export function profileContextWindow(model: unknown): number | undefined {
  if (typeof model !== 'object' || model === null) return undefined;
  try {
    const limit = (model as { profile?: { maxInputTokens?: unknown } }).profile?.maxInputTokens;
    return typeof limit === 'number' && Number.isInteger(limit) && limit > 0 ? limit : undefined;
  } catch {
    return undefined;
  }
}
