/** Runs tasks one at a time per key; see {@link serialQueue}. */
export type SerialQueue = <T>(key: string, task: () => Promise<T>) => Promise<T>;

/**
 * A per-key promise chain: tasks with the same key run one after another in
 * call order (a failed task does not stop the next); different keys run freely.
 * A key is forgotten once its chain is idle.
 */
export function serialQueue(): SerialQueue {
  const tails = new Map<string, Promise<unknown>>();
  return (key, task) => {
    const previous = tails.get(key) ?? Promise.resolve();
    const result = previous.then(task);
    const tail = result.then(
      () => undefined,
      () => undefined,
    );
    tails.set(key, tail);
    void tail.then(() => {
      if (tails.get(key) === tail) tails.delete(key);
    });
    return result;
  };
}
