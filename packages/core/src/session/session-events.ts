import type { CompactionEvent } from './types.js';

/** The session's event fan-out. */
export type SessionEvents = {
  /** Sends `event` to every listener; a listener that throws is skipped, never breaks the caller. */
  emit(event: CompactionEvent): void;
  /** Subscribes; returns the unsubscribe function. */
  on(listener: (event: CompactionEvent) => void): () => void;
};

/** Listeners added with `on`, plus the session's `onEvent` option (always called last). */
export function createSessionEvents(onEvent?: (event: CompactionEvent) => void): SessionEvents {
  const listeners = new Set<(event: CompactionEvent) => void>();
  return {
    emit(event) {
      for (const listener of [...listeners, ...(onEvent ? [onEvent] : [])]) {
        try {
          listener(event);
        } catch {
          // A listener's failure must not break compaction or the agent.
        }
      }
    },
    on(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
