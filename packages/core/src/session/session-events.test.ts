import { describe, expect, it } from 'vitest';
import { createSessionEvents } from './session-events.js';
import type { CompactionEvent } from './types.js';

const start: CompactionEvent = { type: 'compaction:start', sessionId: 's', trigger: 'auto', messages: 1, tokens: 2 };

describe('createSessionEvents', () => {
  it('calls every listener, then onEvent; a throwing listener never stops the others or the caller', () => {
    const seen: string[] = [];
    const events = createSessionEvents(() => seen.push('onEvent'));
    events.on(() => {
      seen.push('first');
      throw new Error('listener bug');
    });
    events.on(() => seen.push('second'));
    expect(() => events.emit(start)).not.toThrow();
    expect(seen).toEqual(['first', 'second', 'onEvent']);
  });

  it('unsubscribes', () => {
    const seen: CompactionEvent[] = [];
    const events = createSessionEvents();
    const off = events.on((event) => seen.push(event));
    events.emit(start);
    off();
    events.emit(start);
    expect(seen).toHaveLength(1);
  });
});
