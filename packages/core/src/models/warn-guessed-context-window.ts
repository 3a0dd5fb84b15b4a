import { findByModelPrefix } from './find-by-model-prefix.js';
import { DEFAULT_CONTEXT_WINDOW, getContextWindow } from './get-context-window.js';
import { MODEL_CONTEXT_WINDOWS } from './model-context-windows.js';
import { normalizeModelId } from './normalize-model-id.js';
import { registeredContextWindows } from './register-context-windows.js';
import { toContextWindowMap } from './to-context-window-map.js';

/** The code of the warning {@link warnGuessedContextWindow} emits. */
export const GUESSED_CONTEXT_WINDOW_WARNING = 'COMPACTION_GUESSED_CONTEXT_WINDOW';

const warned = new Set<string>();
let builtIn: Map<string, number> | undefined;

/** Whether the window of `modelId` is known (registered or built in), not the 128K guess. */
export function isKnownModel(modelId: string): boolean {
  const id = normalizeModelId(modelId);
  builtIn ??= toContextWindowMap(MODEL_CONTEXT_WINDOWS, 'MODEL_CONTEXT_WINDOWS');
  return findByModelPrefix(registeredContextWindows, id) !== undefined || findByModelPrefix(builtIn, id) !== undefined;
}

/**
 * When the window of `modelId` is not known, emits a process warning (once per
 * model id and process) saying the window is a guess and how to set it. Returns
 * whether the window is a guess. Sessions call it when no `contextWindow` is set.
 */
export function warnGuessedContextWindow(modelId: string): boolean {
  if (isKnownModel(modelId)) return false;
  if (!warned.has(modelId)) {
    warned.add(modelId);
    process.emitWarning(
      `@compaction: the context window of model "${modelId}" is not known; assuming ${getContextWindow(modelId).toLocaleString('en-US')} tokens (DEFAULT_CONTEXT_WINDOW = ${DEFAULT_CONTEXT_WINDOW}). Set settings.contextWindow, or registerContextWindows({ '${modelId}': tokens }).`,
      { type: 'CompactionWarning', code: GUESSED_CONTEXT_WINDOW_WARNING },
    );
  }
  return true;
}
