import { CompactionError, hasMarker } from './compaction-error.js';

const marker = Symbol.for('compaction.error.invalid-settings');

/** A setting is out of range or inconsistent with another. Thrown at construction. */
export class InvalidSettingsError extends CompactionError {
  readonly [marker] = true;
  /** The setting at fault. */
  readonly setting: string;

  constructor({ setting, problem }: { setting: string; problem: string }) {
    super('InvalidSettingsError', `setting "${setting}": ${problem}`);
    this.setting = setting;
  }

  static override isInstance(error: unknown): error is InvalidSettingsError {
    return hasMarker(error, marker);
  }
}
