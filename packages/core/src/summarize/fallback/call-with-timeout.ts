import { SummaryRejectedError } from '../../errors/summary-rejected-error.js';

/**
 * Runs `run` with a signal that aborts after `timeoutMs` milliseconds or when `parent`
 * aborts, and settles by then whatever `run` does: a call that ignores its signal is left
 * behind, never waited for. On the deadline the signal is aborted and the promise rejects
 * with a `SummaryRejectedError` of reason `timeout`; on the parent's abort it rejects with
 * the parent's reason. Every timer and listener is removed once it settles.
 *
 * @example
 * ```ts
 * const text = await callWithTimeout((signal) => summarizer.summarize({ ...request, signal }), 120_000, request.signal);
 * ```
 */
export async function callWithTimeout<T>(
  run: (signal: AbortSignal) => Promise<T>,
  timeoutMs: number,
  parent?: AbortSignal,
): Promise<T> {
  parent?.throwIfAborted();
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onParentAbort: (() => void) | undefined;
  const deadline = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => {
      const error = new SummaryRejectedError({
        reason: 'timeout',
        detail: `no answer within ${timeoutMs} ms (summaryTimeoutMs); the call was aborted`,
      });
      controller.abort(error);
      reject(error);
    }, timeoutMs);
    if (parent) {
      onParentAbort = () => {
        controller.abort(parent.reason);
        reject(parent.reason);
      };
      parent.addEventListener('abort', onParentAbort, { once: true });
    }
  });
  try {
    return await Promise.race([Promise.resolve().then(() => run(controller.signal)), deadline]);
  } finally {
    clearTimeout(timer);
    if (parent && onParentAbort) parent.removeEventListener('abort', onParentAbort);
  }
}
