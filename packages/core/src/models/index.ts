export { DEFAULT_CONTEXT_WINDOW, getContextWindow } from './get-context-window.js';
export { MODEL_CONTEXT_WINDOWS } from './model-context-windows.js';
export { normalizeModelId } from './normalize-model-id.js';
export { clearRegisteredContextWindows, registerContextWindows } from './register-context-windows.js';
export {
  GUESSED_CONTEXT_WINDOW_WARNING,
  isKnownModel,
  warnGuessedContextWindow,
} from './warn-guessed-context-window.js';
