import { isContextOverflowError } from './is-context-overflow-error.js';

/**
 * The decision after a failed model call: true when `error` is a context overflow
 * and the emergency compaction `recover` made room (a session's
 * `recoverFromOverflow`), so the caller calls the model once more with the new
 * context. Any other error is false without running `recover`; an error `recover`
 * throws (an abort) surfaces. A hook that only answers "retry?" (Mastra's
 * `processAPIError`) uses this alone; one that makes the call itself uses
 * {@link retryOnOverflow}.
 *
 * @example
 * ```ts
 * if (await shouldRetryOnOverflow(error, (overflow) => session.recoverFromOverflow(overflow, { signal }))) {
 *   return { retry: true };
 * }
 * ```
 */
export async function shouldRetryOnOverflow(
  error: unknown,
  recover: (error: unknown) => PromiseLike<boolean>,
): Promise<boolean> {
  if (!isContextOverflowError(error)) return false;
  return (await recover(error)) === true;
}
