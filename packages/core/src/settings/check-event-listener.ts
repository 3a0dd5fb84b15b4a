import { InvalidSettingsError } from '../errors/invalid-settings-error.js';
import { describeValue } from './check-option-keys.js';

/**
 * Checks the arguments of a session's `on(listener)`: a function `(event) =>
 * void` first, which hears every event and filters by `event.type` (arguments
 * after it are ignored, as `[fn].forEach(session.on)` passes an index and the
 * array). The EventEmitter habit `on('compaction:end', fn)`, or a first argument
 * that is not a function, throws {@link InvalidSettingsError} (setting
 * `listener`) at the call, with the filtered form to write instead; otherwise
 * such a listener would be kept and never called.
 *
 * @param args - The arguments `on` received.
 * @param where - How the subscribing method reads, for the message.
 * @default where 'on'
 * @returns The listener.
 * @example
 * ```ts
 * on(...args: unknown[]) { return events.on(checkEventListener(args)); }
 * ```
 */
export function checkEventListener<L extends (event: never) => unknown>(args: readonly unknown[], where = 'on'): L {
  const [first, second] = args;
  // A listener first is a subscription, whatever follows (`[fn].forEach(session.on)` passes an index and the array).
  if (typeof first === 'function') return first as L;
  const type = typeof first === 'string' ? first : 'compaction:end';
  const got =
    args.length === 0
      ? 'no argument'
      : args.map((arg) => (typeof arg === 'function' ? 'a function' : describeValue(arg))).join(' and ');
  const named =
    typeof first === 'string' && typeof second === 'function'
      ? `; ${where}() has no event-name form: the listener hears every event`
      : '';
  throw new InvalidSettingsError({
    setting: 'listener',
    problem:
      `${where}(listener) takes one function (event) => void and filters by event.type, got ${got}${named}; ` +
      `write ${where}((event) => { if (event.type === ${JSON.stringify(type)}) … })`,
  });
}
