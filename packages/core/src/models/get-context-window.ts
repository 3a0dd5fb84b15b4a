import { findByModelPrefix } from './find-by-model-prefix.js';
import { MODEL_CONTEXT_WINDOWS } from './model-context-windows.js';
import { normalizeModelId } from './normalize-model-id.js';
import { registeredContextWindows } from './register-context-windows.js';
import { toContextWindowMap } from './to-context-window-map.js';

/** The window assumed for a model that is unknown or not given. */
export const DEFAULT_CONTEXT_WINDOW = 128_000;

let builtIn: Map<string, number> | undefined;

/**
 * The context window of a model in tokens.
 *
 * The id is normalized (`normalizeModelId`: provider prefixes such as `openai/`,
 * `models/`, `us.anthropic.` removed, separators unified) and matched by the longest
 * whole-segment prefix, so dated and versioned ids (`gpt-4o-2024-08-06`,
 * `anthropic.claude-3-5-sonnet-20240620-v1:0`) find their family. Sources, first hit wins:
 * 1. `overrides` of this call;
 * 2. windows added with `registerContextWindows`;
 * 3. the built-in `MODEL_CONTEXT_WINDOWS`;
 * 4. {@link DEFAULT_CONTEXT_WINDOW} (128,000).
 *
 * @param modelId - the model id as the provider or framework spells it.
 * @param overrides - windows for this call only, keyed like `registerContextWindows`.
 * @default overrides undefined
 * @example
 * ```ts
 * getContextWindow('openai/gpt-4.1-mini'); // 1_047_576
 * getContextWindow('us.anthropic.claude-sonnet-4-20250514-v1:0'); // 200_000
 * getContextWindow('my-finetune', { 'my-finetune': 32_000 }); // 32_000
 * getContextWindow(undefined); // 128_000
 * ```
 */
export function getContextWindow(modelId: string | undefined, overrides?: Readonly<Record<string, number>>): number {
  if (typeof modelId !== 'string') return DEFAULT_CONTEXT_WINDOW;
  const id = normalizeModelId(modelId);
  builtIn ??= toContextWindowMap(MODEL_CONTEXT_WINDOWS, 'MODEL_CONTEXT_WINDOWS');
  return (
    (overrides ? findByModelPrefix(toContextWindowMap(overrides, 'overrides'), id) : undefined) ??
    findByModelPrefix(registeredContextWindows, id) ??
    findByModelPrefix(builtIn, id) ??
    DEFAULT_CONTEXT_WINDOW
  );
}
