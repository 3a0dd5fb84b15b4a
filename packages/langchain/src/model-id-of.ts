/** The model id of a LangChain chat model (`model`, `modelName` or `model_name`), if it has one. */
export function modelIdOf(model: unknown): string | undefined {
  if (typeof model !== 'object' || model === null) return undefined;
  const fields = model as { model?: unknown; modelName?: unknown; model_name?: unknown };
  for (const value of [fields.model, fields.modelName, fields.model_name]) {
    if (typeof value === 'string' && value) return value;
  }
  return undefined;
}
