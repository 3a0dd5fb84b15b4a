import { InvalidSettingsError } from '../errors/invalid-settings-error.js';
import { normalizeModelId } from './normalize-model-id.js';

/**
 * Validates a `{ modelIdPrefix: tokens }` record and returns it keyed by normalized id.
 * Internal to `models/`. Later keys win when two normalize to the same id.
 */
export function toContextWindowMap(windows: Readonly<Record<string, number>>, setting: string): Map<string, number> {
  const map = new Map<string, number>();
  if (typeof windows !== 'object' || windows === null) {
    throw new InvalidSettingsError({ setting, problem: 'must be an object of model id → context window tokens' });
  }
  for (const [modelId, tokens] of Object.entries(windows)) {
    const key = normalizeModelId(modelId);
    if (key === '') {
      throw new InvalidSettingsError({ setting, problem: `model id ${JSON.stringify(modelId)} is empty` });
    }
    if (!Number.isSafeInteger(tokens) || tokens <= 0) {
      throw new InvalidSettingsError({
        setting: `${setting}[${JSON.stringify(modelId)}]`,
        problem: `must be a positive integer number of tokens, got ${tokens}`,
      });
    }
    map.set(key, tokens);
  }
  return map;
}
