import { shouldRetryOnOverflow } from './should-retry-on-overflow.js';

/** What {@link retryOnOverflow} runs: the call, the emergency compaction, the call again. */
export type RetryOnOverflowOptions<T> = {
  /** The model call with the prepared context. */
  call: () => T | PromiseLike<T>;
  /**
   * The emergency compaction after an overflow; true when the context shrank and a
   * retry can fit (a session's `recoverFromOverflow(error, { signal })`).
   */
  recover: (error: unknown) => PromiseLike<boolean>;
  /** The model call again, with the context `recover` left. Its errors, a second overflow too, surface. */
  retry: () => T | PromiseLike<T>;
};

/**
 * Calls the model; on a context-overflow error runs the emergency compaction once
 * and, when it made room, calls once more with the new context. Never more than
 * one retry: a second overflow, any other error, and an overflow `recover` could
 * not shrink surface as they are (the original error, not a wrapped one). What the
 * adapters' middleware wrap around every model call.
 *
 * @example
 * ```ts
 * const response = await retryOnOverflow({
 *   call: () => handler({ ...request, messages }),
 *   recover: (error) => session.recoverFromOverflow(error, { signal }),
 *   retry: async () => handler({ ...request, messages: convert(await session.context()) }),
 * });
 * ```
 */
export async function retryOnOverflow<T>(options: RetryOnOverflowOptions<T>): Promise<T> {
  try {
    return await options.call();
  } catch (error) {
    if (!(await shouldRetryOnOverflow(error, options.recover))) throw error;
    return options.retry();
  }
}
